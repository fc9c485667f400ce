"""``python -m bot.host.local``: play on this machine in a browser, without a Discord token.

The real bot, with its real SQLite store, runs against SimCord's in-memory Discord: one server
with a ``#cards`` channel and four members. SimCord's preview serves that channel as a
Discord-like page on 127.0.0.1, dressed as a player's page by :mod:`bot.host.local_page` (no developer
controls, the same address on every run, an open tab reconnecting by itself), where "Playing as"
switches between the members, so one person can sit at every seat (or fill seats with computer
players and play alone).

Three things make a test harness into a place to play:

- SimCord's clock only moves when its driver says so. :class:`WallClock` moves it with the wall
  clock, a few times a second, so turn timers and the computer players' pauses run by themselves.
  It takes turns with the page's clicks (one lock), so a click never collides with a tick and is
  never turned away for it, and it republishes the page only when the bot has changed something.
- The virtual clock starts at the wall-clock time, so deadlines stored by an earlier run still
  mean the same moment. The server, channel and members get the same ids on every run, so a
  second run finds its games in the database and posts their tables again.
- Ctrl-C (or SIGTERM) closes the page, the bot and the database in order.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.client import CardBot, create_bot, game_commands
from bot.host.health import EndpointError
from bot.host.leases import ShardsLost, lost_sentence
from bot.host.local_hints import command_hint, known_commands
from bot.host.local_page import DEFAULT_PORT, card_emoji_assets, dress, page_key, refuse_ending, table_state
from bot.host.settings import Settings
from bot.host.stopping import on_stop_signals
from db.errors import StoreConfigError

log = logging.getLogger("cardtable.local")

GUILD_ID = 100_000_000_000_000_001
GUILD_NAME = "Card Table (local)"
CHANNEL_NAME = "cards"
BOT_NAME = "Card Table"
MEMBERS = ("Alice", "Bob", "Carol", "Dave")
DEFAULT_DATABASE = "cardtable-local.sqlite3"
#: how often the clock catches up with the wall clock (seconds of real time)
TICK = 0.25
#: how long a press, a selection, a form or a typed command may keep the bot busy before the page
#: says it did not settle (seconds of real time). SimCord settles an action within one limit
#: (``Env.settle_timeout``, 5 s); on a loaded machine the bot's answer to a press (its commit, the
#: table's picture drawn in a thread) sometimes took longer, and the page answered "The bot action
#: did not settle before its deadline." although the card was played. A press is settled again,
#: one SimCord limit at a time, for as long as this. Not one longer limit: within its limit SimCord
#: also waits out every timer of the bot due before it (the presenter's retries, the turn timers),
#: so a 30 s limit made every press and tick wait for them.
PRESS_SETTLE = 30.0

#: actions SimCord ties to a publication of the page although they do not depend on its messages
UNBOUND_ACTIONS = frozenset({"modal_submit", "run_command", "autocomplete_command", "send_message"})
#: publications of each page remembered for judging a click made on an older one
KEPT_PUBLICATIONS = 200
#: the messages whose controls are compared (the page shows at most 50)
RECENT_MESSAGES = 100

MISSING_EXTRA = (
    "The local mode needs its optional packages: run `.venv/bin/pip install -e '.[local]'` first "
    "(the README's local command does it)."
)


class WallClock:
    """Moves SimCord's virtual clock with the real one, taking turns with the page's clicks."""

    def __init__(self, env: Any, preview: Any, rate: float = 1.0, press_settle: float = PRESS_SETTLE) -> None:
        self.env = env
        self.preview = preview
        #: the real seconds a page action may take to settle (:data:`PRESS_SETTLE`), on this
        #: clock (SimCord's own settle limit is real time too; a test gives a clock it moves)
        self.press_settle = press_settle
        self.real_time: Callable[[], float] = time.monotonic
        #: virtual seconds a real second (0: the clock moves only when :meth:`advance` is called)
        self.rate = rate
        #: seconds added by :meth:`advance`, on top of the real time passed
        self._added = 0.0
        self.lock = asyncio.Lock()
        self._seen = len(env.http_requests)
        self._published: dict[tuple[str, int], dict[str, tuple[Any, ...]]] = {}
        self._errors = env.error_cursor
        # time.perf_counter is never virtualised by SimCord: it is the wall clock we follow. The
        # clock is moved to a target rather than by each tick's step, since SimCord may itself
        # have moved it (it runs a bot timer due during its settling in real time).
        self._start_real = time.perf_counter()
        self._start_virtual = env.now()

    @staticmethod
    def start_at_wall_time(env: Any, wall: datetime) -> None:
        """Start SimCord's virtual clock at ``wall``, the real date and time, before the bot starts.

        ``wall`` is read with ``discord.utils.utcnow()`` before SimCord's environment exists: from
        then on SimCord serves that same function from its virtual clock, which the bot's timers
        read. Starting it at the real time lets deadlines stored by an earlier run keep their
        meaning (one that passed while the program was stopped expires at once), where SimCord's
        fixed start date would turn back the clock on every run.
        """
        env.backend.clock.advance(max(0.0, (wall - env.now()).total_seconds()))

    def guard_page_actions(self) -> None:
        """Run each page action under the clock's lock, and let it through when only the clock
        moved the page.

        SimCord allows one operation at a time, so a click waits for the tick in progress (a
        fraction of a second) instead of being refused. And SimCord refuses an action made on an
        older publication of the page; with computers moving every second that would refuse most
        clicks. Discord itself has no such check: a click reaches the bot with the message as it
        is now, and the bot judges it (ours answers a click on an outdated table itself). So an
        action made on an older publication is sent on when what was clicked is still there,
        unchanged: the same control of the same message with the same custom id. Forms and typed
        commands do not depend on the messages at all.
        """
        original_action: Callable[..., Awaitable[Any]] = self.preview._action
        original_publish: Callable[..., None] = self.preview._publish

        def publish(page: Any, **kwargs: Any) -> None:
            original_publish(page, **kwargs)
            self._published[(page.id, page.revision)] = self._controls(page.channel_id)
            self._published.pop((page.id, page.revision - KEPT_PUBLICATIONS), None)

        async def action(context_id: Any, body: Any) -> Any:
            async with self.lock:
                own = vars(self.env).get("_settle_internal")  # (None: SimCord's method, as always so far)
                self.env._settle_internal = self._patient(self.env._settle_internal)
                try:
                    answer = await original_action(context_id, refuse_ending(self._current(context_id, body)))
                    await self._answer_typed_command(context_id, body)
                    return answer
                finally:
                    # SimCord's own settle again, for the ticks
                    if own is None:
                        del self.env._settle_internal
                    else:
                        self.env._settle_internal = own
                    # The action published the page itself; only later changes need a refresh.
                    self._seen = len(self.env.http_requests)
                    self._report_errors()

        self.preview._publish = publish
        self.preview._action = action

    async def _answer_typed_command(self, context_id: Any, body: Any) -> None:
        """A chat line sent from the page that looks like a mistyped command (``/ohell new``) is
        answered in the channel with the command it was meant to be (:mod:`bot.host.local_hints`)."""
        page = self.preview._pages.get(context_id)
        if page is None or not isinstance(body, dict) or body.get("kind") != "send_message":
            return
        hint = command_hint(str(body.get("content") or ""), known_commands(self.env.bot.tree))
        channel = self.env.bot.get_channel(page.channel_id)
        if hint is None or not isinstance(channel, discord.TextChannel):
            return
        await channel.send(f"<@{page.viewer.id}> {hint}", allowed_mentions=discord.AllowedMentions.none())
        await self.preview.refresh()

    def _patient(self, settle: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        """SimCord's settle, tried again while the bot is still busy with the press, until
        :attr:`press_settle` real seconds have passed. Only a settle of its own limit is tried
        again: one given a deadline belongs to a move of the clock, which has its own."""

        async def patient(**options: Any) -> None:
            give_up = self.real_time() + self.press_settle
            while True:
                try:
                    return await settle(**options)
                except TimeoutError:
                    if "_deadline" in options or self.real_time() >= give_up:
                        raise
                    log.info("the bot is still busy with a press; settling again")

        return patient

    def _current(self, context_id: Any, body: Any) -> Any:
        page = self.preview._pages.get(context_id)
        if page is None or not isinstance(body, dict):
            return body
        seen = body.get("published_revision")
        if not isinstance(seen, int) or isinstance(seen, bool) or seen == page.revision:
            return body
        kind = body.get("kind")
        if kind in UNBOUND_ACTIONS:
            return {**body, "published_revision": page.revision}
        if kind in ("click", "select"):
            key = str(body.get("control_key"))
            then = self._published.get((page.id, seen), {}).get(key)
            if then is not None and then == self._controls(page.channel_id).get(key):
                return {**body, "published_revision": page.revision}
        return body

    def _controls(self, channel_id: int) -> dict[str, tuple[Any, ...]]:
        """Every button and select of the channel's recent messages, by the page's control key."""
        from simcord.preview._action_plans import _component_key, _component_paths

        found: dict[str, tuple[Any, ...]] = {}
        messages = self.env.backend.messages.get(channel_id, {})
        for message_id in list(messages)[-RECENT_MESSAGES:]:
            message = messages[message_id]
            for index, root in enumerate(message.components):
                for path, component in _component_paths(root, str(index)):
                    key = _component_key(component, path, message.id)
                    if key is not None:
                        found[key] = (component.get("custom_id"), component.get("label"), component.get("disabled"))
        return found

    async def tick(self) -> None:
        async with self.lock:
            passed = (time.perf_counter() - self._start_real) * self.rate + self._added
            target = self._start_virtual + timedelta(seconds=passed)
            try:
                await self.env.advance_time(max(0.0, (target - self.env.now()).total_seconds()))
            except TimeoutError:
                log.warning("the bot took more than %.0f s to settle; the clock goes on", self.env.settle_timeout)
            await self._show_changes()
            self._report_errors()

    async def _show_changes(self) -> None:
        """Republish the page when the bot has called Discord since it was last shown.

        The calls count as shown only once a publication went out: when the publication fails,
        the next tick tries again (before, they were marked first, and a failed refresh left the
        page as it was until something else changed: "Computer 1 is playing…" for minutes). And
        when the bot is too busy to settle in time (a loaded machine), the page is published as
        the bot has left it so far rather than not at all; the next tick settles and shows the rest.
        """
        calls = len(self.env.http_requests)
        if calls == self._seen:
            return
        try:
            await self.preview.refresh()
        except TimeoutError:
            log.warning("the bot is still busy; the page shows what it has done so far")
            self.preview._advance_presentation_time()
            for page in tuple(self.preview._pages.values()):
                if page.id in self.preview._pages:  # a publication prunes expired pages
                    self.preview._publish(page, reason="refresh")
            return  # not marked as shown: the next tick refreshes again, settled
        self._seen = calls

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` further than the real time has (tests drive it this way)."""
        self._added += seconds
        await self.tick()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the clock tick failed; it will try again")

    def _report_errors(self) -> None:
        cursor = self.env.error_cursor
        for error in self.env.errors_since(self._errors):
            log.error("the bot failed: %s", error, exc_info=error)
        self._errors = cursor


def _game_clock_sleep(env: Any) -> Callable[[float], Awaitable[None]]:
    """The bot's game-clock wait, declared to SimCord as a wait for the outside world: SimCord
    then leaves it to :class:`WallClock` to wake, instead of waiting a pause shorter than its
    settle time out in real time while every click waits behind it."""
    from simcord.backend.errors import SetupError

    async def sleep(seconds: float) -> None:
        try:
            await env.external_wait(asyncio.sleep(seconds), reason="the game clock")
        except SetupError:  # refused before waiting (not inside the bot's own work): wait plainly
            await asyncio.sleep(seconds)

    return sleep


def declare_outside_waits(bot: CardBot, env: Any) -> None:
    """The bot's waits that SimCord must not wait out before it shows the page: the game clock's
    pauses, and the coach's worker processes (so "working…" shows before the coach's answer)."""
    bot.tables.clock.sleep = _game_clock_sleep(env)

    from simcord.backend.errors import SetupError

    async def outside(awaitable: Awaitable[Any]) -> Any:
        try:
            return await env.external_wait(awaitable, reason="the coach's worker processes")
        except SetupError:  # refused before waiting (not inside the bot's own work): wait plainly
            return await awaitable

    bot.outside_wait = outside


def new_commands(keys: Iterable[str] | None = None) -> str:
    """The commands that open a table, one a game: "/a new or /b new". ``keys``: the games the
    bot has loaded (its registry, which also holds ``Settings.extra_games``); before they are
    loaded, the game packages under ``cogs/``."""
    return " or ".join(f"/{game} new" for game in (game_commands() if keys is None else keys))


def build_world(env: Any) -> tuple[Any, list[Any]]:
    """The server, its channel and its members, with the same ids on every run (SimCord's ids
    follow its clock, which is still at its fixed start when this runs)."""
    env.backend.bot_user.name = env.backend.bot_user.global_name = BOT_NAME
    guild = env.create_guild(GUILD_NAME, id=GUILD_ID)
    channel = guild.create_text_channel(CHANNEL_NAME, topic=f"Type {new_commands()} to open a table.")
    members = [guild.add_member(env.create_user(name)) for name in MEMBERS]
    return channel, members


async def show_tables_again(bot: CardBot) -> int:
    """Post every unfinished game's table in the new in-memory channel. On Discord the old
    messages would still be there; here the channel starts empty on every run."""
    count = 0
    for table in list(bot.tables.tables.values()):
        async with table.lock:
            await bot.tables.presenter.show_again(table)
        count += 1
    return count


async def follow_clock_commands(clock: WallClock, announce: Callable[[str], None]) -> None:
    """Move the clock by the lines ``advance SECONDS`` read from standard input, answering
    ``clock advanced SECONDS s`` once the page shows the result: the browser tests run the
    program with the clock stopped and move it themselves, so that no timer runs out, and no
    computer moves, behind a slow browser's back."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        words = line.decode(errors="replace").split()
        if len(words) == 2 and words[0] == "advance":
            await clock.advance(float(words[1]))
            announce(f"clock advanced {words[1]} s")


@contextlib.asynccontextmanager
async def local_table(
    settings: Settings, *, port: int = DEFAULT_PORT, clock_rate: float = 1.0, **env_options: Any
) -> AsyncIterator[tuple[Any, Any, WallClock, int]]:
    """The world ``python -m bot.host.local`` serves, entered in the caller's task (SimCord's clock
    scope must be left in the task it was entered in): SimCord's environment, the dressed page,
    its clock (not yet running), and how many unfinished games came back on the table."""
    from simcord.env import Env

    # The card emojis, as on Discord: the page shows their pictures (bot.host.local_page), not ♠ and ♣
    # as text, dark grey on the dark page.
    settings = dataclasses.replace(settings, card_emojis=True)
    wall = discord.utils.utcnow()  # the real time: no SimCord environment serves the clock yet
    bot = create_bot(settings)
    env = Env(bot, check_errors=False, **env_options)
    channel, members = build_world(env)
    WallClock.start_at_wall_time(env, wall)
    declare_outside_waits(bot, env)
    bot.tables.seating.one_channel = True  # the page has one channel: no advice to open another
    try:
        # Inside the try: a store refused at start (its StoreConfigError) still closes the bot and
        # its store, whose thread would otherwise keep the process alive.
        await env.start()
        # (the topic was written before the games loaded: now it names every game the bot runs,
        # those of Settings.extra_games too; the page reads it from SimCord's channel)
        channel._channel.topic = f"Type {new_commands(bot.tables.kinds)} to open a table."
        with env.time_context():
            await env.settle()
            if bot.emoji_task is not None:
                await bot.emoji_task  # uploaded before a table is posted again, with its emojis
            shown = await show_tables_again(bot)
            preview = env.preview(channel, viewers=members, layout="channel", port=port, assets=card_emoji_assets())
            names = {member.id: name for name, member in zip(MEMBERS, members, strict=True)}
            dress(
                preview,
                page_key(settings.database_path),
                members={name: member_id for member_id, name in names.items()},
                table=lambda: table_state(bot, channel.id, names),
            )
            async with preview:
                clock = WallClock(env, preview, rate=clock_rate)
                clock.guard_page_actions()
                await preview.refresh()
                yield env, preview, clock, shown
    finally:
        try:
            await env.shutdown()
        finally:
            await bot.close()


async def run(
    settings: Settings,
    *,
    port: int = DEFAULT_PORT,
    stop: asyncio.Event | None = None,
    announce: Callable[[str], None] = print,
    clock_rate: float = 1.0,
    clock_from_stdin: bool = False,
) -> None:
    """Serve the local table until ``stop`` is set (Ctrl-C or SIGTERM when run from the shell)."""
    stop = stop or asyncio.Event()
    async with local_table(settings, port=port, clock_rate=clock_rate) as (env, preview, clock, shown):
        tasks = [asyncio.create_task(clock.run())]
        if clock_from_stdin:
            tasks.append(asyncio.create_task(follow_clock_commands(clock, announce)))
        try:
            back = f"{shown} unfinished game(s) from {settings.database_path} are back on the table.\n"
            commands = new_commands(env.bot.tables.kinds)
            announce(
                f"Card Table is running locally. Open {preview.url} in your browser.\n"
                f"Switch between {', '.join(MEMBERS)} with 'Playing as' at the top; type {commands} "
                f"in #{CHANNEL_NAME} to open a table.\n"
                + (back if shown else "")
                + f"Games are saved in {settings.database_path}. Press Ctrl-C to stop."
            )
            waiter = asyncio.ensure_future(stop.wait())
            closed = asyncio.ensure_future(preview.wait_closed())
            lost = asyncio.ensure_future(env.bot.shards_lost.wait())  # the bot closed itself
            await asyncio.wait({waiter, closed, lost}, return_when=asyncio.FIRST_COMPLETED)
            for future in (waiter, closed, lost):
                future.cancel()
            if env.bot.lost_shards:
                raise ShardsLost(lost_sentence(env.bot.lost_shards, env.bot.leases.seconds))
        finally:  # the clock stops before the page, the bot and the store close
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.host.local", description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=DEFAULT_DATABASE, help=f"SQLite file of the games ({DEFAULT_DATABASE})")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port of the page on 127.0.0.1 (default {DEFAULT_PORT})"
    )
    parser.add_argument("--ai-delay", type=float, default=1.5, help="computer players' pause in seconds")
    parser.add_argument(
        "--health-port", type=int, default=None, help="serve /healthz, /readyz and /metrics on this port of 127.0.0.1"
    )
    parser.add_argument(
        "--clock-rate",
        type=float,
        default=1.0,
        help="game seconds a real second (default 1; 0 stops the game clock, for tests)",
    )
    # for tests: the clock also moves by "advance SECONDS" lines on standard input
    parser.add_argument("--clock-from-stdin", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 0 <= args.clock_rate < float("inf"):
        parser.error("--clock-rate is a number of game seconds a real second, 0 or more")
    try:
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception:
        print(MISSING_EXTRA, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    settings = Settings(token="", database_path=args.db, ai_delay=args.ai_delay, health_port=args.health_port)

    def announce(text: str) -> None:
        print(text, flush=True)

    async def serve() -> None:
        stop = asyncio.Event()
        on_stop_signals(lambda sig: stop.set())  # the same clean, bounded stop as python -m bot
        await run(
            settings,
            port=args.port,
            stop=stop,
            announce=announce,
            clock_rate=args.clock_rate,
            clock_from_stdin=args.clock_from_stdin,
        )

    from simcord.backend.errors import SetupError

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:  # a second Ctrl-C, or a platform without signal handlers
        pass
    except SetupError as error:
        if "could not bind port" in str(error):
            print(
                f"Port {args.port} is taken (is the local table already running?): pick another with --port.",
                file=sys.stderr,
            )
        else:
            print(f"The local table could not start: {error}", file=sys.stderr)
        return 1
    except discord.DiscordException as error:
        print(f"The local bot could not start: {error}", file=sys.stderr)
        return 1
    except StoreConfigError as error:  # a database that cannot be used, or one another bot runs on
        print(error, file=sys.stderr)
        return 2
    except ShardsLost as error:  # another program took the games over (it ran on the same file)
        print(error, file=sys.stderr)
        return 1
    except EndpointError as error:
        print(
            f"The health endpoint could not listen on port {error.port} of {error.host} ({error.reason}):"
            " pick another --health-port, or leave it out for no endpoint.",
            file=sys.stderr,
        )
        return 2
    print(f"Stopped. Your games are saved in {args.db}; run the same command to continue them.", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
