"""A crash loses what the bot noted about the channel (a new deal's table message, the standings
posted, copies closed), which rides on the next move's write: the restarted bot finds them again
in the channel, so it neither posts a deal's table twice nor the standings twice, and every
message is left as the game is."""

from __future__ import annotations

from typing import Any

from tests.bot.tables.test_press_writes_once import (  # noqa: F401 - the fixtures
    _press,
    _table,
    _to_deal_end,
    new_bot,
    simcord_bot,
)
from tests.db.conftest import pg_schema  # noqa: F401 - the fixture
from tests.helpers import open_hand, table_message


async def _crash(env: Any, make: Any) -> Any:
    """The bot stops without a word: what it noted is lost (nothing more is written)."""
    old = env.bot
    lost = old.tables.presenter.take_notes()
    old.tables.presenter.notes = None  # (its close below writes nothing: the crashed process is gone)
    await env.restart_bot(make())
    await old.close()
    await env.settle()
    return lost


def _live_tables(channel: Any, bot_id: int) -> list[Any]:
    return [m for m in channel.history() if m.author.id == bot_id and m.components and m.embeds]


async def test_a_new_deals_table_whose_message_was_lost_is_found_again(simcord_env, new_bot):  # noqa: F811
    env = simcord_env
    channel, table, by_seat = await _table(env)
    await _to_deal_end(env, channel, table, by_seat)
    await _press(env, channel, table, by_seat)
    posted = table_message(channel, env.bot.user.id)
    messages = len(list(channel.history()))
    lost = await _crash(env, new_bot)
    assert lost is not None and lost.messages[table.id][0] == posted.id
    assert (await env.bot.store.get_game(table.id)).message_id != posted.id, "the crash lost its note"
    # The restarted bot took the posted table back: no second table, no hand sent again.
    assert len(list(channel.history())) == messages
    assert [m.id for m in _live_tables(channel, env.bot.user.id)] == [posted.id]
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert table.record.message_id == posted.id and table.engine.deal_number == 2
    for person in by_seat.values():
        await open_hand(person, channel, env.bot.user.id)
    await _press(env, channel, table, by_seat)  # the next move writes it
    assert (await env.bot.store.get_game(table.id)).message_id == posted.id
    while not table.engine.is_over:
        await _press(env, channel, table, by_seat)
    assert env.errors == []


async def test_standings_whose_note_was_lost_are_not_posted_again(simcord_env, new_bot):  # noqa: F811
    env = simcord_env
    channel, table, by_seat = await _table(env)
    while not table.engine.is_over:
        await _press(env, channel, table, by_seat)
    standings = [m for m in channel.history() if "Game over" in (m.content or "")]
    assert len(standings) == 1
    stored = await env.bot.store.get_game(table.id)
    assert stored.status == "finished", "the game's end was committed with its last move"
    ratings = await env.bot.store.ratings(channel.guild.id, "ohhell")
    assert ratings, "and its ratings with it"
    lost = await _crash(env, new_bot)
    assert lost is not None and table.id in lost.finales
    assert [g.id for g in await env.bot.store.unshown_finales()] == [table.id], "the crash lost its note"
    # The restarted bot found the standings in the channel: not posted again, and noted as shown.
    assert [m.id for m in channel.history() if "Game over" in (m.content or "")] == [standings[0].id]
    assert [m.id for m in _live_tables(channel, env.bot.user.id)] == [standings[0].id], "(its Rematch)"
    assert await env.bot.store.ratings(channel.guild.id, "ohhell") == ratings, "rated once"
    await env.bot.tables.presenter.close()
    assert await env.bot.store.unshown_finales() == [] and await env.bot.store.old_copies() == []
    assert env.errors == []
