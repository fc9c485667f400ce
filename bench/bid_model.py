"""How the opponents bid: the strong level's model of a bid, fitted to ISMCTS-1000's bids.

The strong level weighs each sampled world by how well it explains the bids made, and predicts
the bids of the seats yet to bid from their sampled hands (:meth:`Knowledge.expected_bid`): a
normal spread of ``bid_sigma`` around the fair share of the tricks plus ``bid_stretch`` times the
hand's estimate's distance from it, plus ``bid_trump_lean`` a trump held over the fair share of
the trumps and ``bid_table_lean`` a trick bid before the bidder over those bidders' fair share.

This reads the duplicate logs of ``bench/ai.py`` (every deal is rebuilt from the seed: the logs
hold the bids, the seed the cards), takes ISMCTS's bids, and fits the four numbers by likelihood
on the even deals, reporting the nats a bid on the odd ones (held out) against the model of
``StrongConfig()``. Run: ``python bench/bid_model.py bench/logs/duplicate-seed7.jsonl`` (the raw logs
are kept in git history: ``bench/logs/duplicate-seed7.md`` says the ``git show`` that restores it).
Last line: ``bids=N held-out nats/bid default=D fitted=F stretch=S trump_lean=T table_lean=L sigma=G``.

``--random-play N`` also fits the same model around another reading of a hand: the tricks it takes
on average when every seat plays uniformly random legal cards, the other hands dealt at random from
the cards the bidder cannot see (:func:`random_play_tricks`, ``N`` playouts a hand): what a search
whose rollouts play at random, as ISMCTS's random-rollout evaluator does, expects of the hand.
``--fitted-reading`` reads it from the strong level's fitted model of it instead
(:mod:`games.ohhell.ai.random_play`, fast; what ``StrongConfig.bid_random_play`` weighs worlds
by). ``--jobs J`` works the deals out in ``J`` processes.

``--quick`` (the suite runs it; no log needed): first plays four duplicate deals of
``bench/ai.py --duplicate`` (ISMCTS of 20 simulations, our level searching as in the SimCord
tests) into a temporary log, then reads and fits it as above (figures without meaning; without
OpenSpiel its last line says it skipped).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ohhell.ai import InfoState, StrongConfig  # noqa: E402
from games.ohhell.ai.random_play import reading_for  # noqa: E402
from games.ohhell.ai.sampling import Knowledge, bid_likelihood  # noqa: E402
from games.ohhell.play_rules import hook_forbidden_bid, legal_bids  # noqa: E402


@dataclass(frozen=True, slots=True)
class BidRow:
    """One bid and what the model reads of it (every figure as the bidder saw it)."""

    deal: int
    bid: int
    est: float  # the estimator's tricks for the bidder's hand
    trumps_over: float  # trumps held over the fair share
    before_over: float  # tricks bid before it over those bidders' fair share
    share: float  # hand size / players
    sigma_scale: float  # the model's spread grows with the hand: 0.5 + 0.05 * hand size
    allowed: tuple[int, ...]
    random_tricks: float = math.nan  # random_play_tricks of the bidder's hand (nan: not worked out)


def nats_per_bid(
    rows: Sequence[BidRow], stretch: float, trump_lean: float, table_lean: float, sigma: float, offset: float = 0.0
) -> float:
    """The model's mean negative log-likelihood of the bids, each scored by the search's own
    :func:`bid_likelihood` (``offset``: tricks added to every expected bid; the search's model has
    none)."""
    total = 0.0
    for r in rows:
        mean = r.share + stretch * (r.est - r.share) + trump_lean * r.trumps_over + table_lean * r.before_over + offset
        total -= math.log(bid_likelihood(r.bid, mean, list(r.allowed), max(1e-3, abs(sigma) * r.sigma_scale)))
    return total / len(rows)


def nelder_mead(
    f: Callable[[list[float]], float], start: list[float], step: float = 0.1, iters: int = 400
) -> list[float]:
    """A plain Nelder-Mead minimiser (four parameters; no numerical library needed)."""
    n = len(start)
    simplex = [start[:]] + [[x + (step if i == j else 0.0) for j, x in enumerate(start)] for i in range(n)]
    values = [f(p) for p in simplex]
    for _ in range(iters):
        order = sorted(range(n + 1), key=values.__getitem__)
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        if values[-1] - values[0] < 1e-9:
            break
        centre = [sum(p[j] for p in simplex[:-1]) / n for j in range(n)]
        worst = simplex[-1]
        reflect = [c + (c - w) for c, w in zip(centre, worst, strict=True)]
        fr = f(reflect)
        if fr < values[0]:
            expand = [c + 2 * (c - w) for c, w in zip(centre, worst, strict=True)]
            fe = f(expand)
            simplex[-1], values[-1] = (expand, fe) if fe < fr else (reflect, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflect, fr
        else:
            contract = [c + 0.5 * (w - c) for c, w in zip(centre, worst, strict=True)]
            fc = f(contract)
            if fc < values[-1]:
                simplex[-1], values[-1] = contract, fc
            else:
                best = simplex[0]
                simplex = [best] + [[b + 0.5 * (x - b) for b, x in zip(best, p, strict=True)] for p in simplex[1:]]
                values = [values[0]] + [f(p) for p in simplex[1:]]
    return simplex[min(range(n + 1), key=values.__getitem__)]


def fit(rows: Sequence[BidRow], start: StrongConfig | None = None) -> tuple[float, float, float, float]:
    """(stretch, trump_lean, table_lean, sigma) of the least nats a bid over ``rows``."""
    c = start or StrongConfig()
    x = nelder_mead(lambda p: nats_per_bid(rows, *p), [c.bid_stretch, c.bid_trump_lean, c.bid_table_lean, c.bid_sigma])
    return x[0], x[1], x[2], abs(x[3])


def random_play_tricks(info: InfoState, playouts: int, rng: random.Random) -> float:
    """The tricks the deciding seat's hand takes on average when every seat plays uniformly random
    legal cards from the first lead on, the other hands dealt at random from the cards it cannot
    see, over ``playouts`` deals."""
    k = Knowledge.build(info)
    me = info.seat
    won = 0
    for _ in range(playouts):
        hands = k.sample_hands(rng)  # the other hands dealt at random, as the search deals them
        sim = k.sim_for(hands, [0] * info.players)
        sim.to_play = info.first_leader()
        sim.rollout(1.0, -1, [rng.random() for _ in range(2 * info.players * info.hand_size)])
        won += sim.won[me]
    return won / playouts


def _deal_features(task: tuple[int, int, int]) -> tuple[int, int, list[tuple[float, float, float]]]:
    """(deal, dealer, each seat's (estimate, trumps over the fair share, random-play tricks)) of
    deal ``d`` of ``seed`` rebuilt as bench/ai.py deals it; random-play tricks with ``playouts``
    playouts a hand (nan for none)."""
    from bench.ai import _os_game
    from bench.openspiel_ohhell import info_state

    seed, d, playouts = task
    game = _os_game()
    deal_rng = random.Random(seed * 1_000_003 + d)  # as bench/ai.py deals it
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(deal_rng.choice(state.chance_outcomes())[0])
    feats = []
    for p in range(game.num_players()):
        info = info_state(state, seat=p)
        k = Knowledge.build(info)
        k.trump_lean = k.table_lean = 1.0  # only to read the context
        trumps_over, _ = k.bid_context(p, k.known[p], [None] * game.num_players())
        if playouts < 0:  # the fitted model of the reading
            reading = reading_for(k.table, k.table.mask(info.dead), info.players, info.hand_size)
            rp = reading.tricks(k.known[p]) if reading is not None else math.nan
        else:
            rp = random_play_tricks(info, playouts, random.Random(d * 4 + p)) if playouts else math.nan
        feats.append((k.estimator.tricks(k.known[p]), trumps_over, rp))
    return d, state.history()[1], feats


def ismcts_bids(logs: Sequence[str], seed: int, random_play: int = 0, jobs: int = 1) -> list[BidRow]:
    """ISMCTS's bids in ``bench/ai.py --duplicate`` logs of ``seed``, each play once, with the
    bidder's hand rebuilt from the seed (OpenSpiel needed); ``random_play``: playouts a hand for
    :func:`random_play_tricks` (0: not worked out; -1: the fitted model of it)."""
    from bench.ai import _os_game, map_jobs

    game = _os_game()
    players, hand_size = game.num_players(), game.get_parameters()["num_tricks_fixed"]
    share = hand_size / players
    plays: list[dict] = []
    seen: set[tuple[int, int, str]] = set()
    for name in logs:
        for line in Path(name).read_text().splitlines():
            if not line:
                continue
            r = json.loads(line)
            key = (r["deal"], r["swap"], r["arm"])
            if key not in seen:
                seen.add(key)
                plays.append(r)
    deals = sorted({r["deal"] for r in plays})
    tasks = [(seed, d, random_play) for d in deals]
    dealt = {d: (dealer, feats) for d, dealer, feats in map_jobs(_deal_features, tasks, jobs)}
    rows: list[BidRow] = []
    for r in plays:
        d = r["deal"]
        dealer, feats = dealt[d]
        ours = (0, 2) if r["swap"] == 0 else (1, 3)
        bids = r["bids"]
        for p in range(players):
            if p in ours:
                continue
            pos = (p - dealer - 1) % players
            before = [bids[(dealer + 1 + i) % players] for i in range(pos)]
            hook = hook_forbidden_bid(hand_size, sum(before)) if pos == players - 1 else None  # the dealer
            allowed = tuple(legal_bids(hand_size, hook))
            est, trumps_over, rp = feats[p]
            scale = 0.5 + 0.05 * hand_size
            rows.append(BidRow(d, bids[p], est, trumps_over, sum(before) - share * pos, share, scale, allowed, rp))
    return rows


def quick_log(seed: int, deals: int = 4) -> str:
    """A duplicate log of ``deals`` small deals (see ``--quick``), in a temporary folder."""
    import tempfile

    from bench import ai
    from bench.quick import SMALL_OHHELL_SEARCH, require_openspiel

    require_openspiel()
    ai.ARMS["inference"] = dataclasses.replace(ai.ARMS["inference"], **SMALL_OHHELL_SEARCH)
    log = str(Path(tempfile.mkdtemp()) / "duplicate.jsonl")
    ai.duplicate_match(deals, 20, 2.0, seed, 1, log, ("inference",), 0, "2v2")
    return log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", help="bench/ai.py --duplicate logs")
    ap.add_argument("--seed", type=int, default=7, help="the seed the logs were played with")
    ap.add_argument("--random-play", type=int, default=0, help="playouts a hand for the random-play reading")
    ap.add_argument(
        "--fitted-reading", action="store_true", help="the random-play reading from its fitted model, not playouts"
    )
    ap.add_argument("--jobs", type=int, default=1, help="processes working out the deals")
    ap.add_argument("--quick", action="store_true", help="seconds: a log of a few small deals, made here")
    args = ap.parse_args()
    if args.quick:
        args.logs = [quick_log(args.seed)]
    elif not args.logs:
        ap.error("name the bench/ai.py --duplicate logs to read (or --quick)")
    if args.fitted_reading:
        args.random_play = -1
    rows = ismcts_bids(args.logs, args.seed, args.random_play, args.jobs)
    train = [r for r in rows if r.deal % 2 == 0]
    test = [r for r in rows if r.deal % 2 == 1]
    c = StrongConfig()
    default = (c.bid_stretch, c.bid_trump_lean, c.bid_table_lean, c.bid_sigma)
    plain_fit = nelder_mead(lambda p: nats_per_bid(train, p[0], 0.0, 0.0, p[1]), [c.bid_stretch, c.bid_sigma])
    plain = (plain_fit[0], 0.0, 0.0, abs(plain_fit[1]))
    full = fit(train)
    print(f"ISMCTS's bids: {len(rows)} ({len(train)} of even deals to fit, {len(test)} of odd ones held out)")
    for name, p in (("StrongConfig()", default), ("stretch and sigma refitted", plain), ("with the leans", full)):
        print(
            f"  {name}: stretch={p[0]:.3f} trump_lean={p[1]:.3f} table_lean={p[2]:.3f} sigma={p[3]:.3f}:"
            f" nats/bid fitted on {nats_per_bid(train, *p):.4f} held out {nats_per_bid(test, *p):.4f}",
            flush=True,
        )
    if args.random_play:
        # the same model read around the random-play tricks instead of the estimator's
        rp_train = [dataclasses.replace(r, est=r.random_tricks) for r in train]
        rp_test = [dataclasses.replace(r, est=r.random_tricks) for r in test]
        for offset in (False, True):
            start = [1.0, 0.0, 0.0, 0.7] + ([0.0] if offset else [])
            x = nelder_mead(lambda p: nats_per_bid(rp_train, *p), start)
            x[3] = abs(x[3])
            print(
                "  around the random-play tricks"
                + (" (the fitted model)" if args.random_play < 0 else f" ({args.random_play} playouts a hand)")
                + f": stretch={x[0]:.3f}"
                f" trump_lean={x[1]:.3f} table_lean={x[2]:.3f} sigma={x[3]:.3f}"
                + (f" offset={x[4]:+.3f}" if offset else "")
                + f": nats/bid fitted on {nats_per_bid(rp_train, *x):.4f} held out {nats_per_bid(rp_test, *x):.4f}",
                flush=True,
            )
    print(
        f"bids={len(rows)} held-out nats/bid default={nats_per_bid(test, *default):.4f}"
        f" fitted={nats_per_bid(test, *full):.4f} stretch={full[0]:.3f} trump_lean={full[1]:.3f}"
        f" table_lean={full[2]:.3f} sigma={full[3]:.3f}"
    )


if __name__ == "__main__":
    main()
