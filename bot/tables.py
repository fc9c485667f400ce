"""Live tables: every game the bot is running, whatever the game.

One accepted action follows one path, whoever made it (a person's click, a computer seat, a
timer running out): take the table's lock, let the engine check and apply it, commit it to the
store, and only then show it. A restart rebuilds every table from the store (rules, seed and the
action log replay to the same state), so nothing committed is lost and nothing uncommitted was
ever shown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Refusal
from bot.kinds import KINDS, GameKind, Rendered
from db.store import ChannelBusy, GameRecord, SeatRecord, Store, Timer
from games.common.engine import Engine, Event
from games.common.rng import GENERATOR_VERSION

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)

REMINDER_FRACTION = 0.5  # remind a player when half of their turn time is gone


@dataclass(eq=False)
class LiveTable:
    record: GameRecord
    kind: GameKind
    rules: Any = None
    engine: Engine | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: public one-liners to show on the table (timeouts, closed DMs...), newest last
    notices: list[str] = field(default_factory=list)
    tasks: set[asyncio.Task] = field(default_factory=set)
    timer_tasks: set[asyncio.Task] = field(default_factory=set)
    #: the running turn timer and the seats it was armed for
    timer: Timer | None = None
    timer_waiting: frozenset[int] = frozenset()

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    def seat_of(self, user_id: int) -> int | None:
        for s in self.record.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def name(self, seat: int) -> str:
        return self.record.seats[seat].name

    def mention(self, seat: int) -> str:
        s = self.record.seats[seat]
        if s.user_id is None or s.ai_level is not None:
            return f"**{s.name}**"
        return f"<@{s.user_id}>"

    def notice(self, text: str) -> None:
        self.notices.append(text)
        del self.notices[:-4]


class TableManager:
    def __init__(self, bot: CardBot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.tables: dict[int, LiveTable] = {}
        #: how the game clock waits (computer players' pauses, turn timers). The local mode puts in
        #: one that only its own clock wakes, so that SimCord never waits such a pause out.
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep

    # -- finding tables -----------------------------------------------------------------------
    def get(self, game_id: int) -> LiveTable:
        table = self.tables.get(game_id)
        if table is None:
            raise Refusal("This game has ended; its buttons no longer do anything.")
        return table

    def in_channel(self, channel_id: int, kind: str | None = None) -> LiveTable | None:
        for table in self.tables.values():
            if table.record.channel_id == channel_id and (kind is None or table.kind.key == kind):
                return table
        return None

    def _attach(self, record: GameRecord) -> LiveTable:
        kind = KINDS[record.kind]
        table = LiveTable(record=record, kind=kind)
        if record.status == "playing":
            table.rules = kind.rules_from_json(record.rules or {})
            table.engine = kind.engine.replay(
                table.rules, len(record.seats), record.seed or 0, record.actions, rng_version=record.rng_version
            )
        self.tables[record.id] = table
        return table

    async def restore(self) -> int:
        """Rebuild every unfinished game after a start or restart; returns how many."""
        timers = {t.game_id: t for t in await self.store.timers()}
        for record in await self.store.live_games():
            if record.kind not in KINDS:
                log.warning("game %s is of unknown kind %s; left alone", record.id, record.kind)
                continue
            try:
                table = self._attach(record)
            except Exception:
                log.exception("could not rebuild game %s; it stays stored but is not live", record.id)
                continue
            engine = table.engine
            if engine is None:
                continue
            if record.message_key != self._key_text(table):
                # The bot stopped between saving a deal's first state and posting its table.
                self._spawn(table, self._repost_when_ready(table))
            timer = timers.get(table.id)
            computers_move = any(table.seats[s].ai_level is not None for s in engine.to_act())
            if timer is not None and len(engine.log) == timer.seq and not computers_move:
                # A person's clock keeps the time it had before the restart.
                table.timer_waiting = frozenset(engine.to_act())
                self._spawn(table, self._run_timer(table, timer), timer=True)
            else:
                self.kick(table)
        return len(self.tables)

    # -- lobby --------------------------------------------------------------------------------
    async def _repost_when_ready(self, table: LiveTable) -> None:
        await self.bot.wait_until_ready()
        async with table.lock:
            await self.repost(table, with_hands=True)

    async def open_lobby(
        self, kind: GameKind, guild_id: int | None, channel_id: int, host: discord.abc.User, preset: str
    ) -> LiveTable:
        existing = self.in_channel(channel_id)
        if existing is not None:
            raise Refusal(_busy_text(existing))
        kind.make_rules(preset, {})  # refuse an unknown preset before storing anything
        try:
            game_id = await self.store.create_game(kind.key, guild_id, channel_id, host.id, preset, {})
        except ChannelBusy:
            raise Refusal("This channel already has a game. Finish it, or open a table in another channel.") from None
        seats = [SeatRecord(0, host.id, _display(host))]
        await self.store.set_seats(game_id, seats)
        record = await self.store.get_game(game_id)
        assert record is not None
        return self._attach(record)

    def lobby_rules(self, table: LiveTable) -> Any:
        return table.kind.make_rules(table.record.preset, table.record.options)

    async def change_options(
        self, table: LiveTable, preset: str, options: dict[str, str], turn_seconds: int | None
    ) -> None:
        rules = table.kind.make_rules(preset, options)  # raises RulesError with the reason
        low, high = table.kind.player_range(rules)
        if len(table.seats) > high:
            raise Refusal(f"That allows at most {high} players, and {len(table.seats)} have joined.")
        await self.store.set_options(table.id, preset, options, turn_seconds)
        table.record.preset, table.record.options, table.record.turn_seconds = preset, options, turn_seconds

    async def join(self, table: LiveTable, user: discord.abc.User) -> None:
        self._require_lobby(table)
        if table.seat_of(user.id) is not None:
            raise Refusal("You are already at this table.")
        _, high = table.kind.player_range(self.lobby_rules(table))
        if len(table.seats) >= high:
            raise Refusal(f"The table is full ({high} players is the most these rules allow).")
        await self._set_seats(table, [*table.seats, SeatRecord(len(table.seats), user.id, _display(user))])

    async def add_computer(self, table: LiveTable, level: str) -> None:
        self._require_lobby(table)
        _, high = table.kind.player_range(self.lobby_rules(table))
        if len(table.seats) >= high:
            raise Refusal(f"The table is full ({high} players is the most these rules allow).")
        number = sum(1 for s in table.seats if s.user_id is None) + 1
        name = f"Computer {number} ({level})"
        await self._set_seats(table, [*table.seats, SeatRecord(len(table.seats), None, name, level)])

    async def remove_seat(self, table: LiveTable, seat: int) -> None:
        self._require_lobby(table)
        rest = [s for s in table.seats if s.seat != seat]
        await self._set_seats(table, rest)

    async def _set_seats(self, table: LiveTable, seats: list[SeatRecord]) -> None:
        renumbered = [SeatRecord(i, s.user_id, s.name, s.ai_level, s.dm_closed) for i, s in enumerate(seats)]
        await self.store.set_seats(table.id, renumbered)
        table.record.seats = renumbered

    def _require_lobby(self, table: LiveTable) -> None:
        if table.record.status != "lobby":
            raise Refusal("The game has already started.")

    async def start(self, table: LiveTable) -> None:
        """Deal the first hand. The caller answers the interaction; this posts the table."""
        self._require_lobby(table)
        rules = self.lobby_rules(table)
        low, high = table.kind.player_range(rules)
        count = len(table.seats)
        if not low <= count <= high:
            raise Refusal(f"These rules need {low} to {high} players; {count} {'is' if count == 1 else 'are'} seated.")
        seed = random.SystemRandom().getrandbits(62)
        # RulesError here leaves the lobby open
        engine = table.kind.engine.new(rules, count, seed, rng_version=GENERATOR_VERSION)
        await self.store.start_game(table.id, table.kind.rules_to_json(rules), seed, table.seats, GENERATOR_VERSION)
        table.record.status, table.record.seed = "playing", seed
        table.record.rng_version = GENERATOR_VERSION
        table.record.rules = table.kind.rules_to_json(rules)
        table.rules, table.engine = rules, engine

    async def cancel(self, table: LiveTable) -> None:
        await self.store.end_game(table.id, "cancelled")
        self._drop(table)

    def _drop(self, table: LiveTable) -> None:
        for task in (*table.tasks, *table.timer_tasks):
            if task is not asyncio.current_task():
                task.cancel()
        self.tables.pop(table.id, None)

    # -- playing ------------------------------------------------------------------------------
    async def act(
        self,
        table: LiveTable,
        seat: int,
        action: dict,
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
            raise Refusal("The table has moved on since you opened that; nothing was changed.")
        engine.check(seat, action)
        before_key = table.kind.message_key(engine)
        new_engine, events = engine.apply(seat, action)
        table.engine = new_engine
        try:
            results = table.kind.results(table) if new_engine.is_over else None
            await self.store.record_action(
                table.id,
                seq,
                seat,
                action,
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
        table.record.actions.append((seat, action))
        try:
            if reply is not None and interaction is not None and not interaction.response.is_done():
                await interaction.response.edit_message(**reply().kwargs())
            await self._present(table, events, before_key, interaction, results)
        except Exception:
            # The move is saved and stands; only showing it failed. Say so rather than "nothing changed".
            log.exception("game %s: move saved but not shown", table.id)
            if interaction is not None and not interaction.response.is_done():
                await interaction.response.send_message(
                    f"Your move was saved, but I could not update the table: /{table.kind.key} table shows it.",
                    ephemeral=True,
                )
            self.kick(table)
        return events

    async def _present(
        self,
        table: LiveTable,
        events: list[Event],
        before_key: Any,
        interaction: discord.Interaction | None,
        results: list | None,
    ) -> None:
        engine = table.engine
        assert engine is not None
        new_message = table.kind.message_key(engine) != before_key or engine.is_over
        if new_message:
            await self._show(table, table.kind.closing(table, events), interaction)
            if engine.is_over:
                await self._finish(table, results or [])
                return
            try:
                await self.post_new_table(table, events)
            except discord.HTTPException:
                # The move is saved; the table can be brought back with /<game> table (or by a restart).
                log.warning("could not post the new table of game %s", table.id, exc_info=True)
        else:
            await self._show(table, table.kind.table(table, events), interaction)
        self.kick(table)

    async def _show(self, table: LiveTable, rendered: Rendered, interaction: discord.Interaction | None) -> None:
        """Edit the table message: through the interaction's own answer when it came from that
        message (no extra REST call), else with one edit."""
        message_id = table.record.message_id
        if (
            interaction is not None
            and not interaction.response.is_done()
            and interaction.message is not None
            and interaction.message.id == message_id
        ):
            await interaction.response.edit_message(**rendered.kwargs())
            return
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()
        if message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
        try:
            await channel.get_partial_message(message_id).edit(**rendered.kwargs())
        except discord.NotFound:
            await self._post_table_message(table, rendered)
        except discord.HTTPException:
            log.warning("could not edit the table of game %s", table.id, exc_info=True)

    async def post_new_table(self, table: LiveTable, events: list[Event]) -> None:
        """A new deal: hands go out privately first, so the table can say whose DMs failed."""
        assert table.engine is not None
        await self.send_hands(table)
        await self._post_table_message(table, table.kind.table(table, events))

    async def _post_table_message(self, table: LiveTable, rendered: Rendered) -> None:
        channel = self.bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
        message = await channel.send(**{k: v for k, v in rendered.kwargs().items() if v is not None})
        key = self._key_text(table)
        table.record.message_id, table.record.message_key = message.id, key
        await self.store.set_message(table.id, message.id, key)

    def _key_text(self, table: LiveTable) -> str | None:
        return json.dumps(table.kind.message_key(table.engine)) if table.engine is not None else None

    async def repost(self, table: LiveTable, *, with_hands: bool = False) -> None:
        """Post the table afresh (lost in a busy channel, or never posted before a crash); the
        old message's buttons then answer that it is out of date."""
        if with_hands:
            await self.send_hands(table)
        await self._post_table_message(table, table.kind.table(table, []))

    async def send_hands(self, table: LiveTable) -> None:
        for seat in table.seats:
            if seat.user_id is None or seat.ai_level is not None or seat.dm_closed:
                continue
            rendered = table.kind.dm(table, seat.seat)
            if rendered is None:
                continue
            try:
                channel = await self.bot.create_dm(discord.Object(seat.user_id))
                await channel.send(**{k: v for k, v in rendered.kwargs().items() if v is not None})
            except discord.Forbidden:
                seat.dm_closed = True
                await self.store.update_seat(table.id, seat)
                table.notice(
                    f"📪 I can't DM {seat.name} (their DMs are closed): "
                    f"they can use **{table.kind.hand_button}** instead."
                )
            except discord.HTTPException:
                log.warning("could not DM seat %s of game %s", seat.seat, table.id, exc_info=True)

    async def _finish(self, table: LiveTable, results: list) -> None:
        rendered = table.kind.finale(table, results)
        channel = self.bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
        try:
            await channel.send(**{k: v for k, v in rendered.kwargs().items() if v is not None})
        except discord.HTTPException:
            log.warning("could not post the final standings of game %s", table.id, exc_info=True)
        table.record.status = "finished"
        self._drop(table)

    async def end_early(self, table: LiveTable, by: str) -> None:
        """The host ends the game: standings so far are shown but not stored as a result."""
        await self.store.end_game(table.id, "cancelled")
        if table.engine is not None and table.record.message_id is not None:
            rendered = table.kind.table(table, [])
            rendered.view = None
            rendered.content = f"🛑 Game ended by {by}."
            await self._show(table, rendered, None)
        self._drop(table)

    # -- seats changing hands -----------------------------------------------------------------
    async def stand_in(self, table: LiveTable, seat: int, level: str = "quick") -> None:
        """A computer takes over a person's seat (they left, or their time ran out)."""
        record = table.seats[seat]
        record.ai_level = level
        await self.store.update_seat(table.id, record)

    async def take_back(self, table: LiveTable, seat: int) -> None:
        record = table.seats[seat]
        if record.ai_level is None:
            raise Refusal("You already have your seat: it's you who plays it.")
        record.ai_level = None
        await self.store.update_seat(table.id, record)
        table.notice(f"🙋 {record.name} is back and plays their own seat again.")
        self.kick(table)
        if table.engine is not None:
            # The table says at once whose move it is now: theirs, not the computer's.
            await self._show(table, table.kind.table(table, []), None)

    # -- computer seats and turn timers ---------------------------------------------------------
    def kick(self, table: LiveTable) -> None:
        """After any change: let a computer seat move, or (re)arm the turn timer for people."""
        engine = table.engine
        if engine is None or engine.is_over or table.id not in self.tables:
            return
        to_act = engine.to_act()
        if any(table.seats[s].ai_level is not None for s in to_act):
            self._spawn(table, self._computer_turn(table, len(engine.log)))
            return
        if not to_act or not table.record.turn_seconds:
            return
        seq, now = len(engine.log), discord.utils.utcnow().timestamp()
        old = table.timer
        if old is not None and old.deadline > now and table.timer_waiting >= set(to_act):
            # The same people are still deciding (simultaneous bids): their clock keeps running.
            timer = Timer(table.id, seq, old.deadline, old.reminded)
        else:
            timer = Timer(table.id, seq, now + table.record.turn_seconds, False)
        table.timer_waiting = frozenset(to_act)
        self._spawn(table, self._arm_timer(table, timer), timer=True)

    def _spawn(self, table: LiveTable, coro: Coroutine[Any, Any, Any], *, timer: bool = False) -> None:
        if timer:
            for task in table.timer_tasks:
                if task is not asyncio.current_task():
                    task.cancel()
        task = asyncio.get_running_loop().create_task(coro)
        bucket = table.timer_tasks if timer else table.tasks
        bucket.add(task)
        task.add_done_callback(bucket.discard)

    async def _computer_turn(self, table: LiveTable, seq: int) -> None:
        await self.sleep(self.bot.settings.ai_delay)
        async with table.lock:
            engine = table.engine
            if engine is None or engine.is_over or len(engine.log) != seq or table.id not in self.tables:
                return
            seat = next((s for s in engine.to_act() if table.seats[s].ai_level is not None), None)
            if seat is None:
                return
            level = table.seats[seat].ai_level or "quick"
            rng = random.Random((table.record.seed or 0) * 1_000_003 + seq)
            view = table.kind.ai_view(engine, seat)
            # The strong level searches for up to a few hundred ms: keep the event loop answering.
            action = await asyncio.get_running_loop().run_in_executor(None, table.kind.ai_action, view, level, rng)
            try:
                await self.act(table, seat, action, by_ai=True)
            except Exception:
                log.exception("computer move failed in game %s", table.id)

    async def _arm_timer(self, table: LiveTable, timer: Timer) -> None:
        table.timer = timer
        await self.store.set_timer(timer, table.id)
        await self._run_timer(table, timer)

    async def _run_timer(self, table: LiveTable, timer: Timer) -> None:
        table.timer = timer
        seconds = table.record.turn_seconds or 0
        if not timer.reminded:
            await self._sleep_until(timer.deadline - seconds * (1 - REMINDER_FRACTION))
            async with table.lock:
                if not self._timer_current(table, timer):
                    return
                timer.reminded = True
                await self.store.set_timer(timer, table.id)
                await self._remind(table, timer)
        await self._sleep_until(timer.deadline)
        async with table.lock:
            if not self._timer_current(table, timer):
                return
            engine = table.engine
            assert engine is not None
            late = [s for s in engine.to_act() if table.seats[s].ai_level is None]
            for seat in late:
                await self.stand_in(table, seat)
                table.notice(
                    f"⏰ {table.name(seat)} ran out of time: the computer plays their seat until they press "
                    "**Take my seat back**."
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
            table.id in self.tables
            and engine is not None
            and not engine.is_over
            and len(engine.log) == timer.seq
            and table.timer is timer
        )

    async def _remind(self, table: LiveTable, timer: Timer) -> None:
        engine = table.engine
        assert engine is not None
        waiting = [table.mention(s) for s in engine.to_act() if table.seats[s].ai_level is None]
        left = max(0, round(timer.deadline - discord.utils.utcnow().timestamp()))
        channel = self.bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
        try:
            await channel.send(
                f"⏳ {', '.join(waiting)}: it's your move. {_duration(left)} left before the computer plays it.",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.warning("could not send a reminder in game %s", table.id, exc_info=True)

    async def close(self) -> None:
        for table in list(self.tables.values()):
            for task in (*table.tasks, *table.timer_tasks):
                task.cancel()


def _duration(seconds: int) -> str:
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60} s" if seconds % 60 else f"{seconds // 60} min"
    return f"{seconds} s"


def _display(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _busy_text(table: LiveTable) -> str:
    what = "a lobby" if table.record.status == "lobby" else "a game in progress"
    return f"This channel already has {what} ({table.kind.title}). Finish it, or open a table in another channel."
