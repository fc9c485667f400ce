"""The four-colour deck, a table option of both games: ``/<game> set four_colour on``
paints clubs green and diamonds blue on the table's and the hands' pictures. It is a display
option: the engine's rules (and so the stored rules JSON a game replays from) are the same
with it on or off."""

from __future__ import annotations

import discord

from cogs.ohhell.pictures import trick_picture
from cogs.shithead.pictures import table_picture
from draw.images import hand_png
from tests.helpers import OhHellDriver, ShitheadDriver, message_text, open_table, table_message


async def _bytes(message, filename: str) -> bytes:
    files = {a.filename: a for a in message.attachments}
    assert filename in files, list(files)
    return await files[filename].read()


def _has_clubs_or_diamonds(codes) -> bool:
    return any(c[-1] in "CD" for c in codes)


async def test_ohhell_four_colour_pictures_and_unchanged_rules(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    bad = await ann.slash(channel, "ohhell new")
    refused = await ann.slash(channel, "ohhell set", option="four_colour", value="maybe")
    assert refused.ephemeral and "four_colour is off or on" in refused.response.content
    done = await ann.slash(channel, "ohhell set", option="four_colour", value="on")
    assert "✅" in done.response.content
    shown = next(m for m in channel.history() if m.id == bad.response.id)
    assert "Four-colour deck" in message_text(shown)
    await ann.click(shown, label="Cancel")

    options = {"fixed_hands": "6,5", "four_colour": "on"}
    await open_table(env, channel, ann, [bob, cat], options=options)
    table = env.bot.tables.in_channel(channel.id)
    rules = await ann.slash(channel, "ohhell rules")
    assert "Four-colour deck" in message_text(rules.response)
    # the engine's rules are those without the option: replay of stored games is untouched
    stored = await env.bot.tables.store.get_game(table.id)
    kind = table.kind
    assert stored.rules == kind.rules_to_json(kind.make_rules("classic", {"fixed_hands": "6,5"}))

    # the DM at the new deal shows the hand in four colours
    for member in (ann, bob, cat):
        seat = table.seat_of(member.id)
        hand = table.engine.view(seat)["hand"]
        dm = member.user.dm_channel.last_message
        data = await _bytes(dm, "hand.png")
        assert data == hand_png(tuple(hand), True)
        if _has_clubs_or_diamonds(hand):
            assert data != hand_png(tuple(hand), False)
    # and so does the reply to My hand, and the table's picture of the trick
    driver = OhHellDriver(env, channel, {p.id: p for p in (ann, bob, cat)}, seed=2)
    while table.engine.view(None)["phase"] != "playing" or not table.engine.view(None)["trick"]:
        await driver.step()
    await env.settle()
    view = table.engine.view(None)
    message = table_message(channel, env.bot.user.id)
    expected = trick_picture(view, table.name, discord.Embed(), True)[0].data
    assert await _bytes(message, "table.png") == expected
    shown = await ann.click(message, label="My hand")
    hand = table.engine.view(table.seat_of(ann.id))["hand"]
    assert await _bytes(shown.response, "hand.png") == hand_png(tuple(hand), True)


async def test_shithead_four_colour_table_and_panel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await open_table(env, channel, ann, [bob], command="shithead", options={"four_colour": "on"})
    table = env.bot.tables.in_channel(channel.id)
    assert table.rules == table.kind.make_rules(table.record.preset, {})
    stored = await env.bot.tables.store.get_game(table.id)
    assert stored.rules == table.kind.rules_to_json(table.rules) and "four_colour" not in str(stored.rules)
    driver = ShitheadDriver(env, channel, {ann.id: ann, bob.id: bob}, watch=False)
    for _ in range(6):
        await driver.step()
    await env.settle()
    message = table_message(channel, env.bot.user.id)
    expected = table_picture(table.engine.view(None), table.name, discord.Embed(), True)[0].data
    assert await _bytes(message, "table.png") == expected
    assert expected != table_picture(table.engine.view(None), table.name, discord.Embed(), False)[0].data
    waiting = next(s for s in range(2) if s != table.engine.to_act()[0])  # (at a turn: no picture)
    panel = await driver.open_panel(waiting)
    seat_view = table.engine.view(waiting)
    cards = seat_view["hand"] or seat_view["seats"][seat_view["viewer"]]["face_up"]
    assert await _bytes(panel, "hand.png") == hand_png(tuple(cards), True)
