"""Computer players always act legally (never a revoke) under every preset and option."""

from __future__ import annotations

import pytest

from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules

from .helpers import check_decision, play_game

# (preset, overrides, players): every preset, and each option that changes how a deal is played
VARIANTS = [
    ("classic", {"sequence": "fixed", "fixed_hands": "4,1,6"}, 4),
    ("classic", {"sequence": "fixed", "fixed_hands": "7,2"}, 7),
    ("classic", {"sequence": "fixed", "fixed_hands": "3,2,1", "devils_bridge": True}, 3),
    ("oh-shit", {"half_game": True, "deck": "standard52+joker"}, 4),
    ("oh-shit", {"sequence": "fixed", "fixed_hands": "5,3,1", "deck": "pack63"}, 6),
    ("oh-shit", {"sequence": "fixed", "fixed_hands": "6,1", "revokes": "prevent"}, 5),
    ("oh-shit", {"sequence": "fixed", "fixed_hands": "8,4", "deck": "australian"}, 6),
    ("oh-shit", {"sequence": "fixed", "fixed_hands": "9,5", "deck": "australian", "scoring": "square"}, 5),
    ("bowers", {"sequence": "fixed", "fixed_hands": "10,3"}, 2),
    ("bowers", {"sequence": "fixed", "fixed_hands": "8,5", "deck": "standard52+joker"}, 4),
    ("spades", {"sequence": "fixed", "fixed_hands": "6,6"}, 8),
    ("spades", {"sequence": "fixed", "fixed_hands": "5,2", "bidding": "simultaneous", "hook": False}, 3),
    (
        "classic",
        {
            "sequence": "fixed",
            "fixed_hands": "5,5,5,5,5",
            "trump": "rotate",
            "deck": "standard52+joker",
            "scoring": "5+10",
            "revokes": "penalize",
        },
        4,
    ),
    ("classic", {"sequence": "fixed", "fixed_hands": "6,4", "trump": "fixed", "trump_suit": "NT",
                 "deck": "standard52+joker", "first_lead": "left-of-dealer"}, 5),
    ("oh-shit", {"sequence": "fixed", "fixed_hands": "4", "deck": "standard52+joker"}, 3),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "overrides", "players"), VARIANTS)
@pytest.mark.parametrize("levels", ["quick", "strong", "mixed"])
def test_every_decision_is_legal(preset: str, overrides: dict, players: int, levels: str) -> None:
    rules = make_rules(preset, **overrides)
    seats = [levels] * players if levels != "mixed" else [("strong", "quick", "random")[s % 3] for s in range(players)]
    for seed in (1, 2):
        game = play_game(OhHell.new(rules, players, seed), seats, seed, on_decision=check_decision)
        assert game.is_over


def test_a_whole_oh_shit_game_with_ties_and_jokers() -> None:
    """The longest form: 17 deals, the joker, no-trump turn-ups, secret bids, revokes penalized,
    and the tie-breaking play-off deals that seat only some players."""
    rules = make_rules("oh-shit", deck="standard52+joker")
    game = play_game(OhHell.new(rules, 4, 11), ["strong", "quick", "strong", "quick"], 3, on_decision=check_decision)
    assert game.is_over
    assert len(game.view(None)["history"]) >= 17


@pytest.mark.parametrize("level", ["quick", "strong"])
def test_play_off_deals_seat_only_the_tied_players(level: str) -> None:
    """Seed 000's 5-card play-off deals seat only the tied players; the computer numbers the
    seats of the deal itself. (Seed 0 with random play ties three players after the 1-card deal.)"""
    import random

    from games.ohhell.ai import ai_view, choose_action

    from .helpers import FAST

    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="1")
    game = OhHell.new(rules, 4, 0)
    rng = random.Random(0)
    playoff_seats = set()
    while not game.is_over:
        seat = game.to_act()[0]
        view = ai_view(game, seat)
        if view["deal_kind"] == "normal":
            action = choose_action(view, "random", rng)
        else:
            playoff_seats.add(len(view["players"]))
            action = choose_action(view, level, random.Random(seat), config=FAST)
            check_decision(game, seat, view, action)
        game.apply(seat, action)
    assert playoff_seats and max(playoff_seats) < 4
