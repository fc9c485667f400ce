"""The take-back state a game keeps (:mod:`games.ohhell.takeback` has the rules): apart from
the rule steps' state, which imports it, so that the rules module may read that state."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.ohhell.actions import LoggedAction


@dataclass(frozen=True, slots=True)
class UndoPoint:
    """The latest card of the current trick and what its play changed, to put it all back."""

    seat: int
    play_id: int
    group: int  # the hand list (effective suit) it came from, and its place there
    index: int
    raw_index: int  # its place in the whole log
    deal_no: int
    tricks_done: int
    trick_len: int  # the trick's length with the card in it
    led_suit: int
    best_power: int
    winning_seat: int
    trick_joker_suit: int
    suits_played: int
    suits_failed: int
    revoked: bool
    revokes: int
    #: a request for this card was refused (or lapsed): it may not be asked again
    refused: bool = False


@dataclass(slots=True)
class Request:
    asker: int
    accepted: set[int]


@dataclass(slots=True)
class Takeback:
    """The game's take-back state (copied with the game: :meth:`copy`)."""

    #: (place in the whole log, seat, action) of each action the rule state keeps no trace of
    side_log: list[tuple[int, int, LoggedAction]] = field(default_factory=list)
    point: UndoPoint | None = None
    request: Request | None = None
    #: per seat, the place in the whole log of its bid this deal (simultaneous bidding)
    bid_at: dict[int, int] = field(default_factory=dict)

    def copy(self) -> Takeback:
        request = None if self.request is None else Request(self.request.asker, set(self.request.accepted))
        return Takeback(self.side_log[:], self.point, request, dict(self.bid_at))
