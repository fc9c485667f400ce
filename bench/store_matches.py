"""What a duplicate match's reads cost on a store that has played many games, with and without
the index of games by match (migration 0014), on SQLite and PostgreSQL, in one run.

The reads: a match's tables (``match_games``: every table's end reads them, and every door of a
match's table asks the secrecy policy through them), the settled games the ratings and profiles
count (the secrecy policy's held matches, ``bot.tables.secrecy.held_matches``, then
``finished_games(held=...)`` leaving their games out), and the start's look for comparisons never
posted (``uncompared_matches``).
The store is filled through its own interface: ``--games`` finished games on one server, every
``--every``-th of them a table of a two-table match. Then a match of four tables of ``--moves``
moves each: its tables as every door of a match's table reads them (without the moves), against
the same tables read with their moves (what those reads cost before they left the moves out).

    python bench/store_matches.py [--games 4000] [--every 5] [--moves 2000] [--postgres URL]

The last line is ``match_games ms=A/B settled ms=C/D uncompared ms=E/F`` (SQLite, without the
index / with it; PostgreSQL's figures on the line above when a server answers).

``--quick``: 50 games, tables of 50 moves, SQLite alone (the suite runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import db.postgres_pool  # noqa: E402
import db.sqlite_connection  # noqa: E402
from bot.tables.secrecy import Door, held_matches  # noqa: E402
from db.dialects import migration_files  # noqa: E402
from db.postgres import PostgresStore  # noqa: E402
from db.records import ResultRow, SeatRecord  # noqa: E402
from db.sqlite import SqliteStore  # noqa: E402
from db.store import Store  # noqa: E402

GUILD = 1_178_473_619_233_402_880
INDEX_MIGRATION = 14


async def fill(store: Store, games: int, every: int) -> list[int]:
    """``games`` finished games, every ``every``-th a table of a two-table match; the matches' ids.
    A match whose two tables are over has its comparison claimed, as the bot claims it when its last
    table ends (a match still waiting for its second table is left unclaimed)."""
    matches: list[int] = []
    seats = [SeatRecord(0, 10, "ann"), SeatRecord(1, 20, "bob"), SeatRecord(2, None, "Computer", "quick")]
    results = [ResultRow(0, 10, "ann", 1, 11, False, {}), ResultRow(1, 20, "bob", 2, 5, False, {})]
    results.append(ResultRow(2, None, "Computer", 3, 1, False, {}))
    for n in range(games):
        game = await store.create_game("ohhell", GUILD, 1000 + n, 10, "classic", {})
        await store.start_game(game, {"deck": "standard52"}, n, seats, 2)
        await store.record_action(game, 0, 0, {"type": "bid", "bid": 1}, results=results)
        if n % every == 0:
            if n % (2 * every) == 0:
                match = await store.create_match("ohhell", f"M{n:05d}", GUILD, 10, 2, n, "00" * 32)
                matches.append(match.id)
            await store.join_match(game, matches[-1])
            if n % (2 * every) == every:  # its second table is over: the bot claims its comparison
                await store.claim_comparison(matches[-1])
    return matches


async def timed(call: Callable[[], Awaitable[Any]], repeats: int) -> float:
    """Median milliseconds of ``call`` over ``repeats`` calls (after one unmeasured)."""
    await call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        await call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


async def measure(make: Callable[[], Store], games: int, every: int, index: bool) -> tuple[float, float, float]:
    """The three reads' medians (ms) on a store filled with or without the index."""
    known = migration_files()
    chosen = known if index else [m for m in known if m.number != INDEX_MIGRATION]  # every other migration
    saved = db.sqlite_connection.migration_files, db.postgres_pool.migration_files
    db.sqlite_connection.migration_files = db.postgres_pool.migration_files = lambda: chosen
    store = make()
    try:
        await store.open()
        matches = await fill(store, games, every)
        middle = matches[len(matches) // 2]
        return (
            await timed(lambda: store.match_games(middle), 200),
            await timed(functools.partial(settled, store), 5),
            await timed(store.uncompared_matches, 20),
        )
    finally:
        db.sqlite_connection.migration_files, db.postgres_pool.migration_files = saved
        await store.close()


async def settled(store: Store) -> None:
    """The games the ratings count: the matches the secrecy policy holds, then the rest."""
    await store.finished_games(GUILD, "ohhell", held=await held_matches(store, Door.STATS))


async def long_match(make: Callable[[], Store], moves: int) -> tuple[float, float]:
    """A match of four tables of ``moves`` moves each: its tables read as the doors read them
    (``match_games``, without the moves) and with their moves (``get_game`` each), medians in ms."""
    store = make()
    try:
        await store.open()
        match = await store.create_match("ohhell", "LONG23", GUILD, 10, 4, 1, "00" * 32)
        seats = [SeatRecord(0, 10, "ann"), SeatRecord(1, 20, "bob")]
        ids = []
        for table in range(4):
            game = await store.create_game("ohhell", GUILD, 900 + table, 10, "classic", {})
            await store.start_game(game, {"deck": "standard52"}, 1, seats, 2)
            await store.join_match(game, match.id)
            for seq in range(moves):
                await store.record_action(game, seq, seq % 2, {"type": "play", "card": seq % 52})
            ids.append(game)

        async def with_moves() -> None:
            for game in ids:
                await store.get_game(game)

        return await timed(lambda: store.match_games(match.id), 30), await timed(with_moves, 30)
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--moves", type=int, default=2000, help="moves a table of the long match")
    default_url = os.environ.get("TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
    parser.add_argument("--postgres", default=default_url)
    parser.add_argument("--quick", action="store_true", help="seconds: the same run, smaller (the suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.moves = 50, 50
    print(f"{args.games} finished games, every {args.every}th a table of a two-table match; medians in ms")
    try:
        if args.quick:
            raise LookupError("--quick measures SQLite alone")
        import asyncpg  # type: ignore[import-untyped,unused-ignore]

        admin = await asyncpg.connect(args.postgres, timeout=5)
    except Exception as error:  # every way of not answering: the SQLite figures alone
        print(f"postgres: not measured ({type(error).__name__})")
    else:
        figures = []
        for index in (False, True):
            schema = f"bench_matches_{uuid.uuid4().hex[:10]}"
            try:
                figures.append(
                    await measure(
                        functools.partial(PostgresStore, args.postgres, schema=schema), args.games, args.every, index
                    )
                )
            finally:
                await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()
        print(_line("postgres", figures))
    sqlite = []
    with tempfile.TemporaryDirectory() as folder:
        for index in (False, True):
            path = os.path.join(folder, f"m{int(index)}.sqlite3")
            make = functools.partial(SqliteStore, path, synchronous="NORMAL")
            sqlite.append(await measure(make, args.games, args.every, index))
    print(_line("sqlite", sqlite))
    with tempfile.TemporaryDirectory() as folder:
        make = functools.partial(SqliteStore, os.path.join(folder, "long.sqlite3"), synchronous="NORMAL")
        light, full = await long_match(make, args.moves)
    print(
        f"sqlite: a match of 4 tables of {args.moves} moves: its tables as the doors read them {light:.2f} ms,"
        f" with their moves {full:.2f} ms"
    )
    (a, c, e), (b, d, f) = sqlite
    print(f"match_games ms={a:.3f}/{b:.3f} settled ms={c:.1f}/{d:.1f} uncompared ms={e:.3f}/{f:.3f}")


def _line(name: str, figures: list[tuple[float, float, float]]) -> str:
    (a, c, e), (b, d, f) = figures
    return (
        f"{name}: match_games {a:.3f} -> {b:.3f} ms, settled games {c:.1f} -> {d:.1f} ms,"
        f" uncompared matches {e:.3f} -> {f:.3f} ms (without the index -> with it)"
    )


if __name__ == "__main__":
    asyncio.run(main())
