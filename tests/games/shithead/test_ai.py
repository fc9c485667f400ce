"""Computer players: legal, deterministic, view-only, sensible in the obvious spots, games end."""

from __future__ import annotations

import copy
import random

import pytest

from games.shithead.ai import LowestPlayer, RandomPlayer, SensiblePlayer, choose_action
from games.shithead.game import Shithead
from games.shithead.rules import PRESETS, make_rules
from tests.games.shithead.scenario import play, stacked


def run_game(rules, seats: int, seed: int, kinds, cap: int = 5000) -> Shithead:
    game = Shithead.new(rules, seats, seed)
    players = [kind(random.Random(seed * 31 + i)) for i, kind in enumerate(kinds)]
    steps = 0
    while not game.is_over:
        seat = game.to_act()[0]
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view["legal"]
        game.apply(seat, action)
        steps += 1
        assert steps < cap
    return game


def test_the_swap_puts_the_strongest_cards_face_up() -> None:
    game = stacked(up={0: ["4C", "5D", "KH"]}, hands={0: ["2S", "10D", "6C"]}, ready=False)
    player = SensiblePlayer(random.Random(1))
    for _ in range(5):
        action = player.choose(game.view(0))
        game.apply(0, action)
        if action == {"type": "ready"}:
            break
    assert sorted(game.view(0)["seats"][0]["face_up"]) == ["10D", "2S", "KH"]
    assert game.view(0)["hand"] == ["4C", "5D", "6C"]


def test_choosing_face_up_cards_keeps_the_strongest() -> None:
    game = stacked(make_rules(deal="choose"), seats=2, dealer=1, hands={0: ["3C", "4C", "AC", "KC", "10C", "9C"]})
    action = SensiblePlayer(random.Random(1)).choose(game.view(0))
    assert action["type"] == "choose_up"
    assert sorted(action["cards"]) == ["10C", "AC", "KC"]


def test_sheds_the_lowest_rank_with_all_copies_and_keeps_power_cards() -> None:
    game = stacked(up={0: ["3C", "KD", "QD"]}, hands={0: ["2C", "5D", "AD"], 1: ["6S", "6H", "10S"]})
    assert SensiblePlayer(random.Random(0)).choose(game.view(0)) == {"type": "play", "cards": ["5D"]}
    play(game, 0, "5D")
    assert SensiblePlayer(random.Random(0)).choose(game.view(1)) == {"type": "play", "cards": ["6H", "6S"]}


def test_completes_four_of_a_kind_to_burn() -> None:
    game = stacked(up={0: ["3C", "KD", "QD"]}, hands={0: ["9C", "9D", "9H"], 1: ["9S", "4S", "5S"]}, stock=["AC"])
    play(game, 0, "9C", "9D", "9H")
    assert SensiblePlayer(random.Random(0)).choose(game.view(1)) == {"type": "play", "cards": ["9S"]}


def test_uses_a_power_card_only_when_nothing_else_goes() -> None:
    game = stacked(up={0: ["3C", "KD", "QD"]}, hands={0: ["AC", "5D", "6D"], 1: ["2S", "5S", "10S"]})
    play(game, 0, "AC")
    # pile of one: the 2 is kept for later and the 10 saved for a bigger pile
    assert SensiblePlayer(random.Random(0)).choose(game.view(1)) == {"type": "play", "cards": ["2S"]}


def test_the_computer_player_reads_only_its_view() -> None:
    """Same view, same choice: the player cannot see the game object, and does not change the view."""
    game = Shithead.new(make_rules(), 4, seed=3)
    for seat in game.to_act():
        view = game.view(seat)
        frozen = copy.deepcopy(view)
        assert choose_action(view, random.Random(5)) == choose_action(frozen, random.Random(5))
        assert view == frozen
        assert "down" not in view and all(isinstance(s["face_down"], int) for s in view["seats"])


@pytest.mark.parametrize("kind", [SensiblePlayer, LowestPlayer, RandomPlayer])
def test_players_are_deterministic_for_a_seed(kind) -> None:
    rules = make_rules("guarducci")
    first = run_game(rules, 4, 12, [kind] * 4)
    second = run_game(rules, 4, 12, [kind] * 4)
    assert first.log == second.log and first.results() == second.results()


def test_the_known_seven_loop_ends() -> None:
    """Gultnieks' 7s once went round five sensible players for ever before the patience rule."""
    game = run_game(PRESETS["gultnieks"], 5, 11, [SensiblePlayer] * 5)
    assert game.is_over and len(game.log) < 1000


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_sensible_games_end_under_every_preset(preset: str) -> None:
    rules = PRESETS[preset]
    for seats in range(2, rules.player_range()[1] + 1):
        game = run_game(rules, seats, seats, [SensiblePlayer] * seats)
        assert game.is_over and len(game.log) < 1000


def test_sensible_beats_random_players() -> None:
    rules = make_rules()
    lost = sum(
        run_game(rules, 3, seed, [SensiblePlayer if s == seed % 3 else RandomPlayer for s in range(3)], cap=10**6).loser
        == seed % 3
        for seed in range(12)
    )
    assert lost <= 2
