"""How long the card pictures take to draw, per kind of picture (the goal: ≤ 20 ms p99 each).

Three cases for each kind:
- cold: every cache emptied before each render (the first picture after a start: faces drawn too);
- new picture: card faces cached, the picture itself never drawn before (every move of a game);
- repeat: the same picture again (a message edited for another reason: the LRU answers).

    python bench/render_cards.py [--runs 300] [--save docs/]

``--save DIR`` also writes the pictures of a real game's moment (a 4-player Oh Hell trick, a hand,
a Shithead table, a score chart) into DIR: the README's screenshots.

The last line is ``render p99 ms (faces cached, new pictures)=R cpu p99 ms=C load=L``.
``--quick``: 5 runs a case (the suite runs it).
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

from cogs.shithead.pictures import table_png  # noqa: E402
from draw import faces, images  # noqa: E402
from games.common.cards import (
    card_code,  # noqa: E402
    every_face,  # noqa: E402
)

DECK = [card_code(c) for c in every_face()]
NAMES = ("ann", "bob", "Computer 1 (strong)", "dan", "eve")


def clear_all() -> None:
    for cached in (faces.card_face, faces.card_back, faces.font, images.hand_png, images.trick_png):
        cached.cache_clear()
    table_png.cache_clear()
    images.scores_chart_png.cache_clear()
    images.palette.cache_clear()


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
    return lambda: table_png(pile, 17, pile[-1], seats)


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


def save_samples(folder: str) -> None:
    """Pictures of real moments: engines played by their own computer players, drawn by the bot's
    own picture code (the same functions the table and the hand replies call)."""
    import discord

    from cogs.ohhell.pictures import hand_picture, trick_picture
    from cogs.ohhell.scoresheet import rows_from_history, scoresheet
    from cogs.shithead.pictures import table_picture
    from games.ohhell.ai import ai_view, choose_action
    from games.ohhell.game import OhHell
    from games.ohhell.rules import make_rules
    from games.shithead.ai import choose_action as sh_choose
    from games.shithead.game import Shithead
    from games.shithead.rules import make_rules as sh_rules

    names = ("Ann", "Bob", "Cat", "Computer 1")
    rng = random.Random(7)
    game = OhHell.new(make_rules("classic"), 4, 11)
    pictures: dict[str, bytes] = {}
    while not game.is_over:
        view = game.view(None)
        first = "ohhell-table.png" not in pictures
        if first and view["phase"] == "playing" and view["hand_size"] >= 7 and len(view["trick"]) == 2:
            embed = discord.Embed()
            pictures["ohhell-table.png"] = trick_picture(view, names.__getitem__, embed)[0].data
            pictures["ohhell-hand.png"] = hand_picture(game.view(game.to_act()[0]), embed)[0].data
        seat = game.to_act()[0]
        game, _ = game.apply(seat, choose_action(ai_view(game, seat), "quick", rng))
    history = game.view(None)["history"]
    sheet_names = ("Ann", "Bob", "Computer 1 (strong)", "Computer 2 (strong)")  # as /ohhell scores names them
    pictures["ohhell-scores.png"] = scoresheet("", sheet_names, rows_from_history(history, 4)).files[0].data
    shithead = Shithead.new(sh_rules("pagat"), 4, 5)
    for _ in range(40):
        seat = shithead.to_act()[0]
        shithead, _ = shithead.apply(seat, sh_choose(shithead.view(seat), random.Random(len(shithead.log))))
    pictures["shithead-table.png"] = table_picture(shithead.view(None), names.__getitem__, discord.Embed())[0].data
    os.makedirs(folder, exist_ok=True)
    for filename, data in pictures.items():
        with open(os.path.join(folder, filename), "wb") as out:
            out.write(data)
    print(f"saved {', '.join(sorted(pictures))} in {folder}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--save", help="write sample pictures of real games into this folder")
    parser.add_argument("--quick", action="store_true", help="seconds: the same run, smaller (the suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.runs = 5
    if args.save:
        save_samples(args.save)
    rng = random.Random(1)
    worst = worst_cpu = 0.0
    # wall time is what a player waits; CPU time leaves out the moments another process had the
    # core (this machine is shared), so both are printed
    print(f"{'picture':<16}{'case':<14}{'p50 ms':>8}{'p99 ms':>8}{'cpu p99':>8}{'kB':>6}")
    for name, make in (("trick", trick), ("hand of 13", hand), ("shithead table", shithead), ("score chart", chart)):
        for case in ("cold", "new picture", "repeat"):
            samples, cpu, size = [], [], 0
            clear_all()
            again = make(rng)
            again()
            for _ in range(args.runs if case != "cold" else max(args.runs // 5, min(args.runs, 20))):
                if case == "cold":
                    clear_all()
                render = again if case == "repeat" else make(rng)
                start, start_cpu = time.perf_counter(), time.process_time()
                size = len(render())
                samples.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
            p50, p99 = percentiles(samples)
            cpu99 = percentiles(cpu)[1]
            if case != "cold":
                worst, worst_cpu = max(worst, p99), max(worst_cpu, cpu99)
            print(f"{name:<16}{case:<14}{p50:8.2f}{p99:8.2f}{cpu99:8.2f}{size / 1024:6.1f}")
    load = os.getloadavg()[0]
    print(f"render p99 ms (faces cached, new pictures)={worst:.2f} cpu p99 ms={worst_cpu:.2f} load={load:.1f}")


if __name__ == "__main__":
    main()
