"""Reaching Discord at start: log in again, with a growing pause, for as long as it cannot be
reached, and never let a stop wait on a name lookup.

An outage of the network (or of Discord) at start used to end the process with exit status 1;
systemd restarted it every ``RestartSec`` and gave up after ``StartLimitBurst`` starts, so an
outage of more than about 75 s left the service failed until someone came. Now the process itself
tries again, 5 s after the first failure, then 10, 20… up to every :data:`MOST_PAUSE` s, saying so
in the log and in ``/readyz`` (the gateway part's detail), so an outage of any length heals by
itself. Once logged in, discord.py's own gateway loop reconnects as it always did.

The lookups of Discord's addresses run each in a daemon thread of its own
(:class:`DaemonThreadResolver`), not in the event loop's executor: a lookup that hangs (a DNS
server that does not answer) kept the executor, and so the process, from ending after a clean
stop, until the stop's bound (``bot.host.stopping.STOP_SECONDS``) ended it with status 1.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

log = logging.getLogger("bot.host.login")

#: the pause after the first failed login, doubled after each further one up to MOST_PAUSE
FIRST_PAUSE = 5.0
MOST_PAUSE = 300.0
#: what a failed login that is worth another try raises: the network, DNS, Discord's 5xx
UNREACHABLE: tuple[type[BaseException], ...] = (
    OSError,
    aiohttp.ClientError,
    asyncio.TimeoutError,
    discord.DiscordServerError,
)


class _DaemonLookups:
    """``getaddrinfo`` and ``getnameinfo`` as the loop offers them, each in a daemon thread: a
    lookup that never returns is left behind when the process ends instead of holding it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def _in_daemon_thread(self, name: str, call: Callable[[], Any]) -> asyncio.Future[Any]:
        loop = self._loop
        future: asyncio.Future[Any] = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:
            if future.done():  # cancelled meanwhile (a stop): nobody waits for it any more
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        def run() -> None:
            try:
                outcome: tuple[Any, BaseException | None] = (call(), None)
            except Exception as error:
                outcome = (None, error)
            try:
                loop.call_soon_threadsafe(settle, *outcome)
            except RuntimeError:  # the loop closed while the lookup hung: the process is ending
                pass

        threading.Thread(target=run, name=name, daemon=True).start()
        return future

    async def getaddrinfo(self, host: str, port: int, **options: Any) -> Any:
        return await self._in_daemon_thread(f"lookup {host}", lambda: socket.getaddrinfo(host, port, **options))

    async def getnameinfo(self, address: Any, flags: int = 0) -> Any:
        return await self._in_daemon_thread("lookup name", lambda: socket.getnameinfo(address, flags))


class DaemonThreadResolver(aiohttp.ThreadedResolver):
    """aiohttp's own resolver (the system's ``getaddrinfo``, its results read as aiohttp reads
    them), with each lookup in a daemon thread instead of the loop's executor."""

    def __init__(self) -> None:
        super().__init__()
        self._loop = _DaemonLookups(asyncio.get_running_loop())  # type: ignore[assignment]


def connector() -> aiohttp.TCPConnector:
    """The connection pool of the bot's HTTP session and gateway (what discord.py would make,
    ``limit=0``), with :class:`DaemonThreadResolver`. A new one for each login try: closing a
    failed try's session closes its pool."""
    return aiohttp.TCPConnector(limit=0, resolver=DaemonThreadResolver())


async def log_in(
    client: Any,
    token: str,
    *,
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
) -> None:
    """``client.login(token)``, tried again while Discord cannot be reached (``client`` is a
    :class:`bot.client.CardBot`; its ``login_retry`` says why it is not connected meanwhile).

    A refused token (:class:`discord.LoginFailure`) is raised at once, and so is any failure once
    the bot's own start-up (``setup_hook``, which runs inside the login) has begun: trying that
    again would load the features twice."""
    pause = FIRST_PAUSE
    tries = 0
    while True:
        client.http.connector = connector()
        try:
            await client.login(token)
        except UNREACHABLE as error:
            if getattr(client, "setup_begun", False):
                raise
            tries += 1
            await client.http.close()  # the failed try's session (and its pool)
            why = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            client.login_retry = f"Discord not reached at start ({why}); try {tries} failed, the next in {pause:.0f} s"
            log.warning("could not reach Discord (%s); trying again in %.0f s (try %d)", why, pause, tries + 1)
            await sleep(pause)
            pause = min(pause * 2, MOST_PAUSE)
            continue
        if tries:
            log.info("reached Discord after %d failed tr%s", tries, "y" if tries == 1 else "ies")
        client.login_retry = None
        return
