"""Games bound to a drand round, scripted at the level of the binding (bot/fairness/beacon/binding.py,
the code the bot runs) against scripted relays on a stepped clock: each game names its round,
posts its commitment (50-300 ms to Discord), asks the relays in turn (each answering in 100 ms
once the round is out, 0-200 ms after its time; or down, hanging, serving another round or a bad
signature, as each game's script says) and either deals from the round, verified against the
pinned key, or is labelled "commit–reveal only (no beacon)". The rounds are the three real
quicknet rounds (each game starts just before one of them is due), so every signature checked
is real. ``check ms`` is the real CPU time of one signature check (p95, pyblst).

Two passes: N games whose relays are drawn with faults (70% good, 10% down, 8% hanging, 6% another
round, 6% a bad signature; 2% of posts slower than the lead), which gives B and L; and N games
whose four relays all answer in 100 ms, which gives W, the wait from the commitment's post to the
verified round (p95). C is the p95 CPU time of one signature check (thread time, so a loaded
machine does not inflate it; the wall time is printed above it).

Run: ``python bench/beacon.py [--quick] [--games N] [--seed S]``. Last line:
``games=N bound=B labelled=L substituted=0 wait p95 s=W check ms=C`` (B + L = N; ``substituted``
counts games dealt from a round other than the one they named).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.fairness.beacon.binding import LABEL, Binding, bind_game, deal_seed  # noqa: E402
from bot.fairness.beacon.chain import QUICKNET  # noqa: E402
from bot.fairness.beacon.relay import Transport  # noqa: E402
from bot.fairness.beacon.timing import SteppedClock  # noqa: E402
from bot.fairness.beacon.verify import verify_round  # noqa: E402

#: three real quicknet rounds (shared/drand/quicknet_fixtures.json): round -> signature
REAL_ROUNDS = {
    1000: "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39",
    657413: "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b",
    10024141: "8c87caf26bb4f5e9fdfad5ddf739ff8683344f8cf04a8c381225ff067557b5d9d51937eed765fcef21971bf5ddef44bb",
}
#: the behaviours a scripted relay may have, and how often each is drawn for a game's relays
BEHAVIOURS = {"good": 0.7, "down": 0.1, "hang": 0.08, "other": 0.06, "badsig": 0.06}
ANSWER = 0.1  # a relay's answer time (s)


@dataclass
class Trace:
    """What one game did, in virtual Unix seconds: for the test that holds every game to the rules."""

    named: int = 0
    posted: float | None = None
    asked: list[tuple[str, int, float]] = field(default_factory=list)
    binding: Binding | None = None
    done_at: float = 0.0
    started_at: float = 0.0
    #: the seed the first deal used
    dealt_seed: int | None = None


def scripted_relays(rng: random.Random, clock: SteppedClock, trace: Trace, faults: bool) -> tuple[list[str], Transport]:
    """Four relays with behaviours drawn for this game (all good without ``faults``), and the
    transport that plays them."""
    names, weights = zip(*BEHAVIOURS.items(), strict=True)
    behaviours = rng.choices(names, weights, k=4) if faults else ["good"] * 4
    relays = [f"https://relay{i}.test/{b}" for i, b in enumerate(behaviours)]
    lag = rng.uniform(0.0, 0.2)  # the round reaches the relays this long after its time

    async def get(address: str) -> tuple[int, bytes]:
        behaviour = address.split("/")[3]
        number = int(address.rsplit("/", 1)[1])
        trace.asked.append((behaviour, number, clock.now()))
        if behaviour == "hang":
            await clock.sleep(3600)
        await clock.sleep(ANSWER)
        if behaviour == "down":
            return 500, b"error"
        if clock.now() < QUICKNET.round_time(number) + lag or number not in REAL_ROUNDS:
            return 404, b'{"error": "Requested future beacon"}'
        if behaviour == "other":
            number = next(n for n in REAL_ROUNDS if n != number)
        signature = REAL_ROUNDS[number]
        if behaviour == "badsig":
            signature = signature[:-2] + format(int(signature[-2:], 16) ^ 4, "02x")
        return 200, json.dumps({"round": number, "signature": signature}).encode()

    return relays, get


async def play_game(rng: random.Random, seed: int, faults: bool = True) -> Trace:
    """One game's binding, scripted: its start just before a real round is due; its first deal's seed."""
    number = rng.choice(list(REAL_ROUNDS))
    start = QUICKNET.round_time(number) - 0.5 - rng.uniform(0.001, 2.999)
    clock = SteppedClock(start)
    trace = Trace(started_at=start)
    relays, transport = scripted_relays(rng, clock, trace, faults)
    slow = faults and rng.random() < 0.02  # a slow Discord: the post may come after the round is due
    post_latency = rng.uniform(0.5, 4.0) if slow else rng.uniform(0.05, 0.3)

    async def post(named: int) -> float | None:
        trace.named = named
        await clock.sleep(post_latency)
        trace.posted = clock.now()
        return trace.posted

    trace.binding = await clock.run(bind_game(post, transport=transport, clock=clock, relays=relays))
    trace.done_at = clock.now()
    trace.dealt_seed = deal_seed(seed, trace.binding)
    return trace


def substituted(trace: Trace) -> bool:
    """Whether the game was dealt from any round but the one it named."""
    binding = trace.binding
    if binding is None or binding.round != trace.named:
        return True
    return binding.bound and binding.signature != REAL_ROUNDS.get(trace.named)


async def run(games: int, seed: int, faults: bool = True) -> list[Trace]:
    rng = random.Random(seed)
    return [await play_game(rng, rng.getrandbits(62), faults) for _ in range(games)]


def waited(trace: Trace) -> float:
    """From the commitment's post (or the start, if it was never posted) to the first deal."""
    return trace.done_at - (trace.posted or trace.started_at)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else (values[0] if values else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 games instead of 2,000")
    parser.add_argument("--games", type=int)
    parser.add_argument("--seed", type=int, default=51)
    args = parser.parse_args()
    games = args.games or (200 if args.quick else 2000)
    traces = asyncio.run(run(games, args.seed))
    bound = [t for t in traces if t.binding is not None and t.binding.bound]
    labelled = [t for t in traces if t.binding is not None and t.binding.label == LABEL]
    print(
        f"with faults: bound wait p95 s={p95([waited(t) for t in bound]):.2f} "
        f"labelled wait p95 s={p95([waited(t) for t in labelled]):.2f}"
    )
    clean = asyncio.run(run(games, args.seed + 1, faults=False))
    clean_waits = [waited(t) for t in clean]
    assert all(t.binding is not None and t.binding.bound for t in clean)
    print(f"relays answering in 100 ms: games={len(clean)} wait median s={statistics.median(clean_waits):.2f}")
    cpu, wall = [], []
    for number, signature in list(REAL_ROUNDS.items()) * (20 if args.quick else 100):
        began, began_cpu = time.perf_counter(), time.thread_time()
        verify_round(number, signature)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.thread_time() - began_cpu) * 1000)
    print(
        f"check: cpu ms median={statistics.median(cpu):.2f} p95={p95(cpu):.2f}; "
        f"wall ms median={statistics.median(wall):.2f} p95={p95(wall):.2f}"
    )
    print(
        f"games={len(traces)} bound={len(bound)} labelled={len(labelled)} "
        f"substituted={sum(substituted(t) for t in traces)} wait p95 s={p95(clean_waits):.2f} check ms={p95(cpu):.2f}"
    )


if __name__ == "__main__":
    main()
