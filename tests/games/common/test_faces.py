"""The faces the pictures and emojis are drawn for (:func:`games.common.cards.every_face`) cover
every card any game deals: a card outside them would show as nothing."""

from __future__ import annotations

import pytest

from games.common.cards import every_face, face_of
from games.ohhell.decks import DECK_PLAYERS, DECKS, build_deck
from games.shithead.deal import full_deck
from games.shithead.rules import PRESETS, make_rules


def test_every_face_is_listed_once() -> None:
    faces = every_face()
    assert len(faces) == len(set(faces)) == 63


@pytest.mark.parametrize("deck", DECKS)
def test_every_oh_hell_pack_is_drawn_from_the_faces(deck: str) -> None:
    faces = set(every_face())
    low, high = DECK_PLAYERS[deck]
    for players in range(low, high + 1):
        assert {face_of(c) for c in build_deck(deck, players)} <= faces


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_shithead_deck_is_drawn_from_the_faces(preset: str) -> None:
    assert {face_of(c) for c in full_deck(make_rules(preset))} <= set(every_face())
