"""How far OpenSpiel's ISMCTS plays like our playout policy: the figure behind the strong level's
``opponent_noise``.

The hands are ``bench/ai.py``'s (our strong level in one seat, three ISMCTS bots of 1,000
simulations, seats rotated). At every ISMCTS card play with a real choice (two legal cards or
more that are not equivalent, see below), the quick level (our playout policy, from that seat's
own hand and the public table) names the card it would play. Printed:

- how often ISMCTS played that very card, and how often a card equivalent to it (same suit,
  nothing live between the two: they win and lose the same tricks);
- the share of uniform play in the mixture "the policy's run of cards, or a uniformly random run"
  that explains ISMCTS's moves best (maximum likelihood), overall and by stage of the deal.

Run: ``python bench/ai_opponents.py --hands 120 --jobs 2`` (about two and a half minutes on two
free cores). The stages come first; the last line is ``hands=H plays=N same card=S equivalent
card=E uniform over runs=U best uniform share=B``. ``--quick`` (the suite runs it): one hand against
ISMCTS of 20 simulations, our level searching as in the SimCord tests (figures without meaning;
without OpenSpiel its last line says it skipped).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import map_jobs, play_hand  # noqa: E402
from bench.quick import require_openspiel, small_ohhell_search  # noqa: E402
from games.ohhell.ai import decide  # noqa: E402
from games.ohhell.ai.infostate import BID  # noqa: E402
from games.ohhell.ai.sampling import Knowledge  # noqa: E402


def compare(state, action: int) -> dict | None:
    """The policy's card against ISMCTS's ``action`` at one ISMCTS play with a choice."""
    from bench.openspiel_ohhell import info_state, os_card

    info = info_state(state)
    if info.phase == BID or len(info.legal_plays) < 2:
        return None
    policy = decide(info, "quick", random.Random(0)).card
    k = Knowledge.build(info)
    t = k.table
    mine = k.known[info.seat]
    in_trick = 0
    for play in info.current:
        in_trick |= 1 << t.index[play.card]
    live = (k.template.live & ~mine) | in_trick

    def run_of(card) -> int:
        """The lowest bit of the run of touching cards holding ``card``."""
        b = lo = t.index[card]
        while lo > 0 and t.esuit[lo - 1] == t.esuit[b] and ((mine >> (lo - 1)) & 1 or not (live >> (lo - 1)) & 1):
            lo -= 1
        return lo

    runs = {run_of(c) for c, _ in info.legal_plays}
    if len(runs) < 2:
        return None  # every legal card is as good as any other: nothing to compare
    played = os_card(action)
    return {
        "trick": len(info.tricks),
        "same_card": played == policy,
        "same_run": run_of(played) == run_of(policy),
        "runs": len(runs),
    }


def _hand(args: tuple) -> list[dict]:
    h, seed, sims = args
    return play_hand(h, sims, 2.0, seed, watch=compare)["watched"]


def uniform_share(rows: list[dict]) -> float:
    """The share of uniform play that makes ISMCTS's moves likeliest (to 1%)."""

    def loglik(eps: float) -> float:
        return sum(math.log((1 - eps) * r["same_run"] + eps / r["runs"]) for r in rows)

    return max((e / 100 for e in range(1, 100)), key=loglik)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="seconds: one hand, small searches; the suite runs it")
    args = ap.parse_args()
    sims = 1000
    if args.quick:
        require_openspiel()
        args.hands, args.jobs, sims = 1, 1, 20
        small_ohhell_search()
    tasks = [(h, args.seed, sims) for h in range(args.hands)]
    rows = [r for rs in map_jobs(_hand, tasks, args.jobs) for r in rs]
    n = len(rows)
    for first in range(0, 10, 3):
        part = [r for r in rows if first <= r["trick"] < first + 3]
        if part:
            share = uniform_share(part)
            print(f"  tricks {first + 1}-{min(first + 3, 10)}: {len(part)} plays, best uniform share {share:.2f}")
    # how often ISMCTS played the policy's card, or one equivalent to it, against uniform over the runs
    same_card = sum(r["same_card"] for r in rows) / n
    same_run = sum(r["same_run"] for r in rows) / n
    uniform = sum(1 / r["runs"] for r in rows) / n
    print(
        f"hands={args.hands} plays={n} same card={same_card:.3f} equivalent card={same_run:.3f}"
        f" uniform over runs={uniform:.3f} best uniform share={uniform_share(rows):.2f}"
    )


if __name__ == "__main__":
    main()
