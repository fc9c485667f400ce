"""The SQLite store's plumbing: opening the file, migrating it, and one write transaction at a time.

:class:`db.sqlite.SqliteStore` builds on :class:`SqliteConnection`; the queries live in
:mod:`db.sqlite` (games) and :mod:`db.sqlite_stats` (ratings, history, profiles). Everything here
is about the file and its one connection, so the queries need not know how a transaction is
begun, committed, rolled back or turned into a :class:`StoreError`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from db.dialects import migration_files, split_sql
from db.errors import StoreConfigError, StoreConflict, StoreError

#: named as before the store was split, so log filters on ``db.sqlite`` still see its warnings
log = logging.getLogger("db.sqlite")

#: aiosqlite logs every statement it runs *with its parameters* at DEBUG, and among them are a
#: game's deal seed and salt, secret until the game is over: its logger stays at INFO
#: even when the bot runs with LOG_LEVEL=DEBUG.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

# Timestamps are the database's own clock: they are records, never game clocks.
NOW = "strftime('%Y-%m-%dT%H:%M:%SZ','now')"
#: the database's clock in POSIX seconds, for leases (every process sharing the file reads one clock)
EPOCH = "((julianday('now') - 2440587.5) * 86400.0)"
#: how many times (0.1 s apart) to try switching a busy new file to WAL (see :func:`_use_wal`)
WAL_TRIES = 50


def migrations() -> list[tuple[int, str]]:
    """The numbered ``db/migrations/NNNN_name.sql`` files, in order (SQLite runs them as written)."""
    return [(m.number, m.sql) for m in migration_files()]


#: what ``PRAGMA synchronous`` may be set to. FULL (the default) syncs the write-ahead log at every
#: commit, so a move the bot has acknowledged survives a power cut; NORMAL syncs only at
#: checkpoints (faster, but an OS crash or power cut can lose the last acknowledged moves).
SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")


class SqliteConnection:
    """One aiosqlite connection (WAL, foreign keys on), migrated when opened; every write goes
    through :meth:`_tx`, which holds one lock for the connection and wraps the work in
    ``BEGIN IMMEDIATE … COMMIT``."""

    def __init__(self, path: str, *, synchronous: str = "FULL") -> None:
        if synchronous not in SYNCHRONOUS:
            raise StoreConfigError(f"SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA, not {synchronous!r}.")
        self.synchronous = synchronous
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- life cycle -------------------------------------------------------------------------
    async def open(self) -> None:
        try:
            # Tried plainly first: aiosqlite, failing to connect, leaves its thread reporting to
            # whatever event loop comes next, and the error deserves one clear sentence.
            await asyncio.to_thread(_try_to_open, self.path)
        except sqlite3.Error as error:
            raise StoreConfigError(
                f"The SQLite database {self.path!r} cannot be opened ({error}):"
                " check that its folder exists and is writable, or fix DATABASE_PATH."
            ) from error
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        try:
            if self.path != ":memory:":
                await _use_wal(self._db)
            await run(self._db, "PRAGMA foreign_keys=ON")
            await run(self._db, f"PRAGMA synchronous={self.synchronous}")
            await self._migrate()
        except BaseException as error:
            await self.close()  # aiosqlite's thread would keep the process alive after the error
            if isinstance(error, sqlite3.DatabaseError | StoreError) and "readonly" in str(error):
                raise StoreConfigError(
                    f"The SQLite database {self.path!r} is read-only for this process ({error}): make the file"
                    " and its folder writable for the bot's user, or point DATABASE_PATH at another file."
                ) from error
            if isinstance(error, sqlite3.DatabaseError | StoreError) and not isinstance(error, StoreConfigError):
                # e.g. "file is not a database", or a full disk while migrating
                raise StoreConfigError(
                    f"The SQLite database {self.path!r} cannot be used ({error}): point DATABASE_PATH at a"
                    " Card Table database, or at a new file in a writable folder."
                ) from error
            raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    async def _migrate(self) -> None:
        known = migrations()
        latest = known[-1][0] if known else 0
        # The version is read inside the write transaction (BEGIN IMMEDIATE): a second process
        # starting on the same new file waits for the first and then finds nothing left to do.
        async with self._tx() as db:
            found = await fetch(db, "PRAGMA user_version")
            version = int(found[0][0]) if found else 0
            if version > latest:
                raise StoreConfigError(
                    f"The database {self.path!r} was written by a newer version of Card Table (schema {version};"
                    f" this code knows up to {latest}): update the code, or point DATABASE_PATH at another file."
                )
            for number, sql in known:
                if number <= version:
                    continue
                for statement in split_sql(sql):
                    await run(db, statement)
                await run(db, f"PRAGMA user_version={number}")
            if version == latest:
                # Nothing to migrate, but the file must take writes: a read-only file opens and
                # reads, and would fail only at the first write (the shard lease), so it is
                # written here, once, where the failure is one sentence at start.
                await run(db, f"PRAGMA user_version={latest}")

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction. Every SQLite error in it, at BEGIN and COMMIT too (a full disk
        or a locked file fails there as often as in the writes), becomes a :class:`StoreError`
        (integrity errors a :class:`StoreConflict`) after rolling back: nothing of it was saved.

        A cancel (the bot stopping while a move is being saved) leaves the connection clean too:
        aiosqlite runs each statement in its thread, and a statement already queued runs even if
        the task that queued it is cancelled. So BEGIN, COMMIT and ROLLBACK are each waited for to
        their end (:func:`_whole`) before the cancel goes on, and what BEGIN opened is rolled back;
        otherwise the next write would fail with "cannot start a transaction within a transaction"
        (saving the panels at a stop did). A cancel that arrives while COMMIT is queued lets it finish: the
        write is then saved, and the cancelled caller, which stops, does not say otherwise."""
        async with self._lock:
            db = self.db
            if db.in_transaction:
                # A write cancelled at a point the code above did not foresee left its transaction
                # open (seen at a stop after a lost lease, rarely): what it held was never
                # committed, so it is rolled back, said, and this write goes on.
                log.warning("a transaction left open by a cancelled write was rolled back")
                await _whole(_rollback(db))
            try:
                await _whole(run(db, "BEGIN IMMEDIATE"))
            except BaseException as error:
                await _whole(_rollback(db))
                if isinstance(error, sqlite3.Error):
                    raise _store_error(error) from error
                raise
            try:
                yield db
            except BaseException as error:
                await _whole(_rollback(db))
                if isinstance(error, sqlite3.Error):
                    raise _store_error(error) from error
                raise
            try:
                await _whole(run(db, "COMMIT"))
            except BaseException as error:
                # A failed COMMIT may leave the transaction open (SQLite rolls back only some
                # errors by itself): roll it back, or the next BEGIN would fail too.
                await _whole(_rollback(db))
                if isinstance(error, sqlite3.Error):
                    raise _store_error(error) from error
                raise

    async def _fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return await fetch(self.db, sql, params)


def _store_error(error: sqlite3.Error) -> StoreError:
    if isinstance(error, sqlite3.IntegrityError):
        return StoreConflict(str(error))
    return StoreError(str(error))


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back whatever is open; a failure to do so leaves nothing more to undo here."""
    if not db.in_transaction:
        return
    try:
        await run(db, "ROLLBACK")
    except sqlite3.Error as error:
        log.warning("rolling back failed: %s", error)


async def _whole(step: Awaitable[None]) -> None:
    """Await ``step`` to its end even if the caller is cancelled meanwhile (the statement it
    queued runs in aiosqlite's thread all the same), then let the cancel go on."""
    future = asyncio.ensure_future(step)
    cancelled = False
    while not future.done():
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            if future.done() and future.cancelled():
                raise
            cancelled = True
        except BaseException:
            break
    if cancelled:
        if not future.cancelled() and future.exception() is not None:
            log.warning("a statement of a cancelled write failed: %s", future.exception())
        raise asyncio.CancelledError
    future.result()


def _try_to_open(path: str) -> None:
    sqlite3.connect(path).close()


async def run(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Execute, leaving no open cursor (an open cursor blocks COMMIT): the statement is run and
    read to its end in one trip to the connection's thread (``execute_fetchall``). Executing and
    then closing the cursor took two trips, and ``async with execute(...)`` and ``fetchall`` three:
    each trip hands the statement to aiosqlite's thread and the answer back to the event loop
    (some 50 µs of processor time, a part of it in the kernel), and a saved move or a bot's start
    makes dozens."""
    await db.execute_fetchall(sql, params)


async def fetch(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    """Every row a statement answers, in one trip to the connection's thread, as :func:`run`."""
    return list(await db.execute_fetchall(sql, params))


async def run_many(db: aiosqlite.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """Execute for every row and close the cursor at once, as :func:`run` does."""
    async with db.executemany(sql, rows):
        pass


async def _use_wal(db: aiosqlite.Connection) -> None:
    """Switch the file to WAL once (the mode is kept in the file). Switching needs the file to
    itself and SQLite answers "database is locked" at once, without waiting, when another
    connection is busy in it (two processes starting on a new file together): try again briefly."""
    for attempt in range(WAL_TRIES):
        try:
            found = await fetch(db, "PRAGMA journal_mode")
            if found and str(found[0][0]).lower() == "wal":
                return
            await run(db, "PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == WAL_TRIES - 1:
                raise
            await asyncio.sleep(0.1)
