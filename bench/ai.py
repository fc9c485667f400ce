"""How well the Oh Hell computer players play.

Part 1, in our engine: the strong level against three random players, then against three quick
players, over whole games that cycle through the four presets (classic, oh-shit, bowers, spades:
every scoring family), 4 players, the strong seat rotated game by game.

Part 2, in OpenSpiel's own game ``oh_hell(players=4, num_tricks_fixed=10)`` (default scoring:
1 a trick, +10 for an exact bid; the hook on the last bidder): the strong level in one seat
against three OpenSpiel ISMCTS bots (``pyspiel.ISMCTSBot``, C++), each with 1,000 simulations, a
random-rollout evaluator, unlimited world resampling (OpenSpiel's own ``ResampleFromInfostate``
for oh_hell), UCT constant 2 and the most-visited move; our seat rotates hand by hand. Each hand
uses its own seeded deal, bot seeds and our seeded generator, so the deals and our decisions
repeat; the ISMCTS bots, though seeded, did not repeat their moves exactly from one run to the
next, so two runs of one seed differ like two samples (which is why only long runs tell).

Figures: mean points a hand (or deal) for both sides and the difference, each with a 95%
interval (normal approximation over hands; the difference is taken within each hand, our seat
against the mean of the other three, which pairs away most of the luck of the deal); the share
of bids made; our decision time (``time.process_time`` around each of our decisions, including
the ones with one legal action: the processor time of the deciding process, which is the time on
one core and does not grow when other work shares the machine) median and 99th percentile. The last line is
``ai pts/hand=A ismcts pts/hand=B diff=D±E median ms=M p99 ms=P``.

Duplicate (``--duplicate``): each of ``--hands`` deals is played twice, our strong level
in seats 0 and 2 against ISMCTS in 1 and 3, then with the seats swapped (same cards, dealer,
ISMCTS seed and our generators), so each hand is held once by each side and the luck of the
cards cancels; all of it with and without inference from the opponents' plays (an ablation:
``StrongConfig.play_noise`` 0.84 against 0). A deal's difference is the mean over its two plays
of our two seats' mean less ISMCTS's; the interval is over deals. Its last line is
``diff=+X ci_low=L median ms=M p99 ms=P hands=N`` (with inference; decision times on one core
a process). ``python bench/ai.py --duplicate --hands 1000 --jobs 16``. ``--arms inference`` plays
the inference arm alone; ``--log FILE`` keeps every play, ``--first-deal N`` goes on with a run
from deal N, and ``--summarise LOG [LOG ...]`` prints the figures of logs as one run. ``--variant
NAME=field:value,...`` adds an arm with other ``StrongConfig`` settings (its lead over the inference
arm is read paired by deal, from the logs of the same seed), and ``--timing DEALS`` times the
arms' decisions on the same captured positions (:func:`decision_timing`).

Run: ``python bench/ai.py --hands 2000`` (about 2 s a hand on this machine; ``--jobs 2`` plays
hands in two processes at once, which halves that on two free cores: a hand depends on its number
and the seed only, not on the hands before it); ``--games 0`` or
``--hands 0`` skips a part; ``--log FILE`` appends one JSON line a hand. ``--quick`` (the suite
runs it): one engine game of two deals against each level and one OpenSpiel hand against ISMCTS
of 20 simulations, our strong level searching as in the SimCord tests (figures without meaning;
without OpenSpiel its last line says it skipped).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.duplicate_logs import (  # noqa: E402
    ISMCTS_ARM,
    SEATINGS,
    duplicate_summary,
    mean_ci,
    pct,
)
from bench.quick import require_openspiel, small_ohhell_search  # noqa: E402
from games.ohhell.ai import StrongConfig, ai_view, choose_action, decide  # noqa: E402
from games.ohhell.ai.infostate import BID, PLAY  # noqa: E402
from games.ohhell.game import OhHell  # noqa: E402
from games.ohhell.rules import make_rules  # noqa: E402

PRESETS = ("classic", "oh-shit", "bowers", "spades")


# -- part 1: our engine ------------------------------------------------------------------------
def engine_match(opponent: str, games: int, seed: int, fixed_hands: str | None = None) -> None:
    strong_pts: list[float] = []
    opp_pts: list[float] = []
    diffs: list[float] = []
    strong_exact: list[float] = []
    opp_exact: list[float] = []
    times: list[float] = []
    for i in range(games):
        preset = PRESETS[i % len(PRESETS)]
        rules = make_rules(preset) if fixed_hands is None else make_rules(preset, fixed_hands=fixed_hands)
        game = OhHell.new(rules, 4, seed + i)
        me = i % 4
        rngs = [random.Random((seed + i) * 10 + s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act()[0]
            view = ai_view(game, seat)
            level = "strong" if seat == me else opponent
            start = time.process_time()
            action = choose_action(view, level, rngs[seat])
            if seat == me:
                times.append(time.process_time() - start)
            game.apply(seat, action)
        for deal in game.history:
            if deal["kind"] != "normal":
                continue
            scores, bids, tricks = deal["scores"], deal["bids"], deal["tricks"]
            others = [s for s in range(4) if s != me]
            strong_pts.append(scores[me])
            opp_pts.extend(scores[s] for s in others)
            diffs.append(scores[me] - statistics.fmean(scores[s] for s in others))
            strong_exact.append(float(bids[me] == tricks[me]))
            opp_exact.extend(float(bids[s] == tricks[s]) for s in others)
    a, ea = mean_ci(strong_pts)
    b, eb = mean_ci(opp_pts)
    d, ed = mean_ci(diffs)
    ma, ema = mean_ci(strong_exact)
    mb, emb = mean_ci(opp_exact)
    print(
        f"engine strong vs 3 {opponent}: {games} games, {len(strong_pts)} deals; "
        f"pts/deal strong={a:.2f}±{ea:.2f} {opponent}={b:.2f}±{eb:.2f} diff={d:+.2f}±{ed:.2f}; "
        f"exact bids strong={ma:.3f}±{ema:.3f} {opponent}={mb:.3f}±{emb:.3f}; "
        f"median ms={1000 * statistics.median(times):.0f} p99 ms={1000 * pct(times, 0.99):.0f}",
        flush=True,
    )


# -- part 2: OpenSpiel ---------------------------------------------------------------------------
_GAME = None


def _os_game():
    global _GAME
    if _GAME is None:
        import pyspiel

        _GAME = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)")
    return _GAME


def map_jobs(fn: Callable, tasks: list, jobs: int) -> Iterator:
    """``fn`` over ``tasks``, results in order, in ``jobs`` processes (1: in this one)."""
    if jobs <= 1:
        yield from map(fn, tasks)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(fn, tasks)


def play_hand(
    h: int,
    sims: int,
    uct: float,
    seed: int,
    watch: Callable | None = None,
    ours: tuple[int, ...] | None = None,
    config: StrongConfig | None = None,
    capture: list | None = None,
    perfect: frozenset[str] = frozenset(),
    level: tuple[str, str] = ("strong", "strong"),
) -> dict:
    """One OpenSpiel hand, our seat ``h % 4`` (or the seats ``ours``, each deciding with its own
    generator, with ``config``): a function of its arguments only (its own seeded deal, bot and
    our rng), so hands may be played in any order or process. ``watch(state, action)`` sees each
    ISMCTS move before it is played; what it returns (unless None) is listed under ``"watched"``;
    ``capture`` (a list) receives each info state our seats decided on. ``perfect``: the phases
    (``"bid"``, ``"play"``) in which our seats see every hand (a reference, not a player: what
    knowing the cards would be worth to this search, and where)."""
    import pyspiel

    from bench.openspiel_ohhell import NUM_CARDS, info_state, os_action

    deal_rng = random.Random(seed * 1_000_003 + h)
    rng = random.Random(seed * 7_919 + h)
    bot = pyspiel.ISMCTSBot(
        seed + h,
        pyspiel.RandomRolloutEvaluator(1, seed + h),
        uct,
        sims,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,
        False,
    )
    state = _os_game().new_initial_state()
    me = h % 4
    mine = set(ours) if ours is not None else {me}
    rngs = {s: random.Random(seed * 7_919 + h + 100_003 * s) if ours is not None else rng for s in mine}
    times: list[float] = []
    nontrivial: list[float] = []
    ismcts_times: list[float] = []
    watched: list = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(deal_rng.choice(state.chance_outcomes())[0])
            continue
        if state.current_player() in mine:
            info = info_state(state)
            if info.phase in perfect:
                seen = {p: info_state(state, seat=p).hand for p in range(4) if p != info.seat}
                info = dataclasses.replace(info, others_known=seen)
            if capture is not None:
                capture.append(info)
            start = time.process_time()
            d = decide(info, level[info.phase == PLAY], rngs[state.current_player()], config)
            dt = time.process_time() - start
            times.append(dt)
            if len(state.legal_actions()) > 1:
                nontrivial.append(dt)
            action = d.bid + NUM_CARDS if d.bid is not None else os_action(d.card)
        else:
            start = time.perf_counter()
            action = bot.step(state)
            ismcts_times.append(time.perf_counter() - start)
            if watch is not None and (seen := watch(state, action)) is not None:
                watched.append(seen)
        state.apply_action(action)
    hist = state.history()
    dealer = hist[1]
    bids = [hist[43 + (i - dealer - 1) % 4] - NUM_CARDS for i in range(4)]
    return {
        "hand": h,
        "seat": me,
        "returns": state.returns(),
        "bids": bids,
        "times": times,
        "nontrivial": nontrivial,
        "ismcts": ismcts_times,
        "watched": watched,
    }


def openspiel_match(hands: int, sims: int, uct: float, seed: int, log: str | None, jobs: int = 1) -> str:
    ours: list[float] = []
    theirs: list[float] = []
    diffs: list[float] = []
    made_ours: list[float] = []
    made_theirs: list[float] = []
    times: list[float] = []
    nontrivial: list[float] = []
    ismcts_times: list[float] = []
    out = open(log, "a") if log else None
    started = time.perf_counter()
    for h, res in enumerate(map_jobs(_play_hand_star, [(h, sims, uct, seed) for h in range(hands)], jobs)):
        me, r, bids = res["seat"], res["returns"], res["bids"]
        made = [float(r[i] == bids[i] + 10) for i in range(4)]
        others = [i for i in range(4) if i != me]
        ours.append(r[me])
        theirs.append(statistics.fmean(r[i] for i in others))
        diffs.append(r[me] - theirs[-1])
        made_ours.append(made[me])
        made_theirs.append(statistics.fmean(made[i] for i in others))
        times.extend(res["times"])
        nontrivial.extend(res["nontrivial"])
        ismcts_times.extend(res["ismcts"])
        if out:
            line = {k: res[k] for k in ("hand", "seat", "returns", "bids", "times")}
            out.write(json.dumps(line) + "\n")
            out.flush()
        if (h + 1) % 100 == 0 and h + 1 < hands:
            d, e = mean_ci(diffs)
            print(
                f"  {h + 1} hands: ai {statistics.fmean(ours):.2f} ismcts {statistics.fmean(theirs):.2f} "
                f"diff {d:+.2f}±{e:.2f} ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    if out:
        out.close()
    a, ea = mean_ci(ours)
    b, eb = mean_ci(theirs)
    d, ed = mean_ci(diffs)
    ma, ema = mean_ci(made_ours)
    mb, emb = mean_ci(made_theirs)
    med, p99 = 1000 * statistics.median(times), 1000 * pct(times, 0.99)
    print(
        f"openspiel oh_hell 4p 10 tricks, {hands} hands, ISMCTS {sims} sims uct={uct}: "
        f"pts/hand ai={a:.2f}±{ea:.2f} ismcts={b:.2f}±{eb:.2f}; bids made ai={ma:.3f}±{ema:.3f} "
        f"ismcts={mb:.3f}±{emb:.3f}; our decisions {len(times)} (median ms={med:.0f} p99 ms={p99:.0f}; "
        f"with more than one legal action: {len(nontrivial)}, median ms={1000 * statistics.median(nontrivial):.0f} "
        f"p99 ms={1000 * pct(nontrivial, 0.99):.0f}); ISMCTS median ms={1000 * statistics.median(ismcts_times):.0f}; "
        f"{time.perf_counter() - started:.0f} s",
        flush=True,
    )
    return f"ai pts/hand={a:.2f} ismcts pts/hand={b:.2f} diff={d:.2f}±{ed:.2f} median ms={med:.0f} p99 ms={p99:.0f}"


def _play_hand_star(args: tuple) -> dict:
    return play_hand(*args)


#: the duplicate match's arms: the strong level with inference from the plays, and without;
#: ``--variant`` adds others (a trial of a setting, paired by deal against the inference arm)
ARMS = {
    "inference": StrongConfig(),
    "no inference": StrongConfig(play_noise=0.0),
    "perfect information": StrongConfig(),
    "perfect bids": StrongConfig(),
    "perfect play": StrongConfig(),
}
#: arms whose seats see every hand, and in which phases: the ceiling of what sampling the worlds
#: better could buy, for the bid and the play apart
PERFECT_ARMS = {
    "perfect information": frozenset({BID, PLAY}),
    "perfect bids": frozenset({BID}),
    "perfect play": frozenset({PLAY}),
}
#: arms played by other computer levels than the strong one, (bidding, playing): the quick level
#: (its bid from the closed-form estimate, its cards the playout policy, no search) shows what the
#: search adds, and the strong bids with the policy's cards what the search of the cards adds
LEVEL_ARMS = {"quick": ("quick", "quick"), "quick play": ("strong", "quick")}
ARMS["quick"] = ARMS["quick play"] = StrongConfig()
#: ISMCTS in our seats too: the table without us (bench.duplicate_logs reads it)
ARMS[ISMCTS_ARM] = StrongConfig()
#: the arms a plain ``--duplicate`` plays (the ablation)
DEFAULT_ARMS = ("inference", "no inference")


def add_variant(spec: str) -> str:
    """Register an arm from ``NAME=field:value,field:value`` (StrongConfig fields, numbers)."""
    name, _, fields = spec.partition("=")
    name = name.strip()
    if not name or name in ARMS:
        raise ValueError(f"a variant needs a new name: {spec!r}")
    overrides: dict[str, float | int] = {}
    known = StrongConfig.__dataclass_fields__
    for item in filter(None, (f.strip() for f in fields.split(","))):
        key, _, value = item.partition(":")
        if key not in known:
            raise ValueError(f"StrongConfig has no field {key!r}")
        overrides[key] = type(getattr(ARMS["inference"], key))(float(value))
    ARMS[name] = StrongConfig(**overrides)  # type: ignore[arg-type]
    return name


def _duplicate_play(args: tuple) -> tuple[int, str, int, dict]:
    deal, arm, swap, sims, uct, seed, config, seating = args
    ours = SEATINGS[seating][swap]
    perfect = PERFECT_ARMS.get(arm, frozenset())
    res = play_hand(
        deal,
        sims,
        uct,
        seed,
        ours=() if arm == ISMCTS_ARM else ours,
        config=config,
        perfect=perfect,
        level=LEVEL_ARMS.get(arm, ("strong", "strong")),
    )
    res["ours"] = list(ours)
    return deal, arm, swap, res


def duplicate_match(
    hands: int,
    sims: int,
    uct: float,
    seed: int,
    jobs: int,
    log: str | None,
    arms: tuple[str, ...] = DEFAULT_ARMS,
    first: int = 0,
    seating: str = "2v2",
) -> str:
    """Each deal played twice: our strong level in seats 0 and 2 against ISMCTS in 1 and 3, then
    the seats swapped (the same cards, dealer, ISMCTS seed and our generators), so every hand is
    held once by each side and the luck of the cards cancels; and all of it twice, with and
    without inference from the plays (the ablation). A deal's difference is the mean of its two
    plays' (our two seats' mean − ISMCTS's two seats' mean). ``arms`` narrows it to some arms (a
    long run of the inference arm alone costs half as much; the gain then is not measured).
    ``first`` skips the deals before it: a run stopped part way goes on where its log ends, and
    :func:`duplicate_summary` reads the logs of both parts as one run (a deal depends only on its
    number and the seed). ``seating`` "1v3": each deal four times, our level alone in each seat in
    turn against three ISMCTS seats (:data:`SEATINGS`)."""
    tasks = [
        (d, arm, swap, sims, uct, seed, ARMS[arm], seating)
        for d in range(first, hands)
        for arm in arms
        for swap in range(len(SEATINGS[seating]))
    ]
    rows: list[dict] = []
    out = open(log, "a") if log else None
    started = time.perf_counter()
    for n, (deal, arm, swap, res) in enumerate(map_jobs(_duplicate_play, tasks, jobs), start=1):
        row = {"deal": deal, "arm": arm, "swap": swap, "returns": res["returns"], "bids": res["bids"]}
        if seating != "2v2":
            row["ours"] = res["ours"]  # (the 2v2 logs before it have none: seats 0 and 2, then 1 and 3)
        row["times"] = [round(t, 4) for t in res["times"]]  # a tenth of a millisecond
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        if n % 200 == 0 and n < len(tasks):
            print(f"  {n} of {len(tasks)} plays ({time.perf_counter() - started:.0f} s)", flush=True)
            duplicate_summary(rows, sims, brief=True)
    if out:
        out.close()
    line = duplicate_summary(rows, sims)
    print(f"{time.perf_counter() - started:.0f} s", flush=True)
    return line


def decision_timing(deals: int, arms: tuple[str, ...], rounds: int, seed: int) -> str:
    """The decisions of ``deals`` duplicate deals (our seats 0 and 2, the inference arm playing),
    each decided again by every arm in ``rounds`` rounds, the arms alternating within a round:
    a paired reading of what a setting costs, the same positions for every arm and each round's
    load shared by all. A decision's time is its least processor time over the rounds (the
    closest to an undisturbed core); each arm decides from the same seeded generator."""
    infos: list = []
    for deal in range(deals):
        play_hand(deal, 1000, 2.0, seed, ours=(0, 2), config=ARMS["inference"], capture=infos)
    best: dict[str, list[float]] = {arm: [math.inf] * len(infos) for arm in arms}
    for _ in range(rounds):
        for i, info in enumerate(infos):
            for arm in arms:
                start = time.process_time()
                decide(info, "strong", random.Random(seed * 7_919 + i), ARMS[arm])
                best[arm][i] = min(best[arm][i], time.process_time() - start)
    line = ""
    for arm in arms:
        ts = best[arm]
        line = (
            f"timing {arm}: {len(ts)} decisions of {deals} deals, best of {rounds} rounds:"
            f" total s={sum(ts):.1f} median ms={1000 * statistics.median(ts):.0f} p99 ms={1000 * pct(ts, 0.99):.0f}"
        )
        print(line, flush=True)
    return line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8, help="engine games per opponent level (0: skip part 1)")
    ap.add_argument("--hands", type=int, default=200, help="OpenSpiel hands against ISMCTS (0: skip part 2)")
    ap.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations a decision")
    ap.add_argument("--uct", type=float, default=2.0, help="ISMCTS UCT constant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes playing OpenSpiel hands at once")
    ap.add_argument("--log", default=None, help="append one JSON line per OpenSpiel hand to this file")
    ap.add_argument("--duplicate", action="store_true", help="duplicate deals, with and without inference")
    ap.add_argument(
        "--arms",
        default=",".join(DEFAULT_ARMS),
        help="the duplicate arms to play (or time): inference, no inference, perfect information"
        " (our seats see every hand: a ceiling), perfect bids, perfect play (the same while bidding, or"
        " playing, only), quick (the quick level: no search), quick play (strong bids, the policy's"
        " cards), ismcts (ISMCTS in our seats too: the table without us), or a --variant's name",
    )
    ap.add_argument(
        "--seating",
        choices=tuple(SEATINGS),
        default="2v2",
        help="duplicate: our level in two seats against two ISMCTS (each deal twice, sides swapped), or in"
        " one against three (each deal four times, our level in each seat)",
    )
    ap.add_argument("--first-deal", type=int, default=0, help="the duplicate deal to start from (go on with a run)")
    ap.add_argument("--summarise", nargs="+", metavar="LOG", help="the duplicate figures of these logs, as one run")
    ap.add_argument(
        "--timing",
        type=int,
        default=0,
        metavar="DEALS",
        help="time the --arms' decisions on the positions of DEALS duplicate deals, paired (see decision_timing)",
    )
    ap.add_argument("--rounds", type=int, default=3, help="--timing: rounds, the least time of each decision kept")
    ap.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=FIELD:VALUE,...",
        help="a further duplicate arm, the strong level with these StrongConfig fields (name it in --arms)",
    )
    ap.add_argument("--quick", action="store_true", help="seconds: the default run, tiny; the suite runs it")
    args = ap.parse_args()
    fixed_hands = None
    if args.quick:
        require_openspiel()
        args.games, args.hands, args.sims, args.jobs, fixed_hands = 1, 1, 20, 1, "2,1"
        small_ohhell_search()
    if args.summarise:
        rows = [json.loads(line) for name in args.summarise for line in Path(name).read_text().splitlines() if line]
        print(duplicate_summary(rows, args.sims), flush=True)
        return
    for spec in args.variant:
        try:
            add_variant(spec)
        except ValueError as e:
            ap.error(f"--variant: {e}")
    arms = tuple(a.strip() for a in args.arms.split(",") if a.strip())
    if (args.timing or args.duplicate) and (not arms or any(a not in ARMS for a in arms)):
        ap.error(f"--arms: choose among {', '.join(ARMS)}")
    if args.timing:
        decision_timing(args.timing, arms, args.rounds, args.seed)
        return
    if args.duplicate:
        line = duplicate_match(
            args.hands, args.sims, args.uct, args.seed, args.jobs, args.log, arms, args.first_deal, args.seating
        )
        print(line, flush=True)
        return
    if args.games:
        for opponent in ("random", "quick"):
            engine_match(opponent, args.games, args.seed, fixed_hands)
    if args.hands:
        print(openspiel_match(args.hands, args.sims, args.uct, args.seed, args.log, args.jobs), flush=True)


if __name__ == "__main__":
    main()
