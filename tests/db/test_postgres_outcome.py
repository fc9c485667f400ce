"""On PostgreSQL, a move whose connection fails at or after COMMIT is
reported as what actually happened. The store asks the database which move holds the sequence
number before it answers: the move itself (saved), another (stale), none (not saved), or the
database cannot be asked (outcome unknown, never "not saved").

The cuts are real: the store talks to the test server through :class:`tests.faults.CuttingProxy`,
which closes the TCP connection on either side of the server's COMMIT.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg  # type: ignore[import-untyped,unused-ignore]
import pytest

from db.errors import OutcomeUnknown, StaleAction, StoreConflict, StoreError
from db.postgres import PostgresStore
from db.postgres_url import describe_url
from db.records import SeatRecord
from tests.db.conftest import TEST_DATABASE_URL, pg_schema  # noqa: F401 - the fixture
from tests.faults import CuttingProxy

BID = {"type": "bid", "bid": 1}


@pytest.fixture
async def proxied(pg_schema: str) -> AsyncIterator[tuple[PostgresStore, CuttingProxy, int]]:  # noqa: F811
    """A store reaching the test server only through a cutting proxy, with a started game."""
    target = describe_url(TEST_DATABASE_URL)
    host, _, port = target.where.rpartition(":")
    proxy = CuttingProxy(host or "127.0.0.1", int(port or 5432))
    proxy_port = await proxy.start()
    url = f"postgresql://{target.user}@127.0.0.1:{proxy_port}/{target.database}"
    store = PostgresStore(url, schema=pg_schema)
    await store.open()
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {}, 7, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 3)
    try:
        yield store, proxy, game
    finally:
        proxy.refuse = False
        await store.close()
        await proxy.close()


async def _moves(store: PostgresStore, game: int) -> list[tuple[int, dict]]:
    record = await store.get_game(game)
    assert record is not None
    return list(record.actions)


async def test_a_move_committed_before_the_connection_was_cut_is_reported_saved(proxied) -> None:
    store, proxy, game = proxied
    proxy.cut = "after-commit"
    await store.record_action(game, 0, 0, BID)  # no error: the server committed it
    assert proxy.cuts == 1
    assert await _moves(store, game) == [(0, BID)]
    # and the game goes on from there: the next move is number 1
    await store.record_action(game, 1, 1, {"type": "bid", "bid": 0})
    assert len(await _moves(store, game)) == 2


async def test_a_move_cut_before_its_commit_is_not_saved_and_can_be_made_again(proxied) -> None:
    store, proxy, game = proxied
    proxy.cut = "before-commit"
    with pytest.raises(StoreError) as refused:
        await store.record_action(game, 0, 0, BID)
    assert proxy.cuts == 1 and not isinstance(refused.value, (StoreConflict, OutcomeUnknown))
    assert await _moves(store, game) == []
    await store.record_action(game, 0, 0, BID)
    assert await _moves(store, game) == [(0, BID)]


async def test_when_the_database_cannot_be_asked_the_outcome_is_unknown(proxied) -> None:
    store, proxy, game = proxied
    proxy.cut = "after-commit"
    proxy.refuse = True  # the cut connection's pool cannot reconnect to ask
    with pytest.raises(OutcomeUnknown):
        await store.record_action(game, 0, 0, BID)


async def test_another_move_holding_the_number_makes_it_stale(proxied) -> None:
    store, proxy, game = proxied
    await store.record_action(game, 0, 1, {"type": "bid", "bid": 0})  # another process's move 0
    with pytest.raises(StaleAction):
        await store._settle_action(game, 0, 0, BID, StoreError("the connection was lost"))


async def test_the_driver_failing_to_release_a_committed_connection_is_a_saved_move(proxied, monkeypatch) -> None:
    store, _, game = proxied
    real_release = asyncpg.pool.Pool.release
    fired: list[bool] = []

    async def release(pool, connection, *, timeout=None):
        await real_release(pool, connection, timeout=timeout)
        if not fired:
            fired.append(True)
            raise asyncpg.InternalClientError("cannot release: the connection is closed")

    monkeypatch.setattr(asyncpg.pool.Pool, "release", release)
    await store.record_action(game, 0, 0, BID)  # not "something went wrong": the move may have been saved
    assert fired and await _moves(store, game) == [(0, BID)]
