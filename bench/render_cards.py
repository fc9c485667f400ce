"""How long the card pictures take to draw, per kind of picture (the goal: ≤ 20 ms p99 each).

Three cases for each kind:
- cold: every cache emptied before each render (the first picture after a start: faces drawn too);
- new picture: card faces cached, the picture itself never drawn before (every move of a game);
- repeat: the same picture again (a message edited for another reason: the LRU answers).

    python bench/render_cards.py [--runs 300]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.render import faces, images  # noqa: E402
from games.common.cards import card_code  # noqa: E402
from games.ohhell.decks import pack63  # noqa: E402

DECK = [card_code(c) for c in pack63()]
NAMES = ("ann", "bob", "Computer 1 (strong)", "dan", "eve")


def clear_all() -> None:
    for cached in (faces.card_face, faces.card_back, faces.font, images.hand_png, images.trick_png):
        cached.cache_clear()
    images.shithead_png.cache_clear()
    images.scores_chart_png.cache_clear()


def hand(rng: random.Random) -> Callable[[], bytes]:
    cards = tuple(rng.sample(DECK, 13))
    return lambda: images.hand_png(cards)


def trick(rng: random.Random) -> Callable[[], bytes]:
    cards = rng.sample(DECK, 4)
    plays = tuple(zip(NAMES[:3], cards[:3], strict=True))
    return lambda: images.trick_png(plays, (NAMES[3],), cards[3])


def shithead(rng: random.Random) -> Callable[[], bytes]:
    cards = rng.sample(DECK, 18)
    seats = tuple(
        (NAMES[i], tuple(cards[6 + 3 * i : 9 + 3 * i]), 3, rng.randint(0, 12), False, i == 0) for i in range(4)
    )
    pile = tuple(cards[:6])
    return lambda: images.shithead_png(pile, 17, pile[-1], seats)


def chart(rng: random.Random) -> Callable[[], bytes]:
    totals, running = [], [0] * 4
    for _ in range(10):
        running = [t + rng.choice((0, 1, 10, 11, 12)) for t in running]
        totals.append(tuple(running))
    return lambda: images.scores_chart_png(NAMES[:4], tuple(totals))


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    worst = 0.0
    print(f"{'picture':<16}{'case':<14}{'p50 ms':>8}{'p99 ms':>8}{'kB':>6}")
    for name, make in (("trick", trick), ("hand of 13", hand), ("shithead table", shithead), ("score chart", chart)):
        for case in ("cold", "new picture", "repeat"):
            samples, size = [], 0
            clear_all()
            again = make(rng)
            again()
            for _ in range(args.runs if case != "cold" else max(args.runs // 5, 20)):
                if case == "cold":
                    clear_all()
                render = again if case == "repeat" else make(rng)
                start = time.perf_counter()
                size = len(render())
                samples.append((time.perf_counter() - start) * 1000)
            p50, p99 = percentiles(samples)
            if case != "cold":
                worst = max(worst, p99)
            print(f"{name:<16}{case:<14}{p50:8.2f}{p99:8.2f}{size / 1024:6.1f}")
    print(f"render p99 ms (faces cached, new pictures)={worst:.2f}")


if __name__ == "__main__":
    main()
