"""Exact play of the last tricks (:mod:`games.ohhell.ai.solve`) and the strong level using it."""

from __future__ import annotations

import dataclasses

import pytest

from games.common.cards import parse_card
from games.ohhell.ai import info_from_view
from games.ohhell.ai.sampling import Knowledge
from games.ohhell.ai.solve import distinct, solve, utility
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules

from .helpers import FAST, check_decision, play_game, views_along_a_game

EXACT = dataclasses.replace(FAST, exact_tree=1296, exact_worlds=4)


def _endgames(preset: str, players: int, seed: int, **overrides):
    """(sim of the true deal, seat to act) at every decision with three tricks or fewer left."""
    for view, true_hands in views_along_a_game(preset, players, seed, **overrides):
        if view["phase"] != "playing":
            continue
        info = info_from_view(view)
        if info.tricks_left <= 3:
            k = Knowledge.build(info)
            played = {p.card for _, p in info.all_plays()}
            hands = [
                k.table.mask([c for c in (parse_card(x) for x in true_hands[s]) if c not in played])
                for s in view["players"]
            ]
            sim = k.sim_for(hands, [0 if b is None else b for b in info.bids])
            sim.to_play = info.seat
            yield sim, info.seat


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [
        ("classic", 4, {"sequence": "fixed", "fixed_hands": "10,6,4"}),
        ("oh-shit", 5, {"sequence": "fixed", "fixed_hands": "7,3", "deck": "standard52+joker"}),
        ("bowers", 3, {"sequence": "fixed", "fixed_hands": "8"}),
    ],
)
def test_solve_is_the_best_reply_of_the_seat_it_searches_for(preset: str, players: int, overrides: dict) -> None:
    """No card of the seat's (touching cards included) does better than the solved value, and the
    solved deal is a real outcome: every trick won by someone and scored by the deal's table."""
    checked = 0
    for sim, me in _endgames(preset, players, 11, **overrides):
        value = solve(sim.clone(), me, 0.5)
        best = utility(value, me, 0.5)
        legal = sim.legal(me)
        m = legal
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            after = sim.clone()
            after.play(c, sim._name_joker(me) if not sim.trick and c == sim.t.joker and sim.t.joker_nt else -1)
            assert utility(solve(after, me, 0.5), me, 0.5) <= best + 1e-9
        # each seat ends with between the tricks it has and all the tricks left more
        for p, v in enumerate(value):
            assert v in [sim.score_tab[sim.bids[p]][w] for w in range(sim.won[p], sim.won[p] + sim.tricks_left + 1)]
        runs = distinct(sim, me, legal)
        union = 0
        for _, run in runs:
            assert not union & run
            union |= run
        assert union == legal
        checked += 1
    assert checked > 5


def test_strong_level_with_exact_endgames_plays_legal_and_seeded() -> None:
    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="6,4", deck="standard52+joker")
    game = play_game(
        OhHell.new(rules, 4, 3), ["strong", "quick", "strong", "random"], 7, config=EXACT, on_decision=check_decision
    )
    again = play_game(OhHell.new(rules, 4, 3), ["strong", "quick", "strong", "random"], 7, config=EXACT)
    assert game.is_over and game.history == again.history
