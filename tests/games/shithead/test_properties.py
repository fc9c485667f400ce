"""Property tests over every option: whole games played to the end, invariants at every step."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.common.cards import card_code
from games.common.engine import IllegalAction, RulesError
from games.shithead.ai import RandomPlayer, SensiblePlayer
from games.shithead.contracts import ShitheadAction, ShitheadView
from games.shithead.deal import full_deck
from games.shithead.game import Shithead
from games.shithead.rules import OPTIONS, Rules, make_rules
from tests.games.visible import MomentStrings, strings

OPTION_VALUES = {o.name: o.values for o in OPTIONS}


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    chosen = {name: draw(st.sampled_from(values)) for name, values in OPTION_VALUES.items()}
    try:
        return make_rules("pagat", **chosen)
    except RulesError:
        assume(False)
        raise


class BiasedRandom:
    """Random, but playing rather than picking up 4 times in 5, so games end in reasonable time."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: ShitheadView) -> ShitheadAction:
        plays = [a for a in view["legal"] if a["type"] not in ("pickup", "ready")]
        if plays and self.rng.random() < 0.8:
            return self.rng.choice(plays)
        return self.rng.choice(view["legal"])


POLICIES = (SensiblePlayer, BiasedRandom)


RECENT = frozenset({"recent"})


def check_invariants(game: Shithead, before: MomentStrings | None = None) -> MomentStrings:
    """Cards conserved, and no view shows what its reader may not see. ``before``: the moment of
    the last check of the same game, whose strings are borrowed for values unchanged since
    (:class:`MomentStrings`). Returns this moment, for the next check."""
    everything = [c for zone in (game.hand, game.up) for cards in zone for c in cards]
    everything += [c for cards in game.down for c in cards if c is not None]
    everything += game.pile + game.burnt + game.stock
    assert sorted(everything) == sorted(full_deck(game.rules)), "cards are conserved"

    hidden_down = {card_code(c) for cards in game.down for c in cards if c is not None}
    hidden_stock = {card_code(c) for c in game.stock}
    public = game.view(None)
    assert "hand" not in public and "legal" not in public
    json.dumps(public)
    moment = MomentStrings(public, before)
    assert not moment.of_public() & (hidden_down | hidden_stock)
    all_hands = [{card_code(c) for c in h} for h in game.hand]
    assert not moment.of_public(RECENT) & set().union(*all_hands)
    for seat in range(game.seats):
        view = game.view(seat)
        json.dumps(view)
        assert sorted(view["hand"]) == sorted(all_hands[seat])
        assert view["seats"][seat]["hand_size"] == len(game.hand[seat])
        assert not moment.of(view) & (hidden_down | hidden_stock), "no face-down or stock card is shown"
        others = set().union(*(h for s, h in enumerate(all_hands) if s != seat))
        assert not moment.of(view, RECENT) & others, "no other hand is shown"
        assert (view["legal"] != []) == (seat in game.to_act())
    return moment


def play_out(game: Shithead, players: list[Any], check_every: int = 1) -> list[tuple[int, dict]]:
    steps = 0
    moment: MomentStrings | None = None
    while not game.is_over:
        to_act = game.to_act()
        assert to_act, "somebody can act until the end"
        seat = to_act[steps % len(to_act)]
        legal = game.legal_actions(seat)
        assert legal, "a legal action until the end"
        if steps % check_every == 0:
            moment = check_invariants(game, moment)
            waiting = [s for s in range(game.seats) if s not in to_act]
            if waiting:
                try:
                    game.check(waiting[0], legal[0])
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("a seat acted out of turn")
        action = players[seat].choose(game.view(seat))
        assert action in legal
        _, events = game.apply(seat, action)
        hidden = {card_code(c) for cards in game.down for c in cards if c is not None}
        hidden |= {card_code(c) for c in game.stock}
        for event in events:
            json.dumps(event.to_json())
            if event.seat is None:
                assert not strings(event.data) & hidden, f"public {event.kind} shows a hidden card"
                assert event.kind != "drew" or "cards" not in event.data
        steps += 1
        assert steps < 20000, "the game ends"
    check_invariants(game, moment)
    assert game.to_act() == [] and all(game.legal_actions(s) == [] for s in range(game.seats))
    return game.log


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=rule_sets(), data=st.data(), seed=st.integers(0, 2**31), mix=st.integers(0, 2**10))
def test_games_under_every_option_keep_their_invariants(rules: Rules, data: st.DataObject, seed: int, mix: int) -> None:
    low, high = rules.player_range()
    seats = data.draw(st.integers(low, min(high, 6)), label="seats")
    game = Shithead.new(rules, seats, seed)
    players = [POLICIES[(mix >> s) & 1](random.Random(seed + s)) for s in range(seats)]
    log = play_out(game, players, check_every=3)
    results = game.results()
    if rules.goal == "loser":
        assert sorted(results["order"]) == list(range(seats)) and results["loser"] == results["order"][-1]
    else:
        assert results["order"] == [results["winner"]] and results["loser"] is None

    replayed = Shithead.replay(rules, seats, seed, log)
    assert replayed.to_json() == game.to_json()
    assert replayed.view(None) == game.view(None) and replayed.results() == results
    restored = Shithead.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.to_json() == game.to_json() and restored.view(1) == game.view(1)


@settings(max_examples=25)
@given(rules=rule_sets(), seed=st.integers(0, 2**31), churn=st.integers(0, 1000))
def test_same_seed_same_game_whatever_the_global_random_does(rules: Rules, seed: int, churn: int) -> None:
    seats = rules.player_range()[1] if churn % 2 else 2

    def run() -> dict[str, Any]:
        game = Shithead.new(rules, seats, seed)
        players = [SensiblePlayer(random.Random(seed * 7 + s)) for s in range(seats)]
        for _ in range(60):
            if game.is_over:
                break
            random.random()  # the global generator moves between actions
            seat = game.to_act()[0]
            game.apply(seat, players[seat].choose(game.view(seat)))
        return game.to_json()

    random.seed(churn)
    first = run()
    random.seed(churn + 1)
    [random.random() for _ in range(churn)]
    assert run() == first


@settings(max_examples=40)
@given(rules=rule_sets(), seed=st.integers(0, 2**31))
def test_mid_game_json_resumes_the_same_game(rules: Rules, seed: int) -> None:
    game = Shithead.new(rules, 2, seed)
    players = [RandomPlayer(random.Random(seed)), SensiblePlayer(random.Random(seed + 1))]
    for _ in range(25):
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
    saved = json.loads(json.dumps(game.to_json()))
    restored = Shithead.from_json(saved)
    for seat in (None, 0, 1):
        assert restored.view(seat) == game.view(seat)
    assert restored.to_act() == game.to_act() and restored.log == game.log


def test_the_moments_strings_are_each_views_own() -> None:
    """tests.games.visible.MomentStrings, which the secrecy checks above read, finds exactly what
    walking each view finds, with and without the recent plays (every third state of two whole
    games of four, one with jokers and three packs, as the checks above take them)."""
    for rules in (make_rules("pagat"), make_rules("pagat", decks=3, jokers=6)):
        game = Shithead.new(rules, 4, 5)
        players = [SensiblePlayer(random.Random(5 + s)) for s in range(4)]
        moment: MomentStrings | None = None
        steps = 0
        while not game.is_over:
            if steps % 3 == 0:
                public = game.view(None)
                moment = MomentStrings(public, moment)
                assert moment.of_public() == strings(public)
                assert moment.of_public(RECENT) == strings(public, RECENT)
                for seat in range(4):
                    view = game.view(seat)
                    assert moment.of(view) == strings(view)
                    assert moment.of(view, RECENT) == strings(view, RECENT)
            seat = game.to_act()[steps % len(game.to_act())]
            game.apply(seat, players[seat].choose(game.view(seat)))
            steps += 1
        assert steps > 60
