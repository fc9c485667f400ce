"""What one seat knows about a deal: the computer players' only input.

Every computer decision starts from an :class:`InfoState`, built from the engine's per-seat view
(:mod:`.view_adapter`) or from an OpenSpiel state (``bench/``). Keeping the players on this
compact record, and never on an engine object, is what guarantees that they cannot see another
hand: the adapters copy only what the seat may see.

Cards are the engine's ints (:mod:`games.common.cards`), copies included (the Australian packs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.common.cards import Card

BID = "bid"
PLAY = "play"


@dataclass(frozen=True, slots=True)
class Play:
    """One card put into a trick. ``suit`` is the suit a no-trump joker was played as."""

    seat: int
    card: Card
    suit: int | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[Play, ...]
    winner: int | None = None


@dataclass(slots=True)
class InfoState:
    """One seat's knowledge at a decision point of one deal.

    ``hand`` is the seat's own cards; ``hand_known`` is False only on a Devil's Bridge deal, where
    the seat sees everyone's card but its own (then ``others_known`` holds the others' cards).
    ``shown`` holds cards every seat knows to be in a given hand (the dealer's own last card turned
    up for trumps); ``dead`` holds cards known to be out of play (a turn-up from the stock).
    """

    players: int
    seat: int
    dealer: int
    hand_size: int
    deck: tuple[Card, ...]
    trump: int | None
    phase: str
    hand: tuple[Card, ...]
    bids: tuple[int | None, ...]
    won: tuple[int, ...]
    tricks: tuple[Trick, ...] = ()
    current: tuple[Play, ...] = ()
    leader: int | None = None
    scoring: str = "e2"
    bowers: bool = False
    hook: bool = False
    simultaneous: bool = False
    first_lead: str = "left-of-dealer"
    revokes: str = "prevent"
    hand_known: bool = True
    others_known: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    dead: tuple[Card, ...] = ()
    #: legal bids (phase "bid") in the order the engine lists them; empty means "any 0..hand_size"
    legal_bids: tuple[int, ...] = ()
    #: legal plays (phase "play") as (card, named suit or None) pairs, as the engine lists them
    legal_plays: tuple[tuple[Card, int | None], ...] = ()

    # -- derived facts ---------------------------------------------------------------------
    @property
    def tricks_left(self) -> int:
        return self.hand_size - len(self.tricks)

    def bid_order(self) -> list[int]:
        """Sequential bidding runs from the dealer's left, the dealer last."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def first_leader(self) -> int:
        if self.first_lead == "dealer":
            return self.dealer
        return (self.dealer + 1) % self.players

    def all_plays(self) -> list[tuple[int, Play]]:
        """Every card played this deal as (trick number, play), in order."""
        out = [(i, p) for i, t in enumerate(self.tricks) for p in t.plays]
        out.extend((len(self.tricks), p) for p in self.current)
        return out
