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
