"""``python -m bot.local``: play on this machine in a browser, without a Discord token.

The real bot, with its real SQLite store, runs against SimCord's in-memory Discord: one server
with a ``#cards`` channel and four members. SimCord's preview serves that channel as a
Discord-like page on 127.0.0.1, where "Viewing as" switches between the members, so one person
can sit at every seat (or fill seats with computer players and play alone).

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
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.client import CardBot, create_bot
from bot.settings import Settings

log = logging.getLogger("cardtable.local")

GUILD_ID = 100_000_000_000_000_001
GUILD_NAME = "Card Table (local)"
CHANNEL_NAME = "cards"
BOT_NAME = "Card Table"
MEMBERS = ("Alice", "Bob", "Carol", "Dave")
DEFAULT_DATABASE = "cardtable-local.sqlite3"
#: how often the clock catches up with the wall clock (seconds of real time)
TICK = 0.25

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

    def __init__(self, env: Any, preview: Any) -> None:
        self.env = env
        self.preview = preview
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
                try:
                    return await original_action(context_id, self._current(context_id, body))
                finally:
                    # The action published the page itself; only later changes need a refresh.
                    self._seen = len(self.env.http_requests)
                    self._report_errors()

        self.preview._publish = publish
        self.preview._action = action

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
            target = self._start_virtual + timedelta(seconds=time.perf_counter() - self._start_real)
            try:
                await self.env.advance_time(max(0.0, (target - self.env.now()).total_seconds()))
            except TimeoutError:
                log.warning("the bot took more than %.0f s to settle; the clock goes on", self.env.settle_timeout)
            if len(self.env.http_requests) != self._seen:
                self._seen = len(self.env.http_requests)
                await self.preview.refresh()
            self._report_errors()

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


def build_world(env: Any) -> tuple[Any, list[Any]]:
    """The server, its channel and its members, with the same ids on every run (SimCord's ids
    follow its clock, which is still at its fixed start when this runs)."""
    env.backend.bot_user.name = env.backend.bot_user.global_name = BOT_NAME
    guild = env.create_guild(GUILD_NAME, id=GUILD_ID)
    channel = guild.create_text_channel(CHANNEL_NAME, topic="Type /ohhell new or /shithead new to open a table.")
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


async def run(
    settings: Settings,
    *,
    port: int = 0,
    stop: asyncio.Event | None = None,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the local table until ``stop`` is set (Ctrl-C or SIGTERM when run from the shell)."""
    from simcord.env import Env

    stop = stop or asyncio.Event()
    wall = discord.utils.utcnow()  # the real time: no SimCord environment serves the clock yet
    bot = create_bot(settings)
    env = Env(bot, check_errors=False)
    channel, members = build_world(env)
    WallClock.start_at_wall_time(env, wall)
    declare_outside_waits(bot, env)
    await env.start()
    clock_task: asyncio.Task[None] | None = None
    try:
        with env.time_context():
            await env.settle()
            shown = await show_tables_again(bot)
            async with env.preview(channel, viewers=members, layout="channel", port=port) as preview:
                clock = WallClock(env, preview)
                clock.guard_page_actions()
                await preview.refresh()
                clock_task = asyncio.create_task(clock.run())
                back = f"{shown} unfinished game(s) from {settings.database_path} are back on the table.\n"
                announce(
                    f"Card Table is running locally. Open {preview.url} in your browser.\n"
                    f"Switch between {', '.join(MEMBERS)} with 'Viewing as' at the top; type /ohhell new "
                    f"or /shithead new in #{CHANNEL_NAME} to open a table.\n"
                    + (back if shown else "")
                    + f"Games are saved in {settings.database_path}. Press Ctrl-C to stop."
                )
                waiter = asyncio.ensure_future(stop.wait())
                closed = asyncio.ensure_future(preview.wait_closed())
                await asyncio.wait({waiter, closed}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                closed.cancel()
                clock_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await clock_task
    finally:
        if clock_task is not None and not clock_task.done():
            clock_task.cancel()
        try:
            await env.shutdown()
        finally:
            await bot.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.local", description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=DEFAULT_DATABASE, help=f"SQLite file of the games ({DEFAULT_DATABASE})")
    parser.add_argument("--port", type=int, default=0, help="port of the page on 127.0.0.1 (default: any free one)")
    parser.add_argument("--ai-delay", type=float, default=1.5, help="computer players' pause in seconds")
    args = parser.parse_args(argv)
    try:
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception:
        print(MISSING_EXTRA, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    settings = Settings(token="", database_path=args.db, ai_delay=args.ai_delay)

    def announce(text: str) -> None:
        print(text, flush=True)

    async def serve() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers here
                loop.add_signal_handler(sig, stop.set)
        await run(settings, port=args.port, stop=stop, announce=announce)

    from simcord.backend.errors import SetupError

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:  # a second Ctrl-C, or a platform without signal handlers
        pass
    except SetupError as error:
        if "could not bind port" in str(error):
            print(f"Port {args.port} is taken: pick another with --port, or leave it out.", file=sys.stderr)
        else:
            print(f"The local table could not start: {error}", file=sys.stderr)
        return 1
    except discord.DiscordException as error:
        print(f"The local bot could not start: {error}", file=sys.stderr)
        return 1
    print(f"Stopped. Your games are saved in {args.db}; run the same command to continue them.", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
