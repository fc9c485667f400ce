"""Duplicate matches whose other tables never come close themselves.

A match waits for all its tables to open; one whose other tables never came kept the tables that
did play held for ever (unrated, their shuffles not checkable, no comparison) unless its host
remembered to close it. Each match now carries the time by which its tables must have opened
(``MATCH_EXPIRY_DAYS`` after it was opened, written by the bot's clock); once a sweep finds it
past that time, still open and with a place free, the bot closes it as its host would
(:func:`bot.fairness.duplicate.expire`): every table's channel is told, and the comparison follows once
the tables it has are over.

Every process sweeps the matches of its own shards (those of the server the match was opened
on); the close is one conditional update, so a host's close at the same moment, or a sweep of
another process, closes it once and says so once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.fairness import duplicate
from bot.host import metrics
from bot.messages.presentation import Presenter
from bot.seam.contract import AnyKind
from db.store import Store

log = logging.getLogger(__name__)

#: how often the matches are looked at: a match closes within this long of its time
SWEEP_SECONDS = 3600.0


class MatchExpiry:
    def __init__(
        self,
        store: Store,
        presenter: Presenter,
        kinds: Mapping[str, AnyKind],
        owns: Callable[[int | None], bool],
        days: float,
        sleep: Callable[[float], Awaitable[Any]],
    ) -> None:
        self.store = store
        self.presenter = presenter
        self.kinds = kinds
        self.owns = owns
        self.days = days
        self.sleep = sleep
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Sweep now (a match may have expired while the bot was stopped) and every hour after."""
        if self.days > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="duplicate match expiry")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("closing the expired duplicate matches failed; trying again in an hour")
            await self.sleep(SWEEP_SECONDS)

    async def sweep(self) -> int:
        """Close every expired match of this process's shards; returns how many it closed."""
        now = discord.utils.utcnow().strftime(duplicate.STAMP)
        closed = 0
        for match in await self.store.expired_matches(now):
            kind = self.kinds.get(match.kind)
            if kind is None or not self.owns(match.guild_id):
                continue  # another process's server, or a game this bot does not load
            if await duplicate.expire(self.store, self.presenter, kind, match):
                log.info("duplicate match %s expired: closed with the tables it has", match.id)
                metrics.MATCHES_EXPIRED.inc()
                closed += 1
        return closed
