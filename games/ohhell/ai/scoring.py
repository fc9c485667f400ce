"""Deal scores as the computer players see them.

The players need the score of every (bid, tricks) pair thousands of times a decision, so each
scoring is a plain function turned into a table once per deal. The names are RULES.md part 1's;
a player who revokes scores ``min(score, -5)`` under ``revokes: penalize``, but a computer never
revokes, so the search never needs that case.
"""

from __future__ import annotations

from collections.abc import Callable

SCORINGS = ("e2", "trick+10", "5+10", "square", "spades", "misere")


def _e2(bid: int, tricks: int) -> int:
    if tricks == bid:
        return 10 if bid == 0 else 10 * bid
    return -10 * abs(tricks - bid)


def _trick10(bid: int, tricks: int) -> int:
    return tricks + (10 if tricks == bid else 0)


def _five10(bid: int, tricks: int) -> int:
    if tricks == bid:
        return 5 + 10 * tricks
    return -5 - 5 * abs(tricks - bid)


def _square(bid: int, tricks: int) -> int:
    if tricks == bid:
        return 10 + bid * bid
    return -((tricks - bid) ** 2)


def _spades(bid: int, tricks: int) -> int:
    return 10 + bid if tricks == bid else 0


def _misere(bid: int, tricks: int) -> int:
    if tricks == bid:
        return 5 if bid == 0 else 10 + tricks
    if tricks > bid:
        return tricks
    return tricks - bid


_FUNCS: dict[str, Callable[[int, int], int]] = {
    "e2": _e2,
    "trick+10": _trick10,
    "5+10": _five10,
    "square": _square,
    "spades": _spades,
    "misere": _misere,
}


def deal_score(scoring: str, bid: int, tricks: int) -> int:
    """Points for one seat and one deal (no revoke)."""
    try:
        return _FUNCS[scoring](bid, tricks)
    except KeyError:
        raise ValueError(f"unknown scoring {scoring!r}; known: {', '.join(SCORINGS)}") from None


def score_table(scoring: str, hand_size: int) -> list[list[int]]:
    """``table[bid][tricks]`` for every bid and trick count of a deal of ``hand_size`` cards."""
    func = _FUNCS.get(scoring)
    if func is None:
        raise ValueError(f"unknown scoring {scoring!r}; known: {', '.join(SCORINGS)}")
    return [[func(b, t) for t in range(hand_size + 1)] for b in range(hand_size + 1)]


def overtricks_pay(scoring: str) -> bool:
    """Whether a seat that is already over its bid gains by taking still more tricks."""
    return scoring in ("trick+10", "misere")
