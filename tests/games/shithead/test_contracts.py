"""Every view, action, event and result the engine sends has exactly the keys its TypedDict in
games/shithead/contracts.py says, in the shared vocabulary of games/common/contracts.py."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from games.common.engine import Event
from games.shithead import contracts as c
from games.shithead.ai import PLAYERS
from games.shithead.game import Shithead
from games.shithead.rules import PRESETS

ACTIONS: dict[str, type] = {
    "swap": c.SwapAction,
    "ready": c.ReadyAction,
    "stack": c.StackAction,
    "choose_up": c.ChooseUpAction,
    "play": c.PlayAction,
    "flip": c.FlipAction,
    "pickup": c.PickupAction,
}
EVENTS: dict[str, tuple[type, ...]] = {
    "dealt": (c.DealtHandData, c.DealtFaceUpData),
    "swap": (c.SwapData,),
    "ready": (c.SeatData,),
    "chose_up": (c.ChoseUpData,),
    "first_player": (c.FirstPlayerData,),
    "played": (c.PlayedData,),
    "flipped": (c.FlippedData,),
    "reversed": (c.ReversedData,),
    "skipped": (c.SkippedData,),
    "burnt": (c.BurntData,),
    "flush": (c.SeatData,),
    "stacked": (c.StackedData,),
    "picked_up": (c.PickedUpData,),
    "drew": (c.DrewData, c.DrewCardsData),
    "player_out": (c.PlayerOutData,),
    "turn": (c.SeatData,),
    "game_over": (c.GameOverData,),
}


def fits(data: Mapping[str, object], typed: type) -> bool:
    keys = set(data)
    required: frozenset[str] = typed.__required_keys__  # type: ignore[attr-defined]
    optional: frozenset[str] = typed.__optional_keys__  # type: ignore[attr-defined]
    return required <= keys <= required | optional


def check_view(game: Shithead, viewer: int | None) -> None:
    view = game.view(viewer)
    assert fits(view, c.ShitheadView)
    assert view["viewer"] == viewer and view["seat_count"] == game.seats
    assert "players" not in view and "seat" not in view
    extra = set(view) - c.ShitheadView.__required_keys__
    assert extra == (set() if viewer is None else {"hand", "zone", "legal"})
    assert len(view["seats"]) == view["seat_count"]
    assert all(fits(s, c.TableSeat) for s in view["seats"])
    assert all(fits(r, c.RecentAction) for r in view["recent"])
    for action in view.get("legal", []):
        assert fits(action, ACTIONS[action["type"]]), action


def check_events(events: list[Event]) -> None:
    for event in events:
        assert any(fits(event.data, typed) for typed in EVENTS[event.kind]), event


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("level", sorted(PLAYERS))
def test_views_actions_events_and_results_have_their_contracts_keys(preset: str, level: str) -> None:
    rules = PRESETS[preset]
    seats = min(3, rules.player_range()[1])
    game = Shithead.new(rules, seats, seed=11)
    players = [PLAYERS[level](random.Random(i)) for i in range(seats)]
    check_events(game.deal_events())
    while not game.is_over:
        seat = game.to_act()[0]
        check_view(game, seat)
        if len(game.log) % 7 == 0:
            check_view(game, None)
        _, events = game.apply(seat, players[seat].choose(game.view(seat)))
        check_events(events)
    check_view(game, None)
    assert fits(game.results(), c.Results)
