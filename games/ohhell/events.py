"""The data of each Oh Hell event, typed (an :class:`games.common.engine.Event` carries it as a
plain JSON-able dict; ``Event.seat`` set means only that seat may see the event).

``deal_started`` (:class:`DealStarted`); ``hand_dealt`` (private, :class:`HandDealt`);
``extra_deal`` (:class:`ExtraDeal`); ``playoff_started`` (:class:`PlayoffStarted`); ``bid``
(sequential bidding, :class:`BidMade`); ``bid_placed`` (simultaneous bidding, no number,
:class:`BidPlaced`); ``bids_revealed`` (both modes, when the last bid is in,
:class:`BidsRevealed`); ``card_played`` (:class:`CardPlayed`); ``revoke`` (when it becomes
public, :class:`RevokeMade`); ``trick_won`` (:class:`TrickWon`); ``deal_scored``
(:class:`DealScored`); ``game_over`` (:class:`GameOver`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NotRequired, TypedDict, cast, overload

from games.common.cards import Card, card_code
from games.common.engine import Event
from games.ohhell.deal import Deal
from games.ohhell.display import TablePlay, sorted_codes
from games.ohhell.results import HistoryEntry, Standing
from games.ohhell.tables import GameSetup, suit_letter


class DealStarted(TypedDict):
    deal: int
    deals: int
    kind: str
    hand_size: int
    dealer: int
    players: list[int]
    trump: str | None
    turnup: str | None
    turnup_is_dealers: bool
    devils_bridge: bool
    first_lead: int


class HandDealt(TypedDict):
    """The seat's cards; in a Devil's Bridge deal none (``hidden``) and the others' instead."""

    deal: int
    cards: list[str]
    hidden: NotRequired[bool]
    others: NotRequired[list[list[str] | None]]


class ExtraDeal(TypedDict):
    leaders: list[int]
    total: int
    hand_size: int


class PlayoffStarted(TypedDict):
    seats: list[int]
    total: int
    hand_size: int


class BidMade(TypedDict):
    seat: int
    bid: int


class BidPlaced(TypedDict):
    seat: int


class BidsRevealed(TypedDict):
    bids: list[int | None]
    total: int
    tricks: int


class CardPlayed(TypedDict):
    seat: int
    card: str
    suit: str | None  # the suit a no-trump joker is played as
    trick: int


class RevokeMade(TypedDict):
    seat: int
    suit: str
    trick: int


class TrickWon(TypedDict):
    seat: int
    trick: int
    cards: list[TablePlay]
    tricks: list[int]


class DealScored(HistoryEntry):
    totals: list[int]


class GameOver(TypedDict):
    standings: list[Standing]


@overload
def event(kind: Literal["deal_started"], data: DealStarted, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["hand_dealt"], data: HandDealt, seat: int) -> Event: ...
@overload
def event(kind: Literal["extra_deal"], data: ExtraDeal, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["playoff_started"], data: PlayoffStarted, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["bid"], data: BidMade, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["bid_placed"], data: BidPlaced, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["bids_revealed"], data: BidsRevealed, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["card_played"], data: CardPlayed, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["revoke"], data: RevokeMade, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["trick_won"], data: TrickWon, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["deal_scored"], data: DealScored, seat: None = None) -> Event: ...
@overload
def event(kind: Literal["game_over"], data: GameOver, seat: None = None) -> Event: ...
def event(kind: str, data: Any, seat: int | None = None) -> Event:
    """An :class:`Event` of ``kind`` whose data has that kind's type (the same dict, untouched)."""
    return Event(kind, cast(dict[str, Any], data), seat)


def deal_events(setup: GameSetup, deal: Deal, hand: Callable[[int], list[Card]]) -> list[Event]:
    """The events of a deal just dealt: ``deal_started`` for all, each player's
    ``hand_dealt`` for that player only (in a Devil's Bridge deal: the others' cards);
    ``hand``: a seat's cards."""
    order = deal.players
    events = [
        event(
            "deal_started",
            {
                "deal": deal.number,
                "deals": len(setup.hand_sizes),
                "kind": deal.kind,
                "hand_size": deal.hand_size,
                "dealer": deal.dealer,
                "players": order[:],
                "trump": suit_letter(deal.trump),
                "turnup": card_code(deal.turnup) if deal.turnup >= 0 else None,
                "turnup_is_dealers": deal.turnup_is_dealers,
                "devils_bridge": deal.devils_bridge,
                "first_lead": deal.first_lead,
            },
        )
    ]
    for s in order:
        data: HandDealt
        if deal.devils_bridge:
            others = [sorted_codes(deal, hand(o)) if o != s and o in order else None for o in range(setup.seat_count)]
            data = {"deal": deal.number, "cards": [], "hidden": True, "others": others}
        else:
            data = {"deal": deal.number, "cards": sorted_codes(deal, hand(s))}
        events.append(event("hand_dealt", data, seat=s))
    return events
