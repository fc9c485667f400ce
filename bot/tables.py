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
from collections.abc import Callable

import discord

from bot.clock import Clock
from bot.contract import Action, LiveTable, Rendered
from bot.errors import Refusal
from bot.presentation import Presenter
from bot.registry import Registry
from bot.seating import Seating
from bot.settings import Settings
from db.store import Store
from games.common.engine import Event

log = logging.getLogger(__name__)

#: the answer to a form or panel drawn before a change that bears on that player's choice
STALE = "The table has moved on since you opened that; nothing was changed."


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
        """Stop every table's background work and wait for it (see :meth:`Clock.close`)."""
        await self.clock.close()

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
        if expect_key is not None and expect_key != table.kind.decision_digest(engine, seat):
            raise Refusal(STALE)
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
