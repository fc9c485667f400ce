"""Stacked-deck games for the walk-through tests: who holds what, then actions by card code."""

from __future__ import annotations

from typing import Any

from games.common.engine import Event
from games.shithead.deal import stack_deck
from games.shithead.game import Shithead
from games.shithead.rules import Rules, make_rules


def stacked(
    rules: Rules | str = "pagat",
    seats: int = 3,
    dealer: int | None = None,
    *,
    ready: bool = True,
    **zones: Any,
) -> Shithead:
    """A game dealt from a stacked deck; the dealer defaults to the last seat (seat 0 is first)."""
    if isinstance(rules, str):
        rules = make_rules(rules)
    dealer = seats - 1 if dealer is None else dealer
    deck = stack_deck(rules, seats, dealer, **zones)
    game = Shithead.from_deck(rules, seats, deck, dealer)
    if ready and rules.deal == "swap":
        for seat in range(seats):
            game.apply(seat, {"type": "ready"})
    return game


def play(game: Shithead, seat: int, *cards: str) -> list[Event]:
    return game.apply(seat, {"type": "play", "cards": list(cards)})[1]


def pickup(game: Shithead, seat: int, add: str | None = None) -> list[Event]:
    action: dict[str, Any] = {"type": "pickup"}
    if add is not None:
        action["add"] = add
    return game.apply(seat, action)[1]


def flip(game: Shithead, seat: int, index: int) -> list[Event]:
    return game.apply(seat, {"type": "flip", "index": index})[1]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def public(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind == kind and e.seat is None]


# -- the end game on a six-player table (two jokers, no stock) --------------------------------


def six_player_table(last_down: str, **overrides: Any) -> Shithead:
    """Seat 0 starts (face-up 3s) with three 9s; the others pick up or shed so that it reaches
    its face-up cards after one round."""
    rules = make_rules("six-players", **overrides)
    return stacked(
        rules,
        seats=6,
        up={0: ["3C", "3D", "3H"], 2: ["6H", "JC", "JD"], 4: ["7H", "QH", "QD"]},
        hands={
            0: ["9C", "9D", "9H"],
            1: ["JH", "JS", "QC"],
            2: ["4D", "4H", "4S"],
            3: ["KC", "KD", "KH"],
            4: ["5D", "5H", "5S"],
            5: ["KS", "AC", "AD"],
        },
        down={0: ["4C", "5C", last_down]},
    )


def to_last_face_down(last_down: str, **overrides: Any) -> Shithead:
    game = six_player_table(last_down, **overrides)
    # round 1: seat 0 empties its hand; seat 5 picks up so seat 0 meets an empty pile
    play(game, 0, "9C", "9D", "9H")
    pickup(game, 1)
    play(game, 2, "4D")
    pickup(game, 3)
    play(game, 4, "5D")
    pickup(game, 5)
    # round 2: seat 0 plays its three face-up 3s together
    assert game.zone(0) == "up"
    play(game, 0, "3C", "3D", "3H")
    pickup(game, 1)
    play(game, 2, "4H")
    pickup(game, 3)
    play(game, 4, "5H")
    pickup(game, 5)
    # round 3: a face-down card on an empty pile always stands
    assert game.legal_actions(0) == [{"type": "flip", "index": i} for i in range(3)]
    events = flip(game, 0, 0)
    assert public(events, "flipped") == [{"seat": 0, "index": 0, "card": "4C", "playable": True}]
    assert public(events, "played") == [{"seat": 0, "cards": ["4C"], "zone": "down"}]
    pickup(game, 1)
    play(game, 2, "4S")
    pickup(game, 3)
    play(game, 4, "5S")
    pickup(game, 5)
    # round 4: another flip stands; seats 2 and 4 play face up; seat 5 puts a king on top
    flip(game, 0, 1)
    pickup(game, 1)
    play(game, 2, "6H")
    pickup(game, 3)
    play(game, 4, "7H")
    play(game, 5, "KS")
    view = game.view(0)
    assert view["seats"][0]["face_down_slots"] == [2] and view["zone"] == "down"
    assert view["legal"] == [{"type": "flip", "index": 2}]
    return game
