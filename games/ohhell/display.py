"""How Oh Hell cards are shown: a hand sorted for display, a trick as ``[seat, code, suit]``.

Low-level helpers shared by the state (its events) and the views; they read only the few
attributes of the game named in :class:`CardOrder` and :class:`SeatOrder`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.common.cards import JOKER_SUIT, Card, card_code
from games.ohhell.tables import JOKER, suit_letter

#: the display order of the suits after the trumps: ♠ ♥ ♣ ♦
_DISPLAY_SUITS = (3, 2, 0, 1)

#: one card on the table: [seat, card code, the suit a no-trump joker was named as, or None]
TablePlay = list[Any]


class CardOrder(Protocol):
    """What sorting cards for show reads: this deal's trump and card tables."""

    trump: int
    effective_suit: list[int]
    power: list[int]


class SeatOrder(Protocol):
    """What laying out a trick reads: this deal's seats in order."""

    players: list[int]


def _sort_key(game: CardOrder, card: Card) -> tuple[int, int]:
    suit = game.effective_suit[card]
    group = 0 if suit == game.trump or suit == JOKER_SUIT else 1 + _DISPLAY_SUITS.index(suit)
    return group, -game.power[card]


def sorted_codes(game: CardOrder, cards: list[Card]) -> list[str]:
    """Card codes sorted for showing: trumps first, then ♠ ♥ ♣ ♦, each descending."""
    return [card_code(c) for c in sorted(cards, key=lambda c: _sort_key(game, c))]


def trick_plays(
    game: SeatOrder, leader: int, cards: Sequence[Card], joker_suit: int, players: list[int] | None = None
) -> list[TablePlay]:
    """[[seat, code, named suit], ...]; ``players``: the deal's seat order if not this deal's."""
    order = game.players if players is None else players
    seats = []
    if cards:
        i = order.index(leader)
        seats = [order[(i + k) % len(order)] for k in range(len(cards))]
    return [
        [s, card_code(c), suit_letter(joker_suit) if c == JOKER and joker_suit >= 0 else None]
        for s, c in zip(seats, cards, strict=True)
    ]
