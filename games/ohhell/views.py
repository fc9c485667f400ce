"""What each seat may see of an Oh Hell game: the view's types and how it is built.

``view(None)`` is the public view (:class:`OhHellView`); ``view(seat)`` adds what only that seat
may see (:class:`OhHellSeatView`). Both extend :class:`games.common.contracts.BaseView`, in the
vocabulary both games share: ``seat_count`` (a number), ``viewer`` (the seat, or None),
``to_act``, ``hand``, ``legal``. The view never holds another seat's hidden card.
"""

from __future__ import annotations

from typing import Any, TypedDict

from games.common.cards import SUIT_LETTERS, card_code
from games.common.contracts import BaseView
from games.common.engine import GameError
from games.ohhell.actions import OhHellAction
from games.ohhell.deal import Deal
from games.ohhell.display import TablePlay, sorted_codes, trick_plays
from games.ohhell.results import HistoryEntry, PlayedTrick, Standing
from games.ohhell.state import DealState
from games.ohhell.tables import BID, OVER, PHASES, suit_letter
from locales import msg


class TrickView(TypedDict):
    cards: list[TablePlay]
    winner: int


class LastTrickView(TrickView):
    deal: int


class RevokeView(TypedDict):
    seat: int
    suit: str
    trick: int


class OhHellView(BaseView):
    """The public view of an Oh Hell game (``view(None)``); every seat's view has these too.

    ``deal`` is 1-based (tie deals counted), ``deals`` the scheduled deals; ``players`` the
    seats in this deal from the dealer's left, dealer last (a play-off has fewer); ``trump``
    a suit letter or None (no trumps); ``hook_forbidden`` the bid the dealer may not make when
    it is the dealer's turn to bid; ``bids`` per seat, None where unknown to this viewer (with
    simultaneous bidding all None until every bid is in); ``trick`` the current trick;
    ``deal_tricks`` this deal's finished tricks; ``deal_plays`` every card played this deal;
    ``last_trick`` the previous trick (the previous deal's last one stays until this deal's
    first trick is won); ``revokes`` the revokes this viewer may see (public once the revoker
    plays the suit they failed to follow, or when the deal is scored; the revoker sees their
    own at once); ``standings`` when the game is over."""

    deal: int
    deals: int
    deal_kind: str
    extra_deals: int
    playoffs: int
    hand_size: int
    dealer: int
    players: list[int]
    trump: str | None
    turnup: str | None
    turnup_is_dealers: bool
    devils_bridge: bool
    bidding: str
    hook: bool
    hook_forbidden: int | None
    bids: list[int | None]
    has_bid: list[bool]
    bid_total: int
    tricks: list[int]
    hand_counts: list[int]
    trick: list[TablePlay]
    deal_tricks: list[TrickView]
    deal_plays: list[TablePlay]
    trick_no: int
    led_suit: str | None
    leader: int
    last_trick: LastTrickView | None
    totals: list[int]
    history: list[HistoryEntry]
    revokes: list[RevokeView]
    standings: list[Standing] | None


class OhHellSeatView(OhHellView):
    """A seat's view: the public view plus what only the viewer may see.

    ``hand``: sorted codes (trumps first, then ♠ ♥ ♣ ♦, each descending; [] in a Devil's
    Bridge deal, ``hand_hidden``); ``others_cards``: in a Devil's Bridge deal the other seats'
    cards (None for the viewer and seats not in the deal), else None; ``my_bid``: the viewer's
    bid even while the bids are secret; ``legal``: ``legal_actions``; ``proper``: the plays that
    are not revokes (equal to ``legal`` outside penalize mode); ``bid_options``: ``[[bid,
    allowed, reason or None], ...]`` while this seat may bid."""

    hand: list[str]
    hand_hidden: bool
    others_cards: list[list[str] | None] | None
    my_bid: int | None
    legal: list[OhHellAction]
    proper: list[OhHellAction]
    bid_options: list[list[Any]]


def _last_trick(game: DealState) -> LastTrickView | None:
    # the previous deal's last trick stays on show until this deal's first trick is won
    last = game.record.last_trick(game.tricks)
    if last is None:
        return None
    (leader, cards, joker_suit, winner), deal, players = last
    return {"cards": trick_plays(game.deal, leader, cards, joker_suit, players), "winner": winner, "deal": deal}


def _trick_view(deal: Deal, trick: PlayedTrick) -> TrickView:
    leader, cards, joker_suit, winner = trick
    return {"cards": trick_plays(deal, leader, cards, joker_suit), "winner": winner}


def public_view(game: DealState, viewer: int | None, name: str, to_act: list[int]) -> OhHellView:
    """The keys every view has; ``viewer`` only decides which revokes it shows. ``name``: the
    game's ``GAME``; ``to_act``: its ``to_act()``."""
    setup, deal, bidding, tricks, record = game.setup, game.deal, game.bidding, game.tricks, game.record
    secret = game.phase == BID and setup.simultaneous
    bids: list[int | None] = [None if (b < 0 or secret) else b for b in bidding.bids]
    revokes: list[RevokeView] = [
        {"seat": r.seat, "suit": SUIT_LETTERS[r.suit], "trick": r.trick}
        for r in tricks.books.revokes
        if r.public or r.seat == viewer
    ]
    deal_tricks = [_trick_view(deal, t) for t in tricks.finished]
    current = trick_plays(deal, tricks.leader, tricks.cards, tricks.joker_suit)
    return {
        "rules": setup.rules.to_json(),
        "game": name,
        "seat_count": game.seat_count,
        "viewer": viewer,
        "phase": PHASES[game.phase],
        "deal": deal.number,
        "deals": len(setup.hand_sizes),
        "deal_kind": deal.kind,
        "extra_deals": record.extra_deals,
        "playoffs": record.playoff_deals,
        "hand_size": deal.hand_size,
        "dealer": deal.dealer,
        "players": deal.players[:],
        "trump": suit_letter(deal.trump),
        "turnup": card_code(deal.turnup) if deal.turnup >= 0 else None,
        "turnup_is_dealers": deal.turnup_is_dealers,
        "devils_bridge": deal.devils_bridge,
        "bidding": setup.rules.bidding,
        "hook": setup.hook,
        "hook_forbidden": bidding.forbidden(),
        "bids": bids,
        "has_bid": [b >= 0 for b in bidding.bids],
        "bid_total": sum(b for b in bids if b is not None),
        "tricks": tricks.won[:],
        "hand_counts": [sum(map(len, g)) for g in tricks.hands],
        "trick": current,
        "deal_tricks": deal_tricks,
        "deal_plays": [p for t in deal_tricks for p in t["cards"]] + current,
        "trick_no": min(tricks.done + 1, deal.hand_size),
        "led_suit": suit_letter(tricks.led_suit) if tricks.cards else None,
        "leader": tricks.leader,
        "last_trick": _last_trick(game),
        "to_act": to_act,
        "totals": record.totals[:],
        "history": list(record.history_entries()),
        "revokes": revokes,
        "standings": game.standings() if game.phase == OVER else None,
    }


def seat_view(
    game: DealState,
    seat: int,
    public: OhHellView,
    legal: list[OhHellAction],
    proper: list[OhHellAction],
    bid_options: list[tuple[int, bool, str | None]],
) -> OhHellSeatView:
    """``public`` (this seat's :func:`public_view`) plus what only ``seat`` may see; ``legal``,
    ``proper`` and ``bid_options``: the game's answers for ``seat``."""
    deal, hand = game.deal, game.tricks.hand
    hidden = deal.devils_bridge and game.phase != OVER
    others: list[list[str] | None] | None = None
    if hidden:
        others = [
            sorted_codes(deal, hand(o)) if o != seat and o in deal.players else None for o in range(game.seat_count)
        ]
    bid = game.bidding.bids[seat]
    return {
        **public,
        "hand": [] if hidden else sorted_codes(deal, hand(seat)),
        "hand_hidden": hidden,
        "others_cards": others,
        "my_bid": bid if bid >= 0 else None,
        "legal": legal,
        "proper": proper,
        "bid_options": [list(o) for o in bid_options],
    }


def check_viewer(game: DealState, seat: int | None) -> None:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < game.seat_count):
        raise GameError(msg("There is no such seat."))
