"""Rematch on the final standings: a new lobby in the same channel with the same rules, the
computers seated again and the other people invited; it still works after a restart."""

from __future__ import annotations

from tests.helpers import OhHellDriver, ShitheadDriver, bot_messages, buttons, make_bot, open_table


def _finale(channel, bot_id: int):
    final = [m for m in bot_messages(channel, bot_id) if "Rematch" in buttons(m)]
    assert final, "no message with a Rematch button"
    return final[-1]


async def test_ohhell_rematch_after_a_restart_keeps_rules_and_computers(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    stranger = guild.add_member(env.create_user("zed"))
    options = {"fixed_hands": "2,1", "sequence": "fixed", "hook": "off", "bidding": "simultaneous"}
    await open_table(env, channel, ann, [bob, cat], preset="spades", options=options, computers=1)
    old = env.bot.tables.in_channel(channel.id)
    old_id, old_options, old_preset = old.id, dict(old.record.options), old.record.preset
    await OhHellDriver(env, channel, {p.id: p for p in (ann, bob, cat)}).play_to_end()
    assert "Game over" in channel.last_message.content

    await env.restart_bot(make_bot(db_path))
    final = _finale(channel, env.bot.user.id)
    refused = await stranger.click(final, label="Rematch")
    assert refused.ephemeral and "Only the players" in refused.response.content
    assert env.bot.tables.in_channel(channel.id) is None

    shown = await bob.click(final, label="Rematch")
    assert shown.response is not None and not shown.ephemeral, shown
    lobby = shown.response
    assert f"<@{ann.id}>" in lobby.content and f"<@{cat.id}>" in lobby.content and "Join" in lobby.content
    table = env.bot.tables.in_channel(channel.id)
    assert table is not None and table.id != old_id and table.record.status == "lobby"
    assert table.record.preset == old_preset and table.record.options == old_options
    assert table.record.host_id == bob.id
    assert [(s.user_id, s.ai_level) for s in table.seats] == [(bob.id, None), (None, "strong")]
    # a second press while the lobby is open is refused (the channel is busy)
    again = await ann.click(final, label="Rematch")
    assert again.ephemeral and "already has" in again.response.content
    for person in (ann, cat):
        joined = await person.click(lobby, label="Join")
        assert joined.acknowledged and not joined.ephemeral
    started = await bob.click(lobby, label="Start")
    assert started.acknowledged and not started.ephemeral
    assert table.engine is not None and table.rules == env.bot.tables.kinds["ohhell"].make_rules(
        old_preset, old_options
    )


async def test_shithead_finale_has_rematch(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await open_table(env, channel, ann, [bob], command="shithead")
    await ShitheadDriver(env, channel, {p.id: p for p in (ann, bob)}, watch=False).play_to_end()
    final = _finale(channel, env.bot.user.id)
    shown = await ann.click(final, label="Rematch")
    assert shown.response is not None and not shown.ephemeral and f"<@{bob.id}>" in shown.response.content
    table = env.bot.tables.in_channel(channel.id, "shithead")
    assert table is not None and table.record.status == "lobby" and table.record.host_id == ann.id
