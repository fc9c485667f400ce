"""The strong level beats random players by a wide margin (fixed seeds, generous thresholds)."""

from __future__ import annotations

import statistics

import pytest

from games.common.rng import LEGACY_VERSION
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules

from .helpers import FAST, play_game


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("classic", {"sequence": "fixed", "fixed_hands": "6,3,5"}),
        ("oh-shit", {"sequence": "fixed", "fixed_hands": "5,4,2", "deck": "standard52+joker"}),
        ("spades", {"sequence": "fixed", "fixed_hands": "7,4"}),
    ],
)
def test_strong_beats_random(preset: str, overrides: dict) -> None:
    rules = make_rules(preset, **overrides)
    diffs = []
    exact_strong = exact_random = 0
    deals = 0
    for seed in range(8):
        me = seed % 4
        levels = ["random"] * 4
        levels[me] = "strong"
        # the deals of generator version 1, on which these seeds and thresholds were set
        game = play_game(OhHell.new(rules, 4, 40 + seed, rng_version=LEGACY_VERSION), levels, seed, config=FAST)
        for deal in game.history:
            if deal["kind"] != "normal":
                continue
            scores = deal["scores"]
            others = [scores[s] for s in range(4) if s != me]
            diffs.append(scores[me] - statistics.fmean(others))
            exact_strong += deal["bids"][me] == deal["tricks"][me]
            exact_random += sum(deal["bids"][s] == deal["tricks"][s] for s in range(4) if s != me)
            deals += 1
    # the strong seat outscores the random ones on average, and makes far more of its bids
    assert statistics.fmean(diffs) > 3
    assert exact_strong / deals > 1.5 * exact_random / (3 * deals)
