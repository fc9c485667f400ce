"""Taking a card back (with the table's consent) and changing a secret bid are moves of the log:
random whole games with random take-backs and bid changes keep every invariant of the plain
random games (:mod:`tests.games.ohhell.test_game_properties`), replay to the same state and
events, and stand on the same state as the game without them (its effective log)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.common.engine import Event, IllegalAction
from games.ohhell.analysis import AnalysisConfig, deal_tasks
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from tests.games.ohhell.test_game_properties import Checker

CASES: list[tuple[dict[str, Any], int]] = [
    ({"preset": "classic"}, 4),
    ({"preset": "oh-shit"}, 5),  # simultaneous bids, revokes penalized
    ({"preset": "oh-shit", "joker": True}, 4),  # no-trump jokers named as suits
    ({"preset": "bowers", "devils_bridge": True}, 3),
    ({"preset": "spades"}, 3),
]


class UndoChecker(Checker):
    """Random play with take-backs asked after a fifth of the cards and bids changed often."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.counts = {"undo_done": 0, "undo_refused": 0, "undo_lapsed": 0, "changed": 0}

    def run(self, rng: random.Random) -> None:
        game = self.game
        self.check_state([])
        while not game.is_over:
            asking = [s for s in range(self.n) if "undo_ask" in game.undo_options(s)]
            request = game.undo_request()
            if asking:  # the card the take-back button names is the log's last card
                assert game.undo_card() == game.log[-1][1].get("card")
            if request is not None and rng.random() < 0.8:
                seat = rng.choice(request[2])
                answer = "undo_accept" if rng.random() < 0.8 else "undo_refuse"
                self.step(seat, {"type": answer})
                continue
            if asking and request is None and rng.random() < 0.2:
                self.step(asking[0], {"type": "undo_ask"})
                continue
            changers = [s for s in range(self.n) if game.may_change_bid(s)]
            if changers and rng.random() < 0.3:
                seat = rng.choice(changers)
                self.step(seat, {"type": "bid", "bid": rng.randrange(game.deal.hand_size + 1)})
                continue
            seat = rng.choice(game.to_act())
            self.step(seat, dict(rng.choice(game.legal_actions(seat))))
        self.check_end()
        # the game stands on its effective log: replayed alone it is the same game
        plain = OhHell.new(self.rules, self.n, self.seed)
        for seat, action in game.effective_log:
            plain._do_checked(seat, action, from_log=True)
        assert [plain.view(s) for s in (None, *range(self.n))] == [game.view(s) for s in (None, *range(self.n))]

    def step(self, seat: int, action: dict[str, Any]) -> None:
        count = self.game.action_count
        _, events = self.game.apply(seat, action)
        assert self.game.action_count == count + 1 == len(self.game.log)
        for e in events:
            if e.kind in self.counts:
                self.counts[e.kind] += 1
            if e.kind == "bid_placed" and e.data.get("changed"):
                self.counts["changed"] += 1
        self.events += events
        self.check_state(events)

    def check_state(self, events: list[Event]) -> None:
        for e in events:
            if e.kind == "undo_done":  # the card is back in the hand, no longer on the table
                assert self.played[-1] == e.data["card"]
                self.played.pop()
        super().check_state(events)


@pytest.mark.parametrize(("options", "n"), CASES, ids=lambda x: ",".join(f"{k}={v}" for k, v in x.items())
                         if isinstance(x, dict) else str(x))  # fmt: skip
@settings(max_examples=3, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(seed=st.integers(0, 2**31), play_seed=st.integers(0, 2**31))
def test_random_games_with_takebacks_replay_and_keep_invariants(
    options: dict[str, Any], n: int, seed: int, play_seed: int
) -> None:
    options = dict(options)
    rules = make_rules(options.pop("preset"), **options)
    checker = UndoChecker(rules, n, seed)
    checker.run(random.Random(play_seed))
    assert checker.counts["undo_done"] > 0 and checker.counts["undo_refused"] + checker.counts["undo_lapsed"] > 0
    if rules.bidding == "simultaneous":
        assert checker.counts["changed"] > 0


def _first_card(game: OhHell) -> int:
    """Bid through the first deal and play the first card; returns the seat that played it."""
    while game.phase != 1:  # BID
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    return seat


def test_take_back_needs_every_other_player_and_lapses_on_the_next_card() -> None:
    game = OhHell(make_rules("classic"), 4, seed=7)
    seat = _first_card(game)
    card = game.log[-1][1]["card"]  # type: ignore[typeddict-item]
    hand_after = game.hand(seat)
    others = [s for s in range(4) if s != seat]
    assert game.undo_options(seat) == ["undo_ask"] and game.undo_options(others[0]) == []
    with pytest.raises(IllegalAction):
        game.apply(others[0], {"type": "undo_ask"})  # not their card
    game.apply(seat, {"type": "undo_ask", "auto_accept": [others[2]]})  # a computer seat accepts at once
    assert game.undo_request() == (seat, card, others[:2])
    assert game.undo_options(seat) == ["undo_refuse"]  # (withdraw)
    with pytest.raises(IllegalAction):
        game.apply(seat, {"type": "undo_accept"})  # one's own request
    game.apply(others[0], {"type": "undo_accept"})
    assert card not in game.hand(seat)
    _, events = game.apply(others[1], {"type": "undo_accept"})
    assert [e.kind for e in events] == ["undo_answered", "undo_done"]
    assert (
        card in game.hand(seat) and game.to_act() == [seat] and game.hand(seat) == sorted_with(hand_after, card, game)
    )
    # a refusal ends it, and that card may not be asked again
    game.apply(seat, {"type": "play", "card": card})
    game.apply(seat, {"type": "undo_ask"})
    _, events = game.apply(others[1], {"type": "undo_refuse"})
    assert [e.kind for e in events] == ["undo_answered", "undo_refused"]
    assert game.undo_options(seat) == [] and game.undo_request() is None
    # the next card played ends a request (the log keeps it: request, then the lapse)
    nxt = game.to_act()[0]
    game.apply(nxt, game.legal_actions(nxt)[0])
    game.apply(nxt, {"type": "undo_ask"})
    after = game.to_act()[0]
    _, events = game.apply(after, game.legal_actions(after)[0])
    assert events[0].kind == "undo_lapsed" and events[0].data == {"seat": nxt, "card": dict(game.log[-3][1])["card"]}
    with pytest.raises(IllegalAction):
        game.apply(others[0], {"type": "undo_accept"})


def sorted_with(hand: list[str], card: str, game: OhHell) -> list[str]:
    return sorted([*hand, card], key=lambda c: game.hand(game.to_act()[0]).index(c))


def test_the_last_card_of_a_trick_cannot_be_taken_back() -> None:
    game = OhHell(make_rules("classic"), 3, seed=2)
    _first_card(game)
    for _ in range(2):
        seat = game.to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.tricks.cards == [] and all(game.undo_options(s) == [] for s in range(3))
    with pytest.raises(IllegalAction):
        game.apply(seat, {"type": "undo_ask"})


def test_a_secret_bid_changes_until_the_last_bid_is_in() -> None:
    game = OhHell(make_rules("oh-shit"), 3, seed=5)
    first, second, third = game.to_act()
    game.apply(first, {"type": "bid", "bid": 0})
    assert game.may_change_bid(first) and not game.may_change_bid(second)
    _, events = game.apply(first, {"type": "bid", "bid": 1})
    assert [(e.kind, e.data) for e in events] == [("bid_placed", {"seat": first, "changed": True})]
    assert game.view(second)["bids"] == [None] * 3 and game.view(first)["my_bid"] == 1
    game.apply(second, {"type": "bid", "bid": 0})
    _, events = game.apply(third, {"type": "bid", "bid": 1})
    assert events[-1].data["bids"][first] == 1 and not game.may_change_bid(first)
    with pytest.raises(IllegalAction):
        game.apply(first, {"type": "bid", "bid": 0})
    assert [a for _, a in game.log] == [{"type": "bid", "bid": b} for b in (0, 1, 0, 1)]
    # sequential bids stay as they are
    classic = OhHell(make_rules("classic"), 3, seed=5)
    seat = classic.to_act()[0]
    classic.apply(seat, {"type": "bid", "bid": 0})
    with pytest.raises(IllegalAction):
        classic.apply(seat, {"type": "bid", "bid": 1})


def test_the_coach_never_judges_a_card_taken_back() -> None:
    """The coach splits the log into deals and judges each card; the deal it is given holds the
    card that stood, never the one taken back, nor the requests."""
    game = OhHell(make_rules("classic"), 3, seed=11)
    seat = _first_card(game)
    taken = game.log[-1][1]
    game.apply(seat, {"type": "undo_ask", "auto_accept": [s for s in range(3) if s != seat]})
    legal = [a for a in game.legal_actions(seat) if a != taken]
    game.apply(seat, legal[0])
    while game.deal_number == 1:
        s = game.to_act()[0]
        game.apply(s, game.legal_actions(s)[0])
    tasks = deal_tasks(game.rules.to_json(), 3, 11, game.rng_version, game.log, AnalysisConfig())
    own = tasks[0][5]
    assert all(a["type"] in ("bid", "play") for _, a in own)
    assert own[3] == (seat, dict(legal[0]))  # three bids, then the card that stood
    raw = [(s, dict(a)) for s, a in game.log]
    assert own.count((seat, dict(taken))) == raw.count((seat, dict(taken))) - 1
    # and the computer's view of the deal's plays reads the card that stood
    assert json.dumps(own) == json.dumps([(s, dict(a)) for s, a in game.effective_log][: len(own)])


def _short_game_with_takebacks(seed: int) -> OhHell:
    """A finished three-player game of two 3-card deals in which every first card of a trick
    that can be is taken back once (computers: accepted at once) and another card played."""
    game = OhHell(make_rules("classic", sequence="fixed", fixed_hands="3,3"), 3, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        if "undo_ask" in game.undo_options(seat) and len(game.tricks.cards) == 1:
            taken = game.log[-1][1]
            game.apply(seat, {"type": "undo_ask", "auto_accept": [s for s in range(3) if s != seat]})
            others = [a for a in game.legal_actions(seat) if a != taken]
            game.apply(seat, rng.choice(others or game.legal_actions(seat)))
    assert sum(a["type"] == "undo_ask" for _, a in game.log) >= 2
    return game


def test_a_hand_history_with_takebacks_replays_to_the_stored_standings() -> None:
    """``python -m games.replay``: the exported actions (take-backs among them) rebuild the game,
    checked action by action, and it ends as stored; the replay pages tell each take-back."""
    from cogs.ohhell.replay import OhHellReplayer
    from games import replay

    game = _short_game_with_takebacks(3)
    data = {
        "format": replay.FORMAT,
        "version": replay.VERSION,
        "game": "ohhell",
        "id": 1,
        "rules": game.rules.to_json(),
        "seed": 3,
        "rng_version": game.rng_version,
        "seats": [{"seat": s, "name": f"p{s}", "computer": None} for s in range(3)],
        "actions": [{"seat": s, "action": dict(a)} for s, a in game.log],
        "results": [{**row, "name": f"p{row['seat']}"} for row in game.final_standings()],
    }
    rebuilt, problems = replay.check(json.loads(json.dumps(data)))
    assert problems == [] and isinstance(rebuilt, OhHell)
    assert rebuilt.log == game.log and rebuilt.history == game.history
    # the replay pages' lines
    names = ["p0", "p1", "p2"]
    again = OhHell(game.rules, 3, seed=3)
    lines: list[str] = []
    for seat, action in game.log:
        _, events = again.apply(seat, action)
        lines += OhHellReplayer().event_lines(again, events, names)
    assert sum("asks to take back" in line for line in lines) == sum(a["type"] == "undo_ask" for _, a in game.log)
    assert any("took back" in line for line in lines)


def test_the_coach_analyses_a_game_with_takebacks() -> None:
    """The whole coach on a game with take-backs: it runs, and judges as many cards as stood."""
    from games.ohhell.analysis import analyse

    game = _short_game_with_takebacks(4)
    config = AnalysisConfig(
        rollouts=1, luck_rollouts=1, skill_worlds=2, bid_budget=50, card_budget=20, check_bids=False, seed=1
    )
    result = analyse(game.rules.to_json(), 3, 4, game.rng_version, game.log, config)
    assert len(result["deals"]) == 2
    tasks = deal_tasks(game.rules.to_json(), 3, 4, game.rng_version, game.log, config)
    assert sum(len(t[5]) for t in tasks) == len(game.effective_log)


def test_a_takeback_changes_no_deal_of_a_table_sharing_the_seed() -> None:
    """Duplicate tables deal from one seed: a take-back (and a changed secret bid) at one draws
    nothing from it, so every deal both tables reach holds the same cards."""
    for preset in ("classic", "oh-shit"):
        rules = make_rules(preset, sequence="fixed", fixed_hands="3,2,3")
        plain, undone = OhHell(rules, 4, seed=9), UndoChecker(rules, 4, 9)
        undone.run(random.Random(1))
        rng = random.Random(2)
        decks = {1: plain.dealt_deck()}
        while not plain.is_over:
            seat = plain.to_act()[0]
            plain.apply(seat, rng.choice(plain.legal_actions(seat)))
            decks.setdefault(plain.deal_number, plain.dealt_deck())
        other = OhHell.replay(rules, 4, 9, [])
        taken = {1: other.dealt_deck()}
        for seat, action in undone.game.log:
            other._do_checked(seat, action, from_log=True)
            taken.setdefault(other.deal_number, other.dealt_deck())
        assert undone.counts["undo_done"] > 0
        assert all(decks[d] == taken[d] for d in range(1, 4))
