"""Trick play's bookkeeping, kept only where a rule needs it: revokes (``revokes="penalize"``:
a player may fail to follow suit, is scored for it, and the table learns of it when the revoker
plays the suit it failed to follow) and a joker in a no-trump deal (played as a named suit, as
only :meth:`Bookkeeping.joker_may_be` allows).

Why apart from :mod:`games.ohhell.tricks`: most deals need none of it, and the fast path's
plain card play (:meth:`games.ohhell.fast.FastPath.fast_apply`) skips it entirely
(``Deal.needs_bookkeeping``).
"""

from __future__ import annotations

from dataclasses import replace

from games.common.cards import JOKER_SUIT, SUIT_LETTERS, Card
from games.common.engine import Event
from games.ohhell.deal import Deal
from games.ohhell.events import RevokeMade, event
from games.ohhell.results import Revoke
from games.ohhell.tables import JOKER


class Bookkeeping:
    """One deal's record of the suits each seat played and failed to follow, and its revokes."""

    __slots__ = ("penalize", "played", "failed", "revokes", "revoked")

    penalize: bool  # revokes are allowed and scored (the rules' "penalize")
    played: list[int]  # per seat, bit s set: it played a card of suit s this deal
    failed: list[int]  # per seat, bit s set: it failed to follow suit s this deal
    revokes: list[Revoke]  # this deal's revokes
    revoked: list[bool]  # per seat

    def __init__(self, penalize: bool, seats: int) -> None:
        self.penalize = penalize
        self.played = [0] * seats
        self.failed = [0] * seats
        self.revokes = []
        self.revoked = [False] * seats

    def copy(self) -> Bookkeeping:
        other = object.__new__(Bookkeeping)
        other.penalize = self.penalize
        other.played = self.played[:]
        other.failed = self.failed[:]
        other.revokes = [replace(r) for r in self.revokes] if self.revokes else []
        other.revoked = self.revoked[:]
        return other

    def track(
        self,
        deal: Deal,
        groups: list[list[Card]],
        seat: int,
        card: Card,
        named: int,
        led: int,
        trick_no: int,
        events: list[Event] | None,
    ) -> int:
        """Note ``seat``'s play of ``card`` (``groups``: its hand by effective suit, the card
        taken out; ``led``: the suit led, -1 for a lead; ``trick_no``: 1-based); returns the
        suit the card counts as."""
        revoke = -1
        if card == JOKER and deal.no_trump_joker:
            suit = led if led >= 0 else (named if named >= 0 else JOKER_SUIT)
            hand = groups[0] + groups[1] + groups[2] + groups[3] + groups[4]
            if self.penalize and suit < 4 and not self.joker_may_be(deal, hand, seat, suit, trick_no - 1):
                revoke = suit
        else:
            suit = deal.effective_suit[card]
            if led >= 0 and suit != led and self.penalize and groups[led]:
                revoke = led
            # a revoke becomes public when the revoker plays the suit they failed to follow
            for r in self.revokes:
                if r.seat == seat and r.suit == suit and not r.public:
                    self.reveal(r, events)
            if suit < 4:
                self.played[seat] |= 1 << suit
        if led >= 0 and suit != led and led < 4:
            self.failed[seat] |= 1 << led
        if revoke >= 0:
            self.revoked[seat] = True
            self.revokes.append(Revoke(seat, revoke, trick_no))
        return suit

    def joker_may_be(self, deal: Deal, hand: list[Card], seat: int, suit: int, tricks_done: int) -> bool:
        """Seed 000's three conditions for a no-trump joker played as ``suit``: in the last
        trick; or the seat has not played that suit this deal; or it has not failed to follow
        it and holds no other card of it (``hand``: its other cards)."""
        if tricks_done == deal.hand_size - 1:
            return True
        if not (self.played[seat] >> suit) & 1:
            return True
        if (self.failed[seat] >> suit) & 1:
            return False
        effective_suit = deal.effective_suit
        return not any(effective_suit[c] == suit for c in hand if c != JOKER)

    def reveal(self, revoke: Revoke, events: list[Event] | None) -> None:
        revoke.public = True
        if events is not None:
            data: RevokeMade = {"seat": revoke.seat, "suit": SUIT_LETTERS[revoke.suit], "trick": revoke.trick}
            events.append(event("revoke", data))

    def reveal_all(self, events: list[Event] | None) -> None:
        """The deal is scored: every revoke becomes public."""
        for r in self.revokes:
            if not r.public:
                self.reveal(r, events)
