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
from datetime import UTC, datetime
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
        self._errors = env.error_cursor
        # time.perf_counter is never virtualised by SimCord: it is the wall clock we follow.
        self._last = time.perf_counter()

    def guard_page_actions(self) -> None:
        """Run each page action under the clock's lock. SimCord allows one operation at a time
        and answers a click that arrives during a tick with an error, so the click waits for the
        tick (a fraction of a second) instead."""
        original: Callable[..., Awaitable[Any]] = self.preview._action

        async def action(*args: Any, **kwargs: Any) -> Any:
            async with self.lock:
                try:
                    return await original(*args, **kwargs)
                finally:
                    # The action published the page itself; only later changes need a refresh.
                    self._seen = len(self.env.http_requests)
                    self._report_errors()

        self.preview._action = action

    async def tick(self) -> None:
        async with self.lock:
            now = time.perf_counter()
            try:
                await self.env.advance_time(max(0.0, now - self._last))
            except TimeoutError:
                log.warning("the bot took more than %.0f s to settle; the clock goes on", self.env.settle_timeout)
            self._last = now
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
    from cogs.lobby import post_lobby

    count = 0
    for table in list(bot.tables.tables.values()):
        async with table.lock:
            if table.engine is None:
                await post_lobby(bot, table)
            else:
                await bot.tables.repost(table)
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
    bot = create_bot(settings)
    env = Env(bot, check_errors=False)
    channel, members = build_world(env)
    # Start the virtual clock at the wall-clock time: stored deadlines keep their meaning.
    env.backend.clock.advance(max(0.0, (datetime.now(UTC) - env.now()).total_seconds()))
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

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:  # a second Ctrl-C, or a platform without signal handlers
        pass
    except discord.DiscordException as error:
        print(f"The local bot could not start: {error}", file=sys.stderr)
        return 1
    print(f"Stopped. Your games are saved in {args.db}; run the same command to continue them.", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
