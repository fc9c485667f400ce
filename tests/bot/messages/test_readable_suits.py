"""♠ and ♣ read on Discord's dark and light themes: the text characters are dark
grey on a dark theme, so no text line, button or select option a whole game sends holds a bare ♠
or ♣ while the card emojis are up: cards and suits are the bot's own emojis (a white card face)
in text, on buttons and options, and suits are words where Discord takes plain text only. The
four-colour choice reaches the emojis too: clubs and diamonds use their green and blue set."""

from __future__ import annotations

import json

import pytest

from bot.client import CardBot
from bot.host.settings import Settings
from draw.emojis import EMOJIS
from tests.bot.messages.test_wording import strings
from tests.helpers import OhHellDriver, ShitheadDriver, for_tests, open_table

BARE = ("♠", "♣")


def _emoji_bot(db_path: str) -> CardBot:
    return for_tests(CardBot(Settings(token="test-token", database_path=db_path, ai_delay=0.0, card_emojis=True)))


@pytest.fixture
def simcord_bot(db_path, simcord_bot):  # the conftest's bot is closed at teardown; this one too
    yield _emoji_bot(db_path)
    EMOJIS.clear()  # the registry is the process's: later tests run without emojis, as they expect


def _bare(env) -> list[str]:
    found = []
    for request in env.http_requests:
        if request.json is None or "/emojis" in request.path:
            continue
        for text in strings(request.json):
            if any(s in text for s in BARE):
                found.append(f"{request.method} {request.path}: {text!r}")
    return sorted(set(found))


def _emoji_names(env) -> str:
    sent = [r.json for r in env.http_requests if r.json is not None and "/emojis" not in r.path]
    return json.dumps(sent, ensure_ascii=False)


@pytest.mark.parametrize("four", ["off", "on"])
async def test_no_bare_spade_or_club_in_whole_games(simcord_env, four):
    env = simcord_env
    await env.bot.emoji_task
    guild = env.create_guild()
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    first = guild.create_text_channel("oh-hell")
    options = {"fixed_hands": "3,2", "four_colour": four}
    await open_table(env, first, people[0], people[1:], preset="classic", options=options)
    await people[0].slash(first, "ohhell rules")
    driver = OhHellDriver(env, first, {p.id: p for p in people}, seed=2)
    await driver.play_to_end()
    await people[0].slash(first, "ohhell scores")
    second = guild.create_text_channel("shithead")
    await open_table(env, second, people[0], people[1:2], command="shithead", options={"four_colour": four})
    await ShitheadDriver(env, second, {p.id: p for p in people[:2]}, watch=False).play_to_end()
    bare = _bare(env)
    assert not bare, "\n".join(b[:300] for b in bare[:40])
    sent = _emoji_names(env)
    four_colour_used = "ct4_" in sent
    assert four_colour_used == (four == "on"), "the four-colour emojis are used exactly when chosen"


def test_a_long_embed_falls_back_to_words_within_discords_limit():
    import discord

    from bot.seam.contract import Rendered
    from draw.emojis import all_emojis
    from draw.readable import readable

    EMOJIS.set({name: 10**18 + i for i, name in enumerate(all_emojis())})
    try:

        def shown(cards: int) -> discord.Embed:
            embed = discord.Embed(title="A big pile ♠", description="Pile: " + " ".join(["9♠", "9♣", "9♥"] * cards))
            for _ in range(3):
                embed.add_field(name="♣ up", value=" ".join(["K♠", "2♣"] * 20))
            return readable(Rendered(embeds=[embed]), False).embeds[0]

        big = shown(40)  # as emojis some 9,000 characters: in words instead
        words = "\n".join([big.title or "", big.description or "", *(f"{f.name} {f.value}" for f in big.fields)])
        assert len(big) <= 6000 and "♠" not in words and "♣" not in words, len(big)
        assert len(shown(300)) <= 6000  # too long even in words: the symbols, but the message goes out
        small = readable(Rendered(content="ann played 9♠", embeds=[]), True)
        assert small.content.startswith("ann played <:ct_9S:")
        four = readable(Rendered(content="9♣ and ♦"), True).content
        assert "<:ct4_9C:" in four and "<:ct4_suitD:" in four, four
    finally:
        EMOJIS.clear()
