"""SIGTERM (how systemd, Docker and Kubernetes stop a
process) and SIGINT (Ctrl-C) stop ``python -m bot`` and ``python -m bot.host.cluster`` the same clean
way: the open panels are saved, the shard leases released, the tasks awaited, exit code 0.

Each runs as its own OS process, exactly as a host starts it. No test machine reaches Discord, so
``tests/fixtures/offline/sitecustomize.py`` (on the children's ``PYTHONPATH``) replaces the gateway
login with the bot's own start-up and a connection that waits until the bot closes. The game and
the panel a player had open are made first through SimCord, as players make them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from db.sqlite import SqliteStore
from games.compiled import in_use
from tests.helpers import close_made_bots, make_bot, open_hand, open_table

ROOT = Path(__file__).resolve().parents[3]
OFFLINE = ROOT / "tests" / "fixtures" / "offline"


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "cards.sqlite3")


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path)
    yield bot
    await close_made_bots()


async def _a_game_with_an_open_panel(env, db_path: str) -> int:
    """ann, bob and cat play; ann has her panel open; the bot stops (it saves the panel), and the panel
    is dated now in real time (SimCord's clock starts at a fixed date, and a panel older than
    Discord's 15 minutes is not kept)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    await open_table(env, channel, ann, [bob, cat])
    game = env.bot.tables.in_channel(channel.id).id
    await open_hand(ann, channel, env.bot.user.id)
    await close_made_bots()
    store = SqliteStore(db_path)
    await store.open()
    try:
        panels = await store.take_panels([game])
        assert [p.seat for p in panels] == [0]
        await store.save_panels([replace(p, opened=time.time()) for p in panels])
    finally:
        await store.close()
    return game


def _environment(db_path: str, *, offline: bool = True) -> dict[str, str]:
    """``offline``: with the stand-in gateway (not for the local mode, whose SimCord logs in itself)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")}
    env.update(
        DISCORD_TOKEN="offline-test-token",
        DATABASE_PATH=db_path,
        LOG_LEVEL="INFO",
        PYTHONPATH=os.pathsep.join([str(OFFLINE), str(ROOT)] if offline else [str(ROOT)]),
    )
    return env


def _start(args: list[str], db_path: str, ready: int) -> tuple[subprocess.Popen[str], list[str]]:
    """The command, once ``ready`` bots have said they are ready to play (their games restored)."""
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        env=_environment(db_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
        if sum("ready to play" in seen for seen in lines) == ready:
            return proc, lines
    proc.wait()
    raise AssertionError("".join(lines))


async def _after_the_stop(db_path: str, game: int) -> tuple[list[int], list[object]]:
    """The seats whose panels were saved, and the leases a newcomer finds in its way."""
    store = SqliteStore(db_path)
    await store.open()
    try:
        seats = [p.seat for p in await store.take_panels([game])]
        blocking = await store.claim_leases("newcomer:1:abc", [0, 1], 2, 60.0)
        return seats, list(blocking)
    finally:
        await store.close()


def _stop(proc: subprocess.Popen[str], lines: list[str], sig: signal.Signals, pid: int | None = None) -> str:
    """``sig`` to the process (or to ``pid``, one of its children), then all it says until it ends."""
    if pid is None:
        proc.send_signal(sig)
    else:
        os.kill(pid, sig)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError("did not stop within 60 s:\n" + "".join(lines) + out) from None
    return "".join(lines) + out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_bot_cleanly(simcord_env, db_path, sig) -> None:
    game = await _a_game_with_an_open_panel(simcord_env, db_path)
    proc, lines = await asyncio.to_thread(_start, ["-m", "bot"], db_path, 1)
    try:
        out = await asyncio.to_thread(_stop, proc, lines, sig)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "ERROR" not in out, out
    assert "stopping cleanly" in out, out
    # the operator reads at the start whether the computers run on the compiled loops
    assert f"the engine's inner loops {in_use()}" in out, out
    seats, blocking = await _after_the_stop(db_path, game)
    assert seats == [0], "the panel ann had open is saved for the next start"
    assert blocking == [], "the lease was released at the stop"


async def test_sigterm_stops_a_cluster_and_each_of_its_processes_cleanly(simcord_env, db_path) -> None:
    game = await _a_game_with_an_open_panel(simcord_env, db_path)
    args = ["-m", "bot.host.cluster", "--processes", "2", "--shards", "2"]
    proc, lines = await asyncio.to_thread(_start, args, db_path, 2)
    try:
        out = await asyncio.to_thread(_stop, proc, lines, signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "ERROR" not in out, out
    assert out.count("stopping cleanly") == 2, "each process was told, and each stopped cleanly"
    seats, blocking = await _after_the_stop(db_path, game)
    assert seats == [0], "the process running the game's shard saved ann's panel"
    assert blocking == [], "both processes released their leases"


async def _a_local_game_with_an_open_panel(db_path: str) -> int:
    """A game of the local mode's own server and channel (the ids are the same on every run), with
    ann's panel open, made as ``bot.host.local`` makes it and saved by the bot's stop."""
    import discord
    from simcord.env import Env

    from bot.host.local import WallClock, build_world

    wall = discord.utils.utcnow()
    bot = make_bot(db_path)
    env = Env(bot, check_errors=False)
    channel, members = build_world(env)
    WallClock.start_at_wall_time(env, wall)  # the panel is dated now, as in the local mode
    await env.start()
    try:
        with env.time_context():
            await env.settle()
            await open_table(env, channel, members[0], members[1:3])
            game = bot.tables.in_channel(channel.id).id
            await open_hand(members[0], channel, bot.user.id)
    finally:
        await env.shutdown()
        await close_made_bots()
    return game


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_local_mode_cleanly(db_path, sig) -> None:
    try:
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception as error:
        pytest.skip(f"the local mode needs simcord[preview] ({error})")
    game = await _a_local_game_with_an_open_panel(db_path)
    args = ["-m", "bot.host.local", "--db", db_path, "--port", "0"]

    def start() -> tuple[subprocess.Popen[str], list[str]]:
        proc = subprocess.Popen(
            [sys.executable, *args],
            cwd=ROOT,
            env=_environment(db_path, offline=False),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        lines: list[str] = []
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl-C" in line:
                return proc, lines
        proc.wait()
        raise AssertionError("".join(lines))

    proc, lines = await asyncio.to_thread(start)
    try:
        assert "1 unfinished game(s)" in "".join(lines)
        out = await asyncio.to_thread(_stop, proc, lines, sig)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "ERROR" not in out, out
    assert "Stopped. Your games are saved" in out, out
    seats, blocking = await _after_the_stop(db_path, game)
    assert seats == [0], "the panel ann had open is saved for the next start"
    assert blocking == [], "the lease was released at the stop"


async def test_a_stop_that_hangs_still_ends_the_process(monkeypatch) -> None:
    """The bound: a second signal only says the stop is under way, and a stop that takes longer
    than STOP_SECONDS exits with code 1. The deadline is armed through a recording ``call_later``
    and run by hand (no test waits on the wall clock), the exit recorded."""
    from bot.host import stopping

    exits: list[int] = []
    begun: list[signal.Signals] = []
    armed: list[tuple[float, Callable[[], None]]] = []
    monkeypatch.setattr(stopping.os, "_exit", exits.append)
    loop = asyncio.get_running_loop()
    try:
        stopping.on_stop_signals(begun.append, lambda seconds, callback: armed.append((seconds, callback)))
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the loop reads the signals from its wake-up pipe: turns, not time
            await asyncio.sleep(0)
            if begun and len(armed) == 1:
                break
        for _ in range(20):  # and the second signal's turn too
            await asyncio.sleep(0)
        assert begun == [signal.SIGTERM], "one stop, begun by the first signal"
        assert [seconds for seconds, _ in armed] == [stopping.STOP_SECONDS], "one deadline, armed once"
        assert exits == []
        armed[0][1]()  # the deadline passes with the stop still under way
        assert exits == [1]
    finally:
        for sig in stopping.STOP_SIGNALS:
            loop.remove_signal_handler(sig)
