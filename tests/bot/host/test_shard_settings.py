"""Shard settings, the cluster plan, the lease refusal at start and computer worker processes."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import discord
import pytest

from bot import __main__ as entry
from bot.host.cluster import health_port, plan
from bot.host.leases import LeaseKeeper, ShardsTaken, holder_is_gone
from bot.host.settings import Settings, SettingsError, parse_shard_ids
from bot.host.shards import shard_of
from bot.tables.thinking import Thinker, think
from db.sqlite import SqliteStore

SHARD_VARS = ("SHARD_COUNT", "SHARD_IDS", "COMPUTER_WORKERS")


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "DATABASE_PATH", "DATABASE_URL", *SHARD_VARS):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "x")


def one_sentence(text: str) -> str:
    assert "\n" not in text.strip() and text.strip().endswith(".") and "Traceback" not in text, text
    return text


@pytest.mark.parametrize(("text", "ids"), [("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)), ("0-1, 4", (0, 1, 4)), ("3", (3,))])
def test_shard_ids_are_read_as_lists_and_ranges(text, ids):
    assert parse_shard_ids(text) == ids


def test_shard_settings(clean_env, monkeypatch):
    unsharded = Settings.from_env()
    assert unsharded.shard_count == 1 and unsharded.own_shards == (0,) and not unsharded.sharded
    assert unsharded.computer_workers >= 1  # the core count by default
    monkeypatch.setenv("SHARD_COUNT", "4")
    assert Settings.from_env().own_shards == (0, 1, 2, 3)
    monkeypatch.setenv("SHARD_IDS", "1-2")
    monkeypatch.setenv("COMPUTER_WORKERS", "0")
    settings = Settings.from_env()
    assert settings.own_shards == (1, 2) and settings.sharded and settings.computer_workers == 0


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-5"}, "names shard 4"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "SHARD_IDS must list"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
        ({"SHARD_COUNT": "lots"}, "SHARD_COUNT must be"),
        ({"COMPUTER_WORKERS": "-1"}, "COMPUTER_WORKERS must be"),
    ],
)
def test_bad_shard_settings_are_one_sentence_and_a_clean_exit(clean_env, monkeypatch, capsys, env, named):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=named):
        Settings.from_env()
    assert entry.main() == 2
    one_sentence(capsys.readouterr().err)


def test_a_guilds_shard_is_discords_rule():
    guild = (123456789 << 22) | 4242
    assert shard_of(guild, 4) == 123456789 % 4
    assert shard_of(None, 4) == 0 and shard_of(guild, 1) == 0


def test_the_cluster_splits_the_shards_between_processes():
    assert plan(2, None, None) == (2, [[0], [1]])
    assert plan(3, 8, None) == (8, [[0, 1, 2], [3, 4, 5], [6, 7]])
    assert plan(2, 8, "4-7") == (8, [[4, 5], [6, 7]])
    with pytest.raises(SettingsError, match="cannot share"):
        plan(3, 2, None)


def test_the_cluster_command_refuses_a_bad_plan_in_one_sentence():
    done = subprocess.run(
        [sys.executable, "-m", "bot.host.cluster", "--processes", "3", "--shards", "2"], capture_output=True, text=True
    )
    assert done.returncode == 2 and one_sentence(done.stderr) and "--shards 3" in done.stderr


# -- the lease at start ---------------------------------------------------------------------------
HOLD = textwrap.dedent(
    """
    import asyncio, sys
    from bot.host.leases import LeaseKeeper
    from db.sqlite import SqliteStore

    async def main():
        store = SqliteStore(sys.argv[1])
        await store.open()
        keeper = LeaseKeeper(store, (0,), 1)
        await keeper.claim()
        print("holding", flush=True)
        await asyncio.sleep(60)

    asyncio.run(main())
    """
)


def test_a_second_bot_on_the_same_database_is_refused_and_a_dead_ones_lease_taken_over(
    clean_env, monkeypatch, capsys, tmp_path
):
    path = str(tmp_path / "cards.sqlite3")
    monkeypatch.setenv("DATABASE_PATH", path)
    first = subprocess.Popen([sys.executable, "-c", HOLD, path], stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "holding"

        async def never(self, token):
            raise AssertionError("a refused bot must not reach Discord")

        monkeypatch.setattr(discord.Client, "login", never)
        assert entry.main() == 2
        err = one_sentence(capsys.readouterr().err.strip().splitlines()[-1])
        assert err.startswith("Another Card Table bot") and f":{first.pid}:" in err and "stop it first" in err
    finally:
        first.kill()
        first.wait()

    # The holder died without releasing: its lease is taken over at once (same machine, no such process).
    async def refuse(self, token):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", refuse)
    assert entry.main() == 2
    assert "refused the token" in capsys.readouterr().err  # got past the lease, to the login


async def test_shard_refusals_name_the_shards_and_the_count(tmp_path):
    store, other = SqliteStore(str(tmp_path / "c.sqlite3")), SqliteStore(str(tmp_path / "c.sqlite3"))
    await store.open()
    await other.open()
    try:
        await store.claim_leases("elsewhere:1:abc", [1], 4, 60)
        with pytest.raises(ShardsTaken) as taken:
            await LeaseKeeper(other, (0, 1), 4).claim()
        message = one_sentence(str(taken.value))
        assert message.startswith("Shard 1 is already run by another Card Table process (elsewhere:1:abc)")
        with pytest.raises(ShardsTaken, match="SHARD_COUNT=4, not 2"):
            await LeaseKeeper(other, (0,), 2).claim()
        keeper = LeaseKeeper(other, (0, 2, 3), 4)
        await keeper.claim()
        await keeper.release()
        assert await store.claim_leases("elsewhere:1:abc", [0, 1, 2, 3], 4, 60) == []
    finally:
        await store.close()
        await other.close()


def test_only_a_process_that_cannot_be_running_is_gone():
    import os
    import socket

    host = socket.gethostname()
    assert holder_is_gone(f"{host}:{os.getpid()}:abc")  # an earlier bot object of this very process
    assert not holder_is_gone(f"{host}:{os.getppid()}:abc")  # alive
    assert not holder_is_gone("some-other-machine:1:abc")  # never judged: waits for expiry


# -- computers in worker processes -----------------------------------------------------------------
async def test_a_worker_process_decides_as_the_thread_does():
    from cogs.ohhell.kind import OhHellKind
    from cogs.shithead.kind import ShitheadKind
    from games.ohhell.ai import ai_view
    from games.ohhell.game import OhHell
    from games.ohhell.rules import make_rules as oh_rules
    from games.shithead.game import Shithead
    from games.shithead.rules import make_rules as sh_rules

    oh = OhHell.replay(oh_rules("classic"), 4, 11, [])
    sh = Shithead.replay(sh_rules("pagat"), 3, 11, [], 0)
    quick = random.Random(5)
    while not any(sh.known) or sh.phase != "play":  # a pile picked up: the computer's view remembers it
        seat = sh.to_act()[0]
        sh.apply(seat, ShitheadKind(None).ai_action(sh.view(seat), "quick", quick))
    sh_view = ShitheadKind(None).ai_view(sh, sh.to_act()[0])
    assert any(sh_view["known"])
    cases = [
        (OhHellKind(None), ai_view(oh, oh.to_act()[0]), "strong"),
        (ShitheadKind(None), sh_view, "strong"),
    ]
    pool, threads = Thinker(1), Thinker(0)
    try:
        for kind, view, level in cases:
            in_thread = await threads.decide(kind, view, level, 99)
            in_worker = await pool.decide(kind, view, level, 99)
            assert in_worker == dict(in_thread) == think(kind.ai_decider(), view, level, 99)
    finally:
        await pool.close()
        await threads.close()


def test_each_cluster_process_gets_its_own_health_port():
    assert [health_port({"HEALTH_PORT": "9464"}, i) for i in range(3)] == [
        {"HEALTH_PORT": "9464"},
        {"HEALTH_PORT": "9465"},
        {"HEALTH_PORT": "9466"},
    ]
    assert health_port({}, 1) == {}  # no endpoint asked for: none for any process
