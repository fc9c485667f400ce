"""The panel's layout rules, as a player on a phone meets them (the browser measures the rest:
bench/clicks.py's ``buttons in view`` and ``phone in view``).

While a move is asked for, no picture sits above the buttons (Discord draws a message's pictures
above its components, and a late one pushed them below the fold); no row holds more card buttons
than a 390-pixel phone shows; a card button's rank is text beside its suit's emoji; one line says
what the button colours mean. Once the player waits, the hand's picture is back."""

from __future__ import annotations

import pytest

from bot.client import CardBot
from bot.settings import Settings
from cogs.ohhell.panel import CARDS_PER_ROW
from cogs.shithead.panel import QUICK_PER_ROW
from draw.emojis import EMOJIS
from tests.helpers import OhHellDriver, ShitheadDriver, for_tests, open_hand, open_table, walk_components

RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


@pytest.fixture
def simcord_bot(db_path, simcord_bot):  # card emojis uploaded, as on Discord
    yield for_tests(CardBot(Settings(token="test-token", database_path=db_path, ai_delay=0.0, card_emojis=True)))
    EMOJIS.clear()  # the registry is the process's: later tests run without emojis, as they expect


def rows(message) -> list[list[dict]]:
    out = []
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        out.append([c for c in walk_components([row]) if c.get("type") == 2])
    return [r for r in out if r]


async def test_oh_hell_panel_at_a_move_fits_a_phone(simcord_env):
    env = simcord_env
    await env.bot.emoji_task
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "10,9"})
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    seat = table.engine.to_act()[0]
    bidding = await open_hand(by_seat[seat], channel, env.bot.user.id)
    assert not bidding.attachments and not bidding.embeds[0].image.url, "a picture above the bid buttons"
    assert "🟦 Blue: you may bid it" in bidding.embeds[0].description
    assert all(len(r) <= 5 for r in rows(bidding))
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    while table.engine.view(None)["phase"] == "bidding":
        await driver.step()
    seat = table.engine.to_act()[0]
    panel = await open_hand(by_seat[seat], channel, env.bot.user.id)
    assert not panel.attachments and not panel.embeds[0].image.url, "a picture above the card buttons"
    cards = [r for r in rows(panel) if any(":p:" in (c.get("custom_id") or "") for c in r)]
    assert len(cards) == 3 and [len(r) for r in cards] == [CARDS_PER_ROW, CARDS_PER_ROW, 2], cards
    hand = table.engine.view(seat)["hand"]
    for button, code in zip([c for r in cards for c in r], hand, strict=True):
        rank, suit = code[:-1], code[-1]
        assert button["label"] == rank and button["label"] in RANKS, button
        assert button["emoji"]["name"] == f"ct_suit{suit}", button  # the suit's emoji, not the card's
    description = panel.embeds[0].description
    assert "🟩 Green: you may play it" in description
    assert "Game #" not in description  # where the game is: said while the player waits
    # the hand in text, ranks as text (each suit its emoji)
    value = next(f.value for f in panel.embeds[0].fields if f.name == "Cards")
    assert "<:ct_suit" in value and "<:ct_" + hand[0] not in value, value
    # someone who waits has the picture back, below their Refresh-only panel's text
    waiter = next(p for s, p in by_seat.items() if s != seat)
    waiting = await open_hand(waiter, channel, env.bot.user.id)
    assert [a.filename for a in waiting.attachments] == ["hand.png"]
    assert waiting.attachments[0].description, "the picture's alt text"


async def test_shithead_panel_rows_fit_a_phone(simcord_env):
    env = simcord_env
    await env.bot.emoji_task
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await open_table(env, channel, ann, [bob], command="shithead")
    driver = ShitheadDriver(env, channel, {ann.id: ann, bob.id: bob}, watch=False)
    table = env.bot.tables.in_channel(channel.id, "shithead")
    panel = await driver.open_panel(0)
    assert not panel.attachments and not panel.embeds[0].image.url
    swaps = [c for r in rows(panel) for c in r if ":swap:" in (c.get("custom_id") or "")]
    assert swaps and all(len(c["label"]) <= 9 for c in swaps), swaps  # "10 ⇄ Q": ranks alone
    labels = [c["label"] for c in swaps]
    assert len(labels) == len(set(labels)), labels  # one button a pair of ranks
    assert all(len(r) <= QUICK_PER_ROW for r in rows(panel)), rows(panel)
    assert "🟩 green: Ready" in panel.embeds[0].description
    while table.engine.view(None)["phase"] == "swap":
        await driver.step()
    seat = table.engine.to_act()[0]
    turn = await driver.open_panel(seat)
    assert not turn.attachments and all(len(r) <= QUICK_PER_ROW for r in rows(turn)), rows(turn)
    assert "🟩 Green: plays at once" in turn.embeds[0].description
