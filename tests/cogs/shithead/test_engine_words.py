"""The Shithead engine's own lines (the last actions, why a player starts, what beats the pile)
reach each reader in their language: the engine keeps them as a message id and its parameters
(:meth:`locales.Msg.to_json`), never as English to be read back, and the table says them through
the catalogue."""

from __future__ import annotations

import json

import locales
from cogs.shithead.render import need_text, recent_lines, table_embed
from locales import catalogue, said
from tests.games.shithead.scenario import pickup, play, stacked


def _played():
    """Seat 0 starts (a 3 in hand), plays the queen; seat 1 cannot beat it and picks the pile up."""
    game = stacked(up={0: ["4C", "4D", "4H"]}, hands={0: ["QC", "3D", "6D"], 1: ["6S", "5S", "9S"]})
    play(game, 0, "QC")
    beat = game.view(None)["need"]
    pickup(game, 1)
    return game, beat


def test_the_engine_keeps_its_lines_as_message_ids_in_json() -> None:
    game, beat = _played()
    view = game.view(None)
    json.dumps(view)  # views and events stay plain data
    assert view["recent"][-1]["text"] == {
        "msgid": "picked up {n} card",
        "params": {"n": 1},
        "plural": "picked up {n} cards",
    }
    assert beat["msgid"] == "Beat the {top}: {ranks}." and beat["params"]["top"] == {"msgid": "queen", "params": {}}
    assert view["first_reason"] == {
        "msgid": "{rank} in hand",
        "params": {"rank": {"msgid": "a {rank}", "params": {"rank": 3}}},
    }


def test_the_last_actions_the_start_and_the_need_are_said_in_each_readers_language() -> None:
    catalogue.install()
    game, beat = _played()
    view = game.view(None)
    names = {0: "ann", 1: "bob", 2: "cid"}.__getitem__
    expected = {
        "en": ("ann played Q♣", "bob picked up 1 card", "a 3 in hand", "Beat the queen: "),
        "de": ("ann spielte Q♣", "bob nahm 1 Karte auf", "eine 3 auf der Hand", "Schlage Dame: "),
        "es": ("ann jugó Q♣", "bob recogió 1 carta", "un 3 en la mano", "Supera reina: "),
    }
    for language, (played, picked, reason, need) in expected.items():
        with locales.speaking(language):
            lines = recent_lines(view, names)
            assert played in lines and picked in lines, (language, lines)
            assert said(view["first_reason"]) == reason
            assert said(beat).startswith(need), said(beat)
            assert need_text(view) == {"en": "Any card.", "de": "Jede Karte.", "es": "Cualquier carta."}[language]
            embed = table_embed(view, names, [], "")
            assert reason in (embed.description or "")
    with locales.speaking("de"):
        lines = recent_lines(view, names)
        assert "played" not in lines and "picked up" not in lines
