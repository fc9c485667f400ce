"""A whole game of each game on PostgreSQL, played as users play (the shard lease of shard 0 of 1
taken on PostgreSQL too). Unsharded: with the sharded watcher polling PostgreSQL, SimCord's
settling (which cannot see asyncpg's socket waits) times out now and then, so the watcher loop is
tested on SQLite in test_shards.py; here one look of it is called directly, and a second process's
store on the same PostgreSQL commits moves the bot must refuse or pick up.

The server is the test server of tests/db/conftest.py; where none answers these tests skip with
the reason (and fail under CI, which must run them).
"""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped,unused-ignore]
import pytest

from bot.client import create_bot
from bot.host.settings import Settings
from db.errors import OutcomeUnknown, StaleAction, StoreError
from db.postgres import PostgresStore
from tests.cogs.shithead.test_games import seat_table, use_seed
from tests.db.conftest import TEST_DATABASE_URL, pg_schema  # noqa: F401 - the fixture
from tests.helpers import (
    OhHellDriver,
    ShitheadDriver,
    close_made_bots,
    for_tests,
    message_text,
    open_hand,
    open_table,
    panel_moves,
    press,
    table_message,
    warning_of,
)

SHARDS = 1
SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


@pytest.fixture
async def simcord_bot(pg_schema):  # noqa: F811 - pytest's fixture by name
    settings = Settings(token="test-token", ai_delay=0.0, shard_count=SHARDS, shard_ids=tuple(range(SHARDS)))
    bot = for_tests(create_bot(settings, PostgresStore(TEST_DATABASE_URL, schema=pg_schema)))
    yield bot
    await close_made_bots()


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


# -- two processes on one PostgreSQL ---------------------------------------------------------------
async def _other_process(pg_schema: str) -> PostgresStore:  # noqa: F811
    """Another process's store on the same PostgreSQL schema."""
    other = PostgresStore(TEST_DATABASE_URL, schema=pg_schema)
    await other.open()
    return other


async def _people_table(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], options=SHORT)
    return channel, people, env.bot.tables.in_channel(channel.id)


async def test_a_move_another_process_committed_first_is_refused_here_on_postgres(simcord_env, pg_schema):  # noqa: F811
    env = simcord_env
    channel, people, table = await _people_table(env)
    engine = table.engine
    seat = engine.to_act()[0]
    person = next(p for p in people if p.id == table.seats[seat].user_id)
    panel = await open_hand(person, channel, env.bot.user.id)
    # The same person's other click reached another process, which committed it first (under
    # PostgreSQL's row lock on the game, the sequence number must be the next one).
    other = await _other_process(pg_schema)
    try:
        action = {"type": "bid", "bid": 0}
        await other.record_action(table.id, len(engine.log), seat, action)
        with pytest.raises(StaleAction):  # the same sequence number cannot be committed twice
            await other.record_action(table.id, len(engine.log), seat, {"type": "bid", "bid": 1})
    finally:
        await other.close()
    answer = await person.click(panel, custom_id=panel_moves(panel)["1"])
    assert "moved on" in (warning_of(answer) or ""), message_text(answer.response)
    stored = await env.bot.store.get_game(table.id)
    assert stored.actions == [(seat, action)], "exactly one of the two moves counted"
    assert table.engine.log == [(seat, action)], "this process re-read the game before answering"


async def test_the_owner_picks_up_a_move_another_process_made_on_postgres(simcord_env, pg_schema):  # noqa: F811
    env = simcord_env
    channel, people, table = await _people_table(env)
    seat = table.engine.to_act()[0]
    other = await _other_process(pg_schema)
    try:
        await other.record_action(table.id, 0, seat, {"type": "bid", "bid": 1})
    finally:
        await other.close()
    assert table.engine.log == []
    # One look of the watcher (sharded processes look every second; called here directly, since
    # SimCord's settling cannot see asyncpg's socket waits)
    # (Called from the test, the look and the display work it starts are not the bot's own tasks,
    # whose pauses SimCord's clock runs: the table's display skips its coalescing pause here.)
    env.bot.tables.presenter.display(table).coalesce = 0
    assert await env.bot.tables.look_for_moves() == 1
    await env.settle()
    assert table.engine.log == [(seat, {"type": "bid", "bid": 1})]
    # ... and the table shows the turn of the next bidder, whose panel goes on from there.
    nxt = table.engine.to_act()[0]
    assert f"<@{table.seats[nxt].user_id}>" in (table_message(channel, env.bot.user.id).content or "")
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=2)
    assert await driver.step()
    assert len((await env.bot.store.get_game(table.id)).actions) == 2


# -- the connection lost while a move commits ------------------------------------------------------
# tests/db/test_postgres_outcome.py cuts real connections on either side of COMMIT; here the
# store's write fails after the server committed, and the player must be told what happened.


async def _first_bidder(env):
    channel, people, table = await _people_table(env)
    seat = table.engine.to_act()[0]
    person = next(p for p in people if p.id == table.seats[seat].user_id)
    return channel, table, seat, person, await open_hand(person, channel, env.bot.user.id)


def _lost_after_commit(store: PostgresStore, monkeypatch, error: Exception) -> list[int]:
    """The next move's transaction commits, then its connection fails with ``error``."""
    real = store._record_action
    fired: list[int] = []

    async def committed_then_lost(game_id, seq, *args, **kwargs):
        await real(game_id, seq, *args, **kwargs)
        if not fired:
            fired.append(seq)
            raise error

    monkeypatch.setattr(store, "_record_action", committed_then_lost)
    return fired


@pytest.mark.parametrize(
    "lost",
    [
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.InternalClientError("cannot release the connection"),
    ],
    ids=["cut after commit", "driver error on release"],
)
async def test_a_move_saved_before_the_connection_failed_is_answered_as_saved(simcord_env, monkeypatch, lost):
    env = simcord_env
    channel, table, seat, person, panel = await _first_bidder(env)
    store = env.bot.store
    fired = _lost_after_commit(store, monkeypatch, StoreError(str(lost)))
    answer = await press(person, panel, "1")
    assert fired == [0]
    assert warning_of(answer) is None, message_text(answer.response)  # never "not saved"
    assert "not saved" not in message_text(answer.response) and "went wrong" not in message_text(answer.response)
    assert (await store.get_game(table.id)).actions == [(seat, {"type": "bid", "bid": 1})]
    assert table.engine.log == [(seat, {"type": "bid", "bid": 1})]
    nxt = table.engine.to_act()[0]
    assert f"<@{table.seats[nxt].user_id}>" in (table_message(channel, env.bot.user.id).content or "")


async def test_a_move_whose_outcome_cannot_be_learnt_is_answered_as_unknown(simcord_env, monkeypatch):
    env = simcord_env
    channel, table, seat, person, panel = await _first_bidder(env)
    store = env.bot.store

    async def lost(*args, **kwargs):
        raise StoreError("connection was closed in the middle of operation")

    async def cannot_ask(game_id, seq, seat_, action, error):
        raise OutcomeUnknown(f"{error}; the server does not answer")

    monkeypatch.setattr(store, "_record_action", lost)
    monkeypatch.setattr(store, "_settle_action", cannot_ask)
    answer = await press(person, panel, "1")
    text = message_text(answer.response)
    assert "cannot tell yet whether it counted" in text and "not saved" not in text, text
