"""The table's language: at one table a German-, a Spanish- and an English-speaking player play a
whole Oh Hell game. Each reads their own panel and private answers in their language at every
move (also the panels the bot redraws after someone else's move), while what the channel sees —
the lobby, the table message and its picture's alt text, the final standings — speaks the table's
language: the server's (English here) by default, German once the host sets ``language de``."""

from __future__ import annotations

from typing import Any

import bench.simdriver as simdriver
from tests.helpers import (
    OhHellDriver,
    bot_messages,
    current_message,
    message_text,
    open_table,
    speaks,
    table_message,
    use_seed,
    walk_components,
)

#: words only each language's panel has (its title)
PANEL = {"de": "Deine Hand", "es": "Tu mano", "en": "Your hand"}


def check_panel(panel: Any, language: str) -> None:
    text = message_text(panel)
    assert PANEL[language] in text, (language, text)
    for other, words in PANEL.items():
        if other != language:
            assert words not in text, (language, text)


async def open_hand(actor, channel, bot_id: int) -> Any:
    """My hand on the table message, whatever language its label is in."""
    table = table_message(channel, bot_id)
    [hand] = [c["custom_id"] for c in walk_components(table.components) if c.get("custom_id", "").endswith(":hand")]
    shown = await actor.click(table, custom_id=hand)
    assert shown.response is not None and shown.response.ephemeral, shown
    return shown.response


def pointer(message: Any) -> bool:
    """An old copy of a panel, pointing to the live one, in any language (it has no controls)."""
    return bool(message is not None and not message.components and "⬇️" in (message.content or ""))


async def play(env, monkeypatch, set_language: str | None) -> tuple[Any, list[str]]:
    monkeypatch.setattr(simdriver, "open_hand", open_hand)
    monkeypatch.setattr(simdriver, "is_pointer", pointer)
    use_seed(monkeypatch, 3)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    speaks(monkeypatch, ann, "de")
    speaks(monkeypatch, bob, "es-ES")
    language = {ann.id: "de", bob.id: "es", cat.id: "en"}
    options = {"fixed_hands": "2,1"}
    await open_table(env, channel, cat, [ann, bob], options=options)
    driver = OhHellDriver(env, channel, {p.id: p for p in (ann, bob, cat)}, seed=5)
    tables: list[str] = []
    moves = 0
    while await driver.step():
        moves += 1
        for user_id, message_id in driver.panels.items():
            panel = current_message(env, channel, message_id)
            if panel is not None and panel.components:
                check_panel(panel, language[user_id])
        if moves == 1 and set_language:
            answer = await cat.slash(channel, "ohhell set", option="language", value=set_language)
            assert "✅" in answer.response.content and "**Deutsch**" in answer.response.content, answer.response
            await env.settle()
        if env.bot.tables.in_channel(channel.id, "ohhell") is not None:
            tables.append(message_text(table_message(channel, env.bot.user.id)))
    assert moves >= 9
    await env.settle()
    return channel, tables


#: words only the table message of each language has
TABLE = {"en": ("Trumps: ", "Players (from the dealer's left)"), "de": ("Trumpf: ", "Spieler (links vom Geber an)")}
FINALE = {"en": "Game over! Winner", "de": "Spiel vorbei! Sieger"}


def check_channel(channel, bot_id: int, tables: list[str], language: str, *, from_move: int = 0) -> None:
    other = "de" if language == "en" else "en"
    for text in tables[from_move:]:
        assert all(words in text for words in TABLE[language]), (language, text)
        assert not any(words in text for words in TABLE[other]), (language, text)
    messages = bot_messages(channel, bot_id)
    assert FINALE[language] in messages[-1].content and FINALE[other] not in messages[-1].content
    alts = [a.description or "" for m in messages for a in m.attachments if a.filename == "table.png"]
    assert alts, "no table picture"
    last = alts[-1]  # the deal's last trick, on the closed table
    assert ("won by" in last) == (language == "en") and ("gewonnen von" in last) == (language == "de"), last


async def test_default_table_speaks_english_while_panels_speak_each_player(simcord_env, monkeypatch) -> None:
    channel, tables = await play(simcord_env, monkeypatch, None)
    check_channel(channel, simcord_env.bot.user.id, tables, "en")


async def test_after_set_language_de_the_channel_speaks_german(simcord_env, monkeypatch) -> None:
    """The host sets the language after the first bid: the table message turns German at once
    (no rule changes mid-game, but the language may), every private panel keeps its reader's."""
    channel, tables = await play(simcord_env, monkeypatch, "de")
    assert all(w in tables[0] for w in TABLE["de"]), tables[0]
    check_channel(channel, simcord_env.bot.user.id, tables, "de")
