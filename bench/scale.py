"""How much one bot process holds: moves committed per second (SQLite, PostgreSQL), the bot-side
time of one click with 10, 200 and 1,000 live tables (also while 50 computer tables think, their
computers in a thread or in worker processes), memory per live table, and the time to restore
1,000 live games after a restart.

    python bench/scale.py [--postgres URL] [--tables 10,200,1000] [--restore 1000] [--workers N]

A click here is what the bot does for a person's move once Discord has delivered it: find the
table, let the engine check and apply the move, commit it (one transaction), and render the new
table message (``GameKind.table``); only the HTTP call to Discord is left out. Tables are 4-seat
Oh Hell games (classic). The PostgreSQL figures need a server (default: the test server,
``TEST_DATABASE_URL`` or postgresql://postgres@127.0.0.1:5432/test; a schema of its own, dropped after).
The last line is
``sqlite moves/s=A postgres moves/s=B click p99 ms (T tables)=C restore R games s=D`` (T the largest
``--tables``, R ``--restore``). ``--quick`` (the suite runs it): 10 live tables, 2 computer tables,
10 clicks a case (one with the computers in a thread), commits for 0.1 s, 10 tables' memory, 20
games restored, SQLite alone, the computers searching as in the SimCord tests.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
import uuid
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import asyncpg  # type: ignore[import-untyped,unused-ignore]  # noqa: E402
import discord  # noqa: E402

from bench.quick import small_ohhell_search  # noqa: E402
from bot.host.settings import Settings  # noqa: E402
from bot.tables.manager import TableManager  # noqa: E402
from cogs.ohhell.kind import OhHellKind  # noqa: E402
from db.postgres import PostgresStore  # noqa: E402
from db.records import SeatRecord  # noqa: E402
from db.sqlite import SqliteStore  # noqa: E402
from db.store import Store  # noqa: E402
from games.common.rng import GENERATOR_VERSION  # noqa: E402
from games.ohhell.ai import ai_view, choose_action  # noqa: E402
from games.ohhell.game import OhHell  # noqa: E402
from games.ohhell.rules import make_rules  # noqa: E402

DEFAULT_PG = os.environ.get("TEST_DATABASE_URL", "").strip() or "postgresql://postgres@127.0.0.1:5432/test"
RULES = make_rules("classic")


# -- no Discord: every REST call is answered at once, none is made -------------------------------
class NoDiscord(discord.Client):
    """A client ready from the start whose every REST call is answered at once, as Discord would,
    with nothing sent: discord.py still builds its messages from the answers, and the table's
    display renders, sends, edits and saves as in the bot (only the network is left out)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self._ids = itertools.count(1 << 50)
        self.http.request = self._answer  # type: ignore[method-assign]  # the one door of discord.py's REST calls

    async def wait_until_ready(self) -> None:
        return None

    async def _answer(self, route: discord.http.Route, **_: Any) -> Any:
        if route.method == "GET":
            return []  # a channel's history read after a restart: nothing found
        if route.method == "DELETE":
            return None
        if route.path == "/users/@me/channels":
            return {"id": str(next(self._ids)), "type": 1, "recipients": []}
        message_id = route.url.rsplit("/", 1)[1] if route.method == "PATCH" else next(self._ids)
        return {
            "id": str(message_id),
            "channel_id": str(route.channel_id or 1),
            "type": 0,
            "content": "",
            "author": {"id": "1", "username": "Card Table", "discriminator": "0", "avatar": None, "bot": True},
            "embeds": [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "components": [],
            "pinned": False,
            "tts": False,
            "mention_everyone": False,
            "flags": 0,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
        }


def manager(store: Store, workers: int) -> TableManager:
    tables = TableManager(NoDiscord(), store, Settings(token="bench", ai_delay=0.0, computer_workers=workers))
    tables.register(OhHellKind(None))
    return tables


async def new_game(store: Store, n: int, computers: bool, actions: int = 0) -> int:
    game = await store.create_game("ohhell", 1, 10_000 + n, 1, "classic", {})
    seed = 1000 + n
    seats = [SeatRecord(s, None if computers else 100 + s, f"P{s}", "strong" if computers else None) for s in range(4)]
    await store.start_game(game, RULES.to_json(), seed, seats, GENERATOR_VERSION)
    engine = OhHell.new(RULES, 4, seed, rng_version=GENERATOR_VERSION)
    rng = random.Random(n)
    for seq in range(actions):
        seat = engine.to_act()[0]
        action = dict(choose_action(ai_view(engine, seat), "quick", rng))
        engine, _ = engine.apply(seat, action)
        await store.record_action(game, seq, seat, action)
    await store.set_message(game, 1, json.dumps(OhHellKind(None).message_key(engine)))
    return game


# -- moves committed per second ----------------------------------------------------------------
async def store_rate(store: Store, tables: int = 50, seconds: float = 3.0) -> float:
    games = [await new_game(store, n, computers=False) for n in range(tables)]
    done = 0
    stop = time.perf_counter() + seconds

    async def table(game: int) -> None:
        nonlocal done
        seq = 0
        while time.perf_counter() < stop:
            await store.record_action(game, seq, seq % 4, {"type": "play", "card": "AS"})
            seq += 1
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(table(g) for g in games))
    return done / (time.perf_counter() - start)


# -- one click, with N live tables ---------------------------------------------------------------
async def clicks(store: Store, live: int, computer_tables: int, workers: int, count: int = 300) -> list[float]:
    tables = manager(store, workers)
    made = [await new_game(store, n, computers=False) for n in range(live)]
    made += [await new_game(store, live + n, computers=True) for n in range(computer_tables)]
    await tables.restore()  # computer tables start thinking here, ai_delay 0
    people = [tables.tables[g] for g in made[:live]]
    rng = random.Random(7)
    took: list[float] = []
    try:
        for _ in range(count):
            table = rng.choice(people)
            engine = table.engine
            if engine is None or engine.is_over:
                continue
            seat = engine.to_act()[0]
            action = choose_action(ai_view(engine, seat), "quick", rng)  # the person's choice, not timed
            await asyncio.sleep(0.002)  # between clicks the loop runs the computer tables
            start = time.perf_counter()
            async with table.lock:
                await tables.act(table, seat, action)
            await tables.presenter.settled(table)  # the table's message rendered and sent
            took.append((time.perf_counter() - start) * 1000)
    finally:
        await tables.close()
    return took


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def memory_per_table(store: Store, count: int = 500) -> float:
    games = [await new_game(store, 50_000 + n, computers=False, actions=12) for n in range(count)]
    records = [await store.get_game(g) for g in games]
    tables = manager(store, 0)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for record in records:
        assert record is not None
        tables.attach(record)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


async def restore_time(folder: str, count: int) -> float:
    path = os.path.join(folder, "restore.sqlite3")
    setup = SqliteStore(path, synchronous="NORMAL")
    await setup.open()
    for n in range(count):
        await new_game(setup, n, computers=False, actions=12)
    await setup.close()
    store = SqliteStore(path)
    await store.open()
    tables = manager(store, 0)
    start = time.perf_counter()
    restored = await tables.restore()
    took = time.perf_counter() - start
    assert restored == count, restored
    await tables.close()
    await store.close()
    return took


async def postgres_store(url: str) -> tuple[PostgresStore, str] | None:
    try:
        admin = await asyncpg.connect(url, timeout=5)
    except Exception as error:  # noqa: BLE001 - any way of not answering
        print(f"PostgreSQL not reachable at {url} ({type(error).__name__}): its figures are left out")
        return None
    await admin.close()
    schema = f"cardtable_bench_{uuid.uuid4().hex[:8]}"
    store = PostgresStore(url, schema=schema, max_size=10)
    await store.open()
    return store, schema


async def drop_schema(url: str, schema: str) -> None:
    admin = await asyncpg.connect(url, timeout=5)
    await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    await admin.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--tables", default="10,200,1000")
    parser.add_argument("--restore", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quick", action="store_true", help="seconds: small tables and counts, SQLite alone")
    args = parser.parse_args()
    rate_tables, rate_s, computer_tables, clicks_n, slow_n, memory_n = 50, 3.0, 50, 300, 5, 500
    if args.quick:
        args.tables, args.restore, args.postgres, args.workers = "10", 20, "", 1
        rate_tables, rate_s, computer_tables, clicks_n, slow_n, memory_n = 10, 0.1, 2, 10, 1, 10
        small_ohhell_search()  # the computers in this process search as in the SimCord tests
    sizes = [int(t) for t in args.tables.split(",")]
    print(f"{os.cpu_count()} core(s); computer workers for the process pool: {args.workers}")
    with tempfile.TemporaryDirectory() as folder:
        sqlite = SqliteStore(os.path.join(folder, "rate.sqlite3"))
        await sqlite.open()
        sqlite_rate = await store_rate(sqlite, rate_tables, rate_s)
        await sqlite.close()
        print(f"moves committed/s, {rate_tables} tables moving at once: sqlite (FULL) {sqlite_rate:.0f}", flush=True)
        pg_rate = float("nan")
        found = await postgres_store(args.postgres) if args.postgres else None
        if found is not None:
            pg, schema = found
            try:
                pg_rate = await store_rate(pg, rate_tables, rate_s)
            finally:
                await pg.close()
                await drop_schema(args.postgres, schema)
            print(f"moves committed/s, {rate_tables} tables moving at once: postgres {pg_rate:.0f}")

        p99_at_largest = float("nan")
        for size in sizes:
            cases = [(0, 0, "no computers", clicks_n)]
            if size == min(sizes):
                # Computers in a thread hold the GIL: a click waits seconds, so only a few are timed.
                cases.append((computer_tables, 0, f"{computer_tables} strong computer tables, thread", slow_n))
            if args.workers:
                label = f"{computer_tables} strong computer tables, {args.workers} worker process(es)"
                cases.append((computer_tables, args.workers, label, clicks_n))
            for computer_tables, workers, label, count in cases:
                store = SqliteStore(os.path.join(folder, f"clicks-{size}-{computer_tables}-{workers}.sqlite3"))
                await store.open()
                took = await clicks(store, size, computer_tables, workers, count=count)
                await store.close()
                p50, p99 = statistics.median(took), pct(took, 99)
                print(
                    f"click ms with {size:5d} live tables ({label}): p50={p50:.2f} p99={p99:.2f} n={len(took)}",
                    flush=True,
                )
                if size == max(sizes) and computer_tables == 0:
                    p99_at_largest = p99
        mem_store = SqliteStore(os.path.join(folder, "memory.sqlite3"), synchronous="NORMAL")
        await mem_store.open()
        per_table = await memory_per_table(mem_store, memory_n)
        await mem_store.close()
        print(f"memory per live table (4 seats, 12 moves in): {per_table / 1024:.1f} KiB")
        restore_s = await restore_time(folder, args.restore)
        print(f"restore {args.restore} live games (12 moves each) from SQLite: {restore_s:.2f} s")
    print(
        f"sqlite moves/s={sqlite_rate:.0f} postgres moves/s={pg_rate:.0f}"
        f" click p99 ms ({max(sizes)} tables)={p99_at_largest:.1f} restore {args.restore} games s={restore_s:.2f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
