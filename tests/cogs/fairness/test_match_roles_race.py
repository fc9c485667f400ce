"""A member's role in a duplicate match is decided and taken as one step: dee presses Watch on
table A (the match's table playing) and Join on table B's lobby (the same match) at the same
moment. Each door alone decides right; together, each read the match before the other wrote, and
she could both watch A's cards and sit at B to play them again. SimCord runs one user operation at
a time, so the two presses race on the seams both buttons go through (``Seating.watch``,
``Seating.sit``), as their handlers call them; what follows is played as users."""

from __future__ import annotations

import asyncio

import pytest

from bot.messages.errors import Refusal
from tests.cogs.fairness.test_match_secrets import _match, refused
from tests.helpers import table_message


@pytest.mark.parametrize("first_pressed", ["watch", "join"])
async def test_watching_a_table_and_sitting_at_another_of_its_match_at_once_lets_one_through(
    simcord_env, first_pressed
):
    env = simcord_env
    guild, (first, second, third), (ann, bob, cy, dee), code, lobby_b, table_a = await _match(env)
    tables = env.bot.tables
    table_b = tables.in_channel(second.id)
    member = await env.bot.fetch_user(dee.id)  # who presses Join, as the handler gets her
    watch = tables.seating.watch(table_a, dee.id, guild.id, first.id)
    sit = tables.seating.sit(table_b, member, guild.id, second.id)
    order = [watch, sit] if first_pressed == "watch" else [sit, watch]
    outcomes = await asyncio.gather(*order, return_exceptions=True)
    await env.settle()
    assert [o is None or isinstance(o, Refusal) for o in outcomes] == [True, True], outcomes
    assert [o is None for o in outcomes] == [True, False], outcomes  # the first one in, not both
    watched = dee.id in await env.bot.store.match_watchers(table_a.record.match_id)
    seated = table_b.seat_of(dee.id) is not None
    assert (watched, seated) == ((True, False) if first_pressed == "watch" else (False, True))
    # as users afterwards: the door she lost stays closed to her
    if first_pressed == "watch":
        refused(await dee.click(lobby_b, label="Join"), "watched")
    else:
        refused(await dee.click(table_message(first, env.bot.user.id), label="Watch"))


@pytest.mark.parametrize("first_pressed", ["watch", "join"])
async def test_two_processes_deciding_at_once_never_let_both_through(simcord_env, first_pressed):
    """The same two presses reaching two processes of a sharded bot (A's server on one shard, B's on
    another): each holds only its own lock. Each side checks again after writing, and takes back
    its own write if the other's is there, so at most one gets through (or neither, and she
    presses again); never a member who both watches A and sits at B."""
    from bot.tables.registry import Registry
    from bot.tables.seating import Seating

    env = simcord_env
    guild, (first, second, third), (ann, bob, cy, dee), code, lobby_b, table_a = await _match(env)
    tables = env.bot.tables
    table_b = tables.in_channel(second.id)
    elsewhere = Seating(Registry(), tables.store, tables.presenter, tables.clock)  # another process's
    member = await env.bot.fetch_user(dee.id)
    watch = elsewhere.watch(table_a, dee.id, guild.id, first.id)
    sit = tables.seating.sit(table_b, member, guild.id, second.id)
    order = [watch, sit] if first_pressed == "watch" else [sit, watch]
    outcomes = await asyncio.gather(*order, return_exceptions=True)
    await env.settle()
    assert all(o is None or isinstance(o, Refusal) for o in outcomes), outcomes
    watched = dee.id in await tables.store.match_watchers(table_a.record.match_id)
    seated = table_b.seat_of(dee.id) is not None
    stored_seated = any(s.user_id == dee.id for s in (await tables.store.get_game(table_b.id)).seats)
    assert seated == stored_seated
    assert not (watched and seated), outcomes
    assert [o is None for o in outcomes].count(True) == int(watched) + int(seated), outcomes
