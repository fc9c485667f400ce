"""Shithead: games per second, and how often the computer player ends up the shithead.

Each measured game seats one :class:`~games.shithead.ai.SensiblePlayer` among random players
(:class:`~games.shithead.ai.RandomPlayer`, uniform over the legal actions), the sensible seat
rotating with the game number, under Pagat's main rules. ``P`` is the fraction of games whose
shithead was the sensible seat and ``Q`` the fraction of (game, random seat) pairs whose seat was
the shithead; with ``k`` players a neutral player loses ``1/k``. The same is measured, for
information, against the plain :class:`~games.shithead.ai.LowestPlayer`, and the longest games
(in actions) are reported: all sensible players (the loop check) and the mixed tables.

Run: ``python bench/shithead.py [games] [players]`` (default 400 games of 4). The last line is
``shithead games/s=N ai loser rate=P random loser rate=Q``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from games.shithead.ai import LowestPlayer, Player, RandomPlayer, SensiblePlayer
from games.shithead.game import Shithead
from games.shithead.rules import PRESETS, Rules, make_rules


def play_game(rules: Rules, kinds: list[Callable[[random.Random], Player]], seed: int) -> tuple[int | None, int]:
    """Play one game to its end; returns (loser seat, actions taken)."""
    game = Shithead.new(rules, len(kinds), seed)
    players = [kind(random.Random(seed * 31 + i)) for i, kind in enumerate(kinds)]
    actions = 0
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, players[seat].choose(game.view(seat)))
        actions += 1
    return game.loser, actions


def loser_rates(
    rules: Rules, games: int, players: int, other: type[RandomPlayer] | type[LowestPlayer], seed0: int = 0
) -> tuple[float, float, float, int]:
    """(P, Q, games per second, longest game) for one sensible seat among ``other`` players."""
    ai_lost = 0
    longest = 0
    total = 0
    start = time.perf_counter()
    for g in range(games):
        ai_seat = g % players
        kinds: list[Callable[[random.Random], Player]] = [other] * players
        kinds[ai_seat] = SensiblePlayer
        loser, actions = play_game(rules, kinds, seed0 + g)
        ai_lost += loser == ai_seat
        longest = max(longest, actions)
        total += actions
    seconds = time.perf_counter() - start
    p = ai_lost / games
    q = (games - ai_lost) / (games * (players - 1))
    print(f"  ({other.__name__}: {total / games:.0f} actions a game on average, {total / seconds:.0f} actions/s)")
    return p, q, games / seconds, longest


def longest_sensible(games: int, seed0: int = 0) -> tuple[int, float, str]:
    """The longest all-sensible game over every preset and player count, and games per second."""
    longest, where = 0, ""
    played = 0
    start = time.perf_counter()
    for name, rules in PRESETS.items():
        low, high = rules.player_range()
        for players in range(low, min(high, 6) + 1):
            for g in range(games):
                _, actions = play_game(rules, [SensiblePlayer] * players, seed0 + g)
                played += 1
                if actions > longest:
                    longest, where = actions, f"{name}, {players} players, seed {seed0 + g}"
    return longest, played / (time.perf_counter() - start), where


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rules = make_rules("pagat")
    longest, gps_ai, where = longest_sensible(max(10, games // 10))
    print(f"all-sensible tables (every preset, 2-6 players): {gps_ai:.1f} games/s, longest {longest} actions ({where})")
    p_low, q_low, gps_low, long_low = loser_rates(rules, games, players, LowestPlayer)
    print(
        f"sensible vs lowest-card players, {players} players, {games} games: sensible loser rate {p_low:.3f}, "
        f"lowest-card loser rate {q_low:.3f} (neutral {1 / players:.3f}); {gps_low:.1f} games/s; longest {long_low}"
    )
    p, q, gps, long_mixed = loser_rates(rules, games, players, RandomPlayer)
    print(
        f"sensible vs random players, {players} players, {games} games: longest {long_mixed} actions; "
        f"neutral loser rate {1 / players:.3f}"
    )
    print(f"shithead games/s={gps:.1f} ai loser rate={p:.3f} random loser rate={q:.3f}")


if __name__ == "__main__":
    main()
