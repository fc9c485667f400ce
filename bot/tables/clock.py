"""The clock: everything that happens because time passes rather than because someone clicked.

Turn deadlines (a person who lets their time run out is stood in for by the computer), the
reminder at half time, the pause before a computer's move and the move itself. Every background
task of a table is started here, through :meth:`Clock.supervise`: a task that raises is logged
and run again after a pause (1 s, then 4 s, then 16 s); when it has failed four times the
channel is told in one line, and the table waits for the next change (a person's action, a seat
taken back, or a restart) to arm it again. A computer's decision therefore can no longer freeze a
table silently.

The clock does not know the move pipeline or seating: the table manager hands it the two things
it must be able to do (play a computer's move, stand in for a late person) when it builds it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.fairness import shuffles as fairness
from bot.messages.presentation import Presenter
from bot.messages.speech import table_language
from bot.seam.contract import Action, AnyKind, LiveTable, View
from bot.tables.pings import ping_after, ping_text
from bot.tables.registry import Registry
from db.records import Timer
from db.store import Store
from locales import N_, _, ngettext, set_speaking, translate

log = logging.getLogger(__name__)

REMINDER_FRACTION = 0.5  # remind a player when half of their turn time is gone
#: pauses before running a failed background task again; one failure more and the channel is told
RETRY_DELAYS = (1.0, 4.0, 16.0)
#: how long a stop waits for background tasks to finish once cancelled (they only roll back)
CLOSE_TIMEOUT = 10.0

#: plays a computer's action through the move pipeline (``TableManager.act(..., by_ai=True)``)
ComputerMove = Callable[[LiveTable, int, Action], Awaitable[object]]
#: hands a person's seat to the computer (``Seating.stand_in``)
StandIn = Callable[[LiveTable, int], Awaitable[None]]
Job = Callable[[], Coroutine[Any, Any, None]]
#: decides a computer seat's move off the event loop (``Thinker.decide``): kind, view, level, seed
Decide = Callable[[AnyKind, View, str, int], Awaitable[Action]]


class Clock:
    def __init__(
        self,
        registry: Registry,
        store: Store,
        presenter: Presenter,
        *,
        ai_delay: Callable[[], float],
        computer_move: ComputerMove,
        stand_in: StandIn,
        decide: Decide,
    ) -> None:
        self.registry = registry
        self.store = store
        self.presenter = presenter
        self.ai_delay = ai_delay
        self.computer_move = computer_move
        self.stand_in = stand_in
        self.decide = decide
        #: how the game clock waits (computer players' pauses, turn timers, retries). The local mode
        #: puts in one that only its own clock wakes, so that SimCord never waits such a pause out.
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
        #: every supervised task still running, of every table (dropped ones too), for :meth:`close`
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    # -- after every change -------------------------------------------------------------------
    def kick(self, table: LiveTable) -> None:
        """After any change: let a computer seat move, or (re)arm the turn timer for people."""
        engine = table.engine
        if engine is None or engine.is_over or not self.registry.drives(table):
            return
        to_act = engine.to_act()
        if any(table.seats[s].ai_level is not None for s in to_act):
            if table.kind.computers_wait(engine):
                return  # people answer first (a take-back); their answer kicks the clock again
            seq = engine.action_count
            self.supervise(table, N_("making a computer's move"), lambda: self._computer_turn(table, seq))
            return
        turn, ping = table.record.turn_seconds, ping_after(table.record.options)
        if not to_act or not (turn or ping):
            table.timer = None  # (pings turned off mid-game: a timer still running finds itself out of date)
            return
        seq, now = engine.action_count, discord.utils.utcnow().timestamp()
        old = table.timer
        if old is not None and (old.deadline is None or old.deadline > now) and table.timer_waiting >= set(to_act):
            # The same people are still deciding (simultaneous bids): their clock keeps running,
            # and whoever was pinged this turn is not pinged again.
            timer = Timer(table.id, seq, old.deadline, old.reminded, old.ping_at, old.pinged)
        else:
            timer = Timer(table.id, seq, now + turn if turn else None, False, now + ping if ping else None, False)
        table.timer_waiting = frozenset(to_act)
        self.supervise(table, N_("running the turn timer"), lambda: self._arm_timer(table, timer), timer=True)

    def resume_timer(self, table: LiveTable, timer: Timer) -> None:
        """After a restart: a person's clock keeps the time it had before."""
        assert table.engine is not None
        table.timer_waiting = frozenset(table.engine.to_act())
        self.supervise(table, N_("running the turn timer"), lambda: self._run_timer(table, timer), timer=True)

    # -- supervised tasks ---------------------------------------------------------------------
    def supervise(self, table: LiveTable, what: str, job: Job, *, timer: bool = False) -> None:
        """Run ``job()`` in the background for ``table``; a turn timer replaces the running one.
        Once the clock is closed (the bot is stopping) nothing new starts."""
        if self.closed:
            log.debug("game %s: not %s, the bot is stopping", table.id, what)
            return
        if timer:
            for task in table.timer_tasks:
                if task is not asyncio.current_task():
                    task.cancel()
        task = asyncio.get_running_loop().create_task(self._supervised(table, what, job))
        bucket = table.timer_tasks if timer else table.tasks
        bucket.add(task)
        task.add_done_callback(bucket.discard)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        """Stop every background task and wait until each has finished (a write in progress rolls
        back), then for the computers' thread: a stop leaves nothing running that could log a
        traceback or touch a closed store. Nothing new starts afterwards."""
        self.closed = True
        current = asyncio.current_task()
        while True:
            running = [t for t in self.tasks if t is not current and not t.done()]
            if not running:
                break
            for task in running:
                task.cancel()
            done, pending = await asyncio.wait(running, timeout=CLOSE_TIMEOUT)
            if pending:
                log.warning("%d background task(s) did not stop within %s s", len(pending), CLOSE_TIMEOUT)
                break

    async def _supervised(self, table: LiveTable, what: str, job: Job) -> None:
        # Work in the background speaks the table's channel's language, never that of the press
        # that happened to start it (this task's own copy of the context).
        set_speaking(table_language(self.presenter.client, table.record.guild_id, table.record.options))
        failures = 0
        while True:
            try:
                await job()
                return
            except Exception:
                failures += 1
                log.exception("game %s: %s failed (%d of %d tries)", table.id, what, failures, len(RETRY_DELAYS) + 1)
                if failures > len(RETRY_DELAYS):
                    break
            await self.sleep(RETRY_DELAYS[failures - 1])
            if not self.registry.is_live(table):
                return
        if self.registry.is_live(table):
            self.presenter.tell(
                table,
                ngettext(
                    "⚠️ Something went wrong on my side {what} ({n} try), so this game is stuck: it goes on after the"
                    " next change at the table or a restart, or the host can /{key} end it.",
                    "⚠️ Something went wrong on my side {what} ({n} tries), so this game is stuck: it goes on after the"
                    " next change at the table or a restart, or the host can /{key} end it.",
                    failures,
                    what=translate(what),
                    key=table.kind.key,
                ),
            )

    # -- computer seats -----------------------------------------------------------------------
    async def _computer_turn(self, table: LiveTable, seq: int) -> None:
        await self.sleep(self.ai_delay())
        async with table.lock:
            engine = table.engine
            if engine is None or engine.is_over or engine.action_count != seq or not self.registry.is_live(table):
                return
            seat = next((s for s in engine.to_act() if table.seats[s].ai_level is not None), None)
            if seat is None:
                return
            level = table.seats[seat].ai_level or "quick"
            # The computers' dice come from the game's salt, never from the secret deal seed.
            seed = fairness.computer_seed_of(table.record, seq)
            view = table.kind.ai_view(engine, seat)
            # The strong level searches for up to a few hundred ms: off the event loop (in a worker
            # process, or a thread of this one).
            action = await self.decide(table.kind, view, level, seed)
            await self.computer_move(table, seat, action)

    # -- turn timers --------------------------------------------------------------------------
    async def _arm_timer(self, table: LiveTable, timer: Timer) -> None:
        table.timer = timer
        await self.store.set_timer(timer, table.id)
        await self._run_timer(table, timer)

    async def _run_timer(self, table: LiveTable, timer: Timer) -> None:
        """The turn's clock, in time order: the ping of a player not looking (if the table pings),
        the reminder at half time and the deadline (if it has a turn timer)."""
        table.timer = timer
        seconds = table.record.turn_seconds or 0
        while True:
            due = [
                *([(timer.ping_at, "ping")] if timer.ping_at is not None and not timer.pinged else []),
                *(
                    [(timer.deadline - seconds * (1 - REMINDER_FRACTION), "remind")]
                    if timer.deadline is not None and not timer.reminded
                    else []
                ),
            ]
            if not due:
                break
            at, what = min(due)
            await self._sleep_until(at)
            async with table.lock:
                if not self._timer_current(table, timer):
                    return
                if what == "ping":
                    timer.pinged = True
                    await self.store.set_timer(timer, table.id)
                    await self._ping(table, timer)
                else:
                    timer.reminded = True
                    await self.store.set_timer(timer, table.id)
                    await self._remind(table, timer)
        if timer.deadline is None:
            return  # no turn timer: the table waits as long as it takes
        await self._sleep_until(timer.deadline)
        async with table.lock:
            if not self._timer_current(table, timer):
                return
            engine = table.engine
            assert engine is not None
            stored = (await self.store.game_versions([table.id])).get(table.id)
            if stored is None or stored.actions != engine.action_count:
                # Another process moved this game meanwhile: its owner re-reads it and re-arms the clock.
                return
            late = [s for s in engine.to_act() if table.seats[s].ai_level is None]
            for seat in late:
                await self.stand_in(table, seat)
                table.notice(
                    _(
                        "⏰ {name} ran out of time: the computer plays their seat until they press"
                        " **Take my seat back**.",
                        name=table.name(seat),
                    )
                )
            table.timer = None
            await self.store.set_timer(None, table.id)
            self.kick(table)

    async def _sleep_until(self, timestamp: float) -> None:
        delay = timestamp - discord.utils.utcnow().timestamp()
        if delay > 0:
            await self.sleep(delay)

    def _timer_current(self, table: LiveTable, timer: Timer) -> bool:
        engine = table.engine
        return (
            self.registry.is_live(table)
            and engine is not None
            and not engine.is_over
            and engine.action_count == timer.seq
            and table.timer is timer
        )

    async def _remind(self, table: LiveTable, timer: Timer) -> None:
        """The reminder goes out through the table's display: retried if Discord fails, and
        dropped (never sent late) once the turn it is about is over. It names everyone it is
        about, but notifies (pings) only those who did not turn pings off, and nobody once this
        turn's ping went out: a turn pings a person once (:mod:`bot.tables.pings`)."""
        engine = table.engine
        assert engine is not None
        users = [table.seats[s].user_id or 0 for s in engine.to_act() if table.seats[s].ai_level is None]
        off = await self.store.pings_off(users)
        notified = [] if timer.pinged else [user for user in users if user not in off]

        def mentions() -> discord.AllowedMentions:
            return discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(user) for user in notified], replied_user=False
            )

        def text() -> str | None:
            engine = table.engine
            if engine is None or not self._timer_current(table, timer):
                return None
            waiting = [table.mention(s) for s in engine.to_act() if table.seats[s].ai_level is None]
            if not waiting:
                return None
            left = max(0, round((timer.deadline or 0) - discord.utils.utcnow().timestamp()))
            line = _(
                "⏳ {waiting}: it's your move. {left} left before the computer plays it.",
                waiting=", ".join(waiting),
                left=duration(left),
            )
            # a player whose private panel the bot can no longer redraw (expired, never opened)
            closed = [
                s
                for s in engine.to_act()
                if table.seats[s].ai_level is None and not self.presenter.panels.live(table, s)
            ]
            if closed:
                line += _(" Press **{button}** on the table to play.", button=translate(table.kind.hand_button))
            return line

        self.presenter.remind(table, text, mentions)

    async def _ping(self, table: LiveTable, timer: Timer) -> None:
        """Ping the people the table waits on who are not looking (no live panel) and did not
        turn pings off; through the table's display, which drops the line once the turn is over
        (and leaves out whoever opened their panel meanwhile). Its mentions ping those people
        and nobody else, whatever a display name holds."""
        engine = table.engine
        assert engine is not None
        if ping_after(table.record.options) is None:
            return  # the host turned pings off since the turn began
        people = [s for s in engine.to_act() if table.seats[s].ai_level is None and table.seats[s].user_id]
        off = await self.store.pings_off([table.seats[s].user_id or 0 for s in people])
        wanted = [s for s in people if table.seats[s].user_id not in off]
        pinged: list[int] = []

        def text() -> str | None:
            live = table.engine
            if live is None or not self._timer_current(table, timer):
                return None
            waiting = set(live.to_act())
            seats = [s for s in wanted if s in waiting and not self.presenter.panels.live(table, s)]
            pinged[:] = [table.seats[s].user_id or 0 for s in seats]
            return ping_text([table.mention(s) for s in seats], table.kind.hand_button) if seats else None

        def mentions() -> discord.AllowedMentions:
            return discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(user) for user in pinged], replied_user=False
            )

        if wanted:
            self.presenter.ping(table, text, mentions)


def duration(seconds: int) -> str:
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60} s" if seconds % 60 else f"{seconds // 60} min"
    return f"{seconds} s"
