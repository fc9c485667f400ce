"""A whole game of each game on PostgreSQL, played as users play (the shard lease of shard 0 of 1
taken on PostgreSQL too). Unsharded: with the sharded watcher polling PostgreSQL, SimCord's
settling (which cannot see asyncpg's socket waits) times out now and then, so the watcher is
tested on SQLite in test_shards.py and its query on both backends in tests/db/test_leases.py.

The server is the test server of tests/db/conftest.py; where none answers these tests skip with
the reason (and fail under CI, which must run them).
"""

from __future__ import annotations

import pytest

from bot.client import create_bot
from bot.settings import Settings
from db.postgres import PostgresStore
from tests.cogs.test_shithead_games import seat_table, use_seed
from tests.db.conftest import TEST_DATABASE_URL, pg_schema  # noqa: F401 - the fixture
from tests.helpers import MADE, OhHellDriver, ShitheadDriver, close_made_bots, open_table

SHARDS = 1
SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


@pytest.fixture
async def simcord_bot(pg_schema):  # noqa: F811 - pytest's fixture by name
    settings = Settings(token="test-token", ai_delay=0.0, shard_count=SHARDS, shard_ids=tuple(range(SHARDS)))
    bot = create_bot(settings, PostgresStore(TEST_DATABASE_URL, schema=pg_schema))
    MADE.append(bot)
    yield bot
    await close_made_bots()


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_whole_oh_hell_game_on_postgres(simcord_env):
    env = simcord_env
    assert isinstance(env.bot.store, PostgresStore)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    await open_table(env, channel, people[0], people[1:], preset="bowers", options=SHORT, computers=1)
    table = env.bot.tables.in_channel(channel.id)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=4)
    await driver.play_to_end()
    assert "Game over" in channel.last_message.content
    stored = await env.bot.store.get_game(table.id)
    assert stored.status == "finished" and len(stored.actions) == len(table.engine.log) > 10
    rows = await env.bot.store.results(table.id)
    assert sorted(r.place for r in rows)[0] == 1 and len(rows) == 3
    stats = await people[0].slash(channel, "cardstats")
    assert stats.response is not None


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_whole_shithead_game_on_postgres(simcord_env, monkeypatch):
    use_seed(monkeypatch, 5)
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], 1)
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    rows = await env.bot.store.results(driver.live.id)
    assert sorted(r.place for r in rows) == [1, 2, 3] and [r.is_loser for r in rows].count(True) == 1
    stored = await env.bot.store.get_game(driver.live.id)
    assert stored.status == "finished" and len(stored.actions) == len(driver.engine.log)
