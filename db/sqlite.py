"""SQLite implementation of :class:`db.store.Store` through aiosqlite (WAL, numbered migrations).

All writes go through :meth:`SqliteStore._tx`, which holds one lock for the connection and wraps
the work in ``BEGIN IMMEDIATE … COMMIT`` so an action and everything it finished land together or
not at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from db import rows
from db.dialects import migration_files, split_sql
from db.stats_sql import (
    ANALYSIS_UPSERT,
    MEMBER_GAMES,
    RATING_CHANGE_INSERT,
    RATING_UPSERT,
    change_values,
    qmarks,
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

log = logging.getLogger(__name__)

#: aiosqlite logs every statement it runs *with its parameters* at DEBUG, and among them are a
#: game's deal seed and salt, secret until the game is over (issue 16): its logger stays at INFO
#: even when the bot runs with LOG_LEVEL=DEBUG.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

# Timestamps are the database's own clock: they are records, never game clocks.
NOW = "strftime('%Y-%m-%dT%H:%M:%SZ','now')"
#: the database's clock in POSIX seconds, for leases (every process sharing the file reads one clock)
EPOCH = "((julianday('now') - 2440587.5) * 86400.0)"


def migrations() -> list[tuple[int, str]]:
    """The numbered ``db/migrations/NNNN_name.sql`` files, in order (SQLite runs them as written)."""
    return [(m.number, m.sql) for m in migration_files()]


#: what ``PRAGMA synchronous`` may be set to. FULL (the default) syncs the write-ahead log at every
#: commit, so a move the bot has acknowledged survives a power cut; NORMAL syncs only at
#: checkpoints (faster, but an OS crash or power cut can lose the last acknowledged moves).
SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")


class SqliteStore:
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
                await _run(self._db, "PRAGMA journal_mode=WAL")
            await _run(self._db, "PRAGMA foreign_keys=ON")
            await _run(self._db, f"PRAGMA synchronous={self.synchronous}")
            await self._migrate()
        except BaseException as error:
            await self.close()  # aiosqlite's thread would keep the process alive after the error
            if isinstance(error, sqlite3.DatabaseError | StoreError) and not isinstance(error, StoreConfigError):
                # e.g. "file is not a database", a read-only file or a full disk while migrating
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
            async with db.execute("PRAGMA user_version") as cursor:
                row = await cursor.fetchone()
            version = int(row[0]) if row is not None else 0
            if version > latest:
                raise StoreConfigError(
                    f"The database {self.path!r} was written by a newer version of Card Table (schema {version};"
                    f" this code knows up to {latest}): update the code, or point DATABASE_PATH at another file."
                )
            for number, sql in known:
                if number <= version:
                    continue
                for statement in split_sql(sql):
                    await _run(db, statement)
                await _run(db, f"PRAGMA user_version={number}")

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction. Every SQLite error in it, at BEGIN and COMMIT too (a full disk
        or a locked file fails there as often as in the writes), becomes a :class:`StoreError`
        (integrity errors a :class:`StoreConflict`) after rolling back: nothing of it was saved."""
        async with self._lock:
            db = self.db
            try:
                await _run(db, "BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                await _rollback(db)
                raise _store_error(error) from error
            try:
                yield db
            except BaseException as error:
                await _rollback(db)
                if isinstance(error, sqlite3.Error):
                    raise _store_error(error) from error
                raise
            try:
                await _run(db, "COMMIT")
            except BaseException as error:
                # A failed COMMIT may leave the transaction open (SQLite rolls back only some
                # errors by itself): roll it back, or the next BEGIN would fail too.
                await _rollback(db)
                if isinstance(error, sqlite3.Error):
                    raise _store_error(error) from error
                raise

    async def _fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        async with self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # -- lobby ------------------------------------------------------------------------------
    async def create_game(
        self, kind: str, guild_id: int | None, channel_id: int, host_id: int, preset: str, options: dict[str, Any]
    ) -> int:
        try:
            async with self._tx() as db:
                async with db.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, host_id, status, preset, options,"
                    f" created_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, {NOW})",
                    (kind, guild_id, channel_id, host_id, preset, json.dumps(options)),
                ) as cursor:
                    assert cursor.lastrowid is not None
                    return int(cursor.lastrowid)
        except StoreConflict:
            rows = await self._fetchall(
                "SELECT id FROM games WHERE channel_id=? AND status IN ('lobby','playing')", (channel_id,)
            )
            raise ChannelBusy(rows[0]["id"] if rows else 0) from None

    async def set_message(self, game_id: int, message_id: int | None, key: str | None = None) -> None:
        async with self._tx() as db:
            await _run(db, "UPDATE games SET message_id=?, message_key=? WHERE id=?", (message_id, key, game_id))

    async def set_options(self, game_id: int, preset: str, options: dict[str, Any], turn_seconds: int | None) -> None:
        async with self._tx() as db:
            await _run(
                db,
                "UPDATE games SET preset=?, options=?, turn_seconds=? WHERE id=?",
                (preset, json.dumps(options), turn_seconds, game_id),
            )

    async def set_seats(self, game_id: int, seats: list[SeatRecord]) -> None:
        async with self._tx() as db:
            await self._write_seats(db, game_id, seats)

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int, seats: list[SeatRecord]) -> None:
        await _run(db, "DELETE FROM seats WHERE game_id=?", (game_id,))
        await _run_many(
            db,
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, dm_closed, shows_hand) VALUES (?,?,?,?,?,?,?)",
            [(game_id, s.seat, s.user_id, s.name, s.ai_level, int(s.dm_closed), int(s.shows_hand)) for s in seats],
        )

    async def start_game(
        self,
        game_id: int,
        rules: dict[str, Any],
        seed: int,
        seats: list[SeatRecord],
        rng_version: int,
        *,
        commitment: str | None = None,
        salt: str | None = None,
        first_deal: DealtDeck | None = None,
    ) -> None:
        async with self._tx() as db:
            await self._write_seats(db, game_id, seats)
            await _run(
                db,
                "UPDATE games SET status='playing', rules=?, seed=?, rng_version=?, commitment=?, salt=?,"
                f" started_at={NOW} WHERE id=?",
                (json.dumps(rules), seed, rng_version, commitment, salt, game_id),
            )
            if first_deal is not None:
                await self._write_deal(db, game_id, first_deal)

    @staticmethod
    async def _write_deal(db: aiosqlite.Connection, game_id: int, deal: DealtDeck) -> None:
        await _run(
            db, "INSERT INTO deals (game_id, deal, deck) VALUES (?,?,?)", (game_id, deal.deal, json.dumps(deal.deck))
        )

    # -- duplicate matches ----------------------------------------------------------------
    async def create_match(
        self, kind: str, code: str, guild_id: int | None, host_id: int, tables: int, seed: int, salt: str
    ) -> MatchRecord:
        async with self._tx() as db:
            async with db.execute(
                "INSERT INTO matches (kind, code, guild_id, host_id, tables, seed, salt, created_at)"
                f" VALUES (?,?,?,?,?,?,?,{NOW})",
                (kind, code, guild_id, host_id, tables, seed, salt),
            ) as cursor:
                assert cursor.lastrowid is not None
                match_id = int(cursor.lastrowid)
        found = await self.get_match(match_id)
        assert found is not None
        return found

    async def get_match(self, match_id: int) -> MatchRecord | None:
        found = await self._fetchall("SELECT * FROM matches WHERE id=?", (match_id,))
        return rows.match(found[0]) if found else None

    async def match_by_code(self, code: str) -> MatchRecord | None:
        found = await self._fetchall("SELECT * FROM matches WHERE code=?", (code,))
        return rows.match(found[0]) if found else None

    async def fix_match_rules(self, match_id: int, rules: dict[str, Any], players: int) -> MatchRecord:
        async with self._tx() as db:
            await _run(
                db,
                "UPDATE matches SET rules=?, players=? WHERE id=? AND rules IS NULL",
                (json.dumps(rules), players, match_id),
            )
        found = await self.get_match(match_id)
        assert found is not None
        return found

    async def set_game_match(self, game_id: int, match_id: int) -> None:
        async with self._tx() as db:
            await _run(db, "UPDATE games SET match_id=? WHERE id=?", (match_id, game_id))

    async def match_games(self, match_id: int) -> list[GameRecord]:
        found = await self._fetchall("SELECT * FROM games WHERE match_id=? ORDER BY id", (match_id,))
        return [await self._record(r) for r in found]

    # -- play -------------------------------------------------------------------------------
    async def record_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        *,
        by_ai: bool = False,
        deal_scores: list[DealScore] | None = None,
        results: list[ResultRow] | None = None,
        timer: Timer | None = None,
        deal: DealtDeck | None = None,
    ) -> None:
        async with self._tx() as db:
            # Inside BEGIN IMMEDIATE, so no other writer (task or process) can move the game meanwhile.
            async with db.execute("SELECT MAX(seq) FROM actions WHERE game_id=?", (game_id,)) as cursor:
                row = await cursor.fetchone()
            next_seq = 0 if row is None or row[0] is None else int(row[0]) + 1
            if seq != next_seq:
                raise StaleAction(game_id, seq, next_seq)
            await _run(
                db,
                f"INSERT INTO actions (game_id, seq, seat, action, by_ai, created_at) VALUES (?,?,?,?,?,{NOW})",
                (game_id, seq, seat, json.dumps(action), int(by_ai)),
            )
            if deal_scores:
                await _run_many(
                    db,
                    "INSERT OR REPLACE INTO deal_scores (game_id, deal, seat, bid, tricks, delta, total)"
                    " VALUES (?,?,?,?,?,?,?)",
                    [(game_id, d.deal, d.seat, d.bid, d.tricks, d.delta, d.total) for d in deal_scores],
                )
            if deal is not None:
                await self._write_deal(db, game_id, deal)
            await self._write_timer(db, game_id, timer)
            if results is not None:
                await self._write_results(db, game_id, "finished", results)

    @staticmethod
    async def _write_timer(db: aiosqlite.Connection, game_id: int, timer: Timer | None) -> None:
        await _run(db, "DELETE FROM timers WHERE game_id=?", (game_id,))
        if timer is not None:
            await _run(
                db,
                "INSERT INTO timers (game_id, seq, deadline, reminded) VALUES (?,?,?,?)",
                (game_id, timer.seq, timer.deadline, int(timer.reminded)),
            )

    @staticmethod
    async def _write_results(db: aiosqlite.Connection, game_id: int, status: str, results: list[ResultRow]) -> None:
        await _run(db, "DELETE FROM results WHERE game_id=?", (game_id,))
        await _run_many(
            db,
            "INSERT INTO results (game_id, seat, user_id, name, place, total, is_loser, stats)"
            " VALUES (?,?,?,?,?,?,?,?)",
            [
                (game_id, r.seat, r.user_id, r.name, r.place, r.total, int(r.is_loser), json.dumps(r.stats))
                for r in results
            ],
        )
        await _run(db, "DELETE FROM timers WHERE game_id=?", (game_id,))
        await _run(db, f"UPDATE games SET status=?, finished_at={NOW} WHERE id=?", (status, game_id))

    async def update_seat(self, game_id: int, seat: SeatRecord) -> None:
        async with self._tx() as db:
            await _run(
                db,
                "UPDATE seats SET user_id=?, name=?, ai_level=?, dm_closed=?, shows_hand=? WHERE game_id=? AND seat=?",
                (seat.user_id, seat.name, seat.ai_level, int(seat.dm_closed), int(seat.shows_hand), game_id, seat.seat),
            )

    async def end_game(self, game_id: int, status: str, results: list[ResultRow] | None = None) -> None:
        async with self._tx() as db:
            await self._write_results(db, game_id, status, results or [])

    # -- timers -----------------------------------------------------------------------------
    async def set_timer(self, timer: Timer | None, game_id: int) -> None:
        async with self._tx() as db:
            await self._write_timer(db, game_id, timer)

    async def timers(self) -> list[Timer]:
        found = await self._fetchall("SELECT game_id, seq, deadline, reminded FROM timers")
        return [rows.timer(r) for r in found]

    # -- shard leases -----------------------------------------------------------------------
    async def claim_leases(self, holder: str, shards: list[int], shard_count: int, seconds: float) -> list[Lease]:
        async with self._tx() as db:
            async with db.execute(
                f"SELECT shard, shard_count, holder, expires_at - {EPOCH} AS remaining FROM shard_leases"
                f" WHERE holder != ? AND expires_at > {EPOCH} ORDER BY shard",
                (holder,),
            ) as cursor:
                others = [Lease(r[0], r[1], r[2], float(r[3])) for r in await cursor.fetchall()]
            blocking = [lease for lease in others if lease.shard in shards or lease.shard_count != shard_count]
            if blocking:
                return blocking
            await _run(db, "DELETE FROM shard_leases WHERE holder=?", (holder,))
            await _run_many(
                db,
                "INSERT OR REPLACE INTO shard_leases (shard, shard_count, holder, expires_at)"
                f" VALUES (?, ?, ?, {EPOCH} + ?)",
                [(shard, shard_count, holder, seconds) for shard in shards],
            )
            return []

    async def renew_leases(self, holder: str, seconds: float) -> list[int]:
        async with self._tx() as db:
            await _run(db, f"UPDATE shard_leases SET expires_at={EPOCH} + ? WHERE holder=?", (seconds, holder))
            async with db.execute("SELECT shard FROM shard_leases WHERE holder=? ORDER BY shard", (holder,)) as cursor:
                return [int(r[0]) for r in await cursor.fetchall()]

    async def release_leases(self, holder: str) -> None:
        async with self._tx() as db:
            await _run(db, "DELETE FROM shard_leases WHERE holder=?", (holder,))

    # -- reading ----------------------------------------------------------------------------
    async def game_versions(self, game_ids: list[int]) -> dict[int, GameVersion]:
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        found = await self._fetchall(
            "SELECT g.id, g.status, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) AS n"
            f" FROM games g WHERE g.id IN ({marks})",
            tuple(game_ids),
        )
        return {int(r[0]): GameVersion(r[1], int(r[2])) for r in found}

    async def _record(self, row: sqlite3.Row) -> GameRecord:
        game_id = row["id"]
        return rows.game(
            row,
            await self._fetchall("SELECT * FROM seats WHERE game_id=? ORDER BY seat", (game_id,)),
            await self._fetchall("SELECT seat, action FROM actions WHERE game_id=? ORDER BY seq", (game_id,)),
        )

    async def get_game(self, game_id: int) -> GameRecord | None:
        rows = await self._fetchall("SELECT * FROM games WHERE id=?", (game_id,))
        return await self._record(rows[0]) if rows else None

    async def live_games(self) -> list[GameRecord]:
        rows = await self._fetchall("SELECT * FROM games WHERE status IN ('lobby','playing') ORDER BY id")
        return [await self._record(r) for r in rows]

    async def unshown_finales(self) -> list[GameRecord]:
        rows = await self._fetchall("SELECT * FROM games WHERE status='finished' AND finale_shown=0 ORDER BY id")
        return [await self._record(r) for r in rows]

    async def set_finale_shown(self, game_id: int) -> None:
        async with self._tx() as db:
            await _run(db, "UPDATE games SET finale_shown=1 WHERE id=?", (game_id,))

    async def save_old_copy(self, copy: OldCopy) -> None:
        async with self._tx() as db:
            await _run(
                db,
                "INSERT INTO old_copies (game_id, message_id, look, after_post) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, message_id) DO UPDATE SET look=excluded.look, after_post=excluded.after_post",
                (copy.game_id, copy.message_id, json.dumps(copy.look), int(copy.after_post)),
            )

    async def drop_old_copy(self, game_id: int, message_id: int) -> None:
        async with self._tx() as db:
            await _run(db, "DELETE FROM old_copies WHERE game_id=? AND message_id=?", (game_id, message_id))

    async def old_copies(self) -> list[OldCopy]:
        found = await self._fetchall(
            "SELECT game_id, message_id, look, after_post FROM old_copies ORDER BY game_id, message_id"
        )
        return [OldCopy(r["game_id"], r["message_id"], json.loads(r["look"]), bool(r["after_post"])) for r in found]

    async def save_panels(self, panels: list[SavedPanel]) -> None:
        async with self._tx() as db:
            for p in panels:
                await _run(
                    db,
                    "INSERT INTO panels (game_id, seat, application_id, token, message_id, opened) "
                    "VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET application_id=excluded.application_id, "
                    "token=excluded.token, message_id=excluded.message_id, opened=excluded.opened",
                    (p.game_id, p.seat, p.application_id, p.token, p.message_id, p.opened),
                )

    async def take_panels(self, game_ids: list[int]) -> list[SavedPanel]:
        if not game_ids:
            return []
        marks = ", ".join("?" * len(game_ids))
        async with self._tx() as db:
            cursor = await db.execute(
                "SELECT game_id, seat, application_id, token, message_id, opened FROM panels "
                f"WHERE game_id IN ({marks})",
                game_ids,
            )
            found = [SavedPanel(*row) for row in await cursor.fetchall()]
            await _run(db, f"DELETE FROM panels WHERE game_id IN ({marks})", tuple(game_ids))
        return found

    async def last_game(self, channel_id: int, kind: str) -> GameRecord | None:
        rows = await self._fetchall(
            "SELECT * FROM games WHERE channel_id=? AND kind=? AND status != 'lobby' ORDER BY id DESC LIMIT 1",
            (channel_id, kind),
        )
        return await self._record(rows[0]) if rows else None

    async def deal_scores(self, game_id: int) -> list[DealScore]:
        found = await self._fetchall(
            "SELECT deal, seat, bid, tricks, delta, total FROM deal_scores WHERE game_id=? ORDER BY deal, seat",
            (game_id,),
        )
        return [rows.deal_score(r) for r in found]

    async def deals(self, game_id: int) -> list[DealtDeck]:
        found = await self._fetchall("SELECT deal, deck FROM deals WHERE game_id=? ORDER BY deal", (game_id,))
        return [rows.dealt_deck(r) for r in found]

    async def results(self, game_id: int) -> list[ResultRow]:
        found = await self._fetchall("SELECT * FROM results WHERE game_id=? ORDER BY place, seat", (game_id,))
        return [rows.result(r) for r in found]

    async def member_stats(self, user_id: int, guild_id: int | None) -> list[MemberStats]:
        found = await self._fetchall(
            "SELECT g.kind AS kind, COUNT(*) AS games, SUM(r.place = 1 AND NOT r.is_loser) AS wins,"
            " SUM(r.is_loser) AS losses, MAX(r.total) AS best, COALESCE(SUM(r.total), 0) AS points"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE r.user_id=? AND g.status='finished' AND (? IS NULL OR g.guild_id=?)"
            " GROUP BY g.kind ORDER BY g.kind",
            (user_id, guild_id, guild_id),
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
        games = await self._fetchall(
            "SELECT g.id, g.kind, g.guild_id, g.preset, g.finished_at FROM games g"
            " WHERE g.status='finished' AND COALESCE(g.guild_id, 0)=? AND (? IS NULL OR g.kind=?)"
            " AND EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)" + unrated + ""
            f" ORDER BY g.finished_at {order}, g.id {order} LIMIT ?",
            (guild_id or 0, kind, kind, -1 if limit is None else limit),
        )
        if not games:
            return []
        ids = [g["id"] for g in games]
        marks = ",".join("?" * len(ids))
        results = await self._fetchall(
            f"SELECT * FROM results WHERE game_id IN ({marks}) ORDER BY place, seat", tuple(ids)
        )
        seats = await self._fetchall(
            f"SELECT game_id, seat, ai_level FROM seats WHERE game_id IN ({marks}) ORDER BY seat", tuple(ids)
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
        found = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id=? AND kind=? AND (? IS NULL OR season=?) ORDER BY season, identity",
            (guild_id or 0, kind, season, season),
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
        async with self._tx() as db:
            if replace:
                await _run(db, "DELETE FROM ratings WHERE guild_id=? AND kind=?", (guild_id or 0, kind))
                await _run(
                    db,
                    "DELETE FROM rating_changes WHERE game_id IN"
                    " (SELECT id FROM games WHERE COALESCE(guild_id, 0)=? AND kind=?)",
                    (guild_id or 0, kind),
                )
            await _run_many(db, qmarks(RATING_UPSERT), [rating_values(r) for r in rows])
            await _run_many(
                db,
                qmarks(RATING_CHANGE_INSERT),
                [change_values(c) for c in changes],
            )

    async def rating_changes(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[RatingChange]:
        found = await self._fetchall(
            "SELECT c.* FROM rating_changes c JOIN games g ON g.id = c.game_id"
            " WHERE COALESCE(g.guild_id, 0)=? AND g.kind=? AND (? IS NULL OR c.identity=?)"
            " ORDER BY g.finished_at, g.id, c.seat",
            (guild_id or 0, kind, identity, identity),
        )
        return [rows.rating_change(r) for r in found]

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        found = await self._fetchall("SELECT season, min_games FROM guild_settings WHERE guild_id=?", (guild_id or 0,))
        return GuildSettings(found[0]["season"], found[0]["min_games"]) if found else GuildSettings()

    async def set_guild_settings(self, guild_id: int | None, settings: GuildSettings) -> None:
        async with self._tx() as db:
            await _run(
                db,
                "INSERT INTO guild_settings (guild_id, season, min_games) VALUES (?,?,?) ON CONFLICT (guild_id)"
                " DO UPDATE SET season=excluded.season, min_games=excluded.min_games",
                (guild_id or 0, settings.season, settings.min_games),
            )

    async def member_games(self, user_id: int, guild_id: int | None) -> list[MemberGame]:
        found = await self._fetchall(qmarks(MEMBER_GAMES), (user_id, guild_id or 0))
        return [rows.member_game(r) for r in found]

    async def analysis(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        found = await self._fetchall("SELECT version, data FROM analyses WHERE game_id=?", (game_id,))
        return (found[0]["version"], json.loads(found[0]["data"])) if found else None

    async def save_analysis(self, game_id: int, version: int, data: dict[str, Any]) -> None:
        async with self._tx() as db:
            await _run(db, qmarks(ANALYSIS_UPSERT), (game_id, version, json.dumps(data)))


def _store_error(error: sqlite3.Error) -> StoreError:
    if isinstance(error, sqlite3.IntegrityError):
        return StoreConflict(str(error))
    return StoreError(str(error))


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back whatever is open; a failure to do so leaves nothing more to undo here."""
    if not db.in_transaction:
        return
    try:
        await _run(db, "ROLLBACK")
    except sqlite3.Error as error:
        log.warning("rolling back failed: %s", error)


def _try_to_open(path: str) -> None:
    sqlite3.connect(path).close()


async def _run(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Execute and close the cursor at once: an open cursor blocks COMMIT."""
    async with db.execute(sql, params):
        pass


async def _run_many(db: aiosqlite.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    async with db.executemany(sql, rows):
        pass
