"""Shard leases and the next-sequence-number rule, on both backends (two stores = two processes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from db.errors import StaleAction, StoreConflict
from db.records import SeatRecord
from db.store import Store


async def test_a_live_lease_held_by_another_process_blocks_the_claim(new_store: Callable[[], Store]) -> None:
    first, second = new_store(), new_store()
    await first.open()
    await second.open()
    assert await first.claim_leases("a", [0, 1], 4, 30.0) == []
    blocking = await second.claim_leases("b", [1, 2], 4, 30.0)
    assert [(lease.shard, lease.holder) for lease in blocking] == [(1, "a")]
    assert 25 < blocking[0].seconds_left <= 30
    # all or none: shard 2 was not taken by the refused claim
    assert await first.claim_leases("c", [2, 3], 4, 30.0) == []
    assert await second.renew_leases("b", 30.0) == []


async def test_another_shard_count_blocks_every_shard(new_store: Callable[[], Store]) -> None:
    store = new_store()
    await store.open()
    assert await store.claim_leases("a", [0], 2, 30.0) == []
    blocking = await store.claim_leases("b", [3], 4, 30.0)
    assert [(lease.shard, lease.shard_count) for lease in blocking] == [(0, 2)]


async def test_a_released_lease_is_free_and_an_expired_one_is_taken_over(new_store: Callable[[], Store]) -> None:
    first, second = new_store(), new_store()
    await first.open()
    await second.open()
    assert await first.claim_leases("a", [0], 1, 30.0) == []
    await first.release_leases("a")
    assert await second.claim_leases("b", [0], 1, 30.0) == []
    assert await first.claim_leases("a", [0], 1, 30.0) != []  # b's is live
    # b died: it stopped renewing. Its lease as it stands once its time is up, without waiting
    # for the database's clock: its last renewal ran out a second ago.
    assert await second.renew_leases("b", -1.0) == [0]
    assert await first.claim_leases("a", [0], 1, 30.0) == []
    assert await second.renew_leases("b", 30.0) == []  # b finds it lost its shard
    assert await first.renew_leases("a", 30.0) == [0]


async def _started(store: Store) -> int:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {}, 7, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    return game


async def test_only_the_next_sequence_number_commits(store: Store) -> None:
    game = await _started(store)
    with pytest.raises(StaleAction):
        await store.record_action(game, 1, 0, {"type": "bid", "bid": 1})  # a gap
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1})
    with pytest.raises(StoreConflict):
        await store.record_action(game, 0, 1, {"type": "bid", "bid": 0})  # taken
    versions = await store.game_versions([game, 999])
    assert list(versions) == [game] and versions[game].actions == 1 and versions[game].status == "playing"


async def test_two_processes_racing_one_move_commit_it_once(new_store: Callable[[], Store]) -> None:
    first, second = new_store(), new_store()
    await first.open()
    await second.open()
    game = await _started(first)
    for seq in range(10):
        outcomes = await asyncio.gather(
            first.record_action(game, seq, 0, {"type": "bid", "bid": 1}),
            second.record_action(game, seq, 1, {"type": "bid", "bid": 2}),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleAction"] or sorted(
            type(o).__name__ for o in outcomes
        ) == ["NoneType", "StoreConflict"], outcomes
    record = await second.get_game(game)
    assert record is not None and len(record.actions) == 10
