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
                self.step(seat, {"type": "bid", "bid": rng.randrange(game.hand_size + 1)})
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
    assert game.trick_cards == [] and all(game.undo_options(s) == [] for s in range(3))
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
