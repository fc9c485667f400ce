"""A process whose shard lease another process took over (it stalled longer than the lease) stops
driving those games: ``python -m bot`` and ``python -m bot.host.local`` then end with one sentence and
exit status 1, so a supervisor starts them again. (They ended with 0, which systemd's
``Restart=on-failure`` takes for a wanted stop, and the local mode did not end at all: it served a
closed bot until Ctrl-C, which then logged a traceback.)

The lease is taken over through the database, as another process takes it; the heartbeat's pause
is the test's own (no wall-clock wait): it takes the lease away once the bot is connected."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import __main__ as entry
from bot.client import CardBot
from bot.host.leases import LEASE_SECONDS
from tests.bot.test_main import no_dotenv  # noqa: F401  (a fixture)

ELSEWHERE = "another-machine:4242:abcdef"  # another host: never judged gone, so never taken back


def take_over(bot: CardBot, connected: Callable[[], Awaitable[Any]]) -> Callable[[float], Awaitable[None]]:
    """The heartbeat's pause: once ``connected()`` returns, another process takes the leases over."""
    taken: list[bool] = []

    async def pause(seconds: float) -> None:
        if taken:
            await asyncio.Event().wait()  # (never reached: the first renewal finds the lease lost)
        await connected()
        await bot.store.release_leases(bot.leases.holder)
        blocking = await bot.store.claim_leases(ELSEWHERE, list(bot.leases.shards), bot.leases.shard_count, 60.0)
        assert blocking == []
        taken.append(True)

    return pause


def test_python_m_bot_ends_with_status_1_and_one_sentence(no_dotenv, monkeypatch, capsys, tmp_path):  # noqa: F811
    monkeypatch.setenv("DISCORD_TOKEN", "offline-test-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "cards.sqlite3"))
    for name in ("HEALTH_PORT", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    connected = asyncio.Event()

    async def login(self: discord.Client, token: str) -> None:  # no machine here reaches Discord
        await self.setup_hook()

    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        connected.set()
        while not self.is_closed():
            await asyncio.sleep(0)

    async def sync(self: app_commands.CommandTree, *, guild: object = None) -> list[object]:
        return []

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setattr(discord.Client, "connect", connect)
    monkeypatch.setattr(app_commands.CommandTree, "sync", sync)
    made: list[CardBot] = []

    def create(settings: Any) -> CardBot:
        bot = entry.create_bot.__wrapped__(settings)  # type: ignore[attr-defined]
        bot.leases.sleep = take_over(bot, connected.wait)
        made.append(bot)
        return bot

    create.__wrapped__ = entry.create_bot  # type: ignore[attr-defined]
    monkeypatch.setattr(entry, "create_bot", create)
    assert entry.main() == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err), err
    last = err[-1]
    assert "took over shard(s) 0" in last and f"{LEASE_SECONDS:.0f} s" in last and "start it again" in last, last
    assert made and made[0].is_closed()


def test_the_local_mode_ends_with_status_1_and_one_sentence(monkeypatch, capsys, tmp_path, caplog):
    try:
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception as error:
        pytest.skip(f"the local mode needs simcord[preview] ({error})")
    from bot.host import local

    real_clock, real_create, real_world = local.WallClock.run, local.create_bot, local.build_world
    envs: list[Any] = []
    taken = asyncio.Event()

    async def pause(seconds: float) -> None:  # the heartbeat's, declared to SimCord as outside input
        await envs[-1].external_wait(taken.wait(), reason="another process takes the lease over")

    def create(settings: Any) -> CardBot:
        bot = real_create(settings)
        bot.leases.sleep = pause
        return bot

    def world(env: Any) -> Any:
        envs.append(env)
        return real_world(env)

    async def clock_runs(self: Any) -> None:
        """The page is up and its clock runs: another process takes the lease over."""
        bot = self.env.bot
        await bot.store.release_leases(bot.leases.holder)
        assert await bot.store.claim_leases(ELSEWHERE, list(bot.leases.shards), bot.leases.shard_count, 60.0) == []
        taken.set()
        await real_clock(self)

    monkeypatch.setattr(local.WallClock, "run", clock_runs)
    monkeypatch.setattr(local, "create_bot", create)
    monkeypatch.setattr(local, "build_world", world)
    monkeypatch.setattr(logging, "basicConfig", lambda **options: None)  # pytest keeps its own logging
    # A bound, not a wait: before the fix the local mode never ended by itself; SIGTERM then ends it
    # (with status 0, which fails the test) instead of hanging the suite.
    bound = threading.Timer(60, os.kill, (os.getpid(), signal.SIGTERM))
    bound.start()
    try:
        code = local.main(["--db", str(tmp_path / "local.sqlite3"), "--port", "0", "--clock-rate", "0"])
    finally:
        bound.cancel()
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert "Traceback" not in out + err and not [r for r in caplog.records if r.exc_info], out + err
    last = err.strip().splitlines()[-1]
    assert "took over shard(s) 0" in last and "start it again" in last, last
    assert "Stopped. Your games are saved" not in out
