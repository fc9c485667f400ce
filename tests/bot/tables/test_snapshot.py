"""bot/tables/snapshot.py: each view of a game's state is built once, whoever asks, and a move starts a
fresh snapshot (one snapshot a move)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables.snapshot import forget, snapshot, view
from games.ohhell import rules as oh_rules
from games.ohhell.game import OhHell


class Counting(OhHell):
    """Oh Hell that counts the views it builds."""

    built: list[int | None]

    def view(self, seat: Any) -> Any:
        self.built.append(seat)
        return super().view(seat)


@pytest.fixture
def game() -> Counting:
    engine = Counting.new(oh_rules.make_rules("classic"), 3, 7)
    assert isinstance(engine, Counting)
    engine.built = []
    return engine


def test_each_view_is_built_once_per_state(game: Counting) -> None:
    first = [view(game, seat) for seat in (None, 0, 1, 2, None, 1)]
    assert game.built == [None, 0, 1, 2]  # then the public view and seat 1's came from the snapshot
    assert first[4] is first[0] and first[5] is first[2]
    assert first[0] == OhHell.view(game, None) and first[2] == OhHell.view(game, 1)
    assert snapshot(game).built == 4


def test_a_move_starts_a_fresh_snapshot(game: Counting) -> None:
    seat = game.to_act()[0]
    before = view(game, seat)
    made: list[str] = []
    assert snapshot(game).digest(seat, lambda: made.append("x") or "d1") == "d1"
    assert snapshot(game).digest(seat, lambda: made.append("y") or "d2") == "d1"  # once per state
    game.apply(seat, game.legal_actions(seat)[0])  # in place: the same engine object, one move on
    after = view(game, seat)
    assert after is not before and after == OhHell.view(game, seat)
    assert after != before  # (the bid is in the new view)
    assert snapshot(game).digest(seat, lambda: "d3") == "d3"
    assert made == ["x"]


def test_forget_drops_the_state_seen(game: Counting) -> None:
    view(game, None)
    forget(game)
    view(game, None)
    assert game.built == [None, None]


def test_the_message_key_is_made_once_per_state(game: Counting) -> None:
    """The move pipeline asks for the key of the state before a move, the presenter for the state
    after it: the state after one move is asked again before the next, and made once."""
    made: list[int] = []

    def make() -> int:
        made.append(game.action_count)
        return game.deal_number

    assert snapshot(game).message_key(make) == 1
    assert snapshot(game).message_key(make) == 1
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    assert snapshot(game).message_key(make) == 1
    assert made == [0, 1]


def test_a_falsy_message_key_is_kept_too(game: Counting) -> None:
    made: list[str] = []
    assert snapshot(game).message_key(lambda: made.append("x") or 0) == 0
    assert snapshot(game).message_key(lambda: made.append("y") or 1) == 0
    assert made == ["x"]
