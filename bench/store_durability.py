"""Moves committed per second by the SQLite store, with every commit synced to disk
(``SQLITE_SYNCHRONOUS=FULL``, the default: an acknowledged move survives a power cut) and with
syncs only at checkpoints (``NORMAL``). Each move is one ``record_action`` transaction, as the bot
commits it before answering a player; the tables move one after another, as one bot process does.

    python bench/store_durability.py [--moves 2000] [--tables 20] [--dir DIR]

``--dir`` picks the file system to measure (the default is a temporary folder, often tmpfs or a
page cache that makes syncs cheap: point it at the disk the bot will use). The last line is
``sqlite FULL moves/s=A NORMAL moves/s=B ratio=B/A``.

``--quick``: 100 moves over 5 tables (the suite runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from db.records import SeatRecord  # noqa: E402
from db.sqlite import SqliteStore  # noqa: E402


async def rate(folder: str, synchronous: str, moves: int, tables: int) -> float:
    path = os.path.join(folder, f"bench-{synchronous}.sqlite3")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    store = SqliteStore(path, synchronous=synchronous)
    await store.open()
    games = []
    for t in range(tables):
        game = await store.create_game("ohhell", 1, 1000 + t, 1, "classic", {})
        await store.start_game(game, {}, 1, [SeatRecord(s, s + 1, f"P{s}") for s in range(4)], 2)
        games.append(game)
    seqs = dict.fromkeys(games, 0)
    start = time.perf_counter()
    for i in range(moves):
        game = games[i % tables]
        await store.record_action(game, seqs[game], i % 4, {"type": "play", "card": "AS"})
        seqs[game] += 1
    elapsed = time.perf_counter() - start
    await store.close()
    return moves / elapsed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--quick", action="store_true", help="seconds: the same run, smaller (the suite runs it)")
    args = parser.parse_args()
    if args.quick:
        args.moves, args.tables = 100, 5
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        full = await rate(folder, "FULL", args.moves, args.tables)
        normal = await rate(folder, "NORMAL", args.moves, args.tables)
    print(f"folder: {args.dir or tempfile.gettempdir()}, {args.moves} moves over {args.tables} tables")
    print(f"sqlite FULL moves/s={full:.0f} NORMAL moves/s={normal:.0f} ratio={normal / full:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
