"""Property tests: whole games of random legal play over every preset and player count (and
the options the presets leave off), checking the invariants after every action.

Each example is a complete game (up to 19 deals), so the example counts are small; every
(preset, players) pair is its own test so none is left to chance.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.common.cards import card_code
from games.common.engine import Event
from games.ohhell.decks import build_deck
from games.ohhell.game import OhHell
from games.ohhell.presets import PRESETS
from games.ohhell.rules import Rules, make_rules
from tests.games.visible import MomentStrings, strings

COMBOS = [
    (preset, n)
    for preset in PRESETS
    for n in range(make_rules(preset).player_range()[0], make_rules(preset).player_range()[1] + 1)
]

#: options no preset uses, each with a player count it allows
VARIANTS: list[tuple[dict[str, Any], int]] = [
    ({"preset": "oh-shit", "joker": True}, 4),  # no-trump jokers after an ace turn-up, revokes
    ({"preset": "oh-shit", "joker": True, "revokes": "prevent", "trump": "rotate:NT,H"}, 3),
    ({"preset": "oh-shit", "deck": "pack63"}, 6),
    ({"preset": "classic", "deck": "australian"}, 5),
    ({"preset": "classic", "deck": "australian", "scoring": "square"}, 6),
    ({"preset": "bowers", "joker": True, "scoring": "5+10", "devils_bridge": True}, 4),
    ({"preset": "classic", "bidding": "simultaneous", "hook": False, "devils_bridge": True}, 3),
    ({"preset": "spades", "trump": "turn-up", "first_lead": "dealer", "revokes": "penalize"}, 8),
    ({"preset": "oh-shit", "sequence": "fixed", "fixed_hands": "1,1", "bidding": "sequential", "hook": True}, 5),
]

PROFILE = settings(max_examples=2, suppress_health_check=[HealthCheck.too_slow], deadline=None)


class Checker:
    """Plays one game through the checked API and asserts the invariants as it goes."""

    def __init__(self, rules: Rules, n: int, seed: int) -> None:
        self.rules = rules
        self.n = n
        self.seed = seed
        self.game = OhHell.new(rules, n, seed)
        self.events: list[Event] = list(self.game.start_events)
        self.deck_codes = Counter(card_code(c) for c in build_deck(rules.deck_for(n), n))  # 6-7: pack63
        self.played: list[str] = []
        self.trick_count = 0
        self.moment: MomentStrings | None = None

    def run(self, rng: random.Random) -> None:
        game = self.game
        self.check_state([])
        while not game.is_over:
            to_act = game.to_act()
            assert to_act, "someone must be able to act until the game is over"
            seat = rng.choice(to_act)
            legal = game.legal_actions(seat)
            assert legal, "a legal action exists until the game is over"
            for other in range(self.n):
                if other not in to_act:
                    assert game.legal_actions(other) == []
            if seat == game.current_seat():
                proper = game.view(seat)["proper"]
                fast = [game.id_to_action(a) for a in game.fast_legal()]
                if game.view(None)["devils_bridge"] and game.view(None)["phase"] == "playing":
                    assert len(fast) == 1
                else:
                    assert sorted(map(json.dumps, fast)) == sorted(map(json.dumps, proper))
            _, events = game.apply(seat, rng.choice(legal))
            self.events += events
            self.check_state(events)
        self.check_end()

    def check_state(self, events: list[Event]) -> None:
        game = self.game
        for e in events:
            if e.kind == "hand_dealt":
                assert e.seat is not None
            else:
                assert e.seat is None
            if e.kind == "deal_started":
                self.played = []
                self.trick_count = 0
            elif e.kind == "bid_placed":
                assert "bid" not in e.data and self.rules.bidding == "simultaneous"
            elif e.kind == "bid":
                assert self.rules.bidding == "sequential"
            elif e.kind == "bids_revealed":
                if self.rules.hook:
                    assert e.data["total"] != e.data["tricks"], "the hook was broken"
            elif e.kind == "card_played":
                self.played.append(e.data["card"])
            elif e.kind == "trick_won":
                self.trick_count += 1
                winners = [s for s, _, _ in e.data["cards"] if s == e.data["seat"]]
                assert len(winners) == 1, "one winner per trick"
            elif e.kind == "deal_scored":
                h = e.data
                assert sum(t for t in h["tricks"] if t is not None) == h["hand_size"] == self.trick_count
        if game.is_over:
            return
        pub = game.view(None)
        np = len(pub["players"])
        # cards conserved: hands + played this deal = the dealt cards, all from the deck, no repeats
        hands = {s: game.hand(s) for s in range(self.n)}
        in_hands = [c for s in range(self.n) for c in hands[s]]
        everything = Counter(in_hands + self.played)
        assert sum(everything.values()) == np * pub["hand_size"]
        assert all(v == 1 and self.deck_codes[c] >= 1 for c, v in everything.items())
        assert pub["hand_counts"] == [len(hands[s]) for s in range(self.n)]
        # views: nobody sees a hidden card or an unrevealed bid
        public_turnup = {pub["turnup"]} if pub["turnup_is_dealers"] else set()
        assert "hand" not in pub
        if pub["last_trick"] and pub["last_trick"]["deal"] != pub["deal"]:
            # the previous deal's last trick: the same cards are dealt again
            assert pub["last_trick"]["deal"] == pub["deal"] - 1
            self.strip_last_trick = True
        else:
            self.strip_last_trick = False
        moment = self.moment = MomentStrings(self.visible(pub), self.moment)
        assert not (moment.of_public() & (set(in_hands) - public_turnup))
        secret = pub["phase"] == "bidding" and self.rules.bidding == "simultaneous"
        for seat in range(self.n):
            v = game.view(seat)
            others = {c for s in range(self.n) if s != seat for c in hands[s]} - public_turnup
            seen = moment.of(self.visible(v))
            if pub["devils_bridge"]:
                assert not (seen & (set(hands[seat]) - public_turnup)), "own card in Devil's Bridge"
                assert v["hand"] == [] and v["others_cards"][seat] is None
            else:
                assert not (seen & others), "another seat's card is visible"
                assert v["hand"] == hands[seat]
            if secret:
                assert v["bids"] == [None] * self.n and v["bid_total"] == 0
        if secret:
            assert pub["bids"] == [None] * self.n

    def visible(self, view: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in view.items() if k != "last_trick" or not self.strip_last_trick}

    def check_end(self) -> None:
        game = self.game
        rules, n = self.rules, self.n
        assert game.to_act() == [] and all(game.legal_actions(s) == [] for s in range(n))
        # totals are the sum of the deal scores (play-off deals decide places, not totals)
        for s in range(n):
            assert game.totals[s] == sum(h["scores"][s] for h in game.history if h["kind"] != "playoff")
        stats = game.stats()
        for s in range(n):
            counted = [h for h in game.history if h["kind"] != "playoff"]
            assert stats[s]["tricks"] == sum(h["tricks"][s] for h in counted)
            assert stats[s]["deals"] == len(counted)
            assert stats[s]["exact"] >= stats[s]["exact_winning"]
            assert stats[s]["made_or_exceeded"] >= stats[s]["exact"]
            assert stats[s]["revokes"] >= len([h for h in counted if s in h["revoked"]])
        if rules.revokes == "prevent":
            assert all(st["revokes"] == 0 for st in stats)
        # standings: best first, ranks shared only by identical figures
        standings = game.standings()
        assert [s["seat"] for s in standings] != [] and sorted(s["seat"] for s in standings) == list(range(n))
        totals = [s["total"] for s in standings]
        assert totals == sorted(totals, reverse=True)
        if rules.ties == "extra-hand" and game.record.extra_deals < rules.max_tie_deals:
            assert sum(1 for s in standings if s["rank"] == 1) == 1
        assert self.events[-1].kind == "game_over" and self.events[-1].data["standings"] == standings
        # scheduled deals all played, in order
        sizes = [h["hand_size"] for h in game.history if h["kind"] == "normal"]
        assert sizes == rules.hand_sizes(n)
        # replay gives the same state and the same events
        replayed = OhHell.new(rules, n, self.seed)
        events = list(replayed.start_events)
        for seat, action in game.log:  # a log names Devil's Bridge cards: replay's own path
            events += replayed._do_checked(seat, action, from_log=True)[1]
        assert events == self.events
        for seat in (None, *range(n)):
            assert replayed.view(seat) == game.view(seat)
        restored = OhHell.from_json(json.loads(json.dumps(game.to_json())))
        assert restored.view(None) == game.view(None) and restored.log == game.log
        # the count the bot reads on every move, kept without building the log
        assert game.action_count == replayed.action_count == restored.action_count == len(game.log)


@pytest.mark.parametrize(("preset", "n"), COMBOS)
@PROFILE
@given(seed=st.integers(0, 2**31), play_seed=st.integers(0, 2**31))
def test_random_games_every_preset_and_player_count(preset: str, n: int, seed: int, play_seed: int) -> None:
    Checker(make_rules(preset), n, seed).run(random.Random(play_seed))


@pytest.mark.parametrize(("options", "n"), VARIANTS, ids=lambda x: ",".join(f"{k}={v}" for k, v in x.items())
                         if isinstance(x, dict) else str(x))  # fmt: skip
@PROFILE
@given(seed=st.integers(0, 2**31), play_seed=st.integers(0, 2**31))
def test_random_games_other_options(options: dict[str, Any], n: int, seed: int, play_seed: int) -> None:
    options = dict(options)
    rules = make_rules(options.pop("preset"), **options)
    Checker(rules, n, seed).run(random.Random(play_seed))


@settings(max_examples=6, deadline=None)
@given(
    combo=st.sampled_from(COMBOS),
    seed=st.integers(0, 2**31),
    play_seed=st.integers(0, 2**31),
    churn=st.integers(0, 2**31),
)
def test_same_seed_same_game_whatever_the_global_random(combo: tuple[str, int], seed: int, play_seed: int,
                                                        churn: int) -> None:  # fmt: skip
    preset, n = combo
    rules = make_rules(preset)
    logs = []
    for attempt in range(2):
        random.seed(churn + attempt)
        game = OhHell.new(rules, n, seed)
        chooser = random.Random(play_seed)
        while not game.is_over:
            random.random()  # churn the global generator between every action
            random.shuffle(list(range(10)))
            seat = chooser.choice(game.to_act())
            game.apply(seat, chooser.choice(game.legal_actions(seat)))
        logs.append((game.log, game.totals, [h["hand_size"] for h in game.history], game.view(0)))
    assert logs[0] == logs[1]


ALL_RULES = [(make_rules(p), n) for p, n in COMBOS] + [
    (make_rules(o["preset"], **{k: v for k, v in o.items() if k != "preset"}), n) for o, n in VARIANTS
]


@settings(max_examples=15, deadline=None)
@given(combo=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**31))
def test_playout_equals_stepping_and_replay(combo: tuple[Rules, int], seed: int) -> None:
    rules, n = combo
    a, b = OhHell.new(rules, n, seed), OhHell.new(rules, n, seed)
    a.playout(random.Random(seed))
    rng = random.Random(seed)
    legal = b.fast_legal()
    while legal:
        legal = b.fast_apply(rng.choice(legal))
    assert a.log == b.log and a.view(None) == b.view(None)
    assert OhHell.replay(rules, n, seed, a.log).view(None) == a.view(None)


def test_the_moments_strings_are_each_views_own() -> None:
    """tests.games.visible.MomentStrings, which the secrecy checks above read, finds exactly what
    walking each view finds (the first 150 states of a game of seven and of a Devil's Bridge game)."""
    for rules, n in ((make_rules("oh-shit"), 7), (make_rules("classic", devils_bridge=True), 3)):
        game = OhHell.new(rules, n, 11)
        rng = random.Random(11)
        moment: MomentStrings | None = None
        for _ in range(150):
            moment = MomentStrings(game.view(None), moment)
            assert moment.of_public() == strings(game.view(None))
            for seat in range(n):
                assert moment.of(game.view(seat)) == strings(game.view(seat))
            seat = game.to_act()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
