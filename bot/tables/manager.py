"""Live tables: the table manager, and the one path every move takes.

One accepted action follows one path, whoever made it (a person's click, a computer seat, a
timer running out): take the table's lock, let the engine check and apply it, commit it to the
store, and only then show it. A restart rebuilds every table from the store (rules, seed and the
action log replay to the same state), so nothing committed is lost and nothing uncommitted was
ever shown.

:class:`TableManager` is the registry of live tables (:class:`~bot.tables.registry.Registry`) plus the
move pipeline (:meth:`TableManager.act`) and restoring after a restart; it builds the other
runtime parts and wires them together: :attr:`seating`, :attr:`presenter` and :attr:`clock`.
Cogs reach the runtime only through these public objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.fairness import duplicate
from bot.fairness import shuffles as fairness
from bot.fairness.beacon.game import Beacons, DiscordClock
from bot.fairness.match_expiry import MatchExpiry
from bot.host import logs, metrics
from bot.host.settings import Settings
from bot.host.shards import shard_of
from bot.messages import speech
from bot.messages.errors import Refusal, mark_committed
from bot.messages.faults import TRANSIENT
from bot.messages.found_again import find_finale, find_table
from bot.messages.panels import HANDED_OVER, press_of
from bot.messages.presentation import Closing, Presenter
from bot.seam.contract import Action, AnyKind, LiveTable, Rendered
from bot.tables import secrecy
from bot.tables.clock import Clock
from bot.tables.registry import Registry
from bot.tables.seating import Seating
from bot.tables.secrecy import Door
from bot.tables.snapshot import forget
from bot.tables.thinking import Thinker
from db.errors import StaleAction, StoreError
from db.records import GameRecord, OldCopy, ResultRow, Timer
from db.store import Store
from games.common.engine import Engine, Event
from locales import N_, Msg, _, translate

log = logging.getLogger(__name__)

#: the answer to a form or panel drawn before a change that bears on that player's choice
STALE = N_("The table has moved on since you opened that; nothing was changed.")
#: how often a sharded process asks the store whether another process moved one of its games
WATCH_SECONDS = 1.0


class TableManager(Registry):
    def __init__(self, client: discord.Client, store: Store, settings: Settings) -> None:
        super().__init__()
        self.client = client
        self.store = store
        self.settings = settings
        self.presenter = Presenter(client, store, self.features)
        if settings.sharded:  # another process may read a table's message: each is written at once
            self.presenter.notes = None
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
        if settings.drand:
            self.seating.beacons = Beacons(store, client, DiscordClock(lambda s: self.clock.sleep(s)))
        #: closes the duplicate matches whose tables never all came (started with the watcher)
        self.expiry = MatchExpiry(
            store, self.presenter, self.kinds, self.owns, settings.match_expiry_days, lambda s: self.clock.sleep(s)
        )
        # The displays wait on the game clock (the local mode replaces its sleep after this).
        self.presenter.sleep = lambda seconds: self.clock.sleep(seconds)

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
        # a seat handed over by another process: its old player's panel here must not show it again
        handed = [
            (s.seat, s.name)
            for s in record.seats
            if s.seat < len(table.seats) and s.user_id != table.seats[s.seat].user_id
        ]
        noted = self.presenter.notes.messages.get(record.id) if self.presenter.notes is not None else None
        if noted is not None:  # the table's message this process posted, not written yet
            record.message_id, record.message_key = noted
        table.record = record
        for seat, name in handed:
            await self.presenter.panels.revoke(table, seat, Msg(HANDED_OVER, {"name": name}))
        if record.status == "playing":
            table.rules = fresh.rules_from_json(record.rules or {})
            table.engine = fresh.replay(table.rules, record)
        for task in table.timer_tasks:
            task.cancel()
        table.timer = None
        return True

    async def refresh(self, table: LiveTable) -> None:
        """Re-read one of this process's games that another process moved, and let its clock go on."""
        async with table.lock:
            if self.is_live(table) and await self.reread(table) and self.drives(table):
                log.info("game %s was moved by another process; re-read from the store", table.id)
                # the channel and the open panels show the game as it now is, then it goes on
                self.presenter.resume(table)
                await self.presenter.panels.redraw(table)
                self.clock.kick(table)

    def watch(self) -> None:
        """Once the games are restored: the duplicate matches' expiry, and, sharded, a look every
        second whether another process moved one of this process's games."""
        self.expiry.start()
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
        copies: dict[int, list[OldCopy]] = {}
        for copy in await self.store.old_copies():
            copies.setdefault(copy.game_id, []).append(copy)
        for record in await self.store.live_games():
            self._restore_live(record, timers, copies)
        # The panels players had open at the stop: still editable through their saved tokens, and
        # in their readers' languages as last seen (kept in the store: none has pressed yet).
        playing = [t for t in self.tables.values() if t.engine is not None]
        members = sorted({s.user_id for t in playing for s in t.seats if s.user_id is not None})
        try:
            speech.recall(await self.store.member_languages(members))
        except StoreError:  # the panels speak the table's language until their readers press
            log.warning("could not read the members' languages", exc_info=True)
        for saved in await self.store.take_panels([t.id for t in playing]):
            self.presenter.panels.load(self.tables[saved.game_id], saved)
        over = await self._restore_finales()
        await self._restore_comparisons(over)
        await self._restore_old_copies(copies, over)
        return len(self.tables)

    def _restore_live(self, record: GameRecord, timers: dict[int, Timer], copies: dict[int, list[OldCopy]]) -> None:
        """One unfinished game made live again, if it is this process's and of a kind it knows: a
        start that waited for its drand round waits again; a game in play is shown again (with the
        old copies it had not closed, taken from ``copies``) and its timer or its computers go on."""
        if not self.owns(record.guild_id):
            return  # another process's shard: it restores, times and drives that game
        if record.kind not in self.kinds:
            log.warning("game %s is of unknown kind %s; left alone", record.id, record.kind)
            return
        try:
            table = self.attach(record)
        except Exception:
            log.exception("could not rebuild game %s; it stays stored but is not live", record.id)
            return
        engine = table.engine
        if engine is None:
            if self.seating.starting(table):  # stopped while waiting for its drand round
                self.clock.supervise(
                    table, N_("waiting for the drand round"), functools.partial(self._start_later, table)
                )
            return
        # Whatever the channel missed before the stop (a deal's table never posted, an edit
        # that failed) is shown once the bot is connected.
        resume = functools.partial(self._resume_when_ready, table, copies.pop(table.id, []))
        self.clock.supervise(table, N_("showing the table again"), resume)
        timer = timers.get(table.id)
        computers_move = any(table.seats[s].ai_level is not None for s in engine.to_act())
        if timer is not None and engine.action_count == timer.seq and not computers_move:
            self.clock.resume_timer(table, timer)
        else:
            self.clock.kick(table)

    async def _restore_finales(self) -> dict[int, LiveTable]:
        """Tables of games over (rebuilt to show them, not to play on) whose standings are still to
        post; returns them by game, for the steps after (old copies still to close)."""
        over: dict[int, LiveTable] = {}
        for record in await self.store.unshown_finales():
            if record.kind in self.kinds and self.owns(record.guild_id):
                over[record.id] = table = self._rebuilt(record)
                self._post_finale_later(table)
        return over

    async def _restore_comparisons(self, over: dict[int, LiveTable]) -> None:
        """Duplicate matches over whose comparison the stopped bot never claimed (it stopped
        between the last table's end and the comparison): posted now, once (the claim)."""
        for match in await self.store.uncompared_matches():
            if match.kind not in self.kinds or not self.owns(match.guild_id):
                continue
            games = await self.store.match_games(match.id)
            if not secrecy.match_allows(Door.COMPARISON, match, games):  # still being played
                continue
            last = over.get(games[-1].id)
            if last is None:
                stored = await self.store.get_game(games[-1].id)  # with its moves, to rebuild it
                if stored is None:
                    continue
                last = self._rebuilt(stored)
            # the tables whose standings said the shuffle can be checked, or will (posted after this
            # restart, the match being over) are not told again
            told = {g.id for g in games if g.finale_revealed or g.id in over}
            compare = functools.partial(self._compare_later, last.kind, games, told)
            self.clock.supervise(last, N_("posting the duplicate match's comparison"), compare)

    async def _restore_old_copies(self, copies: dict[int, list[OldCopy]], over: dict[int, LiveTable]) -> None:
        """Old copies of games over that the stopped bot had not closed (those of live games were
        taken by :meth:`_restore_live`); a game not rebuilt yet is rebuilt to close them."""
        for game_id, old in copies.items():
            shown = over.get(game_id)
            if shown is None:
                stored = await self.store.get_game(game_id)
                # (A live game not restored here is another process's, or could not be rebuilt.)
                if stored is None or stored.live or stored.kind not in self.kinds or not self.owns(stored.guild_id):
                    continue
                over[game_id] = shown = self._rebuilt(stored)
            self.clock.supervise(
                shown, "closing old copies of the table", functools.partial(self._close_later, shown, old)
            )

    def _rebuilt(self, record: GameRecord) -> LiveTable:
        """A game that is over, rebuilt for rendering only: it is not live (nothing can be played on it)."""
        kind = self.kinds[record.kind]
        table = LiveTable(
            record=record, kind=kind, rules=kind.rules_from_json(record.rules or {}), lent=self.features.lent
        )
        if record.seed is not None:
            table.engine = kind.replay(table.rules, record)
        return table

    async def _start_later(self, table: LiveTable) -> None:
        await self.client.wait_until_ready()
        await self.seating.complete_start(table)

    def _post_finale_later(self, table: LiveTable) -> None:
        """A game finished before the stop, its standings never posted: post them now."""

        async def post() -> None:
            await self.client.wait_until_ready()
            # a duplicate match's table: its seed held while another table still plays (the
            # rebuilt table does not know; its standings would have said the shuffle can be checked)
            await duplicate.prepare(self.store, table)
            # (posted before a crash lost their note: found in the channel, not posted again)
            results = await self.store.results(table.id)
            if not await find_finale(self.presenter, table, results):
                self.presenter.post_finale(table, results)

        self.clock.supervise(table, N_("posting the final standings"), post)

    async def _compare_later(self, kind: AnyKind, games: list[GameRecord], told: set[int]) -> None:
        """A match over before the stop, its comparison never posted: every channel gets it, with
        the shuffle check where its table's standings have not said so (``told``)."""
        await self.client.wait_until_ready()
        await duplicate.finish(self.store, self.presenter, kind, games, shown=told)

    async def _close_later(self, table: LiveTable, copies: list[OldCopy]) -> None:
        """Old copies of a game over that the stopped bot had not closed: they lose their controls."""
        await self.client.wait_until_ready()
        async with table.lock:
            for copy in copies:
                self.presenter.close_old_copy(table, copy)

    async def _resume_when_ready(self, table: LiveTable, copies: list[OldCopy]) -> None:
        await self.client.wait_until_ready()
        async with table.lock:
            # a table posted before a crash lost its note is the table again, not posted anew
            await find_table(self.presenter, table)
            self.presenter.resume(table)
            # then the old copies the stopped bot had not closed (once the table is up again)
            for copy in copies:
                self.presenter.close_old_copy(table, copy)

    async def close(self) -> None:
        """Stop every table's background work and wait for it (see :meth:`Clock.close`), then the
        computers' workers and the displays."""
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        await self.expiry.close()
        await self.clock.close()
        await self.thinker.close()
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

        ``expect_key`` is the :meth:`~bot.seam.contract.GameKind.decision_digest` the player's form or
        panel was drawn with: if what bears on that seat's choice has changed since, the action is
        refused as stale (another player's secret bid does not count as a change).

        ``reply`` is for actions made from a private message (a player's ephemeral panel): once the
        action is committed, the interaction is answered by updating that message to ``reply()``,
        so the player sees the result first and the table costs one edit more, nothing else.
        """
        engine = self._checked(table, seat, action, expect_key)
        seq = engine.action_count
        before_key = table.kind.message_key_of(engine)
        before_deal = engine.deal_number
        new_engine, events = engine.apply(seat, action)
        forget(engine)  # the views of the state before the move are never shown again
        # a new deal's deck is stored with the move that dealt it (the provable shuffle)
        deal = fairness.dealt(new_engine) if new_engine.deal_number != before_deal else None
        stored = dict(action)  # the JSON object the log keeps
        table.engine = new_engine
        with self.presenter.in_channel(table):  # lines on the table: the channel's words, not the presser's
            notes = table.kind.move_notes(table, events)
        notices = list(table.notices)
        # what the channels show, still to write, rides on this write (:class:`~db.records.MessageNotes`)
        shown = self.presenter.take_notes()
        for note in notes.notices:  # once per move: drawing the table changes nothing
            table.notice(note)
        try:
            results = table.kind.results(table) if new_engine.is_over else None
            # A move that ends the deal or the game closes the table message: its last look is
            # drawn once, and the copy still to close is written with the move (one transaction).
            ends = new_engine.is_over or table.kind.message_key_of(new_engine) != before_key
            closing = self._closing(table, events, interaction) if ends else None
            # the game's end and what it does to the ratings: one write too
            rating = self.features.finish_rating if results is not None else None
            async with rating(table, results or []) if rating is not None else contextlib.nullcontext() as ratings:
                await self.store.record_action(
                    table.id,
                    seq,
                    seat,
                    stored,
                    by_ai=by_ai,
                    deal_scores=notes.deal_scores,
                    results=results,
                    timer=None,
                    deal=deal,
                    old_copy=closing.copy if closing is not None else None,
                    ratings=ratings,
                    notes=shown,
                )
        except StaleAction:
            # Another process committed this game's next move first. ``apply`` changed ``engine`` in
            # place, so the state before the move is rebuilt from the log this process committed,
            # then the store's state taken (should reading it fail, the table holds no move the
            # store refused).
            table.engine = table.kind.replay(table.rules, table.record)
            table.notices[:] = notices
            self.presenter.keep_notes(shown)
            await self.reread(table)
            if self.drives(table):
                self.clock.kick(table)
            if by_ai or interaction is None:
                return []
            raise Refusal(translate(STALE)) from None
        except BaseException:
            # Nothing was committed, so nothing may be shown: rebuild the state from the log.
            table.engine = table.kind.replay(table.rules, table.record)
            table.notices[:] = notices
            self.presenter.keep_notes(shown)
            raise
        table.record.actions.append((seat, stored))
        metrics.MOVES.labels(table.kind.key, "computer" if by_ai else "person").inc()
        # (what the move was is left out: it may be a card, which is a hand's secret until played)
        log.debug("game #%s: move %d committed, seat %d (%s)", table.id, seq, seat, "computer" if by_ai else "person")
        mark_committed(interaction, _("Your move"))
        # a computer's or a typed move leaves no press that could be "counted once" again
        pressed = press_of(interaction) if not by_ai else None
        if pressed is None:
            table.acted_from.pop(seat, None)
        else:
            table.acted_from[seat] = pressed
        match_done = None
        if new_engine.is_over:
            table.record.status = "finished"  # committed with the results: the finale may reveal the seed
            logs.event("finished", table.record, f"{len(table.seats)} players, {len(table.record.actions)} moves")
            match_done = await duplicate.prepare(self.store, table)  # a match's other tables may still play
        if results is not None:
            await self._run_finish_hooks(table, results)
        await self._answer_reply(table, seat, interaction, reply)
        # Never raises for Discord's failures: what could not be shown now, the display shows later.
        await self.presenter.show_move(table, events, before_key, interaction, results, closing)
        # the open private panels whose player has a reason to look are redrawn
        await self.presenter.panels.redraw(table)
        if interaction is not None and not interaction.response.is_done():
            # The move is saved and stands; only its answer failed. Say so, never "nothing changed".
            await self.presenter.saved_not_shown(interaction, table)
        await self._after_move(table, new_engine.is_over, match_done)
        return events

    def _checked(self, table: LiveTable, seat: int, action: Action, expect_key: str | None) -> Engine:
        """The check before a move: the game is on, the form or panel it came from is not stale,
        and the engine accepts it (else :class:`Refusal`). Returns the engine to apply it to."""
        engine = table.engine
        if engine is None:
            raise Refusal(_("The game has not started yet."))
        digest = table.kind.decision_digest(engine, seat)
        if expect_key is not None and expect_key != digest:
            raise Refusal(translate(STALE))
        engine.check(seat, action)
        return engine

    async def _answer_reply(
        self,
        table: LiveTable,
        seat: int,
        interaction: discord.Interaction | None,
        reply: Callable[[], Rendered] | None,
    ) -> None:
        """A move from a private message, committed: its interaction is answered by updating that
        message to ``reply()`` (a failure is logged: the move stands, the answer is said later)."""
        if reply is None or interaction is None or interaction.response.is_done():
            return
        answer = reply()
        try:
            await self.presenter.answer(interaction, answer)
        except TRANSIENT:
            log.warning("game %s: the answer to a move failed", table.id, exc_info=True)
        else:
            # the answered click's interaction is now the newest handle on this seat's panel
            await self.presenter.panels.opened(table, seat, interaction, drawn=answer)
            self.presenter.panels.stats.answers += 1

    async def _after_move(self, table: LiveTable, over: bool, match_done: list[GameRecord] | None) -> None:
        """Once a move is shown: a game over leaves the live tables (and the duplicate match it
        ended is compared); else the clock looks at the next turn."""
        if over:
            self.drop(table)
            if match_done is not None:
                await duplicate.finish(self.store, self.presenter, table.kind, match_done, shown=(table.id,))
        else:
            self.clock.kick(table)

    def _closing(
        self, table: LiveTable, events: list[Event], interaction: discord.Interaction | None
    ) -> Closing | None:
        """The closing table drawn for the move's transaction; a drawing that fails does not stop
        the move (it is drawn again to be shown, after the commit, as any drawing is)."""
        try:
            return self.presenter.closing(table, events, interaction)
        except Exception:
            log.exception("game %s: drawing the closed table failed", table.id)
            return None

    async def _run_finish_hooks(self, table: LiveTable, results: list[ResultRow]) -> None:
        for hook in self.features.finish_hooks:  # the features' (the stats rate the game)
            try:
                await hook(table, results)
            except Exception:  # the game is saved and over: a failed extra must not hide the standings
                log.exception("game %s: a finish hook failed", table.id)
