"""How often the strong Oh Hell level makes its bids, against how often its own playouts said it
would.

A bid is chosen by playing each candidate out in sampled worlds with the playout policy for every
seat, the bidder's own later cards included; the real deal is then played by the search, which
plays better than the policy. This bench plays duplicate deals against OpenSpiel's ISMCTS-1000 as
``bench/ai.py --duplicate`` does (the bot's setting, our seats 0 and 2 then 1 and 3), records each
searched bid's playout make rate (``games.ohhell.ai.players.TRACE``) and whether the bid was made,
and prints both by bid. Its last line is ``bids=N predicted=P made=M zero predicted=Z0 made=M0``.

Run: ``python bench/bid_calibration.py --hands 200 --jobs 2`` (about six minutes on two cores).
``--quick`` (the suite runs it): one deal against ISMCTS of 20 simulations, our level searching as
in the SimCord tests (figures without meaning; without OpenSpiel its last line says it skipped).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import ARMS, map_jobs, play_hand  # noqa: E402
from bench.quick import SMALL_OHHELL_SEARCH, require_openspiel  # noqa: E402
from games.ohhell.ai import players  # noqa: E402
from games.ohhell.ai.infostate import BID  # noqa: E402


def traced_play(args: tuple[int, int, int] | tuple[int, int, int, bool]) -> list[tuple[int, float, bool]]:
    """One play of a duplicate deal: (bid, its playout make rate, made) for each searched bid of
    our seats."""
    deal, swap, seed = args[:3]
    quick = len(args) > 3 and bool(args[3])  # --quick: small searches
    config = dataclasses.replace(ARMS["inference"], **SMALL_OHHELL_SEARCH) if quick else ARMS["inference"]
    infos: list = []
    players.TRACE = []
    try:
        res = play_hand(
            deal, 20 if quick else 1000, 2.0, seed, ours=(0, 2) if swap == 0 else (1, 3), config=config, capture=infos
        )
        traces = players.TRACE
    finally:
        players.TRACE = None
    # strong_bid traces every bid it searched, in order: the bid decisions with a choice
    bidders = [i.seat for i in infos if i.phase == BID and (not i.legal_bids or len(i.legal_bids) > 1)]
    out = []
    for seat, trace in zip(bidders, traces, strict=True):
        bid, ret = res["bids"][seat], res["returns"][seat]
        assert trace["cands"][trace["pick"]] == bid
        out.append((bid, trace["made"][trace["pick"]], ret == bid + 10))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="duplicate deals (each played twice)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="seconds: one deal, small searches; the suite runs it")
    args = ap.parse_args()
    if args.quick:
        require_openspiel()
        args.hands, args.jobs = 1, 1
    by_bid: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    tasks = [(d, s, args.seed, args.quick) for d in range(args.hands) for s in (0, 1)]
    for rows in map_jobs(traced_play, tasks, args.jobs):
        for bid, predicted, made in rows:
            by_bid[min(bid, 5)].append((predicted, made))
    every = [x for rows in by_bid.values() for x in rows]
    for bid in sorted(by_bid):
        rows = by_bid[bid]
        print(
            f"bid {bid}{'+' if bid == 5 else ''}: {len(rows)} bids, playouts said made"
            f" {statistics.fmean(p for p, _ in rows):.3f}, made {statistics.fmean(m for _, m in rows):.3f}"
        )
    zero = by_bid.get(0, [(float("nan"), False)])
    print(
        f"bids={len(every)} predicted={statistics.fmean(p for p, _ in every):.3f}"
        f" made={statistics.fmean(m for _, m in every):.3f} zero predicted={statistics.fmean(p for p, _ in zero):.3f}"
        f" made={statistics.fmean(m for _, m in zero):.3f}"
    )


if __name__ == "__main__":
    main()
