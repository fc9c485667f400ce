"""A member's profile for one game (``/cardstats``), as the stats feature computes it and each
game's adapter adds its own figures to (:meth:`bot.seam.contract.GameKind.add_profile`): pure data."""

from __future__ import annotations

from dataclasses import dataclass

from db.records import MemberGame


@dataclass(slots=True)
class Profile:
    kind: str
    games: int
    wins: int
    average_place: float
    rating: int | None
    trend: int | None  # the rating's change over the last few games
    deals: int  # the deals they bid in (a game with bids)
    bids_made: int
    losses: int  # the games they lost (the game's loser: its result's is_loser)
    best: MemberGame | None
    streak: str
    favourite_preset: str
