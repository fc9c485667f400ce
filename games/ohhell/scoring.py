"""The six deal scorings of RULES.md part 1 (seeds 000, 001, 002, 004) and the revoke penalty."""

from __future__ import annotations

from collections.abc import Callable

#: seed 000: a revoker scores "a net five point penalty ... except [if] the deal yielded a greater
#: points decrease"
REVOKE_SCORE = -5


def e2(bid: int, tricks: int) -> int:
    """Seed 001: exact scores 10 a trick bid (10 for a zero bid); a miss loses 10 a trick off."""
    if bid == tricks:
        return 10 * bid if bid else 10
    return -10 * abs(bid - tricks)


def trick_plus_10(bid: int, tricks: int) -> int:
    """Seed 002 (and 001's first alternative): 1 a trick, 10 more when exact, no penalty."""
    return tricks + (10 if bid == tricks else 0)


def five_plus_10(bid: int, tricks: int) -> int:
    """Seed 001: exact 5 + 10 a trick; a miss loses 5 plus 5 a trick off."""
    if bid == tricks:
        return 5 + 10 * tricks
    return -5 - 5 * abs(bid - tricks)


def square(bid: int, tricks: int) -> int:
    """Seed 001: exact 10 + bid²; a miss loses the square of the difference."""
    if bid == tricks:
        return 10 + bid * bid
    return -((bid - tricks) ** 2)


def spades(bid: int, tricks: int) -> int:
    """Seed 004: exact 10 + bid, else nothing."""
    return 10 + bid if bid == tricks else 0


def misere(bid: int, tricks: int) -> int:
    """Seed 000: exact winning contract 10 + a point a trick; exact misère 5; over 1 a trick;
    under -1 a trick short."""
    if bid == tricks:
        return 10 + tricks if bid else 5
    if tricks > bid:
        return tricks
    return tricks - bid


SCORERS: dict[str, Callable[[int, int], int]] = {
    "e2": e2,
    "trick+10": trick_plus_10,
    "5+10": five_plus_10,
    "square": square,
    "spades": spades,
    "misere": misere,
}


def score_table(scoring: str, largest: int) -> list[list[int]]:
    """``table[bid][tricks]``: the scoring's figure for every bid and trick count up to
    ``largest`` (no revoke). The engine scores every deal from one (``GameSetup.score_table``) and
    the computer players score their playouts from one a deal."""
    scorer = SCORERS[scoring]
    return [[scorer(bid, tricks) for tricks in range(largest + 1)] for bid in range(largest + 1)]


def deal_score(scoring: str, bid: int, tricks: int, revoked: bool) -> int:
    score = SCORERS[scoring](bid, tricks)
    return min(score, REVOKE_SCORE) if revoked else score
