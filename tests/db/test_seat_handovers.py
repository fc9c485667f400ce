"""A seat handed over mid-game, in the store (SQLite and PostgreSQL): the new player, the log,
the host moving with the seat and the old player kept as a duplicate match's watcher, all or
nothing; kept across a reopen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from db.errors import StoreConflict
from db.records import SeatHandover, SeatRecord
from db.store import Store

ANN, BOB, CAT, DEE = 100, 200, 300, 400


async def _game(store: Store) -> int:
    game = await store.create_game("ohhell", 1, 10, ANN, "classic", {})
    seats = [SeatRecord(0, ANN, "ann", shows_hand=True), SeatRecord(1, BOB, "bob", "quick")]
    await store.start_game(game, {}, 7, seats, 1)
    return game


async def test_a_handover_is_kept_with_its_log_and_the_host(new_store: Callable[[], Store]) -> None:
    store = new_store()
    await store.open()
    game = await _game(store)
    match = await store.create_match("ohhell", "ABCDEF", 1, ANN, 2, 7, "00")
    handover = SeatHandover(game, 0, 5, ANN, "ann", CAT, "cat", ANN)
    await store.hand_over_seat(handover, SeatRecord(0, CAT, "cat"), host_id=CAT, match_id=match.id)
    second = SeatHandover(game, 1, 9, BOB, "bob", DEE, "dee", CAT)
    await store.hand_over_seat(second, SeatRecord(1, DEE, "dee"))
    await store.close()
    again = new_store()
    await again.open()
    record = await again.get_game(game)
    assert record is not None
    assert [(s.user_id, s.name, s.ai_level, s.shows_hand) for s in record.seats] == [
        (CAT, "cat", None, False),
        (DEE, "dee", None, False),
    ]
    assert record.host_id == CAT
    assert await again.seat_handovers([game, 999]) == [handover, second]
    assert await again.seat_handovers([]) == []
    assert await again.match_watchers(match.id) == {ANN}  # ann saw this table's cards


async def test_a_seat_no_longer_held_is_not_handed_and_nothing_is_written(store: Store) -> None:
    game = await _game(store)
    stale = SeatHandover(game, 0, 5, BOB, "bob", CAT, "cat", BOB)  # seat 0 is ann's, not bob's
    with pytest.raises(StoreConflict):
        await store.hand_over_seat(stale, SeatRecord(0, CAT, "cat"), host_id=CAT)
    record = await store.get_game(game)
    assert record is not None and record.seats[0].user_id == ANN and record.host_id == ANN
    assert await store.seat_handovers([game]) == []


async def test_two_acceptances_at_once_give_the_seat_to_one(store: Store) -> None:
    game = await _game(store)
    offers = [SeatHandover(game, 0, 5, ANN, "ann", who, name, ANN) for who, name in ((CAT, "cat"), (DEE, "dee"))]
    outcomes = await asyncio.gather(
        *(store.hand_over_seat(o, SeatRecord(0, o.to_user, o.to_name)) for o in offers), return_exceptions=True
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StoreConflict"]
    record = await store.get_game(game)
    assert record is not None
    (kept,) = await store.seat_handovers([game])
    assert record.seats[0].user_id == kept.to_user
