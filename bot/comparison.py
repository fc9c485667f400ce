"""How a duplicate match compares the players who held the same cards: a game's adapter names
one (:attr:`bot.contract.GameKind.comparison`), so :mod:`bot.duplicate` asks it rather than
knowing the games. By points (deal by deal, then the total; more is better), the default, or
by finishing place (1 is best) for a game that keeps no points."""

from __future__ import annotations

from dataclasses import dataclass

from db.store import DealScore, ResultRow


@dataclass(frozen=True, slots=True)
class Comparison:
    """What one seat's result at one table scores, which way is better, and how it reads."""

    #: a game that keeps points: a score is the total (the points so far, if ended early), and
    #: each deal's points are shown; otherwise the finishing place, lower being better
    points: bool
    #: the line under the comparison's title that says what is compared
    description: str

    def score(self, seat: int, row: ResultRow | None, deals: list[DealScore]) -> float | None:
        """``seat``'s score from its stored result (``None``: the table ended early) and deals."""
        if not self.points:
            return row.place if row is not None else None
        if row is not None and row.total is not None:
            return row.total
        return next((d.total for d in reversed(deals) if d.seat == seat), 0)  # the points so far

    def against(self, score: float, mean: float) -> float:
        """A score against the mean of the others who held the same cards: more is better."""
        return score - mean if self.points else mean - score


BY_POINTS = Comparison(points=True, description="Points deal by deal, then the total.")
BY_PLACE = Comparison(points=False, description="Finishing places (1 is best).")
