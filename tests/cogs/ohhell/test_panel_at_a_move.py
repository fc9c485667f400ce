"""A panel asking for a card says the last trick in one line; a waiting panel lists the deal's tricks.

On a 390-pixel phone the list of tricks, a line a trick naming each card's player, took some 70
pixels a trick: a panel asking for a card at a late trick was taller than the channel's visible
part, and its prompt and the trick on the table went above the fold. It now says the last trick
in one line (its cards in the order played, its winner); the player waiting reads the whole list.
"""

from __future__ import annotations

from draw.emojis import card_text
from tests.helpers import OhHellDriver, message_text, open_hand, open_table


async def test_a_panel_asking_for_a_card_says_the_last_trick_in_one_line(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "5"})
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=3)
    table = driver.table()
    while len(table.engine.view(None)["deal_tricks"]) < 2:
        assert await driver.step()
    engine = table.engine
    first, last = engine.view(None)["deal_tricks"][-2:]
    acting = engine.to_act()[0]
    waiting = next(s for s in range(4) if s != acting)
    by_seat = {table.seat_of(p.id): p for p in people}

    panel = await open_hand(by_seat[acting], channel, env.bot.user.id)
    embed = panel.embeds[0]
    cards = " ".join(card_text(code) for _seat, code, _named in last["cards"])
    said = f"Last trick: {cards} → **{table.name(last['winner'])}**"
    lines = (embed.description or "").split("\n")
    assert said in lines, embed.description
    assert lines[0].startswith("**Your turn:**") and lines.index(said) < 3, "the prompt first, then the last trick"
    assert "Tricks this deal" not in [f.name for f in embed.fields]
    assert not panel.attachments, "a panel asking for a move carries no picture"
    earlier = [card_text(code) for _seat, code, _named in first["cards"]]
    assert not any(card in message_text(panel) for card in earlier if card not in cards), "only the last trick"

    shown = await open_hand(by_seat[waiting], channel, env.bot.user.id)
    tricks = next(f.value for f in shown.embeds[0].fields if f.name == "Tricks this deal")
    assert tricks.startswith("1. ") and "\n2. " in tricks, tricks
    assert "Last trick:" not in (shown.embeds[0].description or "")
