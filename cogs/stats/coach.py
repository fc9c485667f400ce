"""``/<game> analysis <game number>``: a game's coach (its :class:`bot.seam.coaching.Coaching`, which
the game's adapter names) run off the event loop.

The analysis takes seconds of CPU, so the command answers "working…" at once, spreads the work
(the game's plan: a deal, a swap, a decision each) over worker processes (a process pool,
awaited through :attr:`CardBot.outside_wait`, so that the local mode shows the "working…" answer
while they run), stores the result and edits the answer. A second request, by anyone, reads the
stored analysis and costs nothing; two requests at once share one run.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.client import CardBot
from bot.messages.speech import pgettext
from bot.seam.coaching import Coaching
from bot.seam.contract import AnyKind
from bot.tables.secrecy import Door
from cogs.stats.history import finished_game, game_choices
from db.records import GameRecord
from locales import _

log = logging.getLogger(__name__)

T = TypeVar("T")


class Coach:
    """Runs any game's coach (:attr:`bot.seam.contract.GameKind.coaching`) off the event loop: the
    plan in a thread, the work in worker processes, the summary stored under its version."""

    def __init__(self, bot: CardBot, workers: int = 2, configs: dict[str, Any] | None = None) -> None:
        self.bot = bot
        #: per game (``kind.key``): settings other than the coach's own (a light coach in tests)
        self.configs: dict[str, Any] = dict(configs or {})
        self.workers = workers
        self.executor: Executor | None = None
        self.running: dict[int, asyncio.Task[dict[str, Any]]] = {}
        #: how many analyses were computed (not read from the store): what the tests count
        self.computed = 0

    def coaching(self, record: GameRecord) -> Coaching:
        """``record``'s game's coach; ValueError for a game without one."""
        kind = self.bot.tables.kinds.get(record.kind)
        if kind is None or kind.coaching is None:
            raise ValueError(f"game {record.id}: its game ({record.kind}) has no coach")
        return kind.coaching

    def _pool(self) -> Executor:
        if self.executor is None:
            # spawn: a forked child would inherit the bot's threads and sockets
            self.executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self.executor

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None

    async def analysis(self, record: GameRecord) -> dict[str, Any]:
        """The stored analysis, or a new one (computed once however many ask at once)."""
        stored = await self.bot.store.analysis(record.id)
        if stored is not None and stored[0] == self.coaching(record).version:
            return stored[1]
        task = self.running.get(record.id)
        if task is None:
            task = asyncio.create_task(self._compute(record))
            self.running[record.id] = task
            task.add_done_callback(lambda _: self.running.pop(record.id, None))
        # the wait for the worker processes, declared as such (CardBot.outside_wait)
        return dict(await self.bot.outside_wait(asyncio.shield(task)))

    async def _in_workers(self, work: Callable[[T], dict[str, Any]], tasks: list[T]) -> list[dict[str, Any]]:
        """``work`` over ``tasks`` in the worker processes, awaited as work outside the bot
        (:attr:`CardBot.outside_wait`: the local mode shows "working…" meanwhile)."""
        pool = self._pool()
        futures = [asyncio.wrap_future(pool.submit(work, task)) for task in tasks]
        return list(await self.bot.outside_wait(asyncio.gather(*futures)))

    async def _compute(self, record: GameRecord) -> dict[str, Any]:
        coaching = self.coaching(record)
        config = self.configs.get(record.kind, coaching.config)
        tasks, context = await asyncio.to_thread(coaching.plan, record, config)
        parts = await self._in_workers(coaching.work, tasks)
        data = coaching.summarise(list(parts), record, context, config)
        await self.bot.store.save_analysis(record.id, coaching.version, data)
        self.computed += 1
        return data


def add_coach_command(bot: CardBot, group: app_commands.Group, coach: Coach, kind: AnyKind) -> None:
    """``/<game> analysis``, for a game with a coach."""
    coaching = kind.coaching
    assert coaching is not None, "a game without a coach has no analysis command"

    @group.command(
        name="analysis", description=pgettext("command description", "The coach: luck against skill in a finished game")
    )
    @app_commands.describe(game=pgettext("option description", "The game's number (see history)"))
    async def analysis(interaction: discord.Interaction, game: int) -> None:
        record = await finished_game(bot.store, game, interaction, kind.key, doors=(Door.ANALYSE,))
        stored = await bot.store.analysis(record.id)
        if stored is not None and stored[0] == coaching.version:
            page = coaching.page(record, stored[1])
            files = [page.file.file()] if page.file is not None else []
            await interaction.response.send_message(embed=page.embed, files=files, ephemeral=True)
            return
        await interaction.response.send_message(
            _("🔍 Working on the analysis of game #{game}… I will put it here when it is ready.", game=record.id),
            ephemeral=True,
        )
        try:
            data = await coach.analysis(record)
        except Exception:
            log.exception("the analysis of game %s failed", record.id)
            await interaction.edit_original_response(content=_("⚠️ The analysis failed on my side; try again later."))
            return
        page = coaching.page(record, data)
        files = [page.file.file()] if page.file is not None else []
        await interaction.edit_original_response(content=None, embed=page.embed, attachments=files)

    @analysis.autocomplete("game")
    async def analysis_games(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await game_choices(bot.store, interaction, kind.key, current, (Door.ANALYSE,))
