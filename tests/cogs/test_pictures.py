"""Card pictures where people look: the table message carries the trick (Oh Hell) or the pile and
face-up cards (Shithead) as an attached image its embed shows; a player's hand reply and the DM
at a new deal carry their hand as an image. File names never name a card."""

from __future__ import annotations

import io

from PIL import Image

from tests.helpers import OhHellDriver, ShitheadDriver, open_table, table_message


def _image_of(message, filename: str) -> Image.Image:
    files = {a.filename: a for a in message.attachments}
    assert filename in files, f"no {filename} on the message: {list(files)}"
    embed_urls = [e.image.url for e in message.embeds if e.image and e.image.url]
    assert embed_urls and embed_urls[0].endswith(filename), embed_urls
    return files[filename]


async def _png(attachment) -> Image.Image:
    data = await attachment.read()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


async def test_ohhell_table_and_hand_carry_pictures(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3", "sequence": "fixed"}
    )
    bot_id = env.bot.user.id
    # the DM at the new deal carries the hand
    dm = people[0].user.dm_channel.last_message
    hand = await _png(_image_of(dm, "hand.png"))
    assert hand.width > hand.height > 50
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    table = driver.table()
    while table.engine.view(None)["phase"] == "bidding":
        await driver.step()
    await driver.step()  # the first card of the first trick
    message = table_message(channel, bot_id)
    picture = await _png(_image_of(message, "table.png"))
    assert picture.height > 100
    # the hand reply (My hand) shows the hand as an image while its player waits; at their move
    # the buttons are the hand (Discord draws pictures above buttons, which they would push down)
    seat = table.engine.to_act()[0]
    actor = next(p for p in people if p.id == table.seats[seat].user_id)
    waiter = next(p for p in people if p.id != actor.id)
    shown = await waiter.click(message, label="My hand")
    assert shown.response is not None and shown.response.ephemeral
    own = await _png(_image_of(shown.response, "hand.png"))
    assert own.size[0] > 72
    at_move = (await actor.click(message, label="My hand")).response
    assert at_move is not None and not at_move.attachments and not at_move.embeds[0].image.url
    for m in [*channel.history(), dm]:
        for attachment in m.attachments:
            assert attachment.filename in ("table.png", "hand.png"), attachment.filename


async def test_shithead_table_and_panel_carry_pictures(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    await open_table(env, channel, people[0], people[1:], command="shithead")
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    message = table_message(channel, env.bot.user.id)
    picture = await _png(_image_of(message, "table.png"))
    assert picture.height > 150
    panel = await driver.open_panel(0)  # the swaps asked for: no picture above the buttons
    assert not panel.attachments and not panel.embeds[0].image.url
    for _ in range(6):
        await driver.step()
    message = table_message(channel, env.bot.user.id)
    await _png(_image_of(message, "table.png"))
    table = env.bot.tables.in_channel(channel.id, "shithead")
    waiting = next(s for s in range(2) if s != table.engine.to_act()[0])
    await _png(_image_of(await driver.open_panel(waiting), "hand.png"))  # the picture while it waits
