"""The packs: sizes, the 500 pack's extra ranks, the Australian duplicates."""

from __future__ import annotations

from collections import Counter

from games.common.cards import card_code, face_of, is_joker, rank_of, suit_of
from games.ohhell.decks import DECK_PLAYERS, DECKS, build_deck, deck_size


def test_sizes() -> None:
    for deck in DECKS:
        lo, hi = DECK_PLAYERS[deck]
        for n in range(lo, hi + 1):
            cards = build_deck(deck, n)
            assert len(cards) == deck_size(deck, n)
            assert len(set(cards)) == len(cards)  # copies differ in their copy bits
    assert deck_size("australian", 5) == 65 and deck_size("australian", 6) == 78


def test_pack63_ranks() -> None:
    cards = build_deck("pack63", 6)
    per_suit = Counter(suit_of(c) for c in cards if not is_joker(c))
    assert per_suit == {0: 15, 3: 15, 1: 16, 2: 16}
    assert sum(is_joker(c) for c in cards) == 1
    hearts = sorted(rank_of(c) for c in cards if suit_of(c) == 2)
    assert hearts.index(13) == hearts.index(10) + 3  # 11, 12, 13 sit between the 10 and the jack


def test_australian_adds_the_lowest_cards_by_rank_then_suit() -> None:
    extra5 = [card_code(c) for c in build_deck("australian", 5)[52:]]
    assert extra5 == ["2C#1", "2D#1", "2H#1", "2S#1", "3C#1", "3D#1", "3H#1", "3S#1",
                      "4C#1", "4D#1", "4H#1", "4S#1", "5C#1"]  # fmt: skip
    extra6 = build_deck("australian", 6)[52:]
    assert card_code(extra6[-1]) == "8D#1" and len(extra6) == 26
    assert {face_of(c) for c in extra6} <= set(build_deck("standard52", 6))
