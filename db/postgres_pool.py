"""The PostgreSQL store's plumbing: the asyncpg pool, the migrations and the transactions.

:class:`db.postgres.PostgresStore` builds on :class:`PostgresPool`; the queries live in
:mod:`db.postgres` (games) and :mod:`db.postgres_stats` (ratings, history, profiles). Everything
here is about reaching the server and running work safely on it, so the queries need not know
how a transaction is opened, locked or turned into a :class:`StoreError`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import asyncpg  # type: ignore[import-untyped,unused-ignore]

from db.dialects import migration_files, split_sql, to_postgres
from db.errors import StoreConfigError, StoreConflict, StoreError
from db.postgres_url import describe_url, failure_reason

# Timestamps are the database's own clock: they are records, never game clocks. Same text as SQLite's.
NOW = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
#: the server's clock in POSIX seconds, for leases (every process reads the one clock)
EPOCH = "extract(epoch FROM clock_timestamp())::DOUBLE PRECISION"

#: ``pg_advisory_xact_lock`` key held while migrating: any two Card Table processes on one server.
#: Writes to a game hold the key that is the game's id (far below this one).
MIGRATION_LOCK = 0x43415244_5441424C  # "CARDTABL"
#: held while claiming leases, so two processes starting at once claim one after the other
LEASE_LOCK = MIGRATION_LOCK + 1

#: a connection lent by the pool
Connection: TypeAlias = "asyncpg.pool.PoolConnectionProxy[asyncpg.Record]"
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")

# What the driver raises when the server or the connection fails, besides PostgresError.
DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    # raised by the driver itself, e.g. when a connection lost after COMMIT is released
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


class PostgresPool:
    """A pool of connections to one database (and schema), migrated when opened; the base of
    :class:`db.postgres.PostgresStore`, which documents ``url`` and ``schema``."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 5,
        connect_timeout: float = 10.0,
    ) -> None:
        self.url = url
        self.target = describe_url(url)  # raises StoreConfigError for a URL that is no PostgreSQL URL
        if schema is not None and not _SCHEMA_NAME.fullmatch(schema):
            raise StoreConfigError(f"The schema name {schema!r} is not usable: use lower-case letters, digits and '_'.")
        self.schema = schema
        self.min_size = min_size
        self.max_size = max_size
        self.connect_timeout = connect_timeout
        self._pool: asyncpg.Pool | None = None

    # -- life cycle -------------------------------------------------------------------------
    async def open(self) -> None:
        settings = {"application_name": "cardtable"}
        if self.schema is not None:
            settings["search_path"] = self.schema
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=self.connect_timeout,
                server_settings=settings,
            )
        except BaseException as error:
            config_error = self._config_error(error)
            if config_error is None:
                raise
            raise config_error from error
        self._pool = pool
        try:
            await self._migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is not open")
        return self._pool

    def _config_error(self, error: BaseException) -> StoreConfigError | None:
        """The one sentence for a failed first connection, or None for errors that are not about it."""
        where, user, database = self.target.where, self.target.user, self.target.database
        if isinstance(error, asyncpg.InvalidCatalogNameError):
            return StoreConfigError(
                f"The PostgreSQL server at {where} has no database {database!r}: create it"
                f" (createdb {database}) or fix the database name in DATABASE_URL."
            )
        if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):  # also wrong passwords
            return StoreConfigError(
                f"The PostgreSQL server at {where} refused user {user!r} ({failure_reason(error)}):"
                " fix the user name or password in DATABASE_URL."
            )
        if isinstance(error, (OSError, asyncio.TimeoutError)):
            return StoreConfigError(
                f"No PostgreSQL server answers at {where} ({failure_reason(error)}):"
                " start it, or fix the host and port in DATABASE_URL."
            )
        if isinstance(error, asyncpg.PostgresError):
            return StoreConfigError(
                f"The PostgreSQL server at {where} refused the connection ({failure_reason(error)}):"
                " check DATABASE_URL."
            )
        if isinstance(error, (ValueError, asyncpg.InterfaceError)):
            return StoreConfigError(
                f"DATABASE_URL {self.target.shown!r} is not a usable PostgreSQL URL ({failure_reason(error)}):"
                " write it as postgresql://user:password@host:port/database."
            )
        return None

    async def _migrate(self) -> None:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                # Held to the end of this transaction: a second process waits here, then finds
                # every migration recorded and applies none.
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                if self.schema is not None:
                    await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    " version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
                    f" applied_at TEXT NOT NULL DEFAULT {NOW})"
                )
                done = {row["version"] for row in await conn.fetch("SELECT version FROM schema_migrations")}
                for migration in migration_files():
                    if migration.number in done:
                        continue
                    for statement in split_sql(migration.sql):
                        await conn.execute(to_postgres(statement))
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                        migration.number,
                        migration.name,
                    )
        except DRIVER_ERRORS as error:
            raise StoreError(f"migrating the PostgreSQL database at {self.target.where} failed: {error}") from error

    @asynccontextmanager
    async def _tx(self, game_id: int | None = None) -> AsyncIterator[Connection]:
        """One write transaction; integrity errors become :class:`StoreConflict`, the rest :class:`StoreError`.

        With ``game_id``, the transaction first takes that game's advisory lock: the writes to one
        game run one after another, as all writes do in SQLite, in this process and any other.
        Without it, two ``set_seats`` at once would both delete the seats, then collide inserting.
        """
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                if game_id is not None:
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", game_id)
                yield conn
        except asyncpg.IntegrityConstraintViolationError as error:
            raise StoreConflict(str(error)) from error
        except DRIVER_ERRORS as error:
            raise StoreError(str(error) or type(error).__name__) from error

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        """One snapshot to read several tables from."""
        try:
            async with (
                self.pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield conn
        except DRIVER_ERRORS as error:
            raise StoreError(str(error) or type(error).__name__) from error

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self._read() as conn:
            return list(await conn.fetch(sql, *args))
