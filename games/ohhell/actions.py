"""Oh Hell's actions: their JSON forms (what the bot, the stored log and the computer players
pass) and the integer ids the engine works with internally.

``{"type": "bid", "bid": 2}``; ``{"type": "play", "card": "QH"}``. A joker in a no-trump deal
carries the suit it is played as, ``{"type": "play", "card": "X", "suit": "H"}`` (named when
led; the led suit when following, which may be omitted). In a Devil's Bridge deal the hidden
card is played as ``{"type": "play", "card": "?"}``.

Ids: a bid is its number; a play is the card int, and a no-trump joker's play carries the named
suit above the card's bits, ``card | (suit + 1) << NAME_SHIFT``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NotRequired, TypedDict

from games.common.cards import SUIT_LETTERS, SUIT_NAMES, Card, card_code
from games.common.engine import IllegalAction
from games.ohhell.results import DealLog
from games.ohhell.tables import JOKER
from locales import msg


class BidAction(TypedDict):
    type: Literal["bid"]
    bid: int


class PlayAction(TypedDict):
    type: Literal["play"]
    #: a card code ("QH", "X" for a joker), or "?" for a Devil's Bridge deal's hidden card
    card: str
    #: the suit letter a joker in a no-trump deal is played as
    suit: NotRequired[str]


OhHellAction = BidAction | PlayAction


class UndoAction(TypedDict):
    """A take-back request or answer (:mod:`games.ohhell.takeback`)."""

    type: Literal["undo_ask", "undo_accept", "undo_refuse"]
    #: with "undo_ask": the seats whose acceptance the table gives at once (its computers)
    auto_accept: NotRequired[list[int]]


#: what the log holds: the moves of the game, and the take-backs around them
LoggedAction = OhHellAction | UndoAction

#: a played joker's fast action id carries the named suit: card | (suit + 1) << NAME_SHIFT
NAME_SHIFT = 12
#: the card bits of an id (every card int is below it)
CARD_MASK = (1 << NAME_SHIFT) - 1


def named_joker_id(joker: Card, suit: int) -> int:
    """The id of playing ``joker`` as ``suit`` (0..3)."""
    return joker | (suit + 1) << NAME_SHIFT


def split_play_id(play_id: int) -> tuple[Card, int]:
    """(card, named suit or -1) of a play id."""
    if play_id > CARD_MASK:
        return play_id & CARD_MASK, (play_id >> NAME_SHIFT) - 1
    return play_id, -1


def play_action(play_id: int) -> PlayAction:
    """The JSON form of a play id."""
    card, named = split_play_id(play_id)
    if named >= 0:
        return {"type": "play", "card": card_code(card), "suit": SUIT_LETTERS[named]}
    return {"type": "play", "card": card_code(card)}


def bid_action(bid: int) -> BidAction:
    return {"type": "bid", "bid": bid}


def parse_suit(text: Any) -> int:
    """A suit named as a letter, a name or a symbol; raises :class:`IllegalAction` otherwise."""
    t = str(text).strip().upper()
    for i, (letter, name) in enumerate(zip(SUIT_LETTERS[:4], SUIT_NAMES[:4], strict=True)):
        if t in (letter, name.upper(), "♣♦♥♠"[i]):
            return i
    raise IllegalAction(msg("Name a suit: C, D, H or S."))


def deal_actions(deals: Iterable[DealLog]) -> list[tuple[int, LoggedAction]]:
    """The bids and plays of ``deals`` in order, as logged (a no-trump joker with the suit it
    counted as; a Devil's Bridge card as the card it was)."""
    out: list[tuple[int, LoggedAction]] = []
    for players, bids, tricks in deals:
        left = {s: players[(i + 1) % len(players)] for i, s in enumerate(players)}
        for seat, bid in bids:
            out.append((seat, bid_action(bid)))
        for leader, cards, joker_suit, _ in tricks:
            s = leader
            for c in cards:
                if c == JOKER and 0 <= joker_suit < 4:
                    out.append((s, play_action(named_joker_id(c, joker_suit))))
                else:
                    out.append((s, play_action(c)))
                s = left[s]
    return out
