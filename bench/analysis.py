"""The coach (games/ohhell/analysis.py, issue 15): how long an analysis takes, and whether its
luck estimate means something.

Part 1: a 19-deal 4-player game (classic preset, quick computers, seed 1) analysed with the
bot's own config (:class:`AnalysisConfig` defaults) in two worker processes, as the bot runs it:
wall time from the first task to the summary. Goal: at most 30 s on this machine.

Part 2: ``--games`` (≥ 500) games between computers of one level (``--level``, quick by
default; each game its own seed), each analysed for the hand's worth only (the strong
computer's bids and the card checks are not needed for luck and are skipped). Across every
(game, player), the variance of the raw total and of the luck-adjusted total, each taken
from the game's mean (the two means are equal). Between equal players every difference in score
is luck and noise, so the adjusted variance should be at most half the raw one. ``--deals``
plays shorter games (the first N deals of the classic schedule are 1, 2, 3…) to save time.

Shithead (games/shithead/analysis.py), printed first: part 3 times the analysis of a 4-player
game (seed 1, sensible computers taking a random legal action one time in five, so it has
human-like mistakes and pick-ups to weigh) with every seat coached (the worst case: the bot
coaches only its people), the bot's config, in ``--jobs`` worker processes; part 4 checks the
luck of the deal as part 2 does, over ``--shithead-games`` games between sensible computers
(``luck_rollouts`` playouts from each deal). Its line is ``shithead analysis s/game=S actions=N
raw var=A adjusted var=B ratio=R``. ``--only shithead`` or ``--only ohhell`` runs one game's parts.

The last line is ``analysis s/game=S raw var=A adjusted var=B ratio=R`` (Oh Hell).

Run: ``python bench/analysis.py --games 500 --jobs 2``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games.ohhell.ai import computer_move
from games.ohhell.analysis import AnalysisConfig, analyse, analyse_deal, deal_tasks, summarise
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from games.shithead import analysis as sh
from games.shithead.ai import choose_action as sh_choose
from games.shithead.game import Shithead
from games.shithead.rules import make_rules as sh_rules


def play(seed: int, level: str, deals: int | None, players: int = 4) -> tuple[dict[str, Any], OhHell]:
    rules = (
        make_rules("classic")
        if deals is None
        else make_rules("classic", sequence="fixed", fixed_hands=",".join(str(n) for n in range(1, deals + 1)))
    )
    game = OhHell.new(rules, players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        game, _ = game.apply(seat, computer_move(game, seat, level, rng))
    return rules.to_json(), game


def luck_of(args: tuple[int, str, int | None, int]) -> list[tuple[float, float]]:
    """(raw, adjusted) totals of one game's players, each less the game's mean."""
    seed, level, deals, rollouts = args
    rules, game = play(seed, level, deals)
    config = AnalysisConfig(rollouts=rollouts, check_bids=False, check_cards=False, seed=seed)
    data = analyse(rules, game.seats, seed, game.rng_version, game.log, config)
    totals = [p["total"] for p in data["players"]]
    mean = sum(totals) / len(totals)
    return [(p["total"] - mean, p["adjusted"] - mean) for p in data["players"]]


def sh_play(seed: int, mistakes: float, players: int = 4) -> Shithead:
    game = Shithead.new(sh_rules("pagat"), players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        view = game.view(seat)
        game.apply(seat, rng.choice(view["legal"]) if rng.random() < mistakes else sh_choose(view, rng))
    return game


def sh_luck_of(seed: int) -> list[tuple[float, float]]:
    """(raw, adjusted) results of one Shithead game's players, each less the game's mean."""
    game = sh_play(seed, 0.0)
    config = sh.AnalysisConfig(check_swaps=False, check_decisions=False, seed=seed)
    data = sh.analyse(game.rules_json, game.seats, seed, game.rng_version, game.log, config)
    mean = sum(p["result"] for p in data["players"]) / game.seats
    return [(p["result"] - mean, p["adjusted"] - mean) for p in data["players"]]


def shithead_parts(args: argparse.Namespace) -> None:
    game = sh_play(1, 0.2)
    config = sh.AnalysisConfig()
    with ProcessPoolExecutor(args.jobs) as pool:
        list(pool.map(abs, range(args.jobs)))
        started = time.perf_counter()
        todo, order, goal = sh.plan(game.rules_json, game.seats, 1, game.rng_version, game.log, config)
        parts = list(pool.map(sh.run_task, todo))
        data = sh.summarise(parts, game.seats, order, goal, config)
        seconds = time.perf_counter() - started
    print(
        f"part 3: Shithead, {game.seats} players, {len(game.log)} actions, {data['decisions']} decisions weighed,"
        f" {seconds:.1f} s in {args.jobs} processes ({config})"
    )
    for p in data["players"]:
        print(
            f"  seat {p['seat']}: result {p['result']} worth {p['worth']:.2f} luck {p['luck']:+.2f}"
            f" adjusted {p['adjusted']:.2f} swap {p['swap_worth']:+.2f} lost {p['lost']:.2f}"
        )
    raw: list[float] = []
    adjusted: list[float] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for rows in pool.map(sh_luck_of, range(1000, 1000 + args.shithead_games), chunksize=4):
            raw += [r for r, _ in rows]
            adjusted += [a for _, a in rows]
    raw_var, adj_var = statistics.pvariance(raw), statistics.pvariance(adjusted)
    print(
        f"part 4: {args.shithead_games} Shithead games of 4 sensible computers,"
        f" {config.luck_rollouts} playouts a deal, {time.perf_counter() - started:.0f} s"
    )
    print(
        f"shithead analysis s/game={seconds:.1f} actions={len(game.log)} raw var={raw_var:.3f}"
        f" adjusted var={adj_var:.3f} ratio={adj_var / raw_var:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--level", default="quick")
    parser.add_argument("--deals", type=int, default=None, help="shorter games for part 2 (default: all 19 deals)")
    parser.add_argument("--rollouts", type=int, default=AnalysisConfig().rollouts)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--shithead-games", type=int, default=200)
    parser.add_argument("--only", choices=("ohhell", "shithead"), default=None)
    args = parser.parse_args()
    if args.only != "ohhell":
        shithead_parts(args)
    if args.only == "shithead":
        return

    rules, game = play(1, "quick", None)
    config = AnalysisConfig()
    with ProcessPoolExecutor(args.jobs) as pool:
        list(pool.map(abs, range(args.jobs)))  # the workers are up before the clock starts, as in the bot
        started = time.perf_counter()
        tasks = deal_tasks(rules, game.seats, 1, game.rng_version, game.log, config)
        summary = summarise(list(pool.map(analyse_deal, tasks)), game.seats, config)
        seconds = time.perf_counter() - started
    print(f"part 1: {len(tasks)} deals, {game.seats} players, {seconds:.1f} s in {args.jobs} processes ({config})")
    for p in summary["players"]:
        print(
            f"  seat {p['seat']}: total {p['total']} worth {p['expected']:+.1f}"
            f" luck {p['luck']:+.1f} adjusted {p['adjusted']:.1f}"
        )

    raw: list[float] = []
    adjusted: list[float] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        work = [(seed, args.level, args.deals, args.rollouts) for seed in range(1000, 1000 + args.games)]
        for n, rows in enumerate(pool.map(luck_of, work, chunksize=4), start=1):
            raw += [r for r, _ in rows]
            adjusted += [a for _, a in rows]
            if n % 100 == 0:
                print(
                    f"  {n} games, ratio so far {statistics.pvariance(adjusted) / statistics.pvariance(raw):.3f}",
                    flush=True,
                )
    raw_var, adj_var = statistics.pvariance(raw), statistics.pvariance(adjusted)
    print(
        f"part 2: {args.games} games of {args.deals or 19} deals between {args.level} computers,"
        f" {args.rollouts} replays a deal, {time.perf_counter() - started:.0f} s"
    )
    print(
        f"analysis s/game={seconds:.1f} raw var={raw_var:.1f} adjusted var={adj_var:.1f} ratio={adj_var / raw_var:.3f}"
    )


if __name__ == "__main__":
    main()
