"""Deal scores as the computer players see them.

The players need the score of every (bid, tricks) pair thousands of times a decision, so each
scoring is a plain function turned into a table once per deal. The names are RULES.md part 1's;
a player who revokes scores ``min(score, -5)`` under ``revokes: penalize``, but a computer never
revokes, so the search never needs that case.
"""

from __future__ import annotations

from collections.abc import Callable

from games.ohhell.scoring import SCORERS
from games.ohhell.scoring import score_table as engine_score_table

SCORINGS = tuple(SCORERS)


# The engine's own scorings, so the search can never score a deal differently from the table.
_FUNCS: dict[str, Callable[[int, int], int]] = SCORERS


def deal_score(scoring: str, bid: int, tricks: int) -> int:
    """Points for one seat and one deal (no revoke)."""
    try:
        return _FUNCS[scoring](bid, tricks)
    except KeyError:
        raise ValueError(f"unknown scoring {scoring!r}; known: {', '.join(SCORINGS)}") from None


def score_table(scoring: str, hand_size: int) -> list[list[int]]:
    """``table[bid][tricks]`` for every bid and trick count of a deal of ``hand_size`` cards."""
    if scoring not in _FUNCS:
        raise ValueError(f"unknown scoring {scoring!r}; known: {', '.join(SCORINGS)}")
    return engine_score_table(scoring, hand_size)


def overtricks_pay(scoring: str) -> bool:
    """Whether a seat that is already over its bid gains by taking still more tricks."""
    return scoring in ("trick+10", "misere")
