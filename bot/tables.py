"""Live tables: the table manager, and the one path every move takes.

One accepted action follows one path, whoever made it (a person's click, a computer seat, a
timer running out): take the table's lock, let the engine check and apply it, commit it to the
store, and only then show it. A restart rebuilds every table from the store (rules, seed and the
action log replay to the same state), so nothing committed is lost and nothing uncommitted was
ever shown.

:class:`TableManager` is the registry of live tables (:class:`~bot.registry.Registry`) plus the
move pipeline (:meth:`TableManager.act`) and restoring after a restart; it builds the other
runtime parts and wires them together: :attr:`seating`, :attr:`presenter` and :attr:`clock`.
Cogs reach the runtime only through these public objects.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.clock import Clock
from bot.contract import Action, LiveTable, Rendered
from bot.errors import Refusal
from bot.presentation import Presenter
from bot.registry import Registry
from bot.seating import Seating
from bot.settings import Settings
from bot.shards import shard_of
from bot.thinking import Thinker
from db.store import GameRecord, StaleAction, Store
from games.common.engine import Event

log = logging.getLogger(__name__)

#: how often a sharded process asks the store whether another process moved one of its games
WATCH_SECONDS = 1.0
MOVED_ON = "The table has moved on since you opened that; nothing was changed."


class TableManager(Registry):
    def __init__(self, client: discord.Client, store: Store, settings: Settings) -> None:
        super().__init__()
        self.client = client
        self.store = store
        self.settings = settings
        self.presenter = Presenter(client, store)
        self.thinker = Thinker(settings.computer_workers)
        #: how the watcher waits between looks (SimCord's clock in tests, like the game clock)
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
        self._watcher: asyncio.Task[None] | None = None
        self.clock = Clock(
            self,
            store,
            self.presenter,
            ai_delay=lambda: self.settings.ai_delay,
            computer_move=self._computer_move,
            stand_in=self._stand_in,
            decide=self.thinker.decide,
        )
        self.seating = Seating(self, store, self.presenter, self.clock)

    async def _computer_move(self, table: LiveTable, seat: int, action: Action) -> None:
        await self.act(table, seat, action, by_ai=True)

    async def _stand_in(self, table: LiveTable, seat: int) -> None:
        await self.seating.stand_in(table, seat)

    # -- shards -------------------------------------------------------------------------------
    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the games of ``guild_id`` (the shards in SHARD_IDS)."""
        return shard_of(guild_id, self.settings.shard_count) in self.settings.own_shards

    async def borrow(self, game_id: int) -> None:
        """Before an interaction about ``game_id`` is handled: make sure this process sees the game
        as the database has it. A game of another process's guild is made live here for the
        interaction (re-read each time, never driven by this process's clock); the move pipeline
        then commits only if no one moved first."""
        table = self.tables.get(game_id)
        if table is not None and table.id not in self.foreign:
            return  # this process's own game: the watcher and the store's sequence check keep it right
        if table is not None:
            async with table.lock:
                await self.reread(table)
            return
        record = await self.store.get_game(game_id)
        if record is None or not record.live or record.kind not in self.kinds or game_id in self.tables:
            return  # "This game has ended" from get(), as before
        self.foreign.add(game_id)
        self.attach(record)

    async def reread(self, table: LiveTable, record: GameRecord | None = None) -> bool:
        """Rebuild ``table`` from the store if another process changed it; True if it did.

        The caller holds ``table.lock``. A game finished or ended elsewhere is dropped here; a live
        one gets the stored record and a state replayed from its log, and its clock is restarted
        by the caller (:meth:`TableManager.refresh`) when this process drives it.
        """
        if record is None:
            record = await self.store.get_game(table.id)
        if record is None or not record.live:
            self.drop(table)
            return True
        if (
            record.status == table.record.status
            and len(record.actions) == len(table.record.actions)
            and [(s.user_id, s.ai_level) for s in record.seats] == [(s.user_id, s.ai_level) for s in table.seats]
        ):
            return False
        fresh = self.kinds[record.kind]
        table.record = record
        if record.status == "playing":
            table.rules = fresh.rules_from_json(record.rules or {})
            table.engine = fresh.engine.replay(
                table.rules, len(record.seats), record.seed or 0, record.actions, rng_version=record.rng_version
            )
        for task in table.timer_tasks:
            task.cancel()
        table.timer = None
        return True

    async def refresh(self, table: LiveTable) -> None:
        """Re-read one of this process's games that another process moved, and let its clock go on."""
        async with table.lock:
            if self.is_live(table) and await self.reread(table) and self.drives(table):
                log.info("game %s was moved by another process; re-read from the store", table.id)
                self.clock.kick(table)

    def watch(self) -> None:
        """Sharded: look every second whether another process moved one of this process's games."""
        if self.settings.sharded and self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            await self.sleep(WATCH_SECONDS)
            try:
                await self.look_for_moves()
            except Exception:
                log.exception("looking for moves made by other processes failed; trying again")

    async def look_for_moves(self) -> int:
        """One look: re-read the games whose stored state differs from the table here; returns how many."""
        mine = [t for t in self.tables.values() if t.id not in self.foreign and t.engine is not None]
        versions = await self.store.game_versions([t.id for t in mine])
        moved = 0
        for table in mine:
            stored = versions.get(table.id)
            if stored is None or stored.status != table.record.status or stored.actions != len(table.record.actions):
                moved += 1
                await self.refresh(table)
        return moved

    # -- restarts -----------------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every unfinished game of this process's shards after a start or restart; returns how many."""
        timers = {t.game_id: t for t in await self.store.timers()}
        for record in await self.store.live_games():
            if not self.owns(record.guild_id):
                continue  # another process's shard: it restores, times and drives that game
            if record.kind not in self.kinds:
                log.warning("game %s is of unknown kind %s; left alone", record.id, record.kind)
                continue
            try:
                table = self.attach(record)
            except Exception:
                log.exception("could not rebuild game %s; it stays stored but is not live", record.id)
                continue
            engine = table.engine
            if engine is None:
                continue
            if record.message_key != self.presenter.key_text(table):
                # The bot stopped between saving a deal's first state and posting its table.
                self.clock.supervise(table, "posting the table", functools.partial(self._repost_when_ready, table))
            timer = timers.get(table.id)
            computers_move = any(table.seats[s].ai_level is not None for s in engine.to_act())
            if timer is not None and len(engine.log) == timer.seq and not computers_move:
                self.clock.resume_timer(table, timer)
            else:
                self.clock.kick(table)
        return len(self.tables)

    async def _repost_when_ready(self, table: LiveTable) -> None:
        await self.client.wait_until_ready()
        async with table.lock:
            await self.presenter.repost(table, with_hands=True)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        self.cancel_all_tasks()
        self.thinker.close()

    # -- the move pipeline --------------------------------------------------------------------
    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: Action,
        *,
        interaction: discord.Interaction | None = None,
        by_ai: bool = False,
        expect_seq: int | None = None,
        reply: Callable[[], Rendered] | None = None,
    ) -> list[Event]:
        """Check, apply, commit and show one action. The caller must hold ``table.lock``.

        ``reply`` is for actions made from a private message (a player's ephemeral panel): once the
        action is committed, the interaction is answered by updating that message to ``reply()``,
        so the player sees the result first and the table costs one edit more, nothing else.
        """
        engine = table.engine
        if engine is None:
            raise Refusal("The game has not started yet.")
        seq = len(engine.log)
        if expect_seq is not None and expect_seq != seq:
            raise Refusal(MOVED_ON)
        engine.check(seat, action)
        before_key = table.kind.message_key(engine)
        new_engine, events = engine.apply(seat, action)
        stored = dict(action)  # the JSON object the log keeps
        table.engine = new_engine
        try:
            results = table.kind.results(table) if new_engine.is_over else None
            await self.store.record_action(
                table.id,
                seq,
                seat,
                stored,
                by_ai=by_ai,
                deal_scores=table.kind.deal_scores(new_engine, events),
                results=results,
                timer=None,
            )
        except StaleAction:
            # Another process committed this game's next move first: take its state from the store.
            table.engine = engine
            await self.reread(table)
            if self.drives(table):
                self.clock.kick(table)
            if by_ai or interaction is None:
                return []
            raise Refusal(MOVED_ON) from None
        except BaseException:
            # Nothing was committed, so nothing may be shown: rebuild the state from the log.
            table.engine = table.kind.engine.replay(
                table.rules,
                len(table.seats),
                table.record.seed or 0,
                table.record.actions,
                rng_version=table.record.rng_version,
            )
            raise
        table.record.actions.append((seat, stored))
        try:
            if reply is not None and interaction is not None and not interaction.response.is_done():
                await self.presenter.answer(interaction, reply())
            await self.presenter.show_move(table, events, before_key, interaction, results)
        except Exception:
            # The move is saved and stands; only showing it failed. Say so rather than "nothing changed".
            log.exception("game %s: move saved but not shown", table.id)
            if interaction is not None and not interaction.response.is_done():
                await interaction.response.send_message(
                    f"Your move was saved, but I could not update the table: /{table.kind.key} table shows it.",
                    ephemeral=True,
                )
        if new_engine.is_over:
            table.record.status = "finished"
            self.drop(table)
        else:
            self.clock.kick(table)
        return events
