"""Shithead: games per second, and how often the computer player ends up the shithead.

Each measured game seats one :class:`~games.shithead.ai.SensiblePlayer` among random players
(:class:`~games.shithead.ai.RandomPlayer`, uniform over the legal actions), the sensible seat
rotating with the game number, under Pagat's main rules. ``P`` is the fraction of games whose
shithead was the sensible seat and ``Q`` the fraction of (game, random seat) pairs whose seat was
the shithead; with ``k`` players a neutral player loses ``1/k``. The same is measured, for
information, against the plain :class:`~games.shithead.ai.LowestPlayer`, and the longest games
(in actions) are reported: all sensible players (the loop check) and the mixed tables.

Run: ``python bench/shithead.py [games] [players]`` (default 400 games of 4; ``--quick``: 3 games and one
all-sensible game a table, which the suite runs). The last line is
``shithead games/s=N ai loser rate=P random loser rate=Q``.

Strong mode: ``python -m bench.shithead --strong [--games N] [--level strong] [--jobs J]
[--seed S] [--players 4,2] [--no-memory]`` plays ``N`` four-player games, the level in one seat
(rotating) against three greedy players (:class:`~games.shithead.ai.LowestPlayer`: no swap,
always the lowest play), and ``N`` two-player games against one, Pagat's rules, each game from its
own seed. The level decides from the computer's view the bot gives it (``Shithead.ai_view``, which
remembers the cards each hand took in sight of the table); ``--no-memory`` from the plain seat view
(the ablation). It prints each rate with two standard errors, and the level's decision time
(``time.perf_counter`` around every decision of its seat, one process a core). Its last line is
``strong loser rate(4p vs 3 greedy)=P strong win rate(2p vs greedy)=W median ms=M p99 ms=Q
games=N`` (``-`` for a table size not played).

Figures: with the memory, ``--games 2400 --jobs 16 --seed 6 --players 4`` on a 16-core
machine: the shithead 0.050 ± 0.009, 75.6 ms median and 163.1 ms p99 a decision; ``--games 800
--players 2``: 86.7% ± 2.4% won. Without it (``--no-memory``, 1,200 games of the same seeds):
0.107 ± 0.018. Earlier searches, ``--games 1200 --jobs 2``: the first (sensible worlds, 32 duel
worlds) at ``--seed 3`` 0.130 ± 0.019 and 80.2% of two-player games, 20.9 ms median and 53.3 ms p99;
the next (unknown opponents, 48 duel worlds, more in the endgame, quiet playouts) at ``--seed 4``
0.113 ± 0.018 and 82.3% ± 2.2%, and at ``--seed 5`` over 2,000 games 0.126 ± 0.015 and 82.3% ± 1.7%.
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


def _strong_game(task: tuple[str, int, int, int, int, bool]) -> tuple[bool, list[float]]:
    """One game of ``level`` in seat ``g % players`` against greedy players: (lost, ms a decision).
    ``duel_worlds`` > 0: the strong search with that many duel worlds instead of the level;
    ``memory`` False: the level decides from the seat's plain view, not remembering the cards
    each hand took in sight of the table (the ablation of ``ai_view``'s ``known``)."""
    from games.shithead.search import SearchConfig, StrongPlayer, decide

    level, players, seed0, g, duel_worlds, memory = task
    seed = seed0 * 1_000_003 + g
    game = Shithead.new(make_rules("pagat"), players, seed)
    me = g % players
    mine = random.Random(seed * 7 + 1)
    greedy = [LowestPlayer(random.Random(seed * 31 + i)) for i in range(players)]
    times: list[float] = []
    while not game.is_over:
        seat = game.to_act()[0]
        if seat == me:
            # as the bot's computer seats read it (cogs/shithead/kind.py)
            view = game.ai_view(seat) if memory else game.view(seat)
            start = time.perf_counter()
            if duel_worlds:
                action = StrongPlayer(mine, SearchConfig(duel_worlds=duel_worlds)).choose(view)
            else:
                action = decide(view, level, mine)
            times.append((time.perf_counter() - start) * 1000)
        else:
            action = greedy[seat].choose(game.view(seat))
        game.apply(seat, action)
    return game.loser == me, times


def strong_main(argv: list[str]) -> None:
    """The strong mode (see the module docstring)."""
    import argparse
    import math
    import statistics
    from concurrent.futures import ProcessPoolExecutor

    ap = argparse.ArgumentParser(description="Shithead strong level against greedy players")
    ap.add_argument("--strong", action="store_true")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--level", default="strong")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duel-worlds", type=int, default=0, help="the strong search with this many duel worlds")
    ap.add_argument("--no-memory", action="store_true", help="decide from the plain view (no remembered cards)")
    ap.add_argument("--players", default="4,2", help="the table sizes to play, of 4 and 2")
    args = ap.parse_args(argv)
    figures: dict[int, float] = {}
    times: list[float] = []
    sizes = [int(p) for p in args.players.split(",")]
    for players in sizes:
        tasks = [(args.level, players, args.seed, g, args.duel_worlds, not args.no_memory) for g in range(args.games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results = list(pool.map(_strong_game, tasks, chunksize=4))
        else:
            results = list(map(_strong_game, tasks))
        lost = sum(r[0] for r in results) / len(results)
        err = 2 * math.sqrt(lost * (1 - lost) / len(results))
        for r in results:
            times.extend(r[1])
        figures[players] = lost
        rate = lost if players == 4 else 1 - lost
        what = "shithead (neutral 0.250)" if players == 4 else "wins (neutral 0.500)"
        table = f"{players - 1} greedy, {players} players, {args.games} games"
        print(f"{args.level} vs {table}: {what} {rate:.3f} ± {err:.3f}")
    times.sort()
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    four = f"{figures[4]:.3f}" if 4 in figures else "-"
    two = f"{1 - figures[2]:.3f}" if 2 in figures else "-"
    print(
        f"strong loser rate(4p vs 3 greedy)={four} strong win rate(2p vs greedy)={two} "
        f"median ms={median:.1f} p99 ms={p99:.1f} games={args.games}"
    )


def main() -> None:
    if "--strong" in sys.argv[1:]:
        strong_main(sys.argv[1:])
        return
    quick = "--quick" in sys.argv[1:]
    argv = [a for a in sys.argv[1:] if a != "--quick"]
    games = 3 if quick else int(argv[0]) if argv else 400
    players = int(argv[1]) if len(argv) > 1 else 4
    rules = make_rules("pagat")
    longest, gps_ai, where = longest_sensible(1 if quick else max(10, games // 10))
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
