"""``/ohhell analysis <game>`` and ``/shithead analysis <game>``: the coaches
(:mod:`games.ohhell.analysis`, :mod:`games.shithead.analysis`) run off the event loop.

The analysis takes seconds of CPU, so the command answers "working…" at once, spreads the work
(Oh Hell's deals; Shithead's luck, swaps and decisions) over worker processes (a process pool,
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
from bot.errors import guarded
from bot.render.cards import label
from bot.render.common import COLOR
from bot.secrecy import Door
from cogs.stats.history import finished_game, game_choices
from cogs.stats.shithead_coach import shithead_embed
from db.store import GameRecord
from games.ohhell.analysis import VERSION, AnalysisConfig, analyse_deal, deal_tasks, summarise
from games.shithead import analysis as sh

log = logging.getLogger(__name__)

T = TypeVar("T")


class Coach:
    def __init__(
        self,
        bot: CardBot,
        config: AnalysisConfig | None = None,
        workers: int = 2,
        shithead_config: sh.AnalysisConfig | None = None,
    ) -> None:
        self.bot = bot
        self.config = config or AnalysisConfig()
        self.shithead_config = shithead_config or sh.AnalysisConfig()
        self.workers = workers
        self.executor: Executor | None = None
        self.running: dict[int, asyncio.Task[dict[str, Any]]] = {}
        #: how many analyses were computed (not read from the store): what the tests count
        self.computed = 0

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
        if stored is not None and stored[0] == version_of(record):
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
        if record.kind == "shithead":
            return await self._compute_shithead(record)
        config = self.config
        tasks = await asyncio.to_thread(
            deal_tasks,
            record.rules or {},
            len(record.seats),
            record.seed or 0,
            record.rng_version,
            record.actions,
            config,
        )
        deals = await self._in_workers(analyse_deal, tasks)
        data = summarise(list(deals), len(record.seats), config)
        await self.bot.store.save_analysis(record.id, VERSION, data)
        self.computed += 1
        return data

    async def _compute_shithead(self, record: GameRecord) -> dict[str, Any]:
        """The luck, each person's swap and decisions (computers are not coached, but ranked)."""
        config = self.shithead_config
        people = [s.seat for s in record.seats if s.ai_level is None]
        tasks, order, goal = await asyncio.to_thread(
            sh.plan,
            record.rules or {},
            len(record.seats),
            record.seed or 0,
            record.rng_version,
            record.actions,
            config,
            people or None,
        )
        parts = await self._in_workers(sh.run_task, tasks)
        data = sh.summarise(list(parts), len(record.seats), order, goal, config)
        await self.bot.store.save_analysis(record.id, sh.VERSION, data)
        self.computed += 1
        return data


def version_of(record: GameRecord) -> int:
    return sh.VERSION if record.kind == "shithead" else VERSION


def embed_of(record: GameRecord, data: dict[str, Any]) -> discord.Embed:
    return shithead_embed(record, data) if record.kind == "shithead" else analysis_embed(record, data)


def analysis_embed(record: GameRecord, data: dict[str, Any]) -> discord.Embed:
    names = [s.name for s in record.seats]
    lines = [
        f"{n}. **{names[p['seat']]}**: {p['total']} points, luck {p['luck']:+.1f} → **{p['adjusted']:.1f}** adjusted"
        for n, p in enumerate(data["players"], start=1)
    ]
    embed = discord.Embed(
        title=f"🧑‍🏫 The coach on game #{record.id}",
        description="Ranked by luck-adjusted score: the points taken, less the luck (a share of what the cards"
        " dealt were worth in computer replays, above the table's average).\n" + "\n".join(lines),
        color=COLOR,
    )
    misbids = [
        f"Deal {m['deal']}: {names[m['seat']]} bid {m['bid']} and took {m['tricks']} ({m['score']:+d});"
        f" the strong computer bid {m['expected_tricks']}"
        for m in data["misbids"]
    ]
    embed.add_field(
        name="Biggest misbids",
        value="\n".join(misbids) or "None: no bid missed where the strong computer bid otherwise.",
        inline=False,
    )
    costly = [
        f"Deal {c['deal']}: {names[c['seat']]} played {label(c['card'])}; {label(c['better'])}"
        f" scored {c['loss']:.1f} more on average"
        for c in data["costly_cards"]
    ]
    embed.add_field(name="Costliest cards", value="\n".join(costly) or "None found.", inline=False)
    chunk: list[str] = []
    fields = 0
    for deal in data["deals"]:
        parts = [
            f"{names[r['seat']]} {r['bid']}/{r['tricks']} (computer {r['expected_tricks']}):"
            f" {r['score']:+d} vs worth {r['expected_score']:+.1f}"
            for r in deal["rows"]
        ]
        line = f"**{deal['deal']}** ({deal['hand_size']}): " + " · ".join(parts)
        if sum(len(x) + 1 for x in chunk) + len(line) > 1000:
            embed.add_field(name="Deal by deal" if fields == 0 else "…", value="\n".join(chunk), inline=False)
            fields += 1
            chunk = []
        chunk.append(line[:1000])
        if fields >= 20:
            break
    if chunk and fields < 21:
        embed.add_field(name="Deal by deal" if fields == 0 else "…", value="\n".join(chunk), inline=False)
    embed.set_footer(text="bid/won (the strong computer's bid): points vs the hand's worth in computer replays")
    return embed


def add_coach_command(bot: CardBot, group: app_commands.Group, coach: Coach, kind: str = "ohhell") -> None:
    @group.command(name="analysis", description="The coach: luck against skill in a finished game")
    @app_commands.describe(game="The game's number (see history)")
    @guarded
    async def analysis(interaction: discord.Interaction, game: int) -> None:
        record = await finished_game(bot.store, game, interaction, kind, doors=(Door.ANALYSE,))
        stored = await bot.store.analysis(record.id)
        if stored is not None and stored[0] == version_of(record):
            await interaction.response.send_message(embed=embed_of(record, stored[1]), ephemeral=True)
            return
        await interaction.response.send_message(
            f"🔍 Working on the analysis of game #{record.id}… I will put it here when it is ready.", ephemeral=True
        )
        try:
            data = await coach.analysis(record)
        except Exception:
            log.exception("the analysis of game %s failed", record.id)
            await interaction.edit_original_response(content="⚠️ The analysis failed on my side; try again later.")
            return
        await interaction.edit_original_response(content=None, embed=embed_of(record, data))

    @analysis.autocomplete("game")
    async def analysis_games(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await game_choices(bot.store, interaction.guild_id, kind, current)
