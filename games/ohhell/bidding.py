"""The bidding phase: each player bids the tricks it will take, in turn from the dealer's left or
all at once in secret (``rules.bidding``); the hook forbids the dealer's bid that would make the
bids add up to the tricks.

:class:`Bidding` is one deal's bids and their rules, checked (the refusals a player reads) and
unchecked (the rule step :meth:`Bidding.place`). A secret bid changed before the last bid is in
is a take-back of sorts (:mod:`games.ohhell.takeback`), through :meth:`Bidding.replace`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.common.engine import Event, IllegalAction
from games.ohhell.actions import OhHellAction, bid_action
from games.ohhell.deal import Deal
from games.ohhell.events import BidsRevealed, event
from games.ohhell.play_rules import hook_forbidden_bid, hook_message
from games.ohhell.tables import GameSetup
from locales import SOURCE, msg


class Bidding:
    """One deal's bids (see the module docstring)."""

    __slots__ = ("deal", "setup", "bids", "count", "total", "order")

    deal: Deal
    setup: GameSetup
    bids: list[int]  # per seat, -1 until bid
    count: int  # bids made
    total: int  # their sum
    order: list[tuple[int, int]]  # (seat, bid) in order

    def __init__(self, setup: GameSetup, deal: Deal) -> None:
        self.deal = deal
        self.setup = setup
        self.bids = [-1] * setup.seat_count
        self.count = 0
        self.total = 0
        self.order = []

    def copy(self) -> Bidding:
        other = object.__new__(Bidding)
        other.deal, other.setup, other.count, other.total = self.deal, self.setup, self.count, self.total
        other.bids = self.bids[:]
        other.order = self.order[:]
        return other

    # -- the rules ------------------------------------------------------------------------

    def forbidden(self) -> int | None:
        """The bid the hook forbids now (only the dealer's, the last one), or None (also once
        every bid is in)."""
        if self.setup.hook and self.count == self.deal.player_count - 1:
            return hook_forbidden_bid(self.deal.hand_size, self.total)
        return None

    def may_bid(self, seat: int, turn: int) -> bool:
        """Whether ``seat`` is to bid (``turn``: the game's seat to act), the bidding being on."""
        if seat not in self.deal.players or self.bids[seat] >= 0:
            return False
        return self.setup.simultaneous or seat == turn

    def first_unbid(self) -> int:
        """The first player (dealer's left first) still to bid in a secret bidding."""
        bids = self.bids
        for s in self.deal.players:
            if bids[s] < 0:
                return s
        return -1

    def place(self, seat: int, bid: int, events: list[Event] | None) -> int:
        """Record ``seat``'s (checked) bid; returns the next seat to bid, -1 once every bid is in."""
        self.bids[seat] = bid
        self.count += 1
        self.total += bid
        self.order.append((seat, bid))
        simultaneous = self.setup.simultaneous
        if events is not None:
            if simultaneous:
                events.append(event("bid_placed", {"seat": seat}))
            else:
                events.append(event("bid", {"seat": seat, "bid": bid}))
        if self.count == self.deal.player_count:
            if events is not None:
                shown = [b if b >= 0 else None for b in self.bids]
                revealed: BidsRevealed = {"bids": shown, "total": self.total, "tricks": self.deal.hand_size}
                events.append(event("bids_revealed", revealed))
            return -1
        if simultaneous:
            return self.first_unbid()
        return self.deal.next_seat[seat]

    def replace(self, seat: int, bid: int) -> int:
        """Put ``bid`` in place of ``seat``'s secret bid (last in the order); returns the old one."""
        old = self.bids[seat]
        self.bids[seat] = bid
        self.total += bid - old
        self.order.remove((seat, old))
        self.order.append((seat, bid))
        return old

    # -- the checked side: what a player may bid and why not ------------------------------

    def options(self) -> list[tuple[int, bool, str | None]]:
        """Every bid 0..hand size: allowed or not, and why not (for a seat that may bid)."""
        forbidden = self.forbidden()
        # the view's reason stays in the source language (views are data, hashed into the panel's
        # digest); the panel says it in the reader's language (``hook_message``)
        reason = hook_message(forbidden, self.deal.hand_size).in_language(SOURCE) if forbidden is not None else None
        return [(b, False, reason) if b == forbidden else (b, True, None) for b in range(self.deal.hand_size + 1)]

    def legal(self) -> list[OhHellAction]:
        """The bids a seat that may bid may make."""
        forbidden = self.forbidden()
        return [bid_action(b) for b in range(self.deal.hand_size + 1) if b != forbidden]

    def check(self, seat: int, action: Mapping[str, Any], turn: int) -> int:
        """The bid of a ``bid`` action of ``seat`` (a player of the deal) while the bidding is
        on, or IllegalAction with the reason."""
        if self.bids[seat] >= 0:
            raise IllegalAction(msg("You have already bid."))
        if not self.setup.simultaneous and seat != turn:
            raise IllegalAction(msg("It is not your turn."))
        bid = self.value(action)
        if bid == self.forbidden():
            raise IllegalAction(hook_message(bid, self.deal.hand_size))
        return bid

    def value(self, action: Mapping[str, Any]) -> int:
        """The number an action bids, checked against the hand size only."""
        hand_size = self.deal.hand_size
        bid = action.get("bid")
        if isinstance(bid, str) and bid.strip().isdigit():
            bid = int(bid)
        if not isinstance(bid, int) or isinstance(bid, bool):
            raise IllegalAction(msg("Bid a whole number of tricks between 0 and {n}.", n=hand_size))
        if not 0 <= bid <= hand_size:
            raise IllegalAction(msg("Bid between 0 and {n}.", n=hand_size))
        return bid
