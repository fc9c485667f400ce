"""Shithead and the statistics in each reader's language, through SimCord: at one Shithead table a
German-speaking, a Spanish-speaking and an English-speaking player each open their cards and read
their panel, its buttons and their hand picture's alt text in their own language (offene Karten,
Stapel; boca arriba, pila), and the engine's refusal of a move in it too; a Spanish member reads
/cardstats and /leaderboard in Spanish while an English one reads them as always."""

from __future__ import annotations

from typing import Any

from tests.cogs.stats.test_features import embed_text, play_shithead
from tests.helpers import ShitheadDriver, message_text, open_table, speaks, use_seed


def labels(message: Any) -> list[str]:
    out = []
    for row in message.components or []:
        for item in row.get("components", []) if isinstance(row, dict) else getattr(row, "children", []):
            label = item.get("label") if isinstance(item, dict) else getattr(item, "label", None)
            if label:
                out.append(label)
    return out


def hand_alt(panel: Any) -> str:
    (picture,) = [a for a in panel.attachments if a.filename == "hand.png"]
    return picture.description or ""


def components(message: Any) -> list[dict]:
    return [c for row in message.components or [] for c in row.get("components", [])]


async def test_each_player_reads_their_shithead_panel_and_refusals_in_their_language(simcord_env, monkeypatch):
    env = simcord_env
    use_seed(monkeypatch, 7)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    await open_table(env, channel, ann, [bob, cat], command="shithead")
    speaks(monkeypatch, ann, "de")
    speaks(monkeypatch, bob, "es-ES")
    driver = ShitheadDriver(env, channel, {p.id: p for p in (ann, bob, cat)})
    seat = {p.id: driver.live.seat_of(p.id) for p in (ann, bob, cat)}

    german = await driver.open_panel(seat[ann.id], keep=True)
    spanish = await driver.open_panel(seat[bob.id])
    english = await driver.open_panel(seat[cat.id])
    de, es, en = (message_text(m) for m in (german, spanish, english))
    assert "Deine Karten · Shithead #" in de and "Tausche Handkarten gegen offene Karten, so oft du willst" in de, de
    assert "Offen" in de and "Verdeckt (Positionen)" in de, de
    assert "Tus cartas · Shithead #" in es and "Cambia una carta de la mano por una boca arriba" in es, es
    assert "Boca arriba" in es and "Boca abajo (posiciones)" in es, es
    assert "Your cards · Shithead #" in en and "Swap a hand card with a face-up card" in en, en
    for words in ("Your cards", "Face up", "Swap a hand card"):
        assert words not in de and words not in es, words
    assert "Bereit" in labels(german) and "🔄 Aktualisieren" in labels(german), labels(german)
    assert "Listo" in labels(spanish) and "Ready" in labels(english), (labels(spanish), labels(english))
    # a panel asking for a move (a swap, Ready) carries no picture: its buttons stay in view
    assert not [a for m in (german, spanish, english) for a in m.attachments if a.filename == "hand.png"]

    # The engine refuses in the presser's language: a swap from a panel kept from before Ready.
    await driver.act(seat[ann.id], {"type": "ready"})
    swap = next(c for c in components(german) if c.get("custom_id", "").startswith("shs:"))
    late = await ann.select(german, [swap["options"][0]["value"]], custom_id=swap["custom_id"])
    assert "Du bist schon bereit; warte auf die anderen." in message_text(late.response), message_text(late.response)
    waiting = await driver.open_panel(seat[ann.id])
    ready = message_text(waiting)
    assert "✅ Du bist bereit: das Spiel beginnt, sobald alle bereit sind." in ready, ready
    # waiting, the panel shows the hand's picture again, its alt text in the reader's language
    assert hand_alt(waiting).startswith("Deine Hand, 3 Karten: "), hand_alt(waiting)
    await driver.act(seat[bob.id], {"type": "ready"})
    waiting = await driver.open_panel(seat[bob.id])
    assert hand_alt(waiting).startswith("Tu mano, 3 cartas: "), hand_alt(waiting)

    # A command's refusal too: no game in another channel.
    elsewhere = guild.create_text_channel("empty")
    refused = await bob.slash(elsewhere, "shithead hand")
    assert refused.ephemeral and "No hay ninguna partida de Shithead en este canal." in message_text(refused.response)
    refused = await cat.slash(elsewhere, "shithead hand")
    assert "There is no Shithead game running in this channel." in message_text(refused.response)


async def test_a_spanish_member_reads_cardstats_and_the_leaderboard_in_spanish(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await play_shithead(env, room, ann)
    speaks(monkeypatch, bob, "es")

    board = await bob.slash(room, "leaderboard", game="shithead", season="all")
    text = embed_text(board.response)
    assert board.ephemeral and "todos los tiempos" in text and "Todavía no hay nadie clasificado." in text, text
    assert "Clasificado tras 3 partidas" in text and "jugadores más aún sin clasificar" in text, text
    english = embed_text((await ann.slash(room, "leaderboard", game="shithead", season="all")).response)
    assert "all time" in english and "Nobody is ranked yet." in english and "Ranked after 3 games" in english

    profile = await bob.slash(room, "cardstats", member=ann, versus=bob)
    text = embed_text(profile.response)
    assert profile.ephemeral and "Partidas de cartas de ann" in text, text
    assert "jugadas: 1 · ganadas: " in text and "puesto medio" in text and "Puntuación **" in text, text
    assert "Racha actual: " in text and ("1 vez el shithead" in text or "0 veces el shithead" in text), text
    assert "average place" not in text and "Current streak" not in text
    nothing = await bob.slash(room, "cardstats", member=bob)
    assert "Aún no hay partidas terminadas aquí." in embed_text(nothing.response)
    mine = embed_text((await ann.slash(room, "cardstats")).response)
    assert "ann's card games" in mine and "1 played · " in mine and "average place" in mine, mine
