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

import functools
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import duplicate, fairness
from bot.clock import Clock
from bot.contract import Action, LiveTable, Rendered
from bot.errors import Refusal
from bot.presentation import Presenter
from bot.registry import Registry
from bot.seating import Seating
from bot.settings import Settings
from db.store import GameRecord, ResultRow, Store
from games.common.engine import Event

log = logging.getLogger(__name__)

#: the answer to a form or panel drawn before a change that bears on that player's choice
STALE = "The table has moved on since you opened that; nothing was changed."
#: called once a finished game's results are committed, before its final standings are shown
#: (the stats cog rates the game here and notes the changes in each result's ``stats``)
FinishHook = Callable[[LiveTable, list[ResultRow]], Awaitable[None]]


class TableManager(Registry):
    def __init__(self, client: discord.Client, store: Store, settings: Settings) -> None:
        super().__init__()
        self.client = client
        self.store = store
        self.settings = settings
        self.presenter = Presenter(client, store)
        self.clock = Clock(
            self,
            store,
            self.presenter,
            ai_delay=lambda: self.settings.ai_delay,
            computer_move=self._computer_move,
            stand_in=self._stand_in,
        )
        self.seating = Seating(self, store, self.presenter, self.clock)
        # The displays wait on the game clock (the local mode replaces its sleep after this).
        self.presenter.sleep = lambda seconds: self.clock.sleep(seconds)
        self.finish_hooks: list[FinishHook] = []

    async def _computer_move(self, table: LiveTable, seat: int, action: Action) -> None:
        await self.act(table, seat, action, by_ai=True)

    async def _stand_in(self, table: LiveTable, seat: int) -> None:
        await self.seating.stand_in(table, seat)

    # -- restarts -----------------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every unfinished game after a start or restart; returns how many."""
        timers = {t.game_id: t for t in await self.store.timers()}
        for record in await self.store.live_games():
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
            # Whatever the channel missed before the stop (a deal's table never posted, an edit
            # that failed) is shown once the bot is connected.
            self.clock.supervise(table, "showing the table again", functools.partial(self._resume_when_ready, table))
            timer = timers.get(table.id)
            computers_move = any(table.seats[s].ai_level is not None for s in engine.to_act())
            if timer is not None and len(engine.log) == timer.seq and not computers_move:
                self.clock.resume_timer(table, timer)
            else:
                self.clock.kick(table)
        for record in await self.store.unshown_finales():
            if record.kind in self.kinds:
                self._post_finale_later(record)
        return len(self.tables)

    def _post_finale_later(self, record: GameRecord) -> None:
        """A game finished before the stop, its standings never posted: post them now. The table
        is rebuilt for rendering only; it is not live (nothing can be played on it)."""
        kind = self.kinds[record.kind]
        table = LiveTable(record=record, kind=kind, rules=kind.rules_from_json(record.rules or {}))
        table.engine = kind.engine.replay(
            table.rules, len(record.seats), record.seed or 0, record.actions, rng_version=record.rng_version
        )

        async def post() -> None:
            await self.client.wait_until_ready()
            self.presenter.post_finale(table, await self.store.results(record.id))

        self.clock.supervise(table, "posting the final standings", post)

    async def _resume_when_ready(self, table: LiveTable) -> None:
        await self.client.wait_until_ready()
        async with table.lock:
            self.presenter.resume(table)

    async def close(self) -> None:
        """Stop every table's background work and wait for it (see :meth:`Clock.close`), then the
        displays."""
        await self.clock.close()
        await self.presenter.close()

    # -- the move pipeline --------------------------------------------------------------------
    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: Action,
        *,
        interaction: discord.Interaction | None = None,
        by_ai: bool = False,
        expect_key: str | None = None,
        reply: Callable[[], Rendered] | None = None,
    ) -> list[Event]:
        """Check, apply, commit and show one action. The caller must hold ``table.lock``.

        ``expect_key`` is the :meth:`~bot.contract.GameKind.decision_digest` the player's form or
        panel was drawn with: if what bears on that seat's choice has changed since, the action is
        refused as stale (another player's secret bid does not count as a change).

        ``reply`` is for actions made from a private message (a player's ephemeral panel): once the
        action is committed, the interaction is answered by updating that message to ``reply()``,
        so the player sees the result first and the table costs one edit more, nothing else.
        """
        engine = table.engine
        if engine is None:
            raise Refusal("The game has not started yet.")
        seq = len(engine.log)
        digest = table.kind.decision_digest(engine, seat)
        if expect_key is not None and expect_key != digest:
            raise Refusal(STALE)
        engine.check(seat, action)
        before_key = table.kind.message_key(engine)
        before_deal = engine.deal_number
        new_engine, events = engine.apply(seat, action)
        # a new deal's deck is stored with the move that dealt it (the provable shuffle)
        deal = fairness.dealt(new_engine) if new_engine.deal_number != before_deal else None
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
                deal=deal,
            )
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
        table.acted_from[seat] = digest
        match_done = None
        if new_engine.is_over:
            table.record.status = "finished"  # committed with the results: the finale may reveal the seed
            match_done = await duplicate.prepare(self.store, table)  # a match's other tables may still play
        if results is not None:
            await self._run_finish_hooks(table, results)
        if reply is not None and interaction is not None and not interaction.response.is_done():
            try:
                await self.presenter.answer(interaction, reply())
            except discord.HTTPException:
                log.warning("game %s: the answer to a move failed", table.id, exc_info=True)
            else:
                # the answered click's interaction is now the newest handle on this seat's panel
                self.presenter.panels.opened(table, seat, interaction)
                self.presenter.panels.stats.answers += 1
        # Never raises for Discord's failures: what could not be shown now, the display shows later.
        await self.presenter.show_move(table, events, before_key, interaction, results)
        # the open private panels whose player has a reason to look are redrawn
        await self.presenter.panels.redraw(table)
        if interaction is not None and not interaction.response.is_done():
            # The move is saved and stands; only its answer failed. Say so, never "nothing changed".
            await self.presenter.saved_not_shown(interaction, table)
        if new_engine.is_over:
            self.drop(table)
            if match_done is not None:
                await duplicate.finish(self.store, self.presenter, table.kind, match_done)
        else:
            self.clock.kick(table)
        return events

    async def _run_finish_hooks(self, table: LiveTable, results: list[ResultRow]) -> None:
        for hook in self.finish_hooks:
            try:
                await hook(table, results)
            except Exception:  # the game is saved and over: a failed extra must not hide the standings
                log.exception("game %s: a finish hook failed", table.id)
