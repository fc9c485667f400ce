"""What rewriting a message for readable suits costs: :func:`draw.readable.readable`
runs on every table, panel and DM a game draws. Draws a realistic Oh Hell panel (an embed naming
cards, 13 card buttons) and a Shithead table line, with the card emojis registered (two-colour and
four-colour) and without (then it returns at once), and prints the median and p99 in microseconds.

    python bench/readable.py [--runs 2000]

The last line is ``emojis, 4-colour median µs=M p99 µs=P``. ``--quick``: 100 runs (the suite runs it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord  # noqa: E402

from bot.seam.contract import Rendered  # noqa: E402
from draw.emojis import EMOJIS, all_emojis  # noqa: E402
from draw.readable import readable  # noqa: E402

HAND = ["AS", "KS", "9S", "4S", "QH", "10H", "3H", "JD", "8D", "2D", "AC", "9C", "5C"]


def panel() -> Rendered:
    embed = discord.Embed(title="Your hand · Oh Hell #4", description="**Your turn:** press the card to play.")
    embed.description += "\nTrumps: ♠ (turned up 7♠)\nTrick so far: ann 9♣ · bob K♣ · cat 2♠"
    embed.add_field(name="Cards", value="♠ A K 9 4\n♥ Q 10 3\n♦ J 8 2\n♣ A 9 5")
    embed.add_field(name="Tricks this deal", value="1. ann led: ann A♠ · bob 3♠ · cat 5♠ → **ann**")
    view = discord.ui.View(timeout=None)
    for code in HAND:
        label = code[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[-1]]
        view.add_item(discord.ui.Button(label=label, emoji=EMOJIS.partial(code), custom_id=f"p:{code}"))
    return Rendered(content="🃏 **ann**, your turn to play", embeds=[embed], view=view)


def timed(runs: int, four: bool) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        rendered = panel()
        start = time.perf_counter()
        readable(rendered, four)
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="seconds: the same run, smaller (the suite runs it)")
    args = parser.parse_args()
    runs = 100 if args.quick else args.runs
    EMOJIS.clear()
    print("no emojis        median µs={:.1f} p99 µs={:.1f}".format(*timed(runs, False)))
    EMOJIS.set({name: 10**18 + i for i, name in enumerate(all_emojis())})
    print("emojis           median µs={:.1f} p99 µs={:.1f}".format(*timed(runs, False)))
    print("emojis, 4-colour median µs={:.1f} p99 µs={:.1f}".format(*timed(runs, True)))


if __name__ == "__main__":
    main()
