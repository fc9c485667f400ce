"""Cards as small ints, shared by every game.

Engines compare and hash cards in their inner loops (the computer players search with them), so
a card is a plain ``int`` rather than an object:

    code = (copy << 8) | (suit << 5) | rank

``rank`` is the card's *order* within its suit, not its printed label, so that the 500-pack's
11, 12 and 13 sit between the 10 and the jack without a lookup: 2..10 are themselves, 11..13 the
500-pack ranks, J=15, Q=16, K=17, A=18, and the joker 19. ``copy`` tells apart identical cards of
several packs (Australian Oh Hell, several-deck Shithead, two jokers); two cards that differ only in
``copy`` look the same to a player.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

Card = int

CLUBS, DIAMONDS, HEARTS, SPADES, JOKER_SUIT = 0, 1, 2, 3, 4
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠", "🃏")
SUIT_LETTERS = ("C", "D", "H", "S", "X")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades", "joker")

JACK, QUEEN, KING, ACE, JOKER_RANK = 15, 16, 17, 18, 19
STANDARD_RANKS = (2, 3, 4, 5, 6, 7, 8, 9, 10, JACK, QUEEN, KING, ACE)
RANK_LABELS = {
    **{r: str(r) for r in range(2, 14)},
    JACK: "J",
    QUEEN: "Q",
    KING: "K",
    ACE: "A",
    JOKER_RANK: "Joker",
}
_LABEL_TO_RANK = {label.upper(): rank for rank, label in RANK_LABELS.items()}


def make_card(rank: int, suit: int, copy: int = 0) -> Card:
    return (copy << 8) | (suit << 5) | rank


def rank_of(card: Card) -> int:
    return card & 31


def suit_of(card: Card) -> int:
    return (card >> 5) & 7


def copy_of(card: Card) -> int:
    return card >> 8


def face_of(card: Card) -> Card:
    """The card with its copy number cleared: what a player sees."""
    return card & 0xFF


def is_joker(card: Card) -> bool:
    return (card & 31) == JOKER_RANK


def joker(copy: int = 0) -> Card:
    return make_card(JOKER_RANK, JOKER_SUIT, copy)


def card_label(card: Card) -> str:
    """Human form for messages: ``A♠``, ``10♥``, ``Joker``."""
    if is_joker(card):
        return "Joker"
    return RANK_LABELS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


@functools.lru_cache(maxsize=4096)
def card_code(card: Card) -> str:
    """Stable ASCII form for JSON and custom ids: ``AS``, ``10H``, ``X`` (joker), ``AS#1`` (copy 1).

    Kept for the cards seen (a game has a few dozen; bounded all the same): every view writes each
    card of the deal's tricks and the hands out again, and building the codes afresh was a sixth of
    a view's time (``python bench/views.py``)."""
    base = "X" if is_joker(card) else RANK_LABELS[rank_of(card)] + SUIT_LETTERS[suit_of(card)]
    copy = copy_of(card)
    return f"{base}#{copy}" if copy else base


@functools.lru_cache(maxsize=1024)
def parse_card(text: str) -> Card:
    """Inverse of :func:`card_code` (also accepts the joker as ``Joker``).

    Kept for the codes seen (a few dozen a game; bounded, since a typed text reaches it too): the
    panels and pictures parse the same codes again on every redraw, 1.7 million times in the
    Shithead render test's 21 games, a tenth of its time."""
    base, _, copy_text = text.strip().partition("#")
    copy = int(copy_text) if copy_text else 0
    upper = base.upper()
    if upper in ("X", "JOKER", "JK"):
        return joker(copy)
    rank_text, suit_text = upper[:-1], upper[-1]
    if suit_text not in SUIT_LETTERS[:4] or rank_text not in _LABEL_TO_RANK:
        raise ValueError(f"not a card: {text!r}")
    return make_card(_LABEL_TO_RANK[rank_text], SUIT_LETTERS.index(suit_text), copy)


def cards_label(cards: Iterable[Card]) -> str:
    return " ".join(card_label(c) for c in cards)


def standard52(copy: int = 0) -> list[Card]:
    """A 52-card pack, ♣ then ♦ ♥ ♠, each from 2 up to the ace."""
    return [make_card(r, s, copy) for s in SUITS for r in STANDARD_RANKS]


def every_face() -> list[Card]:
    """Every face a card of any game here can show, once each: the 52 standard cards, the 500
    pack's extra ranks (11 and 12 in the black suits, 11 to 13 in the red) and the joker. What
    the pictures and the card emojis are drawn for, so neither needs to know a game's packs (a
    test holds every game's packs to it)."""
    cards = standard52()
    for suit in (CLUBS, SPADES):
        cards += [make_card(r, suit) for r in (11, 12)]
    for suit in (DIAMONDS, HEARTS):
        cards += [make_card(r, suit) for r in (11, 12, 13)]
    cards.append(joker())
    return cards
