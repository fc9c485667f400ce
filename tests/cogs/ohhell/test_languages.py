"""Oh Hell in each player's own language, through SimCord: at one table a German-speaking, a
Spanish-speaking and an English-speaking player each open their hand and read their panel (its
title, trumps, their bid, the tricks of the deal), their hand picture's alt text and the refusal
of a command or a rule in their own language, in the rules' own words (Trumpf, Stich,
Ansage; triunfo, baza, apuesta), while the English reader's panel says what it always said."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import (
    live_panel,
    message_text,
    open_hand,
    open_table,
    panel_moves,
    speaks,
    use_seed,
    warning_of,
)

GERMAN_CARD = re.compile(r"\b(?:Kreuz|Pik|Herz|Karo) (?:[2-9]|10|Bube|Dame|König|Ass)\b")
SPANISH_CARD = re.compile(r"\b(?:[2-9]|10|jota|reina|rey|as) de (?:tréboles|picas|corazones|diamantes)\b")
ENGLISH_CARD = re.compile(r"\b(?:[2-9]|10|jack|queen|king|ace) of (?:clubs|spades|hearts|diamonds)\b")


def hand_alt(panel: Any) -> str:
    (picture,) = [a for a in panel.attachments if a.filename == "hand.png"]
    return picture.description or ""


async def test_each_player_reads_their_own_panel_picture_and_refusals(simcord_env, monkeypatch) -> None:
    env = simcord_env
    use_seed(monkeypatch, 7)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    speaks(monkeypatch, ann, "de")
    speaks(monkeypatch, bob, "es-ES")
    await open_table(env, channel, ann, [bob, cat])
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    seat_of = {p.id: table.seat_of(p.id) for p in (ann, bob, cat)}
    by_seat = {seat: person for person in (ann, bob, cat) for seat in [seat_of[person.id]]}
    first = {p.id: await open_hand(p, channel, env.bot.user.id) for p in (ann, bob, cat)}

    german, spanish, english = (message_text(first[p.id]) for p in (ann, bob, cat))
    assert "Deine Hand · Oh Hell · Runde 1 von" in german and "Trumpf: " in german, german
    assert "Deine Ansage:" in german or "Du bist noch nicht dran" in german, german
    assert "Tu mano · Oh Hell · mano 1 de" in spanish and "Triunfo: " in spanish, spanish
    assert "Tu apuesta:" in spanish or "Aún no es tu turno" in spanish, spanish
    assert "Your hand · Oh Hell · deal 1 of" in english and "Trumps: " in english, english
    assert "Your bid:" in english or "Not your turn yet" in english, english
    for words in ("Trumps", "Your hand", "deal"):
        assert words not in german and words not in spanish, words

    # A panel asking for a move carries no picture (its buttons stay in view on a phone); every
    # waiting one does, its alt text in its reader's language
    pictured = 0
    for player, start, card in (
        (ann, "Deine Hand, 10 Karten: ", GERMAN_CARD),
        (bob, "Tu mano, 10 cartas: ", SPANISH_CARD),
        (cat, "Your hand, 10 cards: ", ENGLISH_CARD),
    ):
        if not [a for a in first[player.id].attachments if a.filename == "hand.png"]:
            assert first[player.id].components, "a panel without its picture asks for a move"
            continue
        pictured += 1
        assert hand_alt(first[player.id]).startswith(start), hand_alt(first[player.id])
        assert card.search(hand_alt(first[player.id])), hand_alt(first[player.id])
    assert pictured == 2  # one player is to bid first

    # everyone bids on their panel: the bid buttons are numbers, the line above them words
    while table.engine.view(None)["phase"] == "bidding":
        person = by_seat[table.engine.to_act()[0]]
        panel = live_panel(env, channel, person)
        if person is ann:
            assert "**Deine Ansage:** Wie viele Stiche wirst du machen?" in message_text(panel)
        bids = [value for value in panel_moves(panel) if value.isdigit()]
        result = await person.click(panel, custom_id=panel_moves(panel)[bids[0]])
        assert result.acknowledged and warning_of(result) is None, warning_of(result)

    # then cards: each plays the first card their panel offers; the cards they may not play are
    # there, disabled (a real client cannot press them: the engine's refusal is tested on its own)
    for _turn in range(4):
        person = by_seat[table.engine.to_act()[0]]
        panel = live_panel(env, channel, person)
        text = message_text(panel)
        if person is ann:
            assert "**Du bist dran:** drücke die Karte, die du spielen willst." in text, text
        elif person is bob:
            assert "**Tu turno:** pulsa la carta que quieres jugar." in text, text
        moves = [value for value in panel_moves(panel) if not value.isdigit()]
        result = await person.click(panel, custom_id=panel_moves(panel)[moves[0]])
        assert result.acknowledged and warning_of(result) is None, warning_of(result)

    # a trick done: each panel names the deal's tricks in its reader's words (a panel asking for a
    # card says the last trick in a line, a waiting one lists the deal's tricks)
    german = message_text(live_panel(env, channel, ann))
    spanish = message_text(live_panel(env, channel, bob))
    acting = by_seat[table.engine.to_act()[0]]
    listed = {ann: ("Stiche dieser Runde", "spielte aus:"), bob: ("Bazas de esta mano", "salió:")}
    in_a_line = {ann: ("Letzter Stich:", "→ **"), bob: ("Última baza:", "→ **")}
    for person, text in ((ann, german), (bob, spanish)):
        words = in_a_line[person] if person is acting else listed[person]
        assert all(word in text for word in words), text
    assert "Deine Ansage" in german and "bisher gemacht" in german, german
    assert "Tu apuesta" in spanish and "hasta ahora" in spanish, spanish


async def test_refusals_and_rule_errors_are_in_the_presser_language(simcord_env, monkeypatch) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    speaks(monkeypatch, ann, "de")
    speaks(monkeypatch, bob, "es")
    said = {}
    for person in (ann, bob, cat):
        answer = await person.slash(channel, "ohhell hand")
        said[person.id] = answer.response.content
    assert said[ann.id] == "⚠️ In diesem Kanal läuft kein Oh-Hell-Spiel.", said
    assert said[bob.id] == "⚠️ No hay ninguna partida de Oh Hell en este canal.", said
    assert said[cat.id] == "⚠️ There is no Oh Hell game running in this channel.", said

    # the classic rules keep the hook, which needs bids made in turn: the rules say why, and how
    for person, words in ((ann, "Der Haken"), (bob, "El gancho"), (cat, "The hook")):
        own = guild.create_text_channel(f"cards-{person.id}")
        await person.slash(own, "ohhell new")
        answer = await person.slash(own, "ohhell set", option="bidding", value="simultaneous")
        assert words in answer.response.content and "hook=off" in answer.response.content, answer.response.content
