"""A SQLite write cancelled while its statement waits in the connection's
queue (a bot stopping while a computer's move is being saved) must leave the connection as it
found it. aiosqlite runs every statement in its own thread, one after another: a statement
already queued runs even when the task that queued it was cancelled, so a cancelled BEGIN still
opened a transaction that nobody rolled back, and the next write (saving the open panels at the
stop) failed with "cannot start a transaction within a transaction"."""

from __future__ import annotations

import asyncio
import threading
from functools import partial
from pathlib import Path

import pytest

from db.records import SeatRecord
from db.sqlite import SqliteStore


async def _started(store: SqliteStore) -> int:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {}, 7, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    return game


async def _loop_idle() -> None:
    """Let the event loop run every callback that is ready, without waiting on the clock: the
    connection's thread is held on a gate meanwhile, so nothing else can become ready."""
    for _ in range(50):
        await asyncio.sleep(0)


async def _thread_drained(store: SqliteStore) -> None:
    """Wait until every statement queued on the connection's thread so far has run: a no-op
    queued behind them answers only then (no guess at how long they take)."""
    await store.db._execute(lambda: None)


async def _cancelled_while_queued(store: SqliteStore, write, statement: str) -> None:
    """Run ``write``; when it queues ``statement``, the connection's thread is busy (held on a
    gate queued just before it), and the write is cancelled while the statement waits there; then
    the thread goes on."""
    gate = threading.Event()
    queued = asyncio.Event()
    conn = store.db
    real = conn._execute
    held: list[asyncio.Future] = []

    async def watch(fn, *args, **kwargs):
        if not held and args and isinstance(args[0], str) and args[0].startswith(statement):
            blocker = asyncio.get_running_loop().create_future()
            conn._tx.put_nowait((blocker, partial(gate.wait, 5)))  # ahead of the statement in the queue
            held.append(blocker)
            queued.set()
        return await real(fn, *args, **kwargs)

    conn._execute = watch  # type: ignore[method-assign]
    try:
        task = asyncio.ensure_future(write())
        await asyncio.wait_for(queued.wait(), 5)
        await asyncio.sleep(0)
        task.cancel()
        await _loop_idle()  # the task handles its cancel while the statement still waits
        assert not task.done() and not gate.is_set()
        gate.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        await held[0]
    finally:
        del conn._execute
        gate.set()


@pytest.mark.parametrize("statement", ["BEGIN", "INSERT INTO actions", "COMMIT"])
async def test_a_write_cancelled_while_queued_leaves_the_connection_clean(tmp_path: Path, statement: str) -> None:
    store = SqliteStore(str(tmp_path / "c.sqlite3"))
    await store.open()
    try:
        game = await _started(store)
        await _cancelled_while_queued(
            store, lambda: store.record_action(game, 0, 0, {"type": "bid", "bid": 1}), statement
        )
        await _thread_drained(store)  # (nothing of the cancelled write is still running)
        assert not store.db.in_transaction, "the cancelled write left a transaction open"
        # The next writes work, and the log is whole: the cancelled move is there or not, never half.
        stored = (await store.get_game(game)).actions
        seq = len(stored)
        await store.record_action(game, seq, seq % 2, {"type": "bid", "bid": 0})
        await store.save_panels([])
        assert len((await store.get_game(game)).actions) == seq + 1
        if statement == "BEGIN":
            assert stored == [], "cancelled before it began: nothing saved"
    finally:
        await store.close()
