"""How a duplicate match compares the players who held the same cards: a game's adapter names
one (:attr:`bot.seam.contract.GameKind.comparison`), so :mod:`bot.fairness.duplicate` asks it rather than
knowing the games. By points (deal by deal, then the total; more is better), the default, or
by finishing place (1 is best) for a game that keeps no points."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from db.records import DealScore, ResultRow
from locales import N_


@dataclass(frozen=True, slots=True)
class Comparison:
    """What one seat's result at one table scores, which way is better, and how it reads."""

    #: a game that keeps points: a score is the total (the points so far, if ended early), and
    #: each deal's points are shown; otherwise the finishing place, lower being better
    points: bool
    #: the line under the comparison's title that says what is compared
    description: str

    def score(
        self, seat: int, row: ResultRow | None, deals: list[DealScore], shared: Collection[int] | None = None
    ) -> float | None:
        """``seat``'s score from its stored result (``None``: the table ended early) and deals.
        ``shared``: the deals every table played (None: all count); points count only those, as a
        deal that only this table played (to break its tie) was held by nobody else to compare."""
        if not self.points:
            return row.place if row is not None else None
        own = [d for d in deals if d.seat == seat]
        if row is not None and row.total is not None and (shared is None or all(d.deal in shared for d in own)):
            return row.total
        kept = [d for d in own if shared is None or d.deal in shared]
        return kept[-1].total if kept else 0  # the points so far (or after the shared deals)

    def against(self, score: float, mean: float) -> float:
        """A score against the mean of the others who held the same cards: more is better."""
        return score - mean if self.points else mean - score


BY_POINTS = Comparison(points=True, description=N_("Points deal by deal, then the total."))
BY_PLACE = Comparison(points=False, description=N_("Finishing places (1 is best)."))
