"""PostgreSQL implementation of :class:`db.store.Store` through asyncpg (a connection pool).

It keeps the semantics of :class:`db.sqlite.SqliteStore`:

* the same numbered migrations (``db/migrations``), translated by :func:`db.dialects.to_postgres`,
  tracked in the table ``schema_migrations`` (PostgreSQL has no ``user_version``) and applied in
  one transaction under an advisory lock, so two bots starting at once cannot both migrate;
* one live game per channel, enforced by the same partial unique index, as :class:`ChannelBusy`;
* every write in one transaction: an action and whatever it finished land together or not at
  all, and a broken uniqueness rule (or any other integrity rule) is a :class:`StoreConflict`;
* the writes to one game one after another (SQLite has one writer at a time): each takes the
  game's advisory lock first;
* JSON in ``TEXT`` columns, flags as 0/1 integers, timestamps as ISO-8601 ``TEXT`` in UTC, ids and
  Discord snowflakes as ``BIGINT``.

Reads of a whole game (the game, its seats and its log) run in one read-only repeatable-read
transaction, so they never mix two states of a game another task is writing.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeAlias
from urllib.parse import unquote, urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped,unused-ignore]

from db import rows
from db.dialects import migration_files, split_sql, to_postgres
from db.stats_sql import (
    ANALYSIS_UPSERT,
    MEMBER_GAMES,
    RATING_CHANGE_INSERT,
    RATING_UPSERT,
    change_values,
    rating_values,
)
from db.store import (
    ChannelBusy,
    DealScore,
    DealtDeck,
    FinishedGame,
    GameRecord,
    GameVersion,
    GuildSettings,
    Lease,
    MatchRecord,
    MemberGame,
    MemberStats,
    OldCopy,
    RatingChange,
    RatingRow,
    ResultRow,
    SavedPanel,
    SeatRecord,
    StaleAction,
    StoreConfigError,
    StoreConflict,
    StoreError,
    Timer,
)

# Timestamps are the database's own clock: they are records, never game clocks. Same text as SQLite's.
NOW = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
#: the server's clock in POSIX seconds, for leases (every process reads the one clock)
EPOCH = "extract(epoch FROM clock_timestamp())::DOUBLE PRECISION"

#: ``pg_advisory_xact_lock`` key held while migrating: any two Card Table processes on one server.
#: Writes to a game hold the key that is the game's id (far below this one).
MIGRATION_LOCK = 0x43415244_5441424C  # "CARDTABL"
#: held while claiming leases, so two processes starting at once claim one after the other
LEASE_LOCK = MIGRATION_LOCK + 1

SCHEMES = ("postgresql", "postgres")

#: a connection lent by the pool
Connection: TypeAlias = "asyncpg.pool.PoolConnectionProxy[asyncpg.Record]"
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")

# What the driver raises when the server or the connection fails, besides PostgresError.
_DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    OSError,
    asyncio.TimeoutError,
)


class PostgresStore:
    """The store on a PostgreSQL server; ``url`` is a ``postgresql://user:password@host:port/database`` URL.

    ``schema``, if given, is the schema (created if missing) the tables live in; by default they
    live in the connection's usual search path (``public``).
    """

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
                f"The PostgreSQL server at {where} refused user {user!r} ({_reason(error)}):"
                " fix the user name or password in DATABASE_URL."
            )
        if isinstance(error, (OSError, asyncio.TimeoutError)):
            return StoreConfigError(
                f"No PostgreSQL server answers at {where} ({_reason(error)}):"
                " start it, or fix the host and port in DATABASE_URL."
            )
        if isinstance(error, asyncpg.PostgresError):
            return StoreConfigError(
                f"The PostgreSQL server at {where} refused the connection ({_reason(error)}): check DATABASE_URL."
            )
        if isinstance(error, (ValueError, asyncpg.InterfaceError)):
            return StoreConfigError(
                f"DATABASE_URL {self.target.shown!r} is not a usable PostgreSQL URL ({_reason(error)}):"
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
        except _DRIVER_ERRORS as error:
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
        except _DRIVER_ERRORS as error:
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
        except _DRIVER_ERRORS as error:
            raise StoreError(str(error) or type(error).__name__) from error

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self._read() as conn:
            return list(await conn.fetch(sql, *args))

    # -- lobby ------------------------------------------------------------------------------
    async def create_game(
        self, kind: str, guild_id: int | None, channel_id: int, host_id: int, preset: str, options: dict
    ) -> int:
        try:
            async with self._tx() as conn:
                game_id = await conn.fetchval(
                    "INSERT INTO games (kind, guild_id, channel_id, host_id, status, preset, options, created_at)"
                    f" VALUES ($1, $2, $3, $4, 'lobby', $5, $6, {NOW}) RETURNING id",
                    kind,
                    guild_id,
                    channel_id,
                    host_id,
                    preset,
                    json.dumps(options),
                )
                return int(game_id)
        except StoreConflict:
            rows = await self._fetch(
                "SELECT id FROM games WHERE channel_id=$1 AND status IN ('lobby','playing')", channel_id
            )
            raise ChannelBusy(rows[0]["id"] if rows else 0) from None

    async def set_message(self, game_id: int, message_id: int | None, key: str | None = None) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute("UPDATE games SET message_id=$1, message_key=$2 WHERE id=$3", message_id, key, game_id)

    async def set_options(self, game_id: int, preset: str, options: dict, turn_seconds: int | None) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute(
                "UPDATE games SET preset=$1, options=$2, turn_seconds=$3 WHERE id=$4",
                preset,
                json.dumps(options),
                turn_seconds,
                game_id,
            )

    async def set_seats(self, game_id: int, seats: list[SeatRecord]) -> None:
        async with self._tx(game_id) as conn:
            await self._write_seats(conn, game_id, seats)

    @staticmethod
    async def _write_seats(conn: Connection, game_id: int, seats: list[SeatRecord]) -> None:
        await conn.execute("DELETE FROM seats WHERE game_id=$1", game_id)
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, dm_closed, shows_hand)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7)",
            [(game_id, s.seat, s.user_id, s.name, s.ai_level, int(s.dm_closed), int(s.shows_hand)) for s in seats],
        )

    async def start_game(
        self,
        game_id: int,
        rules: dict,
        seed: int,
        seats: list[SeatRecord],
        rng_version: int,
        *,
        commitment: str | None = None,
        salt: str | None = None,
        first_deal: DealtDeck | None = None,
    ) -> None:
        async with self._tx(game_id) as conn:
            await self._write_seats(conn, game_id, seats)
            await conn.execute(
                "UPDATE games SET status='playing', rules=$1, seed=$2, rng_version=$3, commitment=$4, salt=$5,"
                f" started_at={NOW} WHERE id=$6",
                json.dumps(rules),
                seed,
                rng_version,
                commitment,
                salt,
                game_id,
            )
            if first_deal is not None:
                await self._write_deal(conn, game_id, first_deal)

    @staticmethod
    async def _write_deal(conn: Connection, game_id: int, deal: DealtDeck) -> None:
        await conn.execute(
            "INSERT INTO deals (game_id, deal, deck) VALUES ($1,$2,$3)", game_id, deal.deal, json.dumps(deal.deck)
        )

    # -- duplicate matches ----------------------------------------------------------------
    async def create_match(
        self, kind: str, code: str, guild_id: int | None, host_id: int, tables: int, seed: int, salt: str
    ) -> MatchRecord:
        async with self._tx() as conn:
            match_id = await conn.fetchval(
                "INSERT INTO matches (kind, code, guild_id, host_id, tables, seed, salt, created_at)"
                f" VALUES ($1,$2,$3,$4,$5,$6,$7,{NOW}) RETURNING id",
                kind,
                code,
                guild_id,
                host_id,
                tables,
                seed,
                salt,
            )
        found = await self.get_match(int(match_id))
        assert found is not None
        return found

    async def get_match(self, match_id: int) -> MatchRecord | None:
        found = await self._fetch("SELECT * FROM matches WHERE id=$1", match_id)
        return rows.match(found[0]) if found else None

    async def match_by_code(self, code: str) -> MatchRecord | None:
        found = await self._fetch("SELECT * FROM matches WHERE code=$1", code)
        return rows.match(found[0]) if found else None

    async def fix_match_rules(self, match_id: int, rules: dict, players: int) -> MatchRecord:
        async with self._tx() as conn:
            await conn.execute(
                "UPDATE matches SET rules=$1, players=$2 WHERE id=$3 AND rules IS NULL",
                json.dumps(rules),
                players,
                match_id,
            )
        found = await self.get_match(match_id)
        assert found is not None
        return found

    async def set_game_match(self, game_id: int, match_id: int) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute("UPDATE games SET match_id=$1 WHERE id=$2", match_id, game_id)

    async def match_games(self, match_id: int) -> list[GameRecord]:
        return await self._records("SELECT * FROM games WHERE match_id=$1 ORDER BY id", match_id)

    # -- play -------------------------------------------------------------------------------
    async def record_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        action: dict,
        *,
        by_ai: bool = False,
        deal_scores: list[DealScore] | None = None,
        results: list[ResultRow] | None = None,
        timer: Timer | None = None,
        deal: DealtDeck | None = None,
    ) -> None:
        async with self._tx(game_id) as conn:
            # Under the game's advisory lock (taken by _tx): no other process can move the game
            # between this check and the commit, so only the next sequence number is ever written.
            last = await conn.fetchval("SELECT MAX(seq) FROM actions WHERE game_id=$1", game_id)
            next_seq = 0 if last is None else int(last) + 1
            if seq != next_seq:
                raise StaleAction(game_id, seq, next_seq)
            # First, as in SQLite: an action already recorded stops the transaction before its extras.
            await conn.execute(
                f"INSERT INTO actions (game_id, seq, seat, action, by_ai, created_at) VALUES ($1,$2,$3,$4,$5,{NOW})",
                game_id,
                seq,
                seat,
                json.dumps(action),
                int(by_ai),
            )
            if deal_scores:
                # SQLite's INSERT OR REPLACE: a deal's score for a seat written again replaces it.
                await conn.executemany(
                    "INSERT INTO deal_scores (game_id, deal, seat, bid, tricks, delta, total)"
                    " VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT (game_id, deal, seat) DO UPDATE SET"
                    " bid=EXCLUDED.bid, tricks=EXCLUDED.tricks, delta=EXCLUDED.delta, total=EXCLUDED.total",
                    [(game_id, d.deal, d.seat, d.bid, d.tricks, d.delta, d.total) for d in deal_scores],
                )
            if deal is not None:
                await self._write_deal(conn, game_id, deal)
            await self._write_timer(conn, game_id, timer)
            if results is not None:
                await self._write_results(conn, game_id, "finished", results)

    @staticmethod
    async def _write_timer(conn: Connection, game_id: int, timer: Timer | None) -> None:
        await conn.execute("DELETE FROM timers WHERE game_id=$1", game_id)
        if timer is not None:
            await conn.execute(
                "INSERT INTO timers (game_id, seq, deadline, reminded) VALUES ($1,$2,$3,$4)",
                game_id,
                timer.seq,
                float(timer.deadline),
                int(timer.reminded),
            )

    @staticmethod
    async def _write_results(conn: Connection, game_id: int, status: str, results: list[ResultRow]) -> None:
        await conn.execute("DELETE FROM results WHERE game_id=$1", game_id)
        await conn.executemany(
            "INSERT INTO results (game_id, seat, user_id, name, place, total, is_loser, stats)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
            [
                (game_id, r.seat, r.user_id, r.name, r.place, r.total, int(r.is_loser), json.dumps(r.stats))
                for r in results
            ],
        )
        await conn.execute("DELETE FROM timers WHERE game_id=$1", game_id)
        await conn.execute(f"UPDATE games SET status=$1, finished_at={NOW} WHERE id=$2", status, game_id)

    async def update_seat(self, game_id: int, seat: SeatRecord) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute(
                "UPDATE seats SET user_id=$1, name=$2, ai_level=$3, dm_closed=$4, shows_hand=$5"
                " WHERE game_id=$6 AND seat=$7",
                seat.user_id,
                seat.name,
                seat.ai_level,
                int(seat.dm_closed),
                int(seat.shows_hand),
                game_id,
                seat.seat,
            )

    async def end_game(self, game_id: int, status: str, results: list[ResultRow] | None = None) -> None:
        async with self._tx(game_id) as conn:
            await self._write_results(conn, game_id, status, results or [])

    # -- timers -----------------------------------------------------------------------------
    async def set_timer(self, timer: Timer | None, game_id: int) -> None:
        async with self._tx(game_id) as conn:
            await self._write_timer(conn, game_id, timer)

    async def timers(self) -> list[Timer]:
        found = await self._fetch("SELECT game_id, seq, deadline, reminded FROM timers ORDER BY game_id")
        return [rows.timer(r) for r in found]

    # -- shard leases -----------------------------------------------------------------------
    async def claim_leases(self, holder: str, shards: list[int], shard_count: int, seconds: float) -> list[Lease]:
        async with self._tx() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", LEASE_LOCK)
            found = await conn.fetch(
                f"SELECT shard, shard_count, holder, expires_at - {EPOCH} AS remaining FROM shard_leases"
                f" WHERE holder != $1 AND expires_at > {EPOCH} ORDER BY shard",
                holder,
            )
            others = [Lease(r["shard"], r["shard_count"], r["holder"], float(r["remaining"])) for r in found]
            blocking = [lease for lease in others if lease.shard in shards or lease.shard_count != shard_count]
            if blocking:
                return blocking
            await conn.execute("DELETE FROM shard_leases WHERE holder=$1", holder)
            await conn.executemany(
                "INSERT INTO shard_leases (shard, shard_count, holder, expires_at)"
                f" VALUES ($1, $2, $3, {EPOCH} + $4) ON CONFLICT (shard) DO UPDATE SET"
                " shard_count=EXCLUDED.shard_count, holder=EXCLUDED.holder, expires_at=EXCLUDED.expires_at",
                [(shard, shard_count, holder, float(seconds)) for shard in shards],
            )
            return []

    async def renew_leases(self, holder: str, seconds: float) -> list[int]:
        async with self._tx() as conn:
            await conn.execute(
                f"UPDATE shard_leases SET expires_at={EPOCH} + $1 WHERE holder=$2", float(seconds), holder
            )
            found = await conn.fetch("SELECT shard FROM shard_leases WHERE holder=$1 ORDER BY shard", holder)
            return [int(r["shard"]) for r in found]

    async def release_leases(self, holder: str) -> None:
        async with self._tx() as conn:
            await conn.execute("DELETE FROM shard_leases WHERE holder=$1", holder)

    # -- reading ----------------------------------------------------------------------------
    async def game_versions(self, game_ids: list[int]) -> dict[int, GameVersion]:
        if not game_ids:
            return {}
        found = await self._fetch(
            "SELECT g.id, g.status, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) AS n"
            " FROM games g WHERE g.id = ANY($1::BIGINT[])",
            list(game_ids),
        )
        return {int(r["id"]): GameVersion(r["status"], int(r["n"])) for r in found}

    @staticmethod
    async def _record(conn: Connection, row: asyncpg.Record) -> GameRecord:
        game_id = row["id"]
        return rows.game(
            row,
            await conn.fetch("SELECT * FROM seats WHERE game_id=$1 ORDER BY seat", game_id),
            await conn.fetch("SELECT seat, action FROM actions WHERE game_id=$1 ORDER BY seq", game_id),
        )

    async def _records(self, sql: str, *args: Any) -> list[GameRecord]:
        async with self._read() as conn:
            return [await self._record(conn, row) for row in await conn.fetch(sql, *args)]

    async def get_game(self, game_id: int) -> GameRecord | None:
        records = await self._records("SELECT * FROM games WHERE id=$1", game_id)
        return records[0] if records else None

    async def live_games(self) -> list[GameRecord]:
        return await self._records("SELECT * FROM games WHERE status IN ('lobby','playing') ORDER BY id")

    async def unshown_finales(self) -> list[GameRecord]:
        return await self._records("SELECT * FROM games WHERE status='finished' AND finale_shown=0 ORDER BY id")

    async def set_finale_shown(self, game_id: int) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute("UPDATE games SET finale_shown=1 WHERE id=$1", game_id)

    async def save_old_copy(self, copy: OldCopy) -> None:
        async with self._tx(copy.game_id) as conn:
            await conn.execute(
                "INSERT INTO old_copies (game_id, message_id, look, after_post) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (game_id, message_id) DO UPDATE SET look=excluded.look, after_post=excluded.after_post",
                copy.game_id,
                copy.message_id,
                json.dumps(copy.look),
                int(copy.after_post),
            )

    async def drop_old_copy(self, game_id: int, message_id: int) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute("DELETE FROM old_copies WHERE game_id=$1 AND message_id=$2", game_id, message_id)

    async def old_copies(self) -> list[OldCopy]:
        found = await self._fetch(
            "SELECT game_id, message_id, look, after_post FROM old_copies ORDER BY game_id, message_id"
        )
        return [OldCopy(r["game_id"], r["message_id"], json.loads(r["look"]), bool(r["after_post"])) for r in found]

    async def save_panels(self, panels: list[SavedPanel]) -> None:
        async with self._tx() as conn:
            await conn.executemany(
                "INSERT INTO panels (game_id, seat, application_id, token, message_id, opened) "
                "VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET application_id=excluded.application_id, "
                "token=excluded.token, message_id=excluded.message_id, opened=excluded.opened",
                [(p.game_id, p.seat, p.application_id, p.token, p.message_id, p.opened) for p in panels],
            )

    async def take_panels(self, game_ids: list[int]) -> list[SavedPanel]:
        if not game_ids:
            return []
        async with self._tx() as conn:
            rows = await conn.fetch(
                "DELETE FROM panels WHERE game_id = ANY($1::bigint[]) "
                "RETURNING game_id, seat, application_id, token, message_id, opened",
                game_ids,
            )
        return [SavedPanel(*row) for row in rows]

    async def last_game(self, channel_id: int, kind: str) -> GameRecord | None:
        records = await self._records(
            "SELECT * FROM games WHERE channel_id=$1 AND kind=$2 AND status != 'lobby' ORDER BY id DESC LIMIT 1",
            channel_id,
            kind,
        )
        return records[0] if records else None

    async def deal_scores(self, game_id: int) -> list[DealScore]:
        found = await self._fetch(
            "SELECT deal, seat, bid, tricks, delta, total FROM deal_scores WHERE game_id=$1 ORDER BY deal, seat",
            game_id,
        )
        return [rows.deal_score(r) for r in found]

    async def deals(self, game_id: int) -> list[DealtDeck]:
        found = await self._fetch("SELECT deal, deck FROM deals WHERE game_id=$1 ORDER BY deal", game_id)
        return [rows.dealt_deck(r) for r in found]

    async def results(self, game_id: int) -> list[ResultRow]:
        found = await self._fetch("SELECT * FROM results WHERE game_id=$1 ORDER BY place, seat", game_id)
        return [rows.result(r) for r in found]

    async def member_stats(self, user_id: int, guild_id: int | None) -> list[MemberStats]:
        # SUM over BIGINT is NUMERIC in PostgreSQL: cast back so the figures are ints as in SQLite.
        # COLLATE "C" orders kinds byte by byte, as SQLite's BINARY collation does.
        found = await self._fetch(
            "SELECT g.kind AS kind, COUNT(*) AS games,"
            " COUNT(*) FILTER (WHERE r.place = 1 AND r.is_loser = 0) AS wins,"
            " COALESCE(SUM(r.is_loser), 0)::BIGINT AS losses, MAX(r.total) AS best,"
            " COALESCE(SUM(r.total), 0)::BIGINT AS points"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE r.user_id=$1 AND g.status='finished' AND ($2::BIGINT IS NULL OR g.guild_id=$2)"
            ' GROUP BY g.kind ORDER BY g.kind COLLATE "C"',
            user_id,
            guild_id,
        )
        return [rows.member_stats(r) for r in found]

    # -- ratings, history and profiles (cogs/stats) -------------------------------------------
    async def finished_games(
        self,
        guild_id: int | None,
        kind: str | None = None,
        *,
        limit: int | None = None,
        newest_first: bool = False,
        unrated_only: bool = False,
    ) -> list[FinishedGame]:
        order = "DESC" if newest_first else "ASC"
        unrated = " AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id)" if unrated_only else ""
        async with self._read() as conn:
            games = await conn.fetch(
                "SELECT g.id, g.kind, g.guild_id, g.preset, g.finished_at FROM games g"
                " WHERE g.status='finished' AND COALESCE(g.guild_id, 0)=$1 AND ($2::TEXT IS NULL OR g.kind=$2)"
                " AND EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)" + unrated + ""
                f' ORDER BY g.finished_at COLLATE "C" {order}, g.id {order} LIMIT $3',
                guild_id or 0,
                kind,
                limit,
            )
            if not games:
                return []
            ids = [g["id"] for g in games]
            results = await conn.fetch(
                "SELECT * FROM results WHERE game_id = ANY($1::BIGINT[]) ORDER BY place, seat", ids
            )
            seats = await conn.fetch(
                "SELECT game_id, seat, ai_level FROM seats WHERE game_id = ANY($1::BIGINT[]) ORDER BY seat", ids
            )
        return [
            rows.finished_game(
                g,
                [r for r in results if r["game_id"] == g["id"]],
                [s for s in seats if s["game_id"] == g["id"]],
            )
            for g in games
        ]

    async def ratings(self, guild_id: int | None, kind: str, season: str | None = None) -> list[RatingRow]:
        found = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id=$1 AND kind=$2 AND ($3::TEXT IS NULL OR season=$3)"
            ' ORDER BY season COLLATE "C", identity COLLATE "C"',
            guild_id or 0,
            kind,
            season,
        )
        return [rows.rating(r) for r in found]

    async def save_ratings(
        self,
        guild_id: int | None,
        kind: str,
        rows: list[RatingRow],
        changes: list[RatingChange],
        *,
        replace: bool = False,
    ) -> None:
        async with self._tx() as conn:
            if replace:
                await conn.execute("DELETE FROM ratings WHERE guild_id=$1 AND kind=$2", guild_id or 0, kind)
                await conn.execute(
                    "DELETE FROM rating_changes WHERE game_id IN"
                    " (SELECT id FROM games WHERE COALESCE(guild_id, 0)=$1 AND kind=$2)",
                    guild_id or 0,
                    kind,
                )
            if rows:
                await conn.executemany(RATING_UPSERT, [rating_values(r) for r in rows])
            if changes:
                await conn.executemany(RATING_CHANGE_INSERT, [change_values(c) for c in changes])

    async def rating_changes(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[RatingChange]:
        found = await self._fetch(
            "SELECT c.* FROM rating_changes c JOIN games g ON g.id = c.game_id"
            " WHERE COALESCE(g.guild_id, 0)=$1 AND g.kind=$2 AND ($3::TEXT IS NULL OR c.identity=$3)"
            ' ORDER BY g.finished_at COLLATE "C", g.id, c.seat',
            guild_id or 0,
            kind,
            identity,
        )
        return [rows.rating_change(r) for r in found]

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        found = await self._fetch("SELECT season, min_games FROM guild_settings WHERE guild_id=$1", guild_id or 0)
        return GuildSettings(found[0]["season"], found[0]["min_games"]) if found else GuildSettings()

    async def set_guild_settings(self, guild_id: int | None, settings: GuildSettings) -> None:
        async with self._tx() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, season, min_games) VALUES ($1,$2,$3) ON CONFLICT (guild_id)"
                " DO UPDATE SET season=excluded.season, min_games=excluded.min_games",
                guild_id or 0,
                settings.season,
                settings.min_games,
            )

    async def member_games(self, user_id: int, guild_id: int | None) -> list[MemberGame]:
        found = await self._fetch(MEMBER_GAMES, user_id, guild_id or 0)
        return [rows.member_game(r) for r in found]

    async def analysis(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        found = await self._fetch("SELECT version, data FROM analyses WHERE game_id=$1", game_id)
        return (found[0]["version"], json.loads(found[0]["data"])) if found else None

    async def save_analysis(self, game_id: int, version: int, data: dict[str, Any]) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute(ANALYSIS_UPSERT, game_id, version, json.dumps(data))


class UrlTarget:
    """What a PostgreSQL URL points at, for messages (the password never shows)."""

    __slots__ = ("where", "user", "database", "shown")

    def __init__(self, where: str, user: str, database: str, shown: str) -> None:
        self.where, self.user, self.database, self.shown = where, user, database, shown


def describe_url(url: str) -> UrlTarget:
    """Check that ``url`` is a PostgreSQL URL; :class:`StoreConfigError` in one sentence if it is not."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise StoreConfigError(
            f"DATABASE_URL {_hide_password(url)!r} cannot be parsed ({error}):"
            " write it as postgresql://user:password@host:port/database."
        ) from None
    shown = _hide_password(url)
    if parts.scheme not in SCHEMES:
        raise StoreConfigError(
            f"DATABASE_URL {shown!r} is not a PostgreSQL URL: write it as"
            " postgresql://user:password@host:port/database, or leave it unset to use SQLite."
        )
    user = unquote(parts.username or "") or "(your login name)"
    database = unquote(parts.path.lstrip("/")) or user
    host = parts.hostname or "localhost"
    return UrlTarget(f"{host}:{port or 5432}", user, database, shown)


def _hide_password(url: str) -> str:
    try:
        parts = urlsplit(url.strip())
        if parts.password is None:
            return url.strip()
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "<unparsable URL>"


def _reason(error: BaseException) -> str:
    if isinstance(error, asyncio.TimeoutError):
        return "timed out"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error).strip().splitlines()[0].rstrip(".") if str(error).strip() else type(error).__name__
