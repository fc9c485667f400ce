"""The engine's refusals and rule errors are said in the language spoken where they are shown
(the reader's), in the rules' own words: the error is decided once, deep in the rules, and its
words are chosen when it is read. The engine's state and views stay the same in every language."""

from __future__ import annotations

import pytest

import locales
from games.common.engine import IllegalAction, RulesError
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from locales import catalogue


@pytest.fixture(autouse=True)
def _catalogue() -> None:
    catalogue.install()


def game_to_follow() -> OhHell:
    """Seat 1 must follow hearts and holds a spade too; seat 0 (the dealer) may not bid 0."""
    rules = make_rules("classic", sequence="fixed", fixed_hands="2,2")
    hands = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}
    deck = OhHell.stack_deck(rules, 3, 0, hands, turnup="5C")
    game = OhHell.from_decks(rules, 3, [deck, deck], first_dealer=0)
    for seat, bid in ((1, 1), (2, 0), (0, 2)):
        game.apply(seat, {"type": "bid", "bid": bid})
    game.apply(0, {"type": "play", "card": "2H"})
    return game


def said(error: Exception, language: str) -> str:
    with locales.speaking(language):
        return str(error)


def test_you_must_follow_suit_in_each_language() -> None:
    game = game_to_follow()
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, {"type": "play", "card": "KS"})
    assert said(refused.value, "en-US") == "You must follow hearts."
    assert said(refused.value, "de") == "Du musst Herz bedienen."
    assert said(refused.value, "es-ES") == "Debes seguir el palo: corazones."
    with pytest.raises(IllegalAction) as early:
        game.apply(2, {"type": "play", "card": "QS"})
    assert said(early.value, "de") == "Du bist nicht am Zug."
    assert said(early.value, "es") == "No es tu turno."


def test_the_hook_refusal_and_the_view_reason() -> None:
    rules = make_rules("classic", sequence="fixed", fixed_hands="2,2")
    hands = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}
    game = OhHell.from_decks(rules, 3, [OhHell.stack_deck(rules, 3, 0, hands, turnup="5C")], first_dealer=0)
    game.apply(1, {"type": "bid", "bid": 1})
    game.apply(2, {"type": "bid", "bid": 1})
    with pytest.raises(IllegalAction) as hooked:
        game.apply(0, {"type": "bid", "bid": 0})
    assert said(hooked.value, "de") == "Der Geber darf nicht 0 ansagen: die Ansagen ergäben zusammen die 2 Stiche."
    assert said(hooked.value, "es") == "El repartidor no puede apostar 0: las apuestas sumarían las 2 bazas."
    # the view holds data, the same whatever language is spoken when it is built
    with locales.speaking("de"):
        german = game.view(0)
    assert german == game.view(0)
    assert german["bid_options"][0][2] == "The dealer may not bid 0: the bids would total the 2 tricks."


def test_a_rule_error_in_each_language() -> None:
    with pytest.raises(RulesError) as wrong:
        make_rules("classic", bidding="simultaneous")
    assert said(wrong.value, "en").startswith("The hook (the dealer may not make the bids total the tricks)")
    assert said(wrong.value, "de").startswith("Der Haken (der Geber darf")
    assert said(wrong.value, "es").startswith("El gancho (el repartidor no puede")
    assert "hook=off" in said(wrong.value, "de") and "hook=off" in said(wrong.value, "es")
