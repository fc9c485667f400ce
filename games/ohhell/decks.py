"""The packs Oh Hell is played with (RULES.md part 1, seeds 000 and 001).

A deck's size can depend on the number of players (the Australian pack adds 13 low cards of a
second pack for 5 players and 26 for 6), so every function here takes the player count.
"""

from __future__ import annotations

from games.common.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    STANDARD_RANKS,
    Card,
    every_face,
    joker,
    make_card,
    standard52,
)
from locales import N_

DECKS = ("standard52", "standard52+joker", "pack63", "australian")

#: players each pack can seat (RULES.md: 2–7 with 52 cards, 8 for seed 004; 6–7 with the
#: 63-card pack; 5–6 with the Australian packs)
DECK_PLAYERS: dict[str, tuple[int, int]] = {
    "standard52": (2, 8),
    "standard52+joker": (2, 8),
    "pack63": (6, 7),
    "australian": (5, 6),
}

#: each pack in words (marked for the catalogue: translated where shown)
DECK_HELP: dict[str, str] = {
    "standard52": N_("52 cards"),
    "standard52+joker": N_("52 cards and a joker (the highest trump)"),
    "pack63": N_("63-card 500 pack: 11 and 12 in black suits, 11-13 in red suits, and a joker"),
    "australian": N_("52 cards and the lowest 13 (5 players) or 26 (6 players) of a second pack"),
}


def pack63() -> list[Card]:
    """The six-hand 500 pack: the extra ranks sort between the 10 and the jack by their value.
    It holds every face a card here can show, once each, in that order: :func:`every_face`."""
    return every_face()


def australian(players: int) -> list[Card]:
    """52 cards plus a second pack's lowest cards, lowest by rank then ♣ ♦ ♥ ♠ (seed 001)."""
    extra_count = {5: 13, 6: 26}.get(players)
    if extra_count is None:
        raise ValueError("the Australian pack is for 5 or 6 players")
    second = [make_card(r, s, copy=1) for r in STANDARD_RANKS for s in (CLUBS, DIAMONDS, HEARTS, SPADES)]
    return standard52() + second[:extra_count]


def build_deck(deck: str, players: int) -> list[Card]:
    """The cards of ``deck`` for ``players`` players, in a fixed (unshuffled) order."""
    if deck == "standard52":
        return standard52()
    if deck == "standard52+joker":
        return standard52() + [joker()]
    if deck == "pack63":
        return pack63()
    if deck == "australian":
        return australian(players)
    raise ValueError(f"unknown deck {deck!r}")


def deck_size(deck: str, players: int) -> int:
    if deck == "australian":
        return 52 + {5: 13, 6: 26}.get(players, 0)
    return {"standard52": 52, "standard52+joker": 53, "pack63": 63}[deck]


def has_joker(deck: str) -> bool:
    return deck in ("standard52+joker", "pack63")
