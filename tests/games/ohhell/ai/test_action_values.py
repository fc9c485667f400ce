"""What an option is worth to the seat (the coach's measure of a decision)."""

from __future__ import annotations

import random

from games.ohhell.ai import action_values, ai_view, computer_move
from games.ohhell.ai.view_adapter import action_for, decision_for
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules


def _bidding(seed: int) -> tuple[OhHell, int]:
    game = OhHell.new(make_rules("classic", sequence="fixed", fixed_hands="8"), 4, seed)
    return game, game.to_act()[0]


def test_an_action_and_its_decision_map_both_ways() -> None:
    game, seat = _bidding(3)
    view = ai_view(game, seat)
    for action in game.legal_actions(seat):
        assert action_for(view, decision_for(action)) == action
    while game.phase == "bid":
        s = game.to_act()[0]
        game, _ = game.apply(s, computer_move(game, s, "quick", random.Random(0)))
    seat = game.to_act()[0]
    view = ai_view(game, seat)
    for action in game.legal_actions(seat):
        assert action_for(view, decision_for(action)) == action


def test_the_quick_bid_is_worth_more_than_a_bid_far_from_the_hand() -> None:
    """Over seeds, bidding the whole hand (or nothing, whichever is farther from the quick bid)
    is worth less than the quick computer's bid, and the same worlds and random numbers give
    the same values."""
    for seed in range(4):
        game, seat = _bidding(seed)
        quick = computer_move(game, seat, "quick", random.Random(0))
        far = {"type": "bid", "bid": 8 if int(quick["bid"]) <= 4 else 0}
        legal = [a for a in game.legal_actions(seat) if a == far]
        values = action_values(game, seat, [quick, *legal], random.Random(seed), 24, 0.1)
        assert values == action_values(game, seat, [quick, *legal], random.Random(seed), 24, 0.1)
        assert values[0] > values[1] + 3, (seed, quick, far, values)
