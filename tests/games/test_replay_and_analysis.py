"""The hand history checker (python -m games.replay) and the coach's engine, on games played by
computers: a true history checks, an altered one does not; the analysis is reproducible and its
luck sums to nothing."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.ohhell.ai import computer_move
from games.ohhell.analysis import AnalysisConfig, analyse
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from games.replay import FORMAT, VERSION, check, final_standings


def _game(seed: int) -> tuple[dict, OhHell]:
    rules = make_rules("classic", sequence="fixed", fixed_hands="3,2")
    game = OhHell.new(rules, 3, seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        game, _ = game.apply(seat, computer_move(game, seat, "quick", rng))
    return rules.to_json(), game


def _history(rules: dict, game: OhHell, seed: int) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "ohhell",
        "rules": rules,
        "seed": seed,
        "rng_version": game.rng_version,
        "seats": [{"seat": s, "name": f"p{s}", "computer": "quick"} for s in range(3)],
        "actions": [{"seat": s, "action": dict(a)} for s, a in game.log],
        "results": [{**row, "name": "x"} for row in final_standings(game)],
    }


def test_a_true_history_checks_and_an_altered_one_does_not() -> None:
    rules, game = _game(3)
    data = _history(rules, game, 3)
    assert check(data)[1] == []
    wrong_seed = {**data, "seed": 4}  # another deal: the moves no longer fit, or the scores differ
    try:
        problems = check(wrong_seed)[1]
    except Exception as error:  # an illegal move is refused by the engine
        problems = [str(error)]
    assert problems
    short = {**data, "actions": data["actions"][:-1]}
    assert "stop before the game ends" in check(short)[1][0]
    with pytest.raises(ValueError, match="not a Card Table hand history"):
        check({**data, "format": "other"})


def test_the_analysis_is_reproducible_and_luck_sums_to_nothing() -> None:
    rules, game = _game(5)
    config = AnalysisConfig(rollouts=2, luck_rollouts=2, bid_budget=300, card_budget=200)
    first = analyse(rules, 3, 5, game.rng_version, game.log, config)
    assert analyse(rules, 3, 5, game.rng_version, game.log, config) == first
    assert [d["deal"] for d in first["deals"]] == [h["deal"] for h in game.history]
    assert sum(p["luck"] for p in first["players"]) == pytest.approx(0, abs=0.05)
    # the luck is a share of what was not the seat's choices: its lead over the table's mean
    # total less its choices' lead over the mean choices
    players = first["players"]
    mean_total = sum(p["total"] for p in players) / 3
    mean_choices = sum(p["decisions"] for p in players) / 3
    for p in players:
        rest = (p["total"] - mean_total) - (p["decisions"] - mean_choices)
        assert p["luck"] == pytest.approx(config.luck_weight * rest, abs=0.02)
        assert p["adjusted"] == pytest.approx(p["total"] - p["luck"], abs=0.02)
    assert {p["seat"]: p["total"] for p in first["players"]} == dict(enumerate(game.totals))
    for deal in first["deals"]:
        for row in deal["rows"]:
            assert row["bid"] is not None and row["expected_tricks"] is not None


def test_choices_are_weighed_against_the_quick_computers() -> None:
    """A seat that bids and plays at random loses points by its choices; seats that made the
    quick computer's own choices are credited nothing either way; the adjusted score ranks the
    random seat below its total's rank when its cards were good."""
    rules = make_rules("classic", sequence="fixed", fixed_hands="6,5,4")
    game = OhHell.new(rules, 3, 11)
    rng = random.Random(11)
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = rng.choice(legal) if seat == 0 else computer_move(game, seat, "quick", rng)
        game, _ = game.apply(seat, action)
    config = AnalysisConfig(luck_rollouts=0, skill_worlds=24, check_bids=False, check_cards=False, seed=11)
    data = analyse(rules.to_json(), 3, 11, game.rng_version, game.log, config)
    choices = {p["seat"]: p["decisions"] for p in data["players"]}
    assert choices[1] == 0 and choices[2] == 0
    assert choices[0] < -5, choices
    for deal in data["deals"]:
        assert {r["seat"]: r["decisions"] for r in deal["rows"] if r["seat"] != 0} == {1: 0, 2: 0}
    # with w = 1 the adjusted scores are the mean total plus each seat's choices less their mean
    whole = analyse(rules.to_json(), 3, 11, game.rng_version, game.log, replace(config, luck_weight=1.0))
    mean_total = sum(game.totals) / 3
    for p in whole["players"]:
        assert p["adjusted"] == pytest.approx(mean_total + p["decisions"] - sum(choices.values()) / 3, abs=0.03)
