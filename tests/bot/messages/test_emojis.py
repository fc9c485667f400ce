"""The card emoji set: uploaded at start-up as the application's own emojis (only the missing
ones, so a restart uploads nothing), used where cards are named, and text when Discord refuses.

SimCord models application emojis (it keeps names and ids, not the images), so the uploader
runs against it here; the pictures themselves are checked in tests/bot/test_card_pictures.py."""

from __future__ import annotations

import re

import pytest

from bot.client import CardBot
from bot.host.settings import Settings
from draw.emojis import EMOJIS, all_emojis
from tests.helpers import OhHellDriver, for_tests, open_hand, open_table, table_message, walk_components


def _emoji_bot(db_path: str) -> CardBot:
    return for_tests(CardBot(Settings(token="test-token", database_path=db_path, ai_delay=0.0, card_emojis=True)))


@pytest.fixture
def simcord_bot(db_path, simcord_bot):  # the conftest's bot is closed at teardown; this one too
    yield _emoji_bot(db_path)
    EMOJIS.clear()  # the registry is the process's: later tests run without emojis, as they expect


def _uploads(env) -> list:
    return [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/emojis")]


async def test_upload_once_then_used_in_hands_and_forms(simcord_env, db_path):
    env = simcord_env
    await env.bot.emoji_task
    names = {e.name for e in env.backend.application_emojis.values()}
    # every face, the four suits alone, and the four-colour clubs and diamonds
    assert names == set(all_emojis())
    total = len(names)
    assert total == 64 + 4 + 32 + 1 and len(_uploads(env)) == total
    assert len(EMOJIS) == total
    # a restart finds them all: nothing is uploaded again
    await env.restart_bot(_emoji_bot(db_path))
    await env.bot.emoji_task
    assert len(_uploads(env)) == total and len(EMOJIS) == total

    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3"})
    dm = people[0].user.dm_channel.last_message
    hand_field = next(f.value for f in dm.embeds[0].fields if f.name == "Cards")
    assert hand_field.count("<:ct_") == 3, hand_field
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    table = driver.table()
    while table.engine.view(None)["phase"] == "bidding":
        await driver.step()
    seat = table.engine.to_act()[0]
    actor = next(p for p in people if p.id == table.seats[seat].user_id)
    panel = await open_hand(actor, channel, env.bot.user.id)
    cards = [c for c in walk_components(panel.components) if ":p:" in (c.get("custom_id") or "")]
    assert len(cards) == 3, cards  # one button a card in hand, each with its card emoji
    assert all(str((c.get("emoji") or {}).get("name", "")).startswith("ct_") for c in cards), cards


async def test_refused_upload_falls_back_to_text(simcord_env, db_path):
    env = simcord_env
    await env.bot.emoji_task
    env.backend.application_emojis.clear()
    env.inject_error("POST", "/applications/*/emojis", status=400, code=30056, message="Maximum emojis", times=None)
    await env.restart_bot(_emoji_bot(db_path))
    assert await env.bot.emoji_task == 0
    assert len(EMOJIS) == 0
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3"})
    dm = people[0].user.dm_channel.last_message
    hand_field = next(f.value for f in dm.embeds[0].fields if f.name == "Cards")
    assert "<:" not in hand_field and any(s in hand_field for s in "♣♦♥♠"), hand_field


async def test_a_long_deals_tricks_are_whole_emojis_the_newest_kept(simcord_env):
    """Four players, 13 cards: the panel's "Tricks this deal" outgrows a field's 1,024
    characters once its cards are emojis (some 30 characters each). The oldest tricks are left
    out whole, said in a line; before, the text was cut 1,000 characters from its end, inside an
    emoji's markup, and the field began with its code ("…470808113>")."""
    env = simcord_env
    await env.bot.emoji_task
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat", "dan")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "13"})
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    table = driver.table()
    while len(table.engine.view(None)["deal_tricks"]) < 11:
        assert await driver.step()
    # a waiting player's panel lists every trick (one asking for a move says the last in a line)
    seat = next(s for s in range(4) if s not in table.engine.to_act())
    actor = next(p for p in people if p.id == table.seats[seat].user_id)
    panel = await open_hand(actor, channel, env.bot.user.id)
    tricks = next(f.value for f in panel.embeds[0].fields if f.name == "Tricks this deal")
    assert len(tricks) <= 1024, len(tricks)
    first, *rest = tricks.split("\n")
    assert re.fullmatch(r"… \d+ earlier tricks?", first), first
    assert rest and rest[-1].startswith("11. "), rest
    # every emoji whole: nothing of a markup is left once the whole ones are taken out
    leftover = re.sub(r"<:ct4?_\w+:\d+>", "", tricks)
    assert not re.search(r"\d{6,}|<:|:\d+>", leftover), tricks


async def test_a_spectator_reads_the_last_deals_hands_as_card_emojis(simcord_env):
    """The spectator's view adds the hands (those shown, and the last deal's) to the table's
    embeds: they are card emojis too, no ♠ or ♣ left as text (dark grey on a dark page)."""
    env = simcord_env
    await env.bot.emoji_task
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    cy = guild.add_member(env.create_user("cy"))
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "2,2"})
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    table = driver.table()
    while table.engine.deal_number < 2:
        assert await driver.step()
    await people[1].slash(channel, "ohhell spectators", hand="show")
    shown = await cy.click(table_message(channel, env.bot.user.id), label="Watch")
    view = shown.response
    last = next(e for e in view.embeds if (e.title or "").startswith("🂠"))
    hands = next(e for e in view.embeds if "Hands shown" in (e.title or ""))
    for text in (last.description, hands.description):
        assert "<:ct_" in text and not any(s in text for s in "♠♣"), text
