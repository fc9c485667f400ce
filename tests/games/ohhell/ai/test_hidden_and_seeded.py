"""The computer decides from its own view only, and the same generator gives the same decision."""

from __future__ import annotations

import random

import pytest

from games.common.cards import card_code, suit_of
from games.ohhell.ai import ai_view, choose_action
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules

from .helpers import FAST, play_game

RULES = [
    ("classic", {"sequence": "fixed", "fixed_hands": "7"}, 4),
    ("oh-shit", {"sequence": "fixed", "fixed_hands": "6", "deck": "standard52+joker", "revokes": "penalize"}, 5),
    ("bowers", {"sequence": "fixed", "fixed_hands": "8"}, 3),
    ("spades", {"sequence": "fixed", "fixed_hands": "9"}, 4),
]


def _game_with_swapped_hands(rules, players, deck, dealer, log, viewer, rng):
    """A twin of the game: the same deck order except that two unplayed cards of one suit held by
    two other seats have changed hands. Every play so far stays legal (each seat still holds the
    same number of cards of each suit), so the viewer's view is the same; only hidden cards move."""
    game = OhHell.from_decks(rules, players, [deck], dealer)
    for seat, action in log:
        game.apply(seat, action)
    played = {a["card"] for _, a in log if a["type"] == "play"}
    hands = {s: [c for c in game.hand(s) if c not in played] for s in range(players) if s != viewer}
    options = []
    seats = sorted(hands)
    turnup = game.view(None)["turnup"]
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            for x in hands[a]:
                for y in hands[b]:
                    cx, cy = deck_card(deck, x), deck_card(deck, y)
                    special = "X" in (x, y) or "J" in (x[0], y[0]) or turnup in (x, y)
                    if x != y and suit_of(cx) == suit_of(cy) and not special:
                        options.append((x, y))
    if not options:
        return None
    x, y = rng.choice(options)
    codes = [card_code(c) for c in deck]
    i, j = codes.index(x), codes.index(y)
    twin_deck = list(deck)
    twin_deck[i], twin_deck[j] = twin_deck[j], twin_deck[i]
    twin = OhHell.from_decks(rules, players, [twin_deck], dealer)
    for seat, action in log:
        twin.apply(seat, action)
    return twin


def deck_card(deck, code):
    return next(c for c in deck if card_code(c) == code)


@pytest.mark.parametrize(("preset", "overrides", "players"), RULES)
@pytest.mark.parametrize("level", ["quick", "strong"])
def test_the_decision_ignores_the_other_hands(preset, overrides, players, level) -> None:
    rules = make_rules(preset, **overrides)
    rng = random.Random(7)
    checked = 0
    for trial in range(12):
        seed = 100 + trial
        base = OhHell.new(rules, players, seed)
        public = base.view(None)
        dealer = public["dealer"]
        hands = {s: base.hand(s) for s in range(players)}
        turnup = public["turnup"] if not public["turnup_is_dealers"] else None
        deck = OhHell.stack_deck(rules, players, dealer, hands, turnup)
        game = OhHell.from_decks(rules, players, [deck], dealer)
        # play a random number of actions with quick players, then look at the seat to act
        stop = rng.randrange(0, players * (rules.hand_sizes(players)[0] // 2 + 1))
        log = []
        rngs = [random.Random(seed + s) for s in range(players)]
        for _ in range(stop):
            seat = game.to_act()[0]
            action = choose_action(ai_view(game, seat), "quick", rngs[seat])
            game.apply(seat, action)
            log.append((seat, action))
        viewer = game.to_act()[0]
        twin = _game_with_swapped_hands(rules, players, deck, dealer, log, viewer, rng)
        if twin is None:
            continue
        view_a, view_b = ai_view(game, viewer), ai_view(twin, viewer)
        assert view_a == view_b
        hidden_a = [game.hand(s) for s in range(players) if s != viewer]
        hidden_b = [twin.hand(s) for s in range(players) if s != viewer]
        assert hidden_a != hidden_b
        a = choose_action(view_a, level, random.Random(seed), config=FAST)
        b = choose_action(view_b, level, random.Random(seed), config=FAST)
        assert a == b
        checked += 1
    assert checked >= 6


def test_same_seed_same_game_even_with_global_random_churned() -> None:
    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="5,3", deck="standard52+joker")
    levels = ["strong", "quick", "strong", "random"]

    def run(churn: bool) -> list:
        game = OhHell.new(rules, 4, 21)

        def churner(*_):
            if churn:
                random.seed(random.random())
                random.random()

        play_game(game, levels, 5, on_decision=churner)
        return game.log

    assert run(False) == run(True)


def test_the_generator_is_the_only_randomness() -> None:
    rules = make_rules("classic", sequence="fixed", fixed_hands="8")
    game = OhHell.new(rules, 4, 3)
    view = ai_view(game, game.to_act()[0])
    first = [choose_action(view, "strong", random.Random(s), config=FAST) for s in range(3)]
    random.seed(12345)
    again = [choose_action(view, "strong", random.Random(s), config=FAST) for s in range(3)]
    assert first == again
