"""Fit the random-play reading of a hand (games/ohhell/ai/random_play.py) on random deals.

For each configuration (players, hand size) it deals ``--deals`` random deals of a 52-card pack
with a turn-up trump (a card left over is turned; the configurations that deal every card have no
turn-up and are left out), plays each out once with every seat taking a uniformly random legal
card (:meth:`Sim.rollout` at noise 1, as ISMCTS's random rollouts play), and fits the reading's
weights to each hand's tricks by least squares (one random playout a hand is a noisy but unbiased
reading of its worth; the deals make up for it). A further set of deals, held out, gives the
fit's R² against those single playouts (their own noise caps it well below 1).

It writes ``games/ohhell/ai/random_play.json`` (``--out`` elsewhere). Needs numpy (the bench
extra). Run: ``python bench/random_play_fit.py [--deals N] [--players 4] [--hand-sizes 10]``.
The last line is ``configurations=C deals each=N mean held-out R2=R``. ``--quick``: 1,000 deals,
written to a temporary file, never over the weights the computers read (the suite runs it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.common.cards import standard52, suit_of  # noqa: E402
from games.ohhell.ai.random_play import FEATURES, WEIGHTS_FILE, hand_features, table_key  # noqa: E402
from games.ohhell.ai.scoring import score_table  # noqa: E402
from games.ohhell.ai.sim import Sim  # noqa: E402
from games.ohhell.ai.table import DealTable  # noqa: E402

DECK = tuple(standard52())


def deals(players: int, hand_size: int, count: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """(each hand's feature indices, its tricks in one random playout) over ``count`` deals."""
    rng = random.Random(seed)
    tables = {s: DealTable.build(DECK, s, False) for s in range(4)}
    scores = score_table("trick+10", hand_size)
    rows: list[list[int]] = []
    won: list[int] = []
    dealt = players * hand_size
    order = list(range(52))
    for _ in range(count):
        rng.shuffle(order)
        turnup = DECK[order[dealt]]
        t = tables[suit_of(turnup)]
        dead = 1 << t.index[turnup]
        hands = [0] * players
        for i in range(dealt):
            hands[i % players] |= 1 << t.index[DECK[order[i]]]
        sim = Sim(
            t, hands[:], [0] * players, [0] * players, rng.randrange(players), [], -1, -1, -1, hand_size,
            t.all_mask & ~dead, [0] * players, [0] * players, scores, True,
        )  # fmt: skip
        sim.rollout(1.0, -1, [rng.random() for _ in range(2 * dealt)])
        for p in range(players):
            rows.append(hand_features(t, hands[p], dead))
            won.append(sim.won[p])
    return rows, won


def fit(players: int, hand_size: int, count: int) -> tuple[list[float], float]:
    """(the weights, the held-out R² against single playouts)."""
    import numpy as np

    def matrix(rows: list[list[int]]) -> np.ndarray:
        x = np.zeros((len(rows), FEATURES))
        for i, row in enumerate(rows):
            for f in row:
                x[i, f] += 1
        return x

    rows, won = deals(players, hand_size, count, seed=1)
    x, y = matrix(rows), np.array(won, dtype=float)
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    test_rows, test_won = deals(players, hand_size, max(1, count // 4), seed=2)
    xt, yt = matrix(test_rows), np.array(test_won, dtype=float)
    r2 = 1.0 - float(((yt - xt @ w) ** 2).mean() / yt.var()) if yt.var() > 0 else 1.0
    return [round(float(v), 5) for v in w], r2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100_000, help="random deals a configuration")
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument("--hand-sizes", type=int, nargs="+", default=[10])
    ap.add_argument("--out", type=Path, default=None, help=f"where the weights go (default {WEIGHTS_FILE})")
    ap.add_argument("--quick", action="store_true", help="seconds: 1,000 deals, the weights to a temporary file")
    args = ap.parse_args()
    if args.quick:
        args.deals = 1000
        if args.out is None:
            args.out = Path(tempfile.mkdtemp()) / "random_play.json"
    if args.out is None:
        args.out = WEIGHTS_FILE
    weights: dict[str, list[float]] = {}
    r2s = []
    for players in args.players:
        for hand_size in args.hand_sizes:
            if players * hand_size >= 52:
                continue  # every card dealt: no turn-up
            w, r2 = fit(players, hand_size, args.deals)
            weights[table_key(players, hand_size)] = w
            r2s.append(r2)
            print(f"{players} players, {hand_size} cards: held-out R2={r2:.3f}", flush=True)
    doc = {
        "about": "the weights of games/ohhell/ai/random_play.py by players x hand size (bench/random_play_fit.py)",
        "deals": args.deals,
        "weights": weights,
    }
    args.out.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"configurations={len(weights)} deals each={args.deals} mean held-out R2={sum(r2s) / max(1, len(r2s)):.3f}")


if __name__ == "__main__":
    main()
