"""What building a move's views costs: the public view and every seat's, over whole Oh Hell games.

After every move the bot builds the public view (the table message, spectators) and the view of
each seat with an open panel (:mod:`bot.tables.snapshot`: each at most once a move); the property tests
build them all after every step. Building one walks the whole game so far (the history, this
deal's tricks), so its cost grows with the game and the table.

Plays whole games with random legal moves from a seeded generator (the same moves every run) and
times, at every state, ``view(None)`` and ``view(seat)`` for every seat: the best of ``--repeat``
passes over the recorded states (each pass rebuilds the games from their actions, so the states are
the same). Printed: microseconds a move for all the views, and per view, for each game.

The last line is ``views µs/move=M µs/view=V`` over all the games together.

    python bench/views.py [--games 3] [--repeat 3]

``--quick``: one game of each table, one pass (the suite runs it).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# this checkout's engine, not whichever one the environment has installed
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ohhell.game import OhHell  # noqa: E402
from games.ohhell.rules import make_rules  # noqa: E402

#: (preset, players): the largest tables of two presets and a middling one
TABLES = (("oh-shit", 7), ("classic", 4), ("spades", 8))


def play(preset: str, players: int, seed: int) -> list[tuple[int, dict]]:
    """A whole game's moves (seat, action), random legal ones from ``seed``."""
    game = OhHell.new(make_rules(preset), players, seed)
    rng = random.Random(seed)
    moves = []
    while not game.is_over:
        seat = rng.choice(game.to_act())
        action = rng.choice(game.legal_actions(seat))
        moves.append((seat, action))
        game.apply(seat, action)
    return moves


def time_views(preset: str, players: int, seed: int, moves: list[tuple[int, dict]]) -> tuple[float, int]:
    """Seconds spent building every view of every state of the game, and the views built."""
    game = OhHell.new(make_rules(preset), players, seed)
    spent = 0.0
    built = 0
    clock = time.perf_counter
    for seat, action in moves:
        start = clock()
        game.view(None)
        for s in range(players):
            game.view(s)
        spent += clock() - start
        built += players + 1
        game.apply(seat, action)
    return spent, built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games of each table")
    parser.add_argument("--repeat", type=int, default=3, help="passes; the best is kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="seconds: the same run, smaller (the suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.repeat = 1, 1
    total_s = 0.0
    total_moves = 0
    total_views = 0
    for preset, players in TABLES:
        games = [(args.seed + g, play(preset, players, args.seed + g)) for g in range(args.games)]
        best = float("inf")
        built = 0
        for _ in range(args.repeat):
            spent = 0.0
            built = 0
            for seed, moves in games:
                s, b = time_views(preset, players, seed, moves)
                spent += s
                built += b
            best = min(best, spent)
        moves = sum(len(m) for _, m in games)
        print(
            f"{preset}, {players} players: {moves} moves, {1e6 * best / moves:.0f} µs a move for its"
            f" {players + 1} views, {1e6 * best / built:.1f} µs a view"
        )
        total_s += best
        total_moves += moves
        total_views += built
    print(f"views µs/move={1e6 * total_s / total_moves:.0f} µs/view={1e6 * total_s / total_views:.1f}")


if __name__ == "__main__":
    main()
