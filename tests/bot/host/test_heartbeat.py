"""The shard leases' heartbeat is supervised. Any error while renewing (not only
a database error: a bug, a driver's own exception) is logged, saying the heartbeat goes on, and
the next renewal still happens, so the process keeps its shards instead of losing them silently
a minute later."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.host.leases import LeaseKeeper
from db.errors import StoreError
from db.sqlite import SqliteStore


class _Flaky(SqliteStore):
    """A store whose next renewals fail with the given errors, then work again."""

    def __init__(self, path: str, errors: list[BaseException]) -> None:
        super().__init__(path)
        self.errors = errors
        self.renewals = 0

    async def renew_leases(self, holder: str, seconds: float) -> list[int]:
        self.renewals += 1
        if self.errors:
            raise self.errors.pop(0)
        return await super().renew_leases(holder, seconds)


@pytest.mark.parametrize(
    "error", [RuntimeError("a bug in the store"), StoreError("the disk is full"), KeyError("lease")]
)
async def test_the_heartbeat_survives_any_error_and_says_so(tmp_path, caplog, error) -> None:
    caplog.set_level(logging.INFO)
    store = _Flaky(str(tmp_path / "c.sqlite3"), [error, error])
    await store.open()
    beats = asyncio.Queue[float]()
    go_on = asyncio.Event()

    async def sleep(seconds: float) -> None:
        await beats.put(seconds)
        await go_on.wait()
        go_on.clear()

    keeper = LeaseKeeper(store, (0,), 1, seconds=30.0, sleep=sleep)
    try:
        await keeper.claim()
        for _ in range(4):  # two failed renewals, then two good ones
            await asyncio.wait_for(beats.get(), 5)
            go_on.set()
        await asyncio.wait_for(beats.get(), 5)
        assert store.renewals == 4
        assert keeper.held and keeper._task is not None and not keeper._task.done(), "the heartbeat goes on"
        failures = [r for r in caplog.records if "renewing the shard leases failed" in r.getMessage()]
        assert len(failures) == 2 and all("trying again" in r.getMessage() for r in failures)
        assert str(error) in failures[0].getMessage() or type(error).__name__ in failures[0].getMessage()
        # the lease is still this process's: another claim is refused
        assert await store.claim_leases("someone-else:1:x", [0], 1, 30.0) != []
    finally:
        await keeper.release()
        await store.close()


async def test_the_heartbeat_still_stops_when_cancelled(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "c.sqlite3"))
    await store.open()
    keeper = LeaseKeeper(store, (0,), 1, seconds=30.0)
    try:
        await keeper.claim()
        task = keeper._task
        assert task is not None
        await keeper.release()
        await asyncio.sleep(0)
        assert task.cancelled() or task.done()
        assert await store.claim_leases("someone-else:1:x", [0], 1, 30.0) == [], "released"
    finally:
        await store.close()
