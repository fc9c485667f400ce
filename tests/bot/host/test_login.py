"""Discord out of reach at start: the process tries again, 5 s, 10 s, 20 s… apart (at most
MOST_PAUSE), saying so in the log and in /readyz, for as long as it takes, where it used to end
with status 1 and leave systemd to give up after StartLimitBurst restarts (about 75 s of outage).
The pauses are the test's own (a virtual clock: no wall-clock wait)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot import __main__ as entry
from bot.client import CardBot
from bot.host import login
from bot.host.health import readiness
from bot.host.settings import Settings
from tests.bot.test_main import no_dotenv  # noqa: F401  (a fixture)


def failing_logins(bot: CardBot, failures: list[BaseException]) -> list[str]:
    """``bot.host.login`` fails with each of ``failures`` in turn, then succeeds; the tokens tried."""
    tried: list[str] = []

    async def attempt(token: str) -> None:
        tried.append(token)
        if failures:
            raise failures.pop(0)

    bot.login = attempt  # type: ignore[method-assign]
    return tried


async def test_an_hour_of_outage_at_start_is_waited_out_saying_so(tmp_path, caplog) -> None:
    bot = CardBot(Settings(token="t", database_path=str(tmp_path / "cards.sqlite3")))
    outage = 40  # failed tries: 5+10+20+40+80+160 s, then 300 s apart: over two hours
    tried = failing_logins(bot, [OSError(101, "Network is unreachable") for _ in range(outage)])
    pauses: list[float] = []
    said: list[str] = []

    async def pause(seconds: float) -> None:  # the virtual clock: what /readyz says meanwhile
        pauses.append(seconds)
        said.append(readiness(bot)["gateway"]["detail"])

    with caplog.at_level(logging.INFO, logger="bot.host.login"):
        await login.log_in(bot, "the-token", sleep=pause)
    assert len(tried) == outage + 1 and set(tried) == {"the-token"}
    assert pauses[:7] == [5, 10, 20, 40, 80, 160, 300] and set(pauses[6:]) == {login.MOST_PAUSE}
    assert sum(pauses) > 2 * 3600, "an outage of hours heals by itself"
    assert "Discord not reached at start (OSError: [Errno 101] Network is unreachable)" in said[0], said[0]
    assert "try 1 failed, the next in 5 s" in said[0] and "try 40 failed" in said[-1], said[-1]
    assert bot.login_retry is None, "logged in: /readyz says no more of it"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert (
        warnings[0]
        == "could not reach Discord (OSError: [Errno 101] Network is unreachable); trying again in 5 s (try 2)"
    )
    assert "reached Discord after 40 failed tries" in caplog.text


@pytest.mark.parametrize(
    "error",
    [
        discord.LoginFailure("Improper token has been passed."),  # a refused token: exit 2, not retried
        ValueError("a bug"),
    ],
)
async def test_what_waiting_cannot_mend_is_raised_at_once(tmp_path, error) -> None:
    bot = CardBot(Settings(token="t", database_path=str(tmp_path / "cards.sqlite3")))
    tried = failing_logins(bot, [error])

    async def pause(seconds: float) -> None:
        raise AssertionError("no pause: this is not an outage")

    with pytest.raises(type(error)):
        await login.log_in(bot, "t", sleep=pause)
    assert len(tried) == 1


async def test_a_failure_once_the_start_up_began_is_not_tried_again(tmp_path) -> None:
    """The features load inside the login (setup_hook): a second try would load them twice."""
    bot = CardBot(Settings(token="t", database_path=str(tmp_path / "cards.sqlite3")))
    bot.setup_begun = True
    failing_logins(bot, [OSError("the command sync lost the network")])
    with pytest.raises(OSError):
        await login.log_in(bot, "t", sleep=lambda seconds: asyncio.sleep(0))


def test_python_m_bot_waits_out_an_outage_at_start(no_dotenv, monkeypatch, capsys, tmp_path) -> None:  # noqa: F811
    """The command itself: three failed logins, then it starts and runs (and stops cleanly)."""
    monkeypatch.setenv("DISCORD_TOKEN", "offline-test-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "cards.sqlite3"))
    for name in ("HEALTH_PORT", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(login, "FIRST_PAUSE", 0.0)  # (the pauses themselves: the test above)
    failures: list[BaseException] = [OSError(101, "Network is unreachable") for _ in range(3)]
    connected: list[bool] = []

    async def log_in(self: discord.Client, token: str) -> None:  # no machine here reaches Discord
        if failures:
            raise failures.pop(0)
        await self.setup_hook()

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        connected.append(True)
        await self.close()  # (as if stopped: the command then ends)

    async def sync(self: app_commands.CommandTree, *, guild: object = None) -> list[object]:
        return []

    monkeypatch.setattr(discord.Client, "login", log_in)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setattr(app_commands.CommandTree, "sync", sync)
    assert entry.main() == 0, capsys.readouterr().err
    assert connected == [True] and failures == []
    assert "Could not reach Discord" not in capsys.readouterr().err


SLOW_DNS = Path(__file__).resolve().parents[2] / "fixtures" / "slowdns"
ROOT = Path(__file__).resolve().parents[3]


def test_a_stop_during_a_lookup_that_hangs_does_not_wait_for_it(tmp_path) -> None:
    """SIGTERM while the login waits for a DNS server that never answers: the stop is clean and
    the process ends at once with status 0. The lookup ran in the event loop's executor, whose
    thread the process waited for after "stopped cleanly", until the 20 s bound ended it with 1."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "HEALTH_PORT")}
    env.update(
        DISCORD_TOKEN="offline-test-token",
        DATABASE_PATH=str(tmp_path / "cards.sqlite3"),
        LOG_LEVEL="INFO",
        PYTHONPATH=os.pathsep.join([str(SLOW_DNS), str(ROOT)]),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        lines: list[str] = []
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "looking up discord.com" in line:
                break
        else:
            raise AssertionError("the login never looked Discord up:\n" + "".join(lines))
        proc.send_signal(signal.SIGTERM)
        # (a bound, not a wait: before the fix it took stopping.STOP_SECONDS, 20 s, and ended with 1)
        out = "".join(lines) + proc.communicate(timeout=60)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "stopped cleanly" in out, out
    assert "took longer" not in out and "Traceback" not in out, out
    assert proc.returncode == 0, out


async def test_the_daemon_thread_resolver_finds_what_aiohttps_own_finds() -> None:
    """The lookups moved to daemon threads read the same addresses, and a request through the
    bot's connection pool (:func:`bot.host.login.connector`) reaches a server by name."""
    import aiohttp
    from aiohttp import web

    ours = await login.DaemonThreadResolver().resolve("localhost", 80, socket.AF_UNSPEC)
    theirs = await aiohttp.ThreadedResolver().resolve("localhost", 80, socket.AF_UNSPEC)
    assert ours == theirs and ours, ours

    async def me(request: web.Request) -> web.Response:
        return web.json_response({"id": "1"})

    app = web.Application()
    app.router.add_get("/users/@me", me)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        async with aiohttp.ClientSession(connector=login.connector()) as session:
            async with session.get(f"http://localhost:{port}/users/@me") as response:
                assert response.status == 200 and await response.json() == {"id": "1"}
    finally:
        await runner.cleanup()
