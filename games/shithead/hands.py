"""How the engine orders, names and tells apart the cards a player holds.

Shared by every phase: hands are shown and listed low to high in *play* order (3 … A, then 2s,
then jokers), cards leave the engine as codes (memoised: the computer players ask for views in
their inner loop), and several packs make identical-looking copies that a player chooses between
only once (:func:`distinct`).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.common.cards import Card, card_code, face_of, suit_of
from games.shithead.pile import RANK_ORDER

#: a rank's place in play order (3 lowest, then up to the ace, the 2, the joker)
PLAY_ORDER = {r: i for i, r in enumerate(RANK_ORDER)}


def sort_key(card: Card) -> tuple[int, int, int]:
    """Low to high in play order (3 … A, 2, joker), then suit, then copy."""
    return (PLAY_ORDER[card & 31], suit_of(card), card >> 8)


_CODE: dict[Card, str] = {}


def code(card: Card) -> str:
    """:func:`~games.common.cards.card_code`, memoised."""
    text = _CODE.get(card)
    if text is None:
        text = _CODE[card] = card_code(card)
    return text


def codes(cards: Sequence[Card]) -> list[str]:
    return [_CODE.get(c) or code(c) for c in cards]


def distinct(cards: Sequence[Card]) -> list[Card]:
    """One card per face (the lowest copy), in the given order."""
    seen: set[Card] = set()
    out = []
    for c in sorted(cards, key=lambda c: c >> 8):
        if face_of(c) not in seen:
            seen.add(face_of(c))
            out.append(c)
    order = {c: i for i, c in enumerate(cards)}
    return sorted(out, key=order.__getitem__)
