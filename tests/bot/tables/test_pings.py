"""A ping when it is your turn (play-by-post), as players meet it, on SimCord's virtual clock.

A table set to ``ping_after 2m`` pings a player it waits on who is not looking (no live panel)
once, 2 minutes into their turn: a mention in the channel that may ping them and nobody else.
Never when their panel is open, never after their move, never for a member who turned pings
off, never at a table without ``ping_after``; a restart keeps a pending ping, which fires once."""

from __future__ import annotations

import pytest

from tests.bot.messages.test_heal import restart
from tests.helpers import ShitheadDriver, bot_messages, open_hand, open_table, panel_moves, press, table_message

PING = "🔔"


def pings(env, channel) -> list:
    return [m for m in bot_messages(channel, env.bot.user.id) if (m.content or "").startswith(PING)]


def ping_requests(env, channel) -> list[dict]:
    return [
        r.json
        for r in env.http_requests
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages" and PING in str(r.json or {})
    ]


async def _table(env, options=None, people: int = 3):
    guild = env.create_guild()
    channel = guild.create_text_channel("play-by-post")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat", "dan")[:people]]
    await open_table(env, channel, members[0], members[1:], options={"bidding": "sequential", **(options or {})})
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    return channel, {m.id: m for m in members}, table


def waiting_on(table, actors):
    seats = table.engine.to_act()
    assert len(seats) == 1, seats
    return seats[0], actors[table.seats[seats[0]].user_id]


async def test_a_player_not_looking_is_pinged_once_a_turn_and_nobody_else(simcord_env) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "2m"})
    _seat, first = waiting_on(table, actors)
    await env.advance_time(119)
    assert pings(env, channel) == []
    await env.advance_time(2)
    [ping] = pings(env, channel)
    assert f"<@{first.id}>" in ping.content and "My hand" in ping.content
    assert [m.id for m in ping.mentions] == [first.id]
    [sent] = ping_requests(env, channel)
    # the message may ping this player and nobody else, whatever a name holds
    assert sent["allowed_mentions"]["users"] == [str(first.id)] or sent["allowed_mentions"]["users"] == [first.id]
    assert sent["allowed_mentions"]["parse"] == []
    await env.advance_time(3600)
    assert len(pings(env, channel)) == 1  # one a turn, however long it waits


async def test_no_ping_while_the_panel_is_open_nor_after_the_move(simcord_env) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "20m"})
    _seat, first = waiting_on(table, actors)
    panel = await open_hand(first, channel, env.bot.user.id)  # looking
    await env.advance_time(60)
    bid = sorted(panel_moves(panel))[0]
    await press(first, panel, bid)  # the move, a minute in: this turn is over
    _seat, second = waiting_on(table, actors)
    assert second.id != first.id
    # first's panel goes stale after 14.5 minutes; their old turn's ping (due at 20 min) never
    # comes: only the second player, not looking, is pinged, once, 20 minutes into their turn
    await env.advance_time(20 * 60 - 1)
    assert pings(env, channel) == []
    await env.advance_time(2)
    [ping] = pings(env, channel)
    assert [m.id for m in ping.mentions] == [second.id]
    await env.advance_time(3600)
    assert len(pings(env, channel)) == 1


async def test_the_open_panel_keeps_the_ping_away_for_the_whole_turn(simcord_env) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "2m"})
    _seat, first = waiting_on(table, actors)
    await env.advance_time(100)
    await open_hand(first, channel, env.bot.user.id)  # they look before the ping is due
    await env.advance_time(600)
    assert pings(env, channel) == []


async def test_a_player_who_turned_pings_off_is_never_pinged(simcord_env) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "2m"})
    _seat, first = waiting_on(table, actors)
    answer = await first.slash(channel, "ohhell pings", setting="off")
    assert answer.ephemeral and "off" in answer.response.content
    await env.advance_time(3600)
    assert pings(env, channel) == []
    # on again: the next turn that waits on them pings them
    answer = await first.slash(channel, "ohhell pings", setting="on")
    assert answer.ephemeral and "on" in answer.response.content
    assert await env.bot.store.pings_off([first.id]) == set()


async def test_no_ping_without_ping_after(simcord_env) -> None:
    env = simcord_env
    channel, _actors, table = await _table(env)
    assert table.timer is None  # no turn timer and no pings: nothing is armed
    await env.advance_time(86400)
    assert pings(env, channel) == []


async def test_a_pending_ping_survives_a_restart_and_fires_once(simcord_env, db_path) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "2m"})
    _seat, first = waiting_on(table, actors)
    await env.advance_time(60)
    await restart(env, db_path)
    assert pings(env, channel) == []
    await env.advance_time(61)
    [ping] = pings(env, channel)
    assert [m.id for m in ping.mentions] == [first.id]
    # and a ping sent is not sent again by the next restart
    await restart(env, db_path)
    await env.advance_time(3600)
    assert len(pings(env, channel)) == 1


async def test_ping_after_is_a_table_setting_of_both_games(simcord_env) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("shithead")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob")]
    lobby = await members[0].slash(channel, "shithead new")
    refused = await members[0].slash(channel, "shithead set", option="ping_after", value="soon")
    assert "ping_after" in refused.response.content and "✅" not in refused.response.content
    answer = await members[0].slash(channel, "shithead set", option="ping_after", value="90")
    assert "✅" in answer.response.content and "90s" in answer.response.content
    await members[1].click(lobby.response, label="Join")
    await members[0].click(lobby.response, label="Start")
    table = env.bot.tables.in_channel(channel.id, "shithead")
    assert table.engine is not None and table.rules is not None  # not a rule: the game started with it
    driver = ShitheadDriver(env, channel, {m.id: m for m in members})
    assert driver.live is table
    await env.advance_time(91)
    [ping] = pings(env, channel)  # the swap phase waits on both, neither looking: one line, both named
    assert sorted(m.id for m in ping.mentions) == sorted(m.id for m in members)
    await env.advance_time(3600)
    assert len(pings(env, channel)) == 1
    assert table_message(channel, env.bot.user.id) is not None


@pytest.mark.parametrize("value", ["off", "0"])
async def test_ping_after_off_takes_the_setting_away(simcord_env, value) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    host = guild.add_member(env.create_user("ann"))
    await host.slash(channel, "ohhell new")
    await host.slash(channel, "ohhell set", option="ping_after", value="2m")
    answer = await host.slash(channel, "ohhell set", option="ping_after", value=value)
    assert "✅" in answer.response.content
    assert "ping_after" not in env.bot.tables.in_channel(channel.id, "ohhell").record.options


async def test_secret_bids_ping_everyone_waiting_once_however_many_bid_meanwhile(simcord_env) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("secret")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")]
    options = {"hook": "off", "bidding": "simultaneous", "ping_after": "2m"}
    await open_table(env, channel, members[0], members[1:], options=options)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert len(table.engine.to_act()) == 3
    await env.advance_time(121)
    [ping] = pings(env, channel)
    assert sorted(m.id for m in ping.mentions) == sorted(m.id for m in members)
    # one of them bids (their clock, and the others', keeps running): nobody is pinged again
    panel = await open_hand(members[1], channel, env.bot.user.id)
    await press(members[1], panel, sorted(panel_moves(panel))[0])
    assert len(table.engine.to_act()) == 2
    await env.advance_time(3600)
    assert len(pings(env, channel)) == 1


async def test_the_host_turns_pings_on_and_off_mid_game(simcord_env) -> None:
    """ping_after is no rule: a play-by-post table may start pinging (or stop) in the middle of a
    game; the turn under way gets its ping from then on, and off means no ping is sent."""
    env = simcord_env
    channel, actors, table = await _table(env)
    host = next(a for a in actors.values() if a.id == table.record.host_id)
    other = next(a for a in actors.values() if a.id != host.id)
    refused = await other.slash(channel, "ohhell set", option="ping_after", value="2m")
    assert "host" in refused.response.content
    rule = await host.slash(channel, "ohhell set", option="hook", value="off")
    assert "already started" in rule.response.content  # the rules themselves stay as they were
    await env.advance_time(600)
    answer = await host.slash(channel, "ohhell set", option="ping_after", value="2m")
    assert "✅" in answer.response.content
    _seat, first = waiting_on(table, actors)
    await env.advance_time(121)
    [ping] = pings(env, channel)
    assert [m.id for m in ping.mentions] == [first.id]
    assert table_message(channel, env.bot.user.id).embeds  # the table is still the game's, not a lobby
    # off again: the next turn (after a move) pings nobody
    await host.slash(channel, "ohhell set", option="ping_after", value="off")
    panel = await open_hand(first, channel, env.bot.user.id)
    await press(first, panel, sorted(panel_moves(panel))[0])
    await env.advance_time(3600)
    assert len(pings(env, channel)) == 1


async def test_ping_after_turned_off_mid_turn_stops_the_pending_ping(simcord_env) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "2m"})
    host = next(a for a in actors.values() if a.id == table.record.host_id)
    await env.advance_time(60)
    await host.slash(channel, "ohhell set", option="ping_after", value="off")
    await env.advance_time(3600)
    assert pings(env, channel) == []


def notified(env, channel) -> list[list[int]]:
    """Whom each line the bot posted in ``channel`` may ping (its allowed mentions' users)."""
    out = []
    for r in env.http_requests:
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages" and isinstance(r.json, dict):
            allowed = r.json.get("allowed_mentions") or {}
            if allowed.get("users"):
                out.append(sorted(int(u) for u in allowed["users"]))
    return out


async def test_with_a_turn_timer_too_a_turn_still_pings_a_person_once(simcord_env) -> None:
    """The turn timer's reminder at half time names the player as before, but once this turn's
    ping went out it notifies nobody: one ping a turn."""
    env = simcord_env
    channel, actors, table = await _table(env, {"ping_after": "1m", "turn_timer": "5m"})
    _seat, first = waiting_on(table, actors)
    await env.advance_time(61)
    assert notified(env, channel) == [[first.id]]
    await env.advance_time(120)  # past half time: the reminder is posted
    reminders = [m for m in bot_messages(channel, env.bot.user.id) if (m.content or "").startswith("⏳")]
    assert len(reminders) == 1 and f"<@{first.id}>" in reminders[0].content
    assert notified(env, channel) == [[first.id]]  # (the reminder may ping nobody)


async def test_the_reminder_does_not_ping_a_player_who_turned_pings_off(simcord_env) -> None:
    env = simcord_env
    channel, actors, table = await _table(env, {"turn_timer": "5m"})
    _seat, first = waiting_on(table, actors)
    await first.slash(channel, "ohhell pings", setting="off")
    await env.advance_time(151)
    reminders = [m for m in bot_messages(channel, env.bot.user.id) if (m.content or "").startswith("⏳")]
    assert len(reminders) == 1 and f"<@{first.id}>" in reminders[0].content  # still named: the time left
    assert notified(env, channel) == []


async def test_the_reminder_still_pings_without_ping_after(simcord_env) -> None:
    """A table that does not ping keeps its turn timer's reminder as it was."""
    env = simcord_env
    channel, actors, table = await _table(env, {"turn_timer": "5m"})
    _seat, first = waiting_on(table, actors)
    await env.advance_time(151)
    assert notified(env, channel) == [[first.id]]
