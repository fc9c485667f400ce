"""Shared by the computer-player tests: play engine games with computer seats."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ohhell.ai import StrongConfig, ai_view, choose_action, info_from_view
from games.ohhell.ai.sampling import Knowledge, _allowed_bids, bid_likelihood
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules

#: a small search so the tests stay fast; the benchmarks use the default
FAST = StrongConfig(budget=1500, min_worlds=4, max_worlds=12, exact_worlds=6)


def play_game(
    game: OhHell,
    levels: list[str],
    seed: int,
    *,
    config: StrongConfig | None = FAST,
    max_deals: int | None = None,
    on_decision: Callable[[OhHell, int, dict, dict], None] | None = None,
) -> OhHell:
    """Play ``game`` on with one computer of ``levels[seat]`` a seat (each its own generator)."""
    rngs = [random.Random(seed * 1000 + s) for s in range(game.seats)]
    while not game.is_over:
        if max_deals is not None and game.view(None)["deal"] > max_deals:
            break
        seat = game.to_act()[0]
        view = ai_view(game, seat)
        action = choose_action(view, levels[seat], rngs[seat], config=config)
        if on_decision is not None:
            on_decision(game, seat, view, action)
        game.apply(seat, action)
    return game


def check_decision(game: OhHell, seat: int, view: dict, action: dict) -> None:
    """The action is legal, never a revoke, and the adapter rebuilt the public state exactly."""
    assert action in view["legal"]
    assert action in view["proper"]
    info = info_from_view(view)
    order = view["players"]
    assert list(info.won) == [view["tricks"][s] for s in order]
    if view["phase"] == "playing":
        assert order[info.leader] == view["leader"]
        assert [order[p.seat] for p in info.current] == [x[0] for x in view["trick"]]
        played = sum(view["hand_size"] - view["hand_counts"][s] for s in order)
        assert sum(len(t.plays) for t in info.tricks) + len(info.current) == played
        if view.get("last_trick") and info.tricks:
            assert order[info.tricks[-1].winner] == view["last_trick"]["winner"]


def views_along_a_game(preset: str, players: int, seed: int, **overrides):
    """Every view of a seat to act in a game played by the quick level, with the true hands."""
    game = OhHell.new(make_rules(preset, **overrides), players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        view = ai_view(game, seat)
        yield view, {s: game.hand(s) for s in range(players)}
        game.apply(seat, choose_action(view, "quick", rng))


def last_bidder_view(hand_size: int, seed: int = 3) -> dict:
    """A view of the last bidder of a 4-player classic deal of ``hand_size`` cards (three bids
    made)."""
    return next(
        v
        for v, _ in views_along_a_game("classic", 4, seed, sequence="fixed", fixed_hands=str(hand_size))
        if v["phase"] == "bidding" and info_from_view(v).bids.count(None) == 1
    )


def bid_weight_by_hand(k: Knowledge, hands: list[int], sigma: float, mean_of: Callable[[int, int], float]) -> float:
    """The weight :meth:`Knowledge.bid_weight` should give ``hands``, worked out bid by bid:
    each bid made (not ours) scores its likelihood around ``mean_of(seat, hand)`` to 1/32."""
    info = k.info
    expected = 1.0
    for p, bid in enumerate(info.bids):
        if bid is None or p == info.seat:
            continue
        mean = mean_of(p, hands[p])
        expected *= bid_likelihood(bid, int(mean * 32) / 32, _allowed_bids(info, p), sigma)
    return expected
