"""The coaches (games/ohhell/analysis.py, games/shithead/analysis.py): how long an analysis takes,
and whether their luck figure shows skill through luck, measured so that it could fail.

Timing: a 19-deal 4-player Oh Hell game (classic preset, quick computers taking a random bid or
card 30 % of the time, so that many choices differ from the computer's and are weighed; seed 1) analysed with
the bot's own config (:class:`AnalysisConfig` defaults: bids, cards and the hand's worth) in
``--jobs`` worker processes, as the bot runs it, from the first task to the summary (goal: within
10 s on two cores). The Shithead analysis of a 4-player game is timed the same way.

The luck figure is then measured over games between computers that are *not* the coach's own
computer (they take a random legal action often), each game analysed for what the luck needs: in
Oh Hell every seat's choices weighed against the quick computer's (``--worlds`` worlds a decision;
the checks of bids and cards and the hand's worth in replays are only shown, not in the luck):

- **equal-other**: four players alike (the quick computer with ``--noise`` random moves, 30 %).
  ``ratio=E`` is the variance of the luck-adjusted score over the raw one, each taken from its
  game's mean: below 1 when the adjustment removes more luck than the noise it adds.
- **unequal**: two stronger seats (``--strong-noise`` random moves, 10 %) against two weaker ones
  (``--weak-noise``, 20 %), seated alternately: levels near each other, where the luck of a game
  hides who plays better, which is what a coach is for. Levels far apart show in the raw score
  already (20 % against 40 %: the stronger pair ahead in 28 of 30 games raw), and the spread
  within such a level is mostly the players' own random moves, which no luck figure should take
  away (Oh Hell, 30 games a set: x1.15 there, x1.42 at 10 % against 30 %, x1.85 at 10 % against
  20 %). ``gap/sd`` is the mean gap between the levels divided by the spread of the scores
  within a level (pooled), raw and adjusted: the adjustment should make it at least 1.5 times
  larger; ``ahead`` counts the games where the stronger pair's mean beats
  the weaker pair's, raw and adjusted (more adjusted than raw).
- **placebo**: each equal-other game adjusted by the luck of *another* game (the next one):
  ``placebo ratio=P`` must be worse than no adjustment (above 1), or the variance ratio could not
  tell a luck estimate from any figure that sums to nothing.

Shithead the same (the sensible computer with ``--noise`` random moves; its stronger seats take
``--strong-noise``, its weaker ``--weak-noise``); its result is 1 for not being the shithead. Its
luck is all but the seats' own decisions: every seat's swap and decisions in play are weighed
against the computer's choices (``--shithead-rollouts`` playouts a position, the luck weighted by
``--luck-weight``; the coach's defaults), which is most of the time a game takes. The luck is
linear in its weight, so ``--luck-weights 0.6,0.8,1`` also prints the figures at other weights
from the same analyses (how the coach's weight was chosen).

``--games`` and ``--shithead-games`` games a set; ``--jobs`` worker processes. The last line is
``analysis s/game=S equal-other ratio=E gap/sd raw=G1 adjusted=G2 placebo ratio=P shithead ratio=H``;
the line before it gives the Shithead figures in full and the checks passed.

Run: ``python bench/analysis.py --games 400 --shithead-games 400 --jobs 16`` (a long run);
``--games 20 --shithead-games 40 --jobs 2`` is a quick look with a wide margin of error. ``--quick``
(the suite runs it): two games a set of two deals, searches of a few worlds and playouts, one process
(figures without meaning: it checks that every part runs).
``--processor-timing`` times only the two analyses, task by task in processor time (what the
wall-clock timing would be on idle cores, when the machine is shared).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

# this checkout's games, not an installed copy's
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ohhell.ai import computer_move
from games.ohhell.analysis import AnalysisConfig, analyse, analyse_deal, deal_tasks, summarise
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from games.shithead import analysis as sh
from games.shithead.ai import choose_action as sh_choose
from games.shithead.game import Shithead
from games.shithead.rules import make_rules as sh_rules

#: one (game, seat): (game, level, raw score, the coach's luck, the coach's adjusted score)
Row = tuple[int, str, float, float, float]


# -- Oh Hell ---------------------------------------------------------------------------------------
#: ``--quick``: every part of the run on games of two deals and searches of a few worlds/playouts
QUICK_DEALS = 2
QUICK_OHHELL = AnalysisConfig(rollouts=2, luck_rollouts=2, skill_worlds=2, bid_budget=200, card_budget=100)
QUICK_SHITHEAD = sh.AnalysisConfig(rollouts=2, luck_rollouts=2)


def oh_play(seed: int, noises: Sequence[float], deals: int | None = None) -> tuple[dict[str, Any], OhHell]:
    """A game of quick computers, seat ``s`` taking a random legal action with chance ``noises[s]``."""
    rules = (
        make_rules("classic")
        if deals is None
        else make_rules("classic", sequence="fixed", fixed_hands=",".join(str(n) for n in range(1, deals + 1)))
    )
    game = OhHell.new(rules, len(noises), seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        if rng.random() < noises[seat]:
            action = rng.choice(game.legal_actions(seat))
        else:
            action = computer_move(game, seat, "quick", rng)
        game, _ = game.apply(seat, action)
    return rules.to_json(), game


def oh_rows(job: tuple[int, list[str], list[float], int | None, int]) -> list[Row]:
    seed, levels, noises, deals, worlds = job
    rules, game = oh_play(seed, noises, deals)
    # the hand's worth (replays) is shown deal by deal but is not in the luck: not worked out here
    config = AnalysisConfig(luck_rollouts=0, skill_worlds=worlds, check_bids=False, check_cards=False, seed=seed)
    data = analyse(rules, game.seats, seed, game.rng_version, game.log, config)
    return [(seed, levels[p["seat"]], p["total"], p["luck"], p["adjusted"]) for p in sorted_seats(data)]


def sorted_seats(data: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(data["players"], key=lambda p: p["seat"])


# -- Shithead --------------------------------------------------------------------------------------
def sh_play(seed: int, noises: Sequence[float]) -> Shithead:
    game = Shithead.new(sh_rules("pagat"), len(noises), seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        view = game.view(seat)
        game.apply(seat, rng.choice(view["legal"]) if rng.random() < noises[seat] else sh_choose(view, rng))
    return game


def sh_rows(job: tuple[int, list[str], list[float], int]) -> list[Row]:
    """A game's rows with the coach's luck at weight 1 (:func:`weighted` scales it): every seat's
    swap and decisions against the computer's (what the luck needs; not the deal's worth, nor the
    plays weighed against picking up, which only the page shows)."""
    seed, levels, noises, rollouts = job
    game = sh_play(seed, noises)
    config = sh.AnalysisConfig(rollouts=rollouts, luck_rollouts=0, luck_weight=1.0, check_pickups=False, seed=seed)
    data = sh.analyse(game.rules_json, game.seats, seed, game.rng_version, game.log, config)
    return [(seed, levels[p["seat"]], p["result"], p["luck"], p["adjusted"]) for p in sorted_seats(data)]


def weighted(rows: Sequence[Row], weight: float) -> list[Row]:
    """The rows with the Shithead luck at ``weight`` (it is the weight times the luck at 1)."""
    return [(g, level, raw, weight * luck, raw - weight * luck) for g, level, raw, luck, _ in rows]


# -- the measures ------------------------------------------------------------------------------------
def by_game(rows: Sequence[Row]) -> dict[int, list[Row]]:
    games: dict[int, list[Row]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    return games


def deviations(rows: Sequence[Row], luck: dict[int, list[float]] | None = None) -> list[tuple[str, float, float]]:
    """(level, raw, adjusted) of each (game, seat), each less its game's mean; ``luck`` replaces
    each game's luck (the placebo)."""
    out = []
    for game, seats in by_game(rows).items():
        raw_mean = statistics.fmean(r[2] for r in seats)
        lucks = luck[game] if luck is not None else [r[3] for r in seats]
        adjusted = [r[2] - lk for r, lk in zip(seats, lucks, strict=True)]
        adj_mean = statistics.fmean(adjusted)
        out += [(r[1], r[2] - raw_mean, a - adj_mean) for r, a in zip(seats, adjusted, strict=True)]
    return out


def ratio(rows: Sequence[Row], luck: dict[int, list[float]] | None = None) -> float:
    devs = deviations(rows, luck)
    return statistics.pvariance([d[2] for d in devs]) / statistics.pvariance([d[1] for d in devs])


def placebo(rows: Sequence[Row]) -> dict[int, list[float]]:
    """Each game's luck taken from the next game (the last from the first)."""
    games = by_game(rows)
    order = list(games)
    return {g: [r[3] for r in games[order[(i + 1) % len(order)]]] for i, g in enumerate(order)}


def gap_over_sd(rows: Sequence[Row], column: int) -> float:
    """(mean of the stronger − mean of the weaker) / the pooled spread within a level."""
    devs = deviations(rows)
    strong = [d[column] for d in devs if d[0] == "strong"]
    weak = [d[column] for d in devs if d[0] == "weak"]
    squares = sum((x - statistics.fmean(strong)) ** 2 for x in strong)
    squares += sum((x - statistics.fmean(weak)) ** 2 for x in weak)
    within = squares / (len(strong) + len(weak) - 2)
    return (statistics.fmean(strong) - statistics.fmean(weak)) / within**0.5


def ahead(rows: Sequence[Row], column: int) -> int:
    """Games where the stronger seats' mean beats the weaker seats' (raw: column 2, adjusted: 4)."""
    won = 0
    for seats in by_game(rows).values():
        strong = statistics.fmean(r[column] for r in seats if r[1] == "strong")
        weak = statistics.fmean(r[column] for r in seats if r[1] == "weak")
        won += strong > weak
    return won


def sets(first: int, games: int, args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """The equal-other and the unequal games' (seed, levels, noises)."""
    equal = [(first + g, ["equal"] * 4, [args.noise] * 4) for g in range(games)]
    unequal = []
    for g in range(games):
        levels = ["strong", "weak"] * 2 if g % 2 == 0 else ["weak", "strong"] * 2
        noises = [args.strong_noise if lv == "strong" else args.weak_noise for lv in levels]
        unequal.append((first + 50_000 + g, levels, noises))
    return equal, unequal


def measure(name: str, equal: list[Row], unequal: list[Row]) -> dict[str, float]:
    figures = {
        "ratio": ratio(equal),
        "placebo": ratio(equal, placebo(equal)),
        "g_raw": gap_over_sd(unequal, 1),
        "g_adj": gap_over_sd(unequal, 2),
        "ahead_raw": ahead(unequal, 2),
        "ahead_adj": ahead(unequal, 4),
        "games": len(by_game(unequal)),
    }
    checks = {
        "equal-other below raw": figures["ratio"] < 1,
        "gap/sd x1.5": figures["g_adj"] >= 1.5 * figures["g_raw"],
        "ahead more often": figures["ahead_adj"] > figures["ahead_raw"],
        "placebo worse": figures["placebo"] > 1,
    }
    print(
        f"  {name}: equal-other ratio={figures['ratio']:.3f} placebo ratio={figures['placebo']:.3f}"
        f" gap/sd raw={figures['g_raw']:.3f} adjusted={figures['g_adj']:.3f}"
        f" (x{figures['g_adj'] / figures['g_raw']:.2f}) stronger ahead raw={figures['ahead_raw']}"
        f" adjusted={figures['ahead_adj']} of {figures['games']} games",
        flush=True,
    )
    print(f"  {name} checks: " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in checks.items()), flush=True)
    return figures


# -- timing ------------------------------------------------------------------------------------------
def time_ohhell(jobs: int, quick: bool = False) -> float:
    # players who often choose otherwise than the quick computer (a random card or bid 30% of the
    # time), so that the coach weighs many decisions: its dearest part
    rules, game = oh_play(1, [0.3] * 4, QUICK_DEALS if quick else None)
    config = QUICK_OHHELL if quick else AnalysisConfig()
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(abs, range(jobs)))  # the workers are up before the clock starts, as in the bot
        started = time.perf_counter()
        tasks = deal_tasks(rules, game.seats, 1, game.rng_version, game.log, config)
        summarise(list(pool.map(analyse_deal, tasks)), game.seats, config)
        seconds = time.perf_counter() - started
    print(f"timing: Oh Hell, {len(tasks)} deals, 4 players, {seconds:.1f} s in {jobs} processes ({config})", flush=True)
    return seconds


def time_shithead(jobs: int, quick: bool = False) -> float:
    game = sh_play(1, [0.2] * 4)
    config = QUICK_SHITHEAD if quick else sh.AnalysisConfig()
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(abs, range(jobs)))
        started = time.perf_counter()
        todo, order, goal = sh.plan(game.rules_json, game.seats, 1, game.rng_version, game.log, config)
        data = sh.summarise(list(pool.map(sh.run_task, todo)), game.seats, order, goal, config)
        seconds = time.perf_counter() - started
    print(
        f"timing: Shithead, 4 players, {len(game.log)} actions, {data['decisions']} decisions weighed,"
        f" {seconds:.1f} s in {jobs} processes",
        flush=True,
    )
    return seconds


def processor_timing(jobs: int) -> None:
    """Both timed analyses again, each task in this one process under ``time.process_time``:
    the work of each task, which other work on a shared machine does not lengthen, and the
    busiest worker's share when ``jobs`` workers take the tasks in turn as each comes free (as
    ``pool.map`` hands them out). What the wall-clock timing would be on idle cores."""

    def busiest(seconds: list[float]) -> float:
        load = [0.0] * jobs
        for s in seconds:
            load[load.index(min(load))] += s
        return max(load)

    def each(run: Any, tasks: list[Any]) -> list[float]:
        out = []
        for task in tasks:
            started = time.process_time()
            run(task)
            out.append(time.process_time() - started)
        return out

    rules, game = oh_play(1, [0.3] * 4)
    config = AnalysisConfig()
    oh_s = each(analyse_deal, deal_tasks(rules, game.seats, 1, game.rng_version, game.log, config))
    shg = sh_play(1, [0.2] * 4)
    todo = sh.plan(shg.rules_json, shg.seats, 1, shg.rng_version, shg.log, sh.AnalysisConfig())[0]
    sh_s = each(sh.run_task, todo)
    for name, seconds in (("Oh Hell", oh_s), ("Shithead", sh_s)):
        print(
            f"processor time: {name}, {len(seconds)} tasks, {sum(seconds):.1f} s in all,"
            f" the busiest of {jobs} workers {busiest(seconds):.1f} s",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="Oh Hell games in each set")
    parser.add_argument("--shithead-games", type=int, default=400, help="Shithead games in each set")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timing-jobs", type=int, default=2, help="processes for the timed analysis (the bot's)")
    parser.add_argument("--no-ohhell-timing", action="store_true", help="skip the Oh Hell analysis's timing")
    parser.add_argument(
        "--processor-timing", action="store_true", help="only the analyses' processor time, task by task, then stop"
    )
    parser.add_argument("--deals", type=int, default=None, help="shorter Oh Hell games (default: all 19 deals)")
    parser.add_argument("--worlds", type=int, default=AnalysisConfig().skill_worlds, help="worlds a decision")
    shithead = sh.AnalysisConfig()
    parser.add_argument("--shithead-rollouts", type=int, default=shithead.rollouts, help="playouts a position")
    parser.add_argument("--luck-weight", type=float, default=shithead.luck_weight, help="the Shithead luck's")
    parser.add_argument("--luck-weights", default="", help="other Shithead luck weights to measure, 0.6,0.8,...")
    parser.add_argument("--noise", type=float, default=0.3, help="random moves of the equal players")
    parser.add_argument("--strong-noise", type=float, default=0.1)
    parser.add_argument("--weak-noise", type=float, default=0.2)
    parser.add_argument("--quick", action="store_true", help="seconds: tiny games and searches; the suite runs it")
    args = parser.parse_args()
    if args.quick:
        args.games, args.shithead_games, args.deals, args.worlds = 2, 2, QUICK_DEALS, QUICK_OHHELL.skill_worlds
        args.shithead_rollouts, args.jobs, args.timing_jobs = QUICK_SHITHEAD.rollouts, 1, 1
    if args.processor_timing:
        processor_timing(args.timing_jobs)
        return
    started = time.perf_counter()
    seconds = math.nan if args.no_ohhell_timing else time_ohhell(args.timing_jobs, args.quick)
    time_shithead(args.timing_jobs, args.quick)
    blank = {"ratio": math.nan, "placebo": math.nan, "g_raw": math.nan, "g_adj": math.nan}
    oh, shf = {**blank, "ahead_raw": 0, "ahead_adj": 0}, {**blank, "ahead_raw": 0, "ahead_adj": 0}
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.games:
            equal, unequal = sets(1000, args.games, args)
            work = [(*j, args.deals, args.worlds) for j in equal + unequal]
            rows = [r for found in pool.map(oh_rows, work) for r in found]
            print(
                f"Oh Hell: {args.games} games a set, {args.deals or 19} deals, {args.worlds} worlds a decision",
                flush=True,
            )
            oh = measure("Oh Hell", rows[: 4 * args.games], rows[4 * args.games :])
        if args.shithead_games:
            equal, unequal = sets(2000, args.shithead_games, args)
            work = [(*j, args.shithead_rollouts) for j in equal + unequal]
            at_one = [r for found in pool.map(sh_rows, work, chunksize=4) for r in found]
            n = 4 * args.shithead_games
            for other in [float(w) for w in args.luck_weights.split(",") if w]:
                rows = weighted(at_one, other)
                measure(f"Shithead at luck weight {other}", rows[:n], rows[n:])
            rows = weighted(at_one, args.luck_weight)
            print(
                f"Shithead: {args.shithead_games} games a set, {args.shithead_rollouts} playouts a position,"
                f" luck weight {args.luck_weight}",
                flush=True,
            )
            shf = measure("Shithead", rows[:n], rows[n:])
    print(f"({time.perf_counter() - started:.0f} s in all, {args.jobs} processes)")
    print(
        f"shithead equal-other ratio={shf['ratio']:.3f} gap/sd raw={shf['g_raw']:.3f} adjusted={shf['g_adj']:.3f}"
        f" placebo ratio={shf['placebo']:.3f} ahead raw={shf['ahead_raw']} adjusted={shf['ahead_adj']}"
    )
    print(
        f"analysis s/game={seconds:.1f} equal-other ratio={oh['ratio']:.3f} gap/sd raw={oh['g_raw']:.3f}"
        f" adjusted={oh['g_adj']:.3f} placebo ratio={oh['placebo']:.3f} shithead ratio={shf['ratio']:.3f}"
    )


if __name__ == "__main__":
    main()
