"""The checked side of trick play: the play id of a ``play`` action, or the refusal a player
reads (follow suit; a no-trump joker's named suit; a Devil's Bridge deal's blind card).

Apart from :mod:`games.ohhell.tricks` (the rule steps, which take checked ids) because only the
bot's checked API asks: a computer player's search never does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.common.cards import Card, parse_card
from games.common.engine import IllegalAction
from games.ohhell.actions import NAME_SHIFT, named_joker_id, parse_suit
from games.ohhell.options import SUIT_TEXT
from games.ohhell.tables import JOKER
from games.ohhell.tricks import Tricks
from locales import N_, Msg, msg

#: the one refusal of any named card in a Devil's Bridge deal, whether or not it is the seat's
BRIDGE_REFUSAL = N_('Your own card is hidden in this deal: play it blind (the card "?", no suit).')

#: "clubs", "diamonds"... by suit number, said in the reader's language where a refusal is shown
_SUITS = tuple(Msg(SUIT_TEXT[letter]) for letter in "CDHS")
#: "a club", "a diamond"... for the joker's reason
_SINGULAR = (Msg(N_("a club")), Msg(N_("a diamond")), Msg(N_("a heart")), Msg(N_("a spade")))


def play_id(tricks: Tricks, seat: int, action: Mapping[str, Any], penalize: bool, from_log: bool = False) -> int:
    """The play id of ``seat``'s ``play`` action on its turn (a log may name a Devil's Bridge
    card: ``from_log``), or IllegalAction with the reason."""
    deal = tricks.deal
    hand = tricks.hand(seat)
    if deal.devils_bridge and not from_log:
        return _blind_play_id(tricks, hand, action)
    card = _card_named(tricks, hand, action.get("card"))
    suit = action.get("suit")
    if card == JOKER and deal.no_trump_joker:
        play = _joker_play_id(tricks, suit)
    else:
        if suit is not None and not deal.devils_bridge:
            raise IllegalAction(msg("Only a joker in a no-trump deal is played as a named suit."))
        play = card
    if not penalize and play not in tricks.legal_plays(seat, True):
        raise IllegalAction(_why_illegal(tricks, card, play))
    return play


def _blind_play_id(tricks: Tricks, hand: list[Card], action: Mapping[str, Any]) -> int:
    """A Devil's Bridge play: the seat may not learn its own card, so every refusal here is
    decided before the card is looked at, and naming the right card and a wrong one read the
    same."""
    if action.get("card") != "?" or "suit" in action:
        raise IllegalAction(Msg(BRIDGE_REFUSAL))
    card = hand[0]
    if card == JOKER and tricks.deal.no_trump_joker:
        if tricks.cards and tricks.led_suit < 4:
            return named_joker_id(JOKER, tricks.led_suit)
        return JOKER
    return card


def _card_named(tricks: Tricks, hand: list[Card], code: Any) -> Card:
    """The card ``code`` names in ``hand`` ("?" is the one blind card in a replayed Devil's
    Bridge deal)."""
    if code == "?" and tricks.deal.devils_bridge:
        return hand[0]
    try:
        card = parse_card(code) if isinstance(code, str) else int(code)
    except (ValueError, TypeError):
        raise IllegalAction(msg("{code} is not a card.", code=repr(code))) from None
    if card not in hand:
        raise IllegalAction(msg("You don't have that card."))
    return card


def _joker_play_id(tricks: Tricks, suit: Any) -> int:
    """A no-trump joker's play id: it follows the suit led, or is led as the suit named."""
    if tricks.cards:
        s = tricks.led_suit
        if suit is not None and s < 4 and parse_suit(suit) != s:
            raise IllegalAction(msg("The joker follows as {suit}, the suit led.", suit=_SUITS[s]))
    elif suit is None:
        if not tricks.deal.devils_bridge:
            raise IllegalAction(msg("Name the suit you lead the joker as: C, D, H or S."))
        s = -1
    else:
        s = parse_suit(suit)
    return named_joker_id(JOKER, s) if 0 <= s < 4 else JOKER


def _why_illegal(tricks: Tricks, card: Card, play: int) -> Msg:
    if card == JOKER and tricks.deal.no_trump_joker:
        s = (play >> NAME_SHIFT) - 1
        return msg(
            "The joker can't be played as {suit} now: you have played {one} this "
            "deal and still hold one or have failed to follow {suit}.",
            suit=_SUITS[s],
            one=_SINGULAR[s],
        )
    if tricks.cards and tricks.led_suit < 4:
        return msg("You must follow {suit}.", suit=_SUITS[tricks.led_suit])
    return msg("You can't play that card now.")
