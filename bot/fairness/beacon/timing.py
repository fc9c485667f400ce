"""A stepped clock for beacon waits in the benchmark and the tests (the bot's own is
:class:`bot.fairness.beacon.game.DiscordClock`: Discord's time and the table clock's sleep). It moves only
when every task waits, so thousands of games, each waiting seconds for its round, run in a moment
and exactly the same each run."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class SteppedClock:
    """A clock that moves only when told (:meth:`advance`) or, under :meth:`run`, when every task
    waits on it: then it jumps to the next wake-up."""

    def __init__(self, start: float) -> None:
        self._now = start
        self._timers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._timers, (self._now + seconds, next(self._order), future))
        await future

    def _wake_next(self, limit: float | None) -> bool:
        while self._timers:
            when, _, future = self._timers[0]
            if limit is not None and when > limit:
                return False
            heapq.heappop(self._timers)
            if future.done():  # a cancelled sleep
                continue
            self._now = max(self._now, when)
            future.set_result(None)
            return True
        return False

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, waking every sleep that ends meanwhile, in order."""
        limit = self._now + seconds
        while self._wake_next(limit):
            await _settle()
        self._now = limit
        await _settle()

    async def run(self, work: Awaitable[T], idle: Callable[[], bool] = lambda: True) -> T:
        """Run ``work`` to its end, jumping the clock whenever every task waits on it (``idle`` may
        say that something else is still under way)."""
        task = asyncio.ensure_future(work)
        while not task.done():
            await _settle()
            if task.done() or not idle():
                continue
            await _settle()  # what the last request's end set going (a cancelled timer, a new sleep)
            if task.done() or not idle():
                continue
            if not self._wake_next(None):
                await _settle()
                if not task.done() and not self._timers:
                    raise RuntimeError("every task waits and no timer is set")
        return task.result()


async def _settle() -> None:
    for _ in range(8):
        await asyncio.sleep(0)
