"""The strong computer (flat Monte Carlo over sampled worlds): legal, view-only, deterministic,
and better than the sensible rule of thumb where looking ahead shows."""

from __future__ import annotations

import random
from collections import Counter

from games.common.cards import parse_card
from games.shithead.ai import LowestPlayer, SensiblePlayer
from games.shithead.deal import full_deck
from games.shithead.game import Shithead
from games.shithead.moves import Play, parse
from games.shithead.rules import PRESETS, make_rules
from games.shithead.search import (
    SearchConfig,
    StrongPlayer,
    base_table,
    clone_table,
    decide,
    lowest_move,
    quiet_do,
    sample_world,
)
from tests.games.shithead.scenario import stacked

SMALL = SearchConfig(screen_worlds=2, duel_worlds=6)


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def last_card_duel() -> Shithead:
    """Two players, no stock: seat 0 holds a 4 and an ace, seat 1 one unknown card, nothing else
    anywhere; the pile is empty and seat 0 is to play (a low card now lets seat 1 go out)."""
    game = stacked(seats=2, hands={0: ["4C", "AS", "8D"], 1: ["KD", "5H", "6H"]})
    game.hand[0] = cards("4C", "AS")
    game.hand[1] = cards("6H")
    game.up = [[], []]
    game.down = [[None, None, None], [None, None, None]]
    game.stock = []
    game.pile = []
    held = Counter(game.hand[0] + game.hand[1])
    game.burnt = list((Counter(full_deck(game.rules)) - held).elements())
    game.turn = 0
    return game


def test_against_a_last_card_it_plays_high_where_the_sensible_player_sheds_low() -> None:
    view = last_card_duel().view(0)
    assert SensiblePlayer(random.Random(1)).choose(view) == {"type": "play", "cards": ["4C"]}
    assert decide(view, "strong", random.Random(1)) == {"type": "play", "cards": ["AS"]}


def test_a_sampled_world_keeps_what_the_seat_sees_and_deals_the_rest() -> None:
    game = Shithead.new(make_rules("pagat"), 4, 11)
    rng = random.Random(3)
    while game.phase != "play" or game.action_count < 40:
        seat = game.to_act()[0]
        game.apply(seat, SensiblePlayer(rng).choose(game.view(seat)))
    seat = game.turn
    view = game.view(seat)
    world = sample_world(view, base_table(view), random.Random(5))
    assert world.view(seat)["hand"] == view["hand"]
    assert world.view(seat)["legal"] == view["legal"]
    assert world.pile == game.pile and world.up == game.up and world.turn == game.turn
    for s in range(4):
        assert len(world.hand[s]) == len(game.hand[s])
        assert [c is None for c in world.down[s]] == [c is None for c in game.down[s]]
    assert len(world.stock) == len(game.stock) and len(world.burnt) == len(game.burnt)
    dealt = [c for s in range(4) for c in world.hand[s] + world.up[s] + world.down[s] if c is not None]
    assert sorted(dealt + world.stock + world.burnt + world.pile) == sorted(full_deck(game.rules))


def test_a_sampled_world_gives_each_hand_the_cards_it_took_in_sight_of_the_table() -> None:
    """With the computer's view (``ai_view``), each other hand holds its remembered cards in every
    world, the rest dealt at random; with the plain view none is placed."""
    game = Shithead.new(make_rules("pagat"), 4, 11)
    rng = random.Random(3)
    while game.phase != "play" or not any(len(k) >= 3 for s, k in enumerate(game.known) if s != game.turn):
        seat = game.to_act()[0]
        game.apply(seat, SensiblePlayer(rng).choose(game.view(seat)))
    seat = game.turn
    view = game.ai_view(seat)
    placed = 0
    for w in range(20):
        world = sample_world(view, base_table(view), random.Random(w))
        plain = sample_world(game.view(seat), base_table(view), random.Random(w))
        for s in range(4):
            if s != seat:
                assert not Counter(game.known[s]) - Counter(world.hand[s])
                assert len(world.hand[s]) == len(game.hand[s]) == len(plain.hand[s])
                placed += sum((Counter(game.known[s]) & Counter(plain.hand[s])).values())
        dealt = [c for s in range(4) for c in world.hand[s] + world.up[s] + world.down[s] if c is not None]
        assert sorted(dealt + world.stock + world.burnt + world.pile) == sorted(full_deck(game.rules))
    known = sum(len(k) for s, k in enumerate(game.known) if s != seat)
    assert placed < 20 * known / 2  # without the memory they land where chance puts them


def test_the_hidden_cards_do_not_change_its_choice() -> None:
    """Only the view is read: swapping the other hand with the stock changes nothing it decides."""
    game = last_card_duel()
    other = last_card_duel()
    other.hand[1] = cards("AD")
    other.burnt = [c for c in other.burnt if c != parse_card("AD")] + cards("6H")
    assert game.view(0) == other.view(0)
    assert StrongPlayer(random.Random(9), SMALL).choose(game.view(0)) == StrongPlayer(random.Random(9), SMALL).choose(
        other.view(0)
    )


def test_whole_games_are_legal_and_repeat() -> None:
    def run(seed: int) -> list:
        game = Shithead.new(make_rules("pagat"), 3, seed)
        players = [
            StrongPlayer(random.Random(seed), SMALL),
            SensiblePlayer(random.Random(1)),
            SensiblePlayer(random.Random(2)),
        ]
        while not game.is_over:
            seat = game.to_act()[0]
            view = game.view(seat)
            action = players[seat].choose(view)
            assert action in view["legal"]
            game.apply(seat, action)
        return game.log

    assert run(4) == run(4)
    run(5)


def test_the_quiet_moves_of_a_playout_leave_the_table_as_the_engine_does() -> None:
    """Every preset's whole games, each move done by the engine and by ``quiet_do``: equal tables."""
    fields = ("hand", "up", "down", "pile", "stock", "burnt", "free", "turn", "direction", "active")
    fields += ("finished", "phase", "loser", "winner", "flush", "pickups", "last_player")
    for name in PRESETS:
        for seats, seed in ((2, 1), (4, 2), (5, 3)):
            rules = PRESETS[name]
            low, high = rules.player_range()
            if not low <= seats <= high:
                continue
            game = Shithead.new(rules, seats, seed)
            rng = random.Random(seed)
            while not game.is_over:
                seat = game.to_act()[0]
                view = game.view(seat)
                action = SensiblePlayer(rng).choose(view) if rng.random() < 0.7 else rng.choice(view["legal"])
                if game.phase == "play":
                    quiet = clone_table(game)
                    quiet_do(quiet, seat, parse(quiet, seat, action))
                game.apply(seat, action)
                if game.phase != "swap" and action["type"] in ("play", "flip", "pickup"):
                    for f in fields:
                        assert getattr(quiet, f) == getattr(game, f), (name, seats, seed, f)


def test_a_playouts_lowest_card_seat_plays_as_the_lowest_card_player() -> None:
    """``lowest_move`` (the unknown opponents' plain kind) makes the plays :class:`LowestPlayer` makes."""
    game = Shithead.new(make_rules("pagat"), 4, 7)
    players = [LowestPlayer(random.Random(s)) for s in range(4)]
    plays = 0
    while not game.is_over:
        seat = game.to_act()[0]
        action = players[seat].choose(game.view(seat))
        if game.phase == "play" and action["type"] == "play":
            move = lowest_move(game, seat)
            assert isinstance(move, Play) and sorted(move.cards) == sorted(parse_card(c) for c in action["cards"])
            plays += 1
        game.apply(seat, action)
    assert plays > 20


def test_more_worlds_as_the_table_empties_up_to_the_endgame_scale() -> None:
    player = StrongPlayer(random.Random(1), SearchConfig(endgame_scale=2.0))
    start = Shithead.new(make_rules("pagat"), 4, 3)
    for seat in range(4):
        start.apply(seat, {"type": "ready"})
    assert player.scale(start.view(start.turn), 52) == 1.0
    assert player.scale(last_card_duel().view(0), 52) == 2.0  # three cards left
    assert StrongPlayer(random.Random(1)).scale(last_card_duel().view(0), 52) == SearchConfig().endgame_scale
