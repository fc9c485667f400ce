"""bench/bid_model.py: the likelihood it fits is the one the search weighs worlds by, and the fit
finds the numbers that made the bids."""

from __future__ import annotations

import math
import random

import pytest

from bench.bid_model import BidRow, fit, nats_per_bid
from games.ohhell.ai import InfoState
from games.ohhell.ai.sampling import bid_likelihood


def _rows(n: int, stretch: float, trump_lean: float, table_lean: float, sigma: float, seed: int) -> list[BidRow]:
    """Bids drawn from the model itself (10 cards among 4, the hook on every fourth bidder)."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        est = rng.uniform(0.0, 5.0)
        trumps_over = rng.randint(0, 6) - 2.5
        pos = i % 4
        before = sum(rng.randint(0, 5) for _ in range(pos))
        allowed = tuple(b for b in range(11) if not (pos == 3 and b == 10 - before))
        mean = 2.5 + stretch * (est - 2.5) + trump_lean * trumps_over + table_lean * (before - 2.5 * pos)
        weights = [math.exp(-((b - mean) ** 2) / (2 * sigma * sigma)) for b in allowed]
        bid = rng.choices(allowed, weights)[0]
        rows.append(BidRow(i, bid, est, trumps_over, before - 2.5 * pos, 2.5, 1.0, allowed))
    return rows


def test_a_bid_costs_the_nats_the_search_weighs_it_by() -> None:
    rows = _rows(40, 1.3, 0.2, -0.1, 0.7, seed=1)
    expected = -sum(
        math.log(
            bid_likelihood(
                r.bid, 2.5 + 1.3 * (r.est - 2.5) + 0.2 * r.trumps_over - 0.1 * r.before_over, list(r.allowed), 0.7
            )
        )
        for r in rows
    ) / len(rows)
    assert nats_per_bid(rows, 1.3, 0.2, -0.1, 0.7) == pytest.approx(expected, rel=1e-9)


def test_the_fit_finds_the_numbers_that_made_the_bids() -> None:
    rows = _rows(1200, 1.1, 0.25, -0.12, 0.65, seed=2)
    stretch, trump_lean, table_lean, sigma = fit(rows)
    assert stretch == pytest.approx(1.1, abs=0.06)
    assert trump_lean == pytest.approx(0.25, abs=0.04)
    assert table_lean == pytest.approx(-0.12, abs=0.03)
    assert sigma == pytest.approx(0.65, abs=0.04)
    # and it explains them better than the model it started from
    assert nats_per_bid(rows, stretch, trump_lean, table_lean, sigma) < nats_per_bid(rows, 1.4, 0.0, 0.0, 0.7)


def _first_bidder(rules_overrides: dict, condition) -> InfoState:
    """The first bidder's info state in the first deal (seeds tried in order) whose hand meets
    ``condition(knowledge, hand)``."""
    from games.ohhell.ai import ai_view
    from games.ohhell.ai.sampling import Knowledge
    from games.ohhell.ai.view_adapter import info_from_view
    from games.ohhell.game import OhHell
    from games.ohhell.rules import make_rules

    rules = make_rules("classic", sequence="fixed", **rules_overrides)
    for seed in range(3000):
        game = OhHell.new(rules, 4, seed)
        info = info_from_view(ai_view(game, game.to_act()[0]))
        k = Knowledge.build(info)
        if condition(k, k.known[info.seat]):
            return info
    raise AssertionError("no such deal")


def test_the_top_trump_alone_takes_its_trick_whatever_is_played() -> None:
    from bench.bid_model import random_play_tricks

    def top_trump(k, hand) -> bool:
        t = k.table
        c = hand.bit_length() - 1
        return t.trump >= 0 and t.esuit[c] == t.trump and not (t.beats[c] & ~k.dead)

    info = _first_bidder({"fixed_hands": "1"}, top_trump)
    assert random_play_tricks(info, 200, random.Random(1)) == 1.0


def test_random_play_tricks_are_an_average_of_the_hands_tricks_and_repeat_with_the_generator() -> None:
    from bench.bid_model import random_play_tricks

    info = _first_bidder({"fixed_hands": "10"}, lambda k, hand: True)
    first = random_play_tricks(info, 300, random.Random(4))
    assert first == random_play_tricks(info, 300, random.Random(4))
    assert 0.0 < first < 10.0
    assert (first * 300) == round(first * 300)  # a whole number of tricks over the playouts

    # a lone 2 or 3 of a plain suit in a deal of one card wins only if no other seat follows
    # with a higher card of its suit or plays a trump: seldom
    def low_plain(k, hand) -> bool:
        t = k.table
        c = hand.bit_length() - 1
        return t.esuit[c] != t.trump and t.power[c] <= 3

    info = _first_bidder({"fixed_hands": "1"}, low_plain)
    assert random_play_tricks(info, 400, random.Random(2)) < 0.3
