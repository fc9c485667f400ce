"""Storage faults for tests: a store whose BEGIN or COMMIT fails as on a full disk.

SQLite: the store's connection is wrapped so that the chosen statement raises SQLite's own
``sqlite3.OperationalError("database or disk is full")`` instead of reaching the file (a failed
COMMIT leaves the transaction open, as SQLite may). PostgreSQL: the driver's ``execute`` raises
the server's ``DiskFullError`` for it. Everything else reaches the real database.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg  # type: ignore[import-untyped,unused-ignore]
import pytest

from db.postgres import PostgresStore
from db.sqlite import SqliteStore
from db.store import Store

DISK_FULL = "database or disk is full"


class DiskFull:
    """Arms ``times`` failures of the next statements starting with ``statement`` ("BEGIN" or
    "COMMIT"); ``hits`` counts the failures that happened."""

    def __init__(self, store: Store, statement: str, monkeypatch: pytest.MonkeyPatch, times: int = 1) -> None:
        self.statement = statement
        self.left = times
        self.hits = 0
        if isinstance(store, SqliteStore):
            monkeypatch.setattr(store, "_db", _FailingSqlite(store.db, self))
        elif isinstance(store, PostgresStore):
            real = asyncpg.connection.Connection.execute
            fault = self

            async def execute(conn: Any, query: str, *args: Any, timeout: float | None = None) -> Any:
                if fault.fires(query):
                    raise asyncpg.DiskFullError(f"could not extend file: No space left on device ({DISK_FULL})")
                return await real(conn, query, *args, timeout=timeout)

            monkeypatch.setattr(asyncpg.connection.Connection, "execute", execute)
        else:
            raise TypeError(f"no fault injection for {type(store).__name__}")

    def fires(self, sql: str) -> bool:
        if self.left and sql.lstrip().upper().startswith(self.statement):
            self.left -= 1
            self.hits += 1
            return True
        return False


class _Raising:
    """What ``aiosqlite``'s ``execute`` returns, failing when awaited or entered."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __await__(self) -> Any:
        raise self.error
        yield  # pragma: no cover - makes this a generator

    async def __aenter__(self) -> Any:
        raise self.error

    async def __aexit__(self, *exc: object) -> None:
        return None


class _FailingSqlite:
    def __init__(self, db: Any, fault: DiskFull) -> None:
        self._real = db
        self._fault = fault

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def execute(self, sql: str, params: Any = ()) -> Any:
        if self._fault.fires(sql):
            return _Raising(sqlite3.OperationalError(DISK_FULL))
        return self._real.execute(sql, params)
