"""Every stored game out of one store and into another, whatever their kind (SQLite, PostgreSQL),
and a consistent copy of a SQLite file while the bot writes to it.

:func:`export_rows` reads every row of the tables that make the games' history (the games, their
seats, every action, the deals, the deal scores and results, the ratings and their changes, the
servers' season settings, duplicate matches and who watched their tables, the coach's analyses,
timers and old copies still to close, the members who turned turn pings off, the seats handed
over mid-game, each member's last language), and
:func:`import_rows` writes them into an empty store, with their ids, in one transaction. Left out
(:data:`LEFT_OUT`): the shard leases (who runs which shard *now*), the saved panels (each holds a
player's interaction token, which expires 15 minutes after the click anyway) and the record of
migrations; any other table the database lists moves.

Both stores have the same tables (the same numbered migrations, :mod:`db.dialects`), JSON in
``TEXT``, flags as 0/1 and times as ISO text in both, so a row moves as it is; only PostgreSQL's
column types are checked (a ``REAL`` that SQLite kept as a whole number is sent as a float).

:func:`backup_sqlite` uses SQLite's online backup API: the copy is the database as one
transaction saw it, however the bot writes meanwhile (WAL lets it go on writing).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable
from typing import Any

from db.errors import StoreError
from db.postgres import PostgresStore
from db.sqlite import SqliteStore
from db.store import Store

#: in the order they are written (a row's references first)
TABLES: tuple[str, ...] = (
    "matches",
    "match_watchers",
    "games",
    "seats",
    "actions",
    "deals",
    "deal_scores",
    "results",
    "ratings",
    "rating_changes",
    "guild_settings",
    "analyses",
    "timers",
    "old_copies",
    "ping_optouts",
    "seat_handovers",
    "member_languages",
)
#: each table's key, for a stable order of its rows (an export reads the same twice)
KEYS: dict[str, str] = {
    "matches": "id",
    "match_watchers": "match_id, user_id",
    "games": "id",
    "seats": "game_id, seat",
    "actions": "game_id, seq",
    "deals": "game_id, deal",
    "deal_scores": "game_id, deal, seat",
    "results": "game_id, seat",
    "ratings": "guild_id, kind, season, identity",
    "rating_changes": "game_id, seat",
    "guild_settings": "guild_id",
    "analyses": "game_id",
    "timers": "game_id",
    "old_copies": "game_id, message_id",
    "ping_optouts": "user_id",
    "seat_handovers": "game_id, number",
    "member_languages": "user_id",
}
#: the tables of the schema a move leaves behind, and why; every other table moves (an export
#: refuses a database with a table in neither, so a new table cannot be forgotten)
LEFT_OUT: dict[str, str] = {
    "shard_leases": "who runs which shard now: the processes of the old database hold none of the new one",
    "panels": "players' open panels, each with an interaction token that expires 15 minutes after its click",
    "schema_migrations": "PostgreSQL's record of its migrations (SQLite's is user_version): the new one has its own",
}
#: tables whose ``id`` PostgreSQL numbers itself: its counter is moved past the imported ids
NUMBERED = ("matches", "games")

Rows = dict[str, list[dict[str, Any]]]


class ImportRefused(StoreError):
    """The destination cannot take the rows (it already holds games); the message says what to do."""


class UnknownTable(StoreError):
    """The database has a table this version neither moves nor leaves out on purpose."""


async def schema_tables(store: Store) -> list[str]:
    """Every table of an open store's schema, as the database itself lists them, by name."""
    if isinstance(store, SqliteStore):
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        async with store.db.execute(sql) as cursor:
            return sorted(str(row[0]) for row in await cursor.fetchall())
    if isinstance(store, PostgresStore):
        async with store._read() as conn:
            found = await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
            return sorted(str(row["table_name"]) for row in found)
    raise TypeError(f"cannot list the tables of {type(store).__name__}")


async def table_rows(store: Store, table: str) -> list[dict[str, Any]]:
    """Every row of one table of an open store (any table of :func:`schema_tables`), unordered."""
    if table not in await schema_tables(store):
        raise UnknownTable(f"the database has no table {table}")
    sql = f"SELECT * FROM {table}"
    if isinstance(store, SqliteStore):
        async with store.db.execute(sql) as cursor:
            return [dict(row) for row in await cursor.fetchall()]
    if isinstance(store, PostgresStore):
        async with store._read() as conn:
            return [dict(row) for row in await conn.fetch(sql)]
    raise TypeError(f"cannot read {type(store).__name__}")


async def export_rows(store: Store) -> Rows:
    """Every row of :data:`TABLES` of an open store, by table, in key order.

    Raises :class:`UnknownTable` when the schema has a table neither in :data:`TABLES` nor in
    :data:`LEFT_OUT`: a move must not drop rows silently."""
    unknown = sorted(set(await schema_tables(store)) - set(TABLES) - set(LEFT_OUT))
    if unknown:
        raise UnknownTable(
            f"The database has table(s) {', '.join(unknown)} that this version of Card Table does not move:"
            " move it with the version that made them."
        )
    found: Rows = {}
    for table in TABLES:
        sql = f"SELECT * FROM {table} ORDER BY {KEYS[table]}"
        if isinstance(store, SqliteStore):
            async with store.db.execute(sql) as cursor:
                found[table] = [dict(row) for row in await cursor.fetchall()]
        elif isinstance(store, PostgresStore):
            async with store._read() as conn:
                found[table] = [dict(row) for row in await conn.fetch(sql)]
        else:
            raise TypeError(f"cannot export from {type(store).__name__}")
    return found


async def count_games(store: Store) -> int:
    if isinstance(store, SqliteStore):
        async with store.db.execute("SELECT COUNT(*) FROM games") as cursor:
            row = await cursor.fetchone()
            return int(row[0]) if row else 0
    if isinstance(store, PostgresStore):
        async with store._read() as conn:
            return int(await conn.fetchval("SELECT COUNT(*) FROM games"))
    raise TypeError(f"cannot count the games of {type(store).__name__}")


async def import_rows(store: Store, rows: Rows) -> dict[str, int]:
    """Write ``rows`` into an open, empty store in one transaction; returns the rows written by table.

    Raises :class:`ImportRefused` when the store already has games (an import never merges: the
    ids of two histories would collide)."""
    present = await count_games(store)
    if present:
        raise ImportRefused(
            f"The destination database already has {present} game(s): import into a new, empty database"
            " (a new DATABASE_PATH file, or a new PostgreSQL database)."
        )
    written: dict[str, int] = {}
    if isinstance(store, SqliteStore):
        async with store._tx() as db:
            for table in TABLES:
                for columns, values in _batches(rows.get(table, [])):
                    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
                    await db.executemany(sql, values)
                written[table] = len(rows.get(table, []))
    elif isinstance(store, PostgresStore):
        async with store._tx() as conn:
            types = await _postgres_types(conn)
            for table in TABLES:
                for columns, values in _batches(rows.get(table, [])):
                    marks = ", ".join(f"${i + 1}" for i in range(len(columns)))
                    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                    casts = [types.get((table, column)) for column in columns]
                    await conn.executemany(
                        sql, [tuple(_cast(v, t) for v, t in zip(row, casts, strict=True)) for row in values]
                    )
                written[table] = len(rows.get(table, []))
            for table in NUMBERED:
                counter = f"pg_get_serial_sequence('{table}', 'id')"
                await conn.execute(f"SELECT setval({counter}, GREATEST((SELECT MAX(id) FROM {table}), 1))")
    else:
        raise TypeError(f"cannot import into {type(store).__name__}")
    return written


def _batches(rows: list[dict[str, Any]]) -> Iterable[tuple[list[str], list[tuple[Any, ...]]]]:
    """Rows grouped by their columns (an export made before a migration lacks its columns)."""
    groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
    for row in rows:
        columns = tuple(row)
        groups.setdefault(columns, []).append(tuple(row[c] for c in columns))
    for columns, values in groups.items():
        yield list(columns), values


async def _postgres_types(conn: Any) -> dict[tuple[str, str], str]:
    found = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    )
    return {(row["table_name"], row["column_name"]): row["data_type"] for row in found}


def _cast(value: Any, data_type: str | None) -> Any:
    if value is None or data_type is None:
        return value
    if data_type == "double precision":
        return float(value)
    if data_type in ("bigint", "integer", "smallint"):
        return int(value)
    if data_type == "text":
        return str(value)
    return value


def backup_sqlite(source: str, target: str) -> int:
    """Copy the SQLite database ``source`` to ``target`` with SQLite's online backup (consistent while
    the bot writes); ``target`` is written whole or not at all, and nothing is left beside it when
    the copy fails. Returns the copy's size in bytes.

    Raises :class:`FileNotFoundError` for a missing ``source``, :class:`FileExistsError` for an
    existing ``target`` and :class:`StoreError` (one sentence) for a folder that does not exist or
    may not be written, a ``source`` that is not a SQLite database and a copy that fails its
    integrity check."""
    if not os.path.exists(source):
        raise FileNotFoundError(source)
    if os.path.exists(target):
        raise FileExistsError(target)
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise StoreError(f"The folder {folder} for the copy does not exist: create it first, or name another file.")
    if not os.access(folder, os.W_OK):
        raise StoreError(f"The folder {folder} for the copy may not be written by this user: name another file.")
    partial = f"{target}.partial"
    src: sqlite3.Connection | None = None
    dst: sqlite3.Connection | None = None
    done = False
    try:
        src = sqlite3.connect(source, timeout=30)
        dst = sqlite3.connect(partial)
        src.backup(dst)
        verdict = dst.execute("PRAGMA integrity_check").fetchone()
        if not verdict or verdict[0] != "ok":
            raise StoreError(f"The copy of {source} failed SQLite's integrity check ({verdict}): nothing was written.")
        dst.execute("PRAGMA journal_mode=DELETE")  # the copy stands alone: one file, no WAL beside it
        dst.close()
        os.replace(partial, target)
        done = True
    except sqlite3.DatabaseError as error:
        raise StoreError(
            f"{source} could not be copied ({error}): DATABASE_PATH must name the bot's SQLite database."
        ) from None
    finally:
        for conn in (src, dst):
            if conn is not None:
                conn.close()
        if not done:
            for leftover in (partial, f"{partial}-journal", f"{partial}-wal", f"{partial}-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(leftover)
    return os.path.getsize(target)
