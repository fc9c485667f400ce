"""Storage faults for tests: a store whose BEGIN or COMMIT fails as on a full disk.

SQLite: the store's connection is wrapped so that the chosen statement raises SQLite's own
``sqlite3.OperationalError("database or disk is full")`` instead of reaching the file (a failed
COMMIT leaves the transaction open, as SQLite may). PostgreSQL: the driver's ``execute`` raises
the server's ``DiskFullError`` for it. Everything else reaches the real database.
"""

from __future__ import annotations

import asyncio
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

    def execute_fetchall(self, sql: str, params: Any = ()) -> Any:  # how db.sqlite_connection.run executes
        if self._fault.fires(sql):
            return _Raising(sqlite3.OperationalError(DISK_FULL))
        return self._real.execute_fetchall(sql, params)


class CuttingProxy:
    """A TCP proxy in front of the test PostgreSQL server that can cut a connection at COMMIT.

    ``cut = "after-commit"``: the next COMMIT reaches the server, which commits, and the
    connection is cut before its answer reaches the client (the client cannot know it was saved).
    ``cut = "before-commit"``: the next COMMIT is never sent; the connection is cut, so the server
    rolls the transaction back. ``refuse = True``: new connections are closed at once (the
    server looks down). Each cut fires once, then ``cut`` is None again; ``cuts`` counts them.
    """

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.cut: str | None = None
        self.refuse = False
        self.cuts = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        for writer in list(self._writers):
            writer.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        if self.refuse:
            client_out.close()
            return
        server_in, server_out = await asyncio.open_connection(*self.upstream)
        self._writers.update((client_out, server_out))
        committing = asyncio.Event()

        def cut() -> None:
            self.cut = None
            self.cuts += 1
            client_out.close()
            server_out.close()

        async def to_server() -> None:
            while data := await client_in.read(65536):
                if b"COMMIT" in data and self.cut == "before-commit":
                    cut()
                    return
                if b"COMMIT" in data and self.cut == "after-commit":
                    committing.set()
                server_out.write(data)
                await server_out.drain()

        async def to_client() -> None:
            while data := await server_in.read(65536):
                if committing.is_set() and b"COMMIT\x00" in data:  # the server's "committed"
                    cut()
                    return
                client_out.write(data)
                await client_out.drain()

        pumps = [asyncio.ensure_future(to_server()), asyncio.ensure_future(to_client())]
        try:
            # when either side ends, the other is closed too (as a cable cut would)
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
            await asyncio.gather(*pumps, return_exceptions=True)
            client_out.close()
            server_out.close()
            self._writers.difference_update((client_out, server_out))
