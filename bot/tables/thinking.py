"""Where computer players think: a pool of worker processes, so that a process full of computer
tables still answers people at once.

The strong computer searches for up to half a second of CPU. In a thread of the bot's own process
that search holds the GIL and every other table's clicks wait behind it; in a worker process it
runs on another core. What crosses to the worker must be picklable: :func:`think` is a module-level
function, and the game's decision function (``GameKind.ai_decider()``) is one too, pickled by
its name; the view is a plain dict and the random generator is rebuilt from its seed.

``COMPUTER_WORKERS=0`` (tests, the local mode) decides in a thread of this process instead, through
the kind's own ``ai_action`` (which tests may replace).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.host import metrics
from bot.seam.contract import Action, AnyKind

log = logging.getLogger(__name__)

Decider = Callable[[Any, str, random.Random], Action]


def think(decide: Decider, view: Mapping[str, Any], level: str, seed: int) -> dict[str, Any]:
    """Run in a worker process: one computer decision, from the seat's view alone."""
    return dict(decide(view, level, random.Random(seed)))


class Thinker:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        #: with no worker processes the computers search in these threads; :meth:`close` waits for them
        self.threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer")

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the bot's process has threads (the store's, the event loop's) that
            # a forked child would inherit in whatever state they were in.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def decide(self, kind: AnyKind, view: Mapping[str, Any], level: str, seed: int) -> Action:
        started = time.perf_counter()
        try:
            return await self._decide(kind, view, level, seed)
        finally:
            metrics.THINK.labels(kind.key).observe(time.perf_counter() - started)

    async def _decide(self, kind: AnyKind, view: Mapping[str, Any], level: str, seed: int) -> Action:
        loop = asyncio.get_running_loop()
        decider = kind.ai_decider()
        if self.workers <= 0 or decider is None:
            return await loop.run_in_executor(self.threads, kind.ai_action, view, level, random.Random(seed))
        try:
            return await loop.run_in_executor(self._executor(), think, decider, view, level, seed)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool; the clock's supervisor retries.
            log.error("a computer worker process died; starting a new pool")
            self._drop_pool()
            raise

    def _drop_pool(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers; a search already running in a thread cannot be interrupted, so wait
        for it (in a thread, not on the loop): a stop leaves nothing running."""
        self._drop_pool()
        await asyncio.to_thread(self.threads.shutdown, wait=True, cancel_futures=True)
