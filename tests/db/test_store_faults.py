"""A full disk at BEGIN or at COMMIT: on each backend the store says so with
a :class:`StoreError` (never the driver's own exception), keeps nothing of the write, and the
next write works (no transaction left open)."""

from __future__ import annotations

import pytest

from db.errors import StoreError
from db.records import SeatRecord
from db.store import Store
from tests.faults import DISK_FULL, DiskFull


@pytest.mark.parametrize("statement", ["BEGIN", "COMMIT"])
async def test_a_full_disk_at_begin_or_commit_is_a_store_error(
    store: Store, statement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {}, 3, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    fault = DiskFull(store, statement, monkeypatch)
    with pytest.raises(StoreError) as raised:
        await store.record_action(game, 0, 0, {"type": "bid", "bid": 1})
    assert fault.hits == 1
    assert type(raised.value) is StoreError and DISK_FULL in str(raised.value)
    record = await store.get_game(game)
    assert record is not None and record.actions == []
    # The disk has room again: the same move is saved, once.
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1})
    record = await store.get_game(game)
    assert record is not None and record.actions == [(0, {"type": "bid", "bid": 1})]


async def test_a_full_disk_in_the_lobby_is_a_store_error_too(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    DiskFull(store, "COMMIT", monkeypatch)
    with pytest.raises(StoreError):
        await store.create_game("ohhell", 1, 10, 100, "classic", {})
    assert await store.live_games() == []
    assert await store.create_game("ohhell", 1, 10, 100, "classic", {}) > 0
