"""Shards across processes, played as users play, one SimCord world and one database.

SimCord runs one bot at a time; a "process" here is a bot object, and another process writing to
the same database is a second store opened on the same file. Moving shards between processes is a
restart with other ``SHARD_IDS``: the stopped bot is closed first (its leases released), as a
clean stop of a process does.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.client import CardBot, ShardedCardBot
from bot.host.leases import LeaseKeeper
from bot.host.settings import Settings
from bot.host.shards import shard_of
from db.sqlite import SqliteStore
from tests.helpers import (
    OhHellDriver,
    close_made_bots,
    for_tests,
    message_text,
    open_hand,
    open_table,
    panel_moves,
    warning_of,
)

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def settings(db_path: str, shards: tuple[int, ...]) -> Settings:
    return Settings(token="test-token", database_path=db_path, ai_delay=0.0, shard_count=2, shard_ids=shards)


def sharded(db_path: str, shards: tuple[int, ...]) -> ShardedCardBot:
    return for_tests(ShardedCardBot(settings(db_path, shards)))


@pytest.fixture
async def simcord_bot(db_path):
    bot = sharded(db_path, (0, 1))
    yield bot
    await close_made_bots()


async def move_to(env, bot) -> None:
    """Stop the running process (leases released), then start ``bot`` on the same database."""
    old = env.bot
    await old.close()
    await env.restart_bot(bot)


async def timed_table(env, shard: int, computers: int = 0, seconds: str = "1m"):
    guild = env.create_guild(f"guild {shard}", shard_id=shard)
    assert shard_of(guild.id, 2) == shard
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(f"{n}{shard}")) for n in ("ann", "bob", "cat")[: 3 - computers]]
    await open_table(env, channel, people[0], people[1:], options={**SHORT, "turn_timer": seconds}, computers=computers)
    table = env.bot.tables.in_channel(channel.id)
    return channel, people, table


async def test_each_process_restores_times_and_drives_only_its_own_guilds_and_a_moved_shard_goes_on(
    simcord_env, db_path, monkeypatch
):
    env = simcord_env
    # Nothing here is moved by another process: the watcher looks less often, so that each second
    # the clock moves holds less work (the other tests here need its looks)
    monkeypatch.setattr("bot.tables.manager.WATCH_SECONDS", 30.0)
    ch0, people0, t0 = await timed_table(env, 0)
    ch1, people1, t1 = await timed_table(env, 1)
    seat0, seat1 = t0.engine.to_act()[0], t1.engine.to_act()[0]

    # Process A runs shard 0 only: it restores the game of guild 0 alone and runs its timer alone.
    await move_to(env, sharded(db_path, (0,)))
    assert set(env.bot.tables.tables) == {t0.id}
    await advance(env, 61)
    game0, game1 = await store_of(env).get_game(t0.id), await store_of(env).get_game(t1.id)
    assert game0.seats[seat0].ai_level is not None and game0.actions, "shard 0's timer ran out and the computer moved"
    assert game1.seats[seat1].ai_level is None and not game1.actions, "shard 1's game was left alone"
    assert not any("ran out of time" in (m.content or "") for m in ch1.history()), "nothing posted to guild 1"

    # Shard 1 moves to process B: its game, its timer (the deadline kept) and its buttons come back.
    await move_to(env, sharded(db_path, (1,)))
    assert set(env.bot.tables.tables) == {t1.id}
    restored = env.bot.tables.tables[t1.id]
    await advance(env, 61)
    assert restored.seats[seat1].ai_level is not None and restored.engine.log, "shard 1's timer ran on in B"
    # ... and its buttons work in B: the other person plays on through the table message.
    driver = OhHellDriver(env, ch1, {p.id: p for p in people1}, seed=3)
    for _ in range(3):
        assert await driver.step()
    stored = await env.bot.store.get_game(t1.id)
    assert len(stored.actions) == len(restored.engine.log) >= 3
    assert (await env.bot.store.get_game(t0.id)).actions == game0.actions, "B never moved guild 0's game"


async def advance(env, seconds: int) -> None:
    """The clock moved a second at a time: SimCord gives each advance the settle time (0.5 s of
    real time) for the bot's work it starts, and a minute's (a timer, a computer's move, the
    watcher's sixty looks) overran it now and then on a busy machine."""
    for _ in range(seconds):
        await env.advance_time(1)


def store_of(env):
    return env.bot.store


async def test_a_move_committed_by_another_process_first_is_refused_here_and_picked_up(simcord_env, db_path):
    env = simcord_env
    # People only: a computer's own bid could take the first sequence number while this runs
    channel, people, table = await timed_table(env, 0)
    engine = table.engine
    seat = next(s for s in engine.to_act() if table.seats[s].ai_level is None)
    person = next(p for p in people if p.id == table.seats[seat].user_id)
    panel = await open_hand(person, channel, env.bot.user.id)
    # Meanwhile the same person's other click reached another process, which committed first.
    other = SqliteStore(db_path)
    await other.open()
    try:
        action = table.kind.ai_action(table.kind.ai_view(engine, seat), "quick", random.Random(1))
        await other.record_action(table.id, len(engine.log), seat, dict(action))
    finally:
        await other.close()
    answer = await person.click(panel, custom_id=next(iter(panel_moves(panel).values())))
    assert "moved on" in (warning_of(answer) or ""), message_text(answer.response)
    stored = await env.bot.store.get_game(table.id)
    # Exactly one of the two moves counted: the other process's; this one's was not applied after it.
    assert stored.actions[0] == (seat, dict(action))
    assert len(stored.actions) == 1 or stored.actions[1][0] != seat
    # This process re-read the game: its table holds the other process's move and goes on from it.
    assert table.engine.log[0] == (seat, dict(action))
    await env.advance_time(2)
    assert len(table.engine.log) == len((await env.bot.store.get_game(table.id)).actions)


async def test_the_owner_picks_up_a_move_another_process_made_and_drives_on(simcord_env, db_path):
    env = simcord_env
    channel, people, table = await timed_table(env, 0, computers=1)
    engine = table.engine
    humans = [s for s in engine.to_act() if table.seats[s].ai_level is None]
    other = SqliteStore(db_path)
    await other.open()
    try:
        # Another process (one that got these people's clicks) commits every person's bid.
        seq = len(engine.log)
        for seat in humans:
            view = table.kind.ai_view(
                table.kind.engine.replay(
                    table.rules,
                    len(table.seats),
                    table.record.seed or 0,
                    (await other.get_game(table.id)).actions,
                    rng_version=table.record.rng_version,
                ),
                seat,
            )
            if seat not in view["to_act"]:
                continue
            action = table.kind.ai_action(view, "quick", random.Random(seat))
            await other.record_action(table.id, seq, seat, dict(action))
            seq += 1
    finally:
        await other.close()
    assert len(table.engine.log) < seq  # not seen yet
    await env.advance_time(1.5)  # the owner's watcher looks once a second
    stored = await env.bot.store.get_game(table.id)
    assert len(table.engine.log) == len(stored.actions) >= seq
    assert stored.actions[:seq] == [(s, a) for s, a in table.engine.log[:seq]]


async def test_an_interaction_for_a_game_another_process_owns_is_handled_once_and_not_driven_here(simcord_env, db_path):
    env = simcord_env
    channel, people, table = await timed_table(env, 0, computers=1)
    game_id = table.id
    # Now this world's bot is a process that owns shard 1 only, yet gets the interaction (as shard
    # 0 gets every DM): a plain client, which SimCord hands every guild's interactions.
    await env.bot.close()
    bot = CardBot(dataclasses.replace(settings(db_path, (1,)), shard_count=1))
    bot.settings = settings(db_path, (1,))
    bot.tables.settings = bot.settings
    bot.leases = LeaseKeeper(bot.store, (1,), 2)
    for_tests(bot)
    await env.restart_bot(bot)
    assert game_id not in env.bot.tables.tables, "not restored: another process owns it"
    engine_seq = len((await env.bot.store.get_game(game_id)).actions)
    stored = await env.bot.store.get_game(game_id)
    probe = env.bot.tables.kinds["ohhell"].engine.replay(
        env.bot.tables.kinds["ohhell"].rules_from_json(stored.rules),
        len(stored.seats),
        stored.seed,
        stored.actions,
        rng_version=stored.rng_version,
    )
    seat = next(s for s in probe.to_act() if stored.seats[s].ai_level is None)
    person = next(p for p in people if p.id == stored.seats[seat].user_id)
    panel = await open_hand(person, channel, env.bot.user.id)
    answer = await person.click(panel, custom_id=next(iter(panel_moves(panel).values())))
    assert warning_of(answer) is None, message_text(answer.response)
    after = await env.bot.store.get_game(game_id)
    assert len(after.actions) == engine_seq + 1 and after.actions[-1][0] == seat
    borrowed = env.bot.tables.tables[game_id]
    assert game_id in env.bot.tables.foreign
    assert not borrowed.tasks and not borrowed.timer_tasks, "no timer or computer of another's game runs here"
    await env.advance_time(120)
    assert len((await env.bot.store.get_game(game_id)).actions) == engine_seq + 1, "nothing driven here"
