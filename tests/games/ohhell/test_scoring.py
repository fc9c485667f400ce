"""The six scorings of RULES.md part 1 and the revoke penalty."""

from __future__ import annotations

import pytest

from games.ohhell.scoring import SCORERS, deal_score

CASES = {
    # (bid, tricks): score
    "e2": {(0, 0): 10, (3, 3): 30, (2, 0): -20, (0, 2): -20, (1, 4): -30},
    "trick+10": {(0, 0): 10, (3, 3): 13, (2, 0): 0, (0, 2): 2, (1, 4): 4},
    "5+10": {(0, 0): 5, (3, 3): 35, (2, 0): -15, (0, 2): -15, (1, 4): -20},
    "square": {(0, 0): 10, (3, 3): 19, (2, 0): -4, (0, 2): -4, (1, 4): -9},
    "spades": {(0, 0): 10, (3, 3): 13, (2, 0): 0, (0, 2): 0, (1, 4): 0},
    # 000: exact winning 10 + tricks, exact misère 5, over +1 a trick, under -1 a trick short
    "misere": {(0, 0): 5, (3, 3): 13, (2, 0): -2, (0, 2): 2, (1, 4): 4, (3, 1): -2, (0, 1): 1, (2, 3): 3},
}


@pytest.mark.parametrize("scoring", list(CASES))
def test_scorings(scoring: str) -> None:
    assert set(SCORERS) == set(CASES)
    for (bid, tricks), score in CASES[scoring].items():
        assert SCORERS[scoring](bid, tricks) == score, (bid, tricks)


def test_000_sample_round_scores() -> None:
    bids, tricks, revoked = [3, 0, 2, 0, 3, 2], [1, 1, 1, 0, 3, 3], [False, False, True, False, False, False]
    scores = [deal_score("misere", b, t, r) for b, t, r in zip(bids, tricks, revoked, strict=True)]
    assert scores == [-2, 1, -5, 5, 13, 3]


def test_revoke_keeps_a_worse_score() -> None:
    assert deal_score("e2", 0, 3, True) == -30
    assert deal_score("e2", 3, 3, True) == -5
    assert deal_score("spades", 1, 0, True) == -5
