"""REST calls per card played that count against the channel, over whole Oh Hell games.

Discord allows about 5 messages per 5 s in a channel, so every call a card costs is time the
table waits. This plays whole games through the real bot in SimCord, as people would (each move
one press on the player's live panel, opened with **My hand**), and counts every REST request
from ``/ohhell new`` to the final standings except the interactions' own callbacks
(``/interactions/…/callback``) and the edits of panels through their interactions
(``/webhooks/…``), which are not rate-limited per channel; those are listed apart. The last line is
``rest calls per card=R``, the all-human game (4-player classic by default).

    python bench/rest_calls.py [--players 4] [--preset classic] [--computers 3]

``--quick`` (the suite runs it): the same, games of one deal of one card.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcord  # noqa: E402

from bench.simdriver import OhHellDriver, make_bot, open_table  # noqa: E402
from bot.messages.presentation import COALESCE  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")


async def measure(
    preset: str, players: int, computers: int, seed: int, options: dict[str, str] | None = None
) -> tuple[float, int, int, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        bot = make_bot(os.path.join(tmp, "bench.sqlite3"), coalesce=COALESCE, virtual=False)  # as the bot runs
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                guild = env.create_guild()
                channel = guild.create_text_channel("cards")
                people = [guild.add_member(env.create_user(n)) for n in NAMES[: players - computers]]
                start = len(env.http_requests)
                await open_table(
                    env, channel, people[0], people[1:], preset=preset, options=options, computers=computers
                )
                driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=seed)
                await driver.play_to_end()
                await env.settle()
                game = await bot.store.last_game(channel.id, "ohhell")
                cards = sum(1 for _, action in game.actions if action["type"] == "play")
                requests = env.http_requests[start:]
                kinds = collections.Counter(f"{r.method} {_shape(r.path)}" for r in requests)
                calls = [r for r in requests if not _per_interaction(r.path)]
        finally:
            await bot.close()  # else aiosqlite's thread keeps the process alive after an error
    return len(calls) / cards, len(calls), cards, dict(kinds)


def _per_interaction(path: str) -> bool:
    """An interaction's callback or its webhook (a panel's edit): not against the channel."""
    return path.startswith("/webhooks/") or ("/interactions/" in path and path.endswith("/callback"))


def _shape(path: str) -> str:
    parts = ["{id}" if p.isdigit() else p for p in path.split("/")]
    if "webhooks" in parts:
        return "/webhooks/… (a panel's edit through its interaction: not counted)"
    if "interactions" in parts:
        return "/interactions/…/callback (an answer to a click: not counted)"
    return "/".join(parts)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--computers", type=int, default=0, help="also measure a table with this many computer seats")
    parser.add_argument("--quick", action="store_true", help="seconds: games of one 1-card deal; the suite runs it")
    args = parser.parse_args()
    options = {"fixed_hands": "1"} if args.quick else None
    if args.computers:
        ratio, calls, cards, kinds = await measure(args.preset, args.players, args.computers, args.seed, options)
        people = args.players - args.computers
        print(f"{people} people + {args.computers} computers, {args.preset}: {calls} calls / {cards} cards")
        for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
            print(f"    {count:5d}  {kind}")
        print(f"rest calls per card with computer seats={ratio:.3f}")
    ratio, calls, cards, kinds = await measure(args.preset, args.players, 0, args.seed, options)
    print(f"{args.players} people, {args.preset}: {calls} calls / {cards} cards")
    for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"    {count:5d}  {kind}")
    print(f"rest calls per card={ratio:.3f}")


if __name__ == "__main__":
    asyncio.run(main())
