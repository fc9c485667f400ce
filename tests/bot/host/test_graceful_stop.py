"""Stopping the bot while computers are moving: the bot's close cancels its
background tasks *and waits for them* (and for the computers' thread), so a graceful stop logs no
traceback and leaves no pending task behind; the last saved move is what a restart finds."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from tests.cogs.shithead.test_games import use_seed
from tests.helpers import make_bot, open_hand, open_table

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def _computers_table(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], preset="bowers", options=SHORT, computers=3)
    table = env.bot.tables.in_channel(channel.id)
    return channel, ann, table


def _problems(caplog) -> list[str]:
    return [
        f"{r.levelname} {r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.exc_info or r.levelno >= logging.ERROR or "was destroyed" in r.getMessage()
    ]


async def _hand_over_to_the_computers(env, table) -> None:
    """ann (seat 0) makes her move; the computers are next. Called directly, not through SimCord,
    whose every user action waits until the bot is idle: here the test stops it while busy."""
    seat = table.engine.to_act()[0]
    assert table.seats[seat].ai_level is None
    async with table.lock:
        await env.bot.tables.act(table, seat, table.engine.view(seat)["legal"][0])


async def _until(table: Any, ready: Callable[[], bool], what: str, *events: asyncio.Event) -> None:
    """Wait until ``ready()``, looking again each time one of the table's background tasks (a
    computer's move, whose search and write run in threads) ends or one of ``events`` is set: on
    no clock, neither SimCord's virtual one nor the wall clock."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        for _ in range(1000):
            if ready():
                return
            running = [t for t in table.tasks if not t.done()]
            if not running:
                await asyncio.sleep(0)  # a move that ends starts the next computer's
                if not any(not t.done() for t in table.tasks) and not ready():
                    raise AssertionError(f"{what}: nothing is running")
                continue
            await asyncio.wait([*running, *waiters], return_when=asyncio.FIRST_COMPLETED)
        raise AssertionError(what)
    finally:
        for waiter in waiters:
            waiter.cancel()


async def _until_the_stop_cancels(tasks: list[asyncio.Task[Any]], closing: asyncio.Future[None]) -> None:
    """Let the stop run until it has cancelled every task of the tables (its work up to there is
    all on the event loop, so yielding to the loop is enough: no clock), then let the loop run what
    is ready; the stop is then waiting for what the tasks left in threads."""
    for _ in range(10_000):
        if all(t.done() or t.cancelling() for t in tasks):
            break
        await asyncio.sleep(0)
    else:
        raise AssertionError("the stop did not cancel the tables' tasks")
    for _ in range(50):
        await asyncio.sleep(0)
    assert not closing.done(), "the stop waits for the work left in threads"


def _tasks_of(bot) -> list[asyncio.Task[Any]]:
    return [t for table in bot.tables.tables.values() for t in (*table.tasks, *table.timer_tasks)]


async def test_stopping_while_a_computer_thinks_logs_no_traceback(simcord_env, db_path, caplog, monkeypatch):
    caplog.set_level(logging.DEBUG)
    use_seed(monkeypatch, 3)
    env = simcord_env
    kind = env.bot.tables.kinds["ohhell"]
    real = kind.ai_action
    thinking, release, finished = threading.Event(), threading.Event(), threading.Event()

    def slow(view: Any, level: str, rng: Any) -> Any:
        thinking.set()
        release.wait(5)
        try:
            return real(view, level, rng)
        finally:
            finished.set()

    channel, ann, table = await _computers_table(env)
    kind.ai_action = slow  # type: ignore[method-assign]
    await _hand_over_to_the_computers(env, table)
    assert await asyncio.to_thread(thinking.wait, 5), "a computer is deciding in the executor"
    tasks = _tasks_of(env.bot)
    assert tasks and not all(t.done() for t in tasks)
    saved = len((await env.bot.store.get_game(table.id)).actions)
    caplog.clear()
    closing = asyncio.ensure_future(env.bot.tables.close())
    await _until_the_stop_cancels(tasks, closing)
    release.set()  # the search ends while the bot is closing
    await closing
    assert all(t.done() for t in tasks), "the table manager's close waited for every task"
    assert finished.is_set(), "and for the computer's search in its thread"
    await env.bot.close()
    gc.collect()
    await asyncio.sleep(0)
    assert _problems(caplog) == []
    # Nothing half-done: a new bot finds the saved moves and carries on.
    bot = make_bot(db_path)
    await bot.store.open()
    try:
        stored = await bot.store.get_game(table.id)
        assert len(stored.actions) >= saved and stored.status == "playing"
    finally:
        await bot.store.close()


class _HeldWrites:
    """The store's connection, where the INSERT of a computer's action waits for ``gate`` (a
    slow disk) inside its transaction."""

    def __init__(self, db: Any, writing: asyncio.Event, gate: asyncio.Event) -> None:
        self._real, self._writing, self._gate = db, writing, gate

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    @staticmethod
    def _held(sql: str, params: Any) -> bool:
        return sql.startswith("INSERT INTO actions") and bool(params[4])  # (game, seq, seat, action, by_ai)

    def execute(self, sql: str, params: Any = ()) -> Any:
        if not self._held(sql, params):
            return self._real.execute(sql, params)
        real, writing, gate = self._real, self._writing, self._gate

        class Held:
            async def __aenter__(self) -> Any:
                writing.set()
                await gate.wait()
                self.cursor = real.execute(sql, params)
                return await self.cursor.__aenter__()

            async def __aexit__(self, *exc: Any) -> Any:
                return await self.cursor.__aexit__(*exc)

        return Held()

    def execute_fetchall(self, sql: str, params: Any = ()) -> Any:  # how db.sqlite_connection.run executes
        if not self._held(sql, params):
            return self._real.execute_fetchall(sql, params)

        async def held() -> Any:
            self._writing.set()
            await self._gate.wait()
            return await self._real.execute_fetchall(sql, params)

        return held()


async def test_stopping_while_a_computers_move_is_being_saved_logs_no_traceback(simcord_env, caplog, monkeypatch):
    caplog.set_level(logging.DEBUG)
    use_seed(monkeypatch, 3)
    env = simcord_env
    store = env.bot.store
    writing = asyncio.Event()
    gate = asyncio.Event()
    channel, ann, table = await _computers_table(env)
    monkeypatch.setattr(store, "_db", _HeldWrites(store.db, writing, gate))
    # ann moves until a computer's move follows hers (the last card of a deal may not).

    def ready() -> bool:
        return writing.is_set() or table.seats[table.engine.to_act()[0]].ai_level is None

    for _ in range(10):
        await _hand_over_to_the_computers(env, table)
        await _until(table, ready, "someone moves", writing)
        if writing.is_set():
            break
    assert writing.is_set(), "a computer's move is being written"
    tasks = _tasks_of(env.bot)
    assert tasks and not all(t.done() for t in tasks)
    caplog.clear()
    await env.bot.tables.close()
    assert all(t.done() for t in tasks), "the table manager's close waited for every task"
    await env.bot.close()
    gc.collect()
    await asyncio.sleep(0)
    assert _problems(caplog) == []


async def test_a_stop_while_a_computers_write_is_queued_still_saves_the_open_panels(simcord_env, caplog, monkeypatch):
    """The stop cancels a computer's move whose BEGIN waits in the SQLite
    connection's queue; the BEGIN runs all the same, and the panels saved next must not find a
    transaction left open (they failed in 4 of 5 graceful closes with computers moving)."""
    caplog.set_level(logging.DEBUG)
    use_seed(monkeypatch, 3)
    env = simcord_env
    store = env.bot.store
    channel, ann, table = await _computers_table(env)
    await open_hand(ann, channel, env.bot.user.id)  # a panel the next start must find again
    conn = store.db
    real = conn._execute
    gate, queued = threading.Event(), asyncio.Event()

    computers_move = contextvars.ContextVar("computers_move", default=False)
    real_record = store.record_action

    async def record_action(*args: Any, by_ai: bool = False, **kwargs: Any) -> Any:
        computers_move.set(by_ai)  # (this coroutine's own context: the caller's is untouched)
        return await real_record(*args, by_ai=by_ai, **kwargs)

    async def watch(fn: Any, *args: Any, **kwargs: Any) -> Any:
        begin = args and isinstance(args[0], str) and args[0].startswith("BEGIN")
        if begin and not queued.is_set() and computers_move.get():
            # the connection's thread is busy (a slow disk) just as a computer's write begins
            conn._tx.put_nowait((asyncio.get_running_loop().create_future(), partial(gate.wait, 5)))
            queued.set()
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(conn, "_execute", watch)
    monkeypatch.setattr(store, "record_action", record_action)
    for _ in range(10):
        await _hand_over_to_the_computers(env, table)
        await _until(
            table, lambda: queued.is_set() or table.seats[table.engine.to_act()[0]].ai_level is None, "a move", queued
        )
        if queued.is_set():
            break
    assert queued.is_set(), "a computer's write waits in the queue"
    tasks = _tasks_of(env.bot)
    assert tasks and not all(t.done() for t in tasks), "the computer waits for its write"
    caplog.clear()
    closing = asyncio.ensure_future(env.bot.tables.close())
    await _until_the_stop_cancels(tasks, closing)  # the stop has cancelled the computer's task
    gate.set()
    await closing
    assert not conn.in_transaction
    assert _problems(caplog) == [], "the open panels were saved"
    assert [p.seat for p in await store.take_panels([table.id])] == [0]
    await env.bot.close()
