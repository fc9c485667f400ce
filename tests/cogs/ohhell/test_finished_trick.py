"""The trick you just played stays in view: once its last card lands, the
table's picture and text show the finished trick, its winner marked, until the next card is led."""

from __future__ import annotations

from draw.images import trick_png
from tests.helpers import OhHellDriver, message_text, open_table, table_message


async def _picture(message) -> bytes:
    files = {a.filename: a for a in message.attachments}
    assert "table.png" in files, list(files)
    return await files["table.png"].read()


async def test_the_finished_trick_shows_with_its_winner_until_the_next_lead(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3"})
    table = env.bot.tables.in_channel(channel.id)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=5)
    engine = table.engine
    while not (engine.view(None)["phase"] == "playing" and engine.view(None)["trick_no"] == 2):
        await driver.step()
        engine = table.engine
    await env.settle()
    view = engine.view(None)
    assert view["trick"] == [] and view["last_trick"] is not None
    last = view["last_trick"]
    winner = table.name(last["winner"])
    message = table_message(channel, env.bot.user.id)
    plays = tuple(
        (f"★ {table.name(seat)}" if seat == last["winner"] else table.name(seat), code)
        for seat, code, _named in last["cards"]
    )
    assert await _picture(message) == trick_png(plays, (), view["turnup"], False), "the finished trick, winner marked"
    text = message_text(message)
    assert f"**{winner}** wins" in text and "Trick 1" in text, text
    # the winner leads: the picture shows the new trick
    await driver.step()
    await env.settle()
    view = table.engine.view(None)
    assert len(view["trick"]) == 1
    message = table_message(channel, env.bot.user.id)
    assert await _picture(message) != trick_png(plays, (), view["turnup"], False)
