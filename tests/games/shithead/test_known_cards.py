"""What a player remembers of the others' hands (``Table.known``, the computer's ``ai_view``):
the cards each hand took in sight of the table, and nothing only its holder saw."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.common.cards import card_code
from games.common.engine import Event
from games.shithead.ai import SensiblePlayer
from games.shithead.game import Shithead
from games.shithead.rules import PRESETS
from tests.games.shithead.scenario import pickup, play, stacked


def test_a_picked_up_pile_is_remembered_and_a_card_drawn_is_not() -> None:
    game = stacked(
        seats=3, up={0: ["3C", "KD", "QD"]}, hands={0: ["5D", "6D", "9S"], 1: ["4C", "4D", "4H"]}, stock=["7C", "8C"]
    )
    play(game, 0, "5D")  # seat 0 draws a card from the stock: only it saw which
    pickup(game, 1)
    assert game.ai_view(2)["known"] == [[], ["5D"], []]
    assert len(game.hand[0]) == 3 and len(game.hand[1]) == 4
    assert "known" not in game.view(0) and "known" not in game.view(None)  # the channel shows the present


def test_a_face_up_card_swapped_into_the_hand_is_known_and_the_hand_card_put_up_is_not() -> None:
    game = stacked(seats=2, up={0: ["AS", "KD", "QD"]}, hands={0: ["5D", "6D", "9S"]}, ready=False)
    game.apply(0, {"type": "swap", "hand": "5D", "up": "AS"})
    assert game.ai_view(1)["known"][0] == ["AS"]
    game.apply(0, {"type": "swap", "hand": "AS", "up": "5D"})  # and back: it left the hand in sight
    assert game.ai_view(1)["known"][0] == ["5D"]


def remembered_from_public_events(events: list[Event], seats: int) -> list[Counter[str]]:
    """What a spectator, who sees only the public events, can say each hand holds."""
    known = [Counter[str]() for _ in range(seats)]
    for e in events:
        if e.seat is not None:
            continue
        d = e.data
        if e.kind == "swap":
            known[d["seat"]] -= Counter([d["to_up"]])
            known[d["seat"]][d["to_hand"]] += 1
        elif e.kind == "stacked":
            known[d["seat"]] -= Counter([d["card"]])
        elif e.kind == "chose_up":
            known[d["seat"]] -= Counter(d["cards"])
        elif e.kind == "played" and d["zone"] == "hand":
            known[d["seat"]] -= Counter(d["cards"])
        elif e.kind == "picked_up":
            known[d["seat"]] += Counter(d["cards"])
    return known


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_what_is_remembered_follows_from_the_public_events_alone_and_is_in_the_hand(preset: str) -> None:
    """Whole games of every preset: at every step each seat's known cards are exactly what the public
    events say went into its hand and did not come out, and every one of them is in that hand
    (so the memory tells a computer nothing a spectator could not know)."""
    rules = PRESETS[preset]
    low, high = rules.player_range()
    for seats, seed in ((low, 1), (min(high, 4), 2), (min(high, 5), 3)):
        game = Shithead.new(rules, seats, seed)
        rng = random.Random(seed)
        events = game.deal_events()
        remembered = 0
        while not game.is_over:
            seat = game.to_act()[0]
            view = game.view(seat)
            action = SensiblePlayer(rng).choose(view) if rng.random() < 0.8 else rng.choice(view["legal"])
            events += game.apply(seat, action)[1]
            known = game.ai_view(seat)["known"]
            expected = remembered_from_public_events(events, seats)
            for s in range(seats):
                assert Counter(known[s]) == expected[s], (preset, seats, seed, s)
                assert not Counter(known[s]) - Counter(card_code(c) for c in game.hand[s])
                remembered += len(known[s])
        assert remembered > 0, (preset, seats, seed)


def test_a_rebuilt_game_remembers_what_the_live_one_did() -> None:
    """A restart rebuilds a game from its stored actions: the memory comes back with it."""
    game = Shithead.new(PRESETS["pagat"], 4, 8)
    rng = random.Random(8)
    while game.action_count < 120 and not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, SensiblePlayer(rng).choose(game.view(seat)))
    assert any(game.known)
    again = Shithead.from_json(game.to_json())
    replayed = Shithead.replay(game.rules, 4, 8, game.log)
    assert again.known == game.known == replayed.known
