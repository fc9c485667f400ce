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

The store is four modules along its seams: :mod:`db.postgres_pool` (the pool, the migrations and
the transactions), :mod:`db.postgres_stats` (ratings, history, profiles), :mod:`db.postgres_matches`
(duplicate matches) and this one (lobbies, games, timers, leases); :mod:`db.postgres_url` checks
and shows the URL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped,unused-ignore]

from db import rows
from db.errors import ChannelBusy, OutcomeUnknown, StaleAction, StoreConflict, StoreError
from db.postgres_matches import PostgresMatches
from db.postgres_pool import DRIVER_ERRORS, EPOCH, LEASE_LOCK, NOW, Connection
from db.postgres_seats import PostgresSeats
from db.postgres_stats import PostgresStats
from db.records import (
    DealScore,
    DealtDeck,
    GameRecord,
    GameVersion,
    Lease,
    MessageNotes,
    OldCopy,
    RatingUpdate,
    ResultRow,
    SavedPanel,
    SeatRecord,
    Timer,
)
from db.stats_sql import NEVER_STARTED

#: how long finding out whether a move was saved may take, after its connection failed (seconds)
SETTLE_TIMEOUT = 5.0


class PostgresStore(PostgresMatches, PostgresStats, PostgresSeats):
    """The store on a PostgreSQL server; ``url`` is a ``postgresql://user:password@host:port/database`` URL.

    ``schema``, if given, is the schema (created if missing) the tables live in; by default they
    live in the connection's usual search path (``public``).
    """

    # -- lobby ------------------------------------------------------------------------------
    async def create_game(
        self, kind: str, guild_id: int | None, channel_id: int, host_id: int, preset: str, options: dict[str, Any]
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

    async def set_message(
        self, game_id: int, message_id: int | None, key: str | None = None, *, closed: Sequence[int] = ()
    ) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute("UPDATE games SET message_id=$1, message_key=$2 WHERE id=$3", message_id, key, game_id)
            await self._drop_old_copies(conn, game_id, closed)

    async def set_options(self, game_id: int, preset: str, options: dict[str, Any], turn_seconds: int | None) -> None:
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
        rules: dict[str, Any],
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

    async def reserve_start(
        self, game_id: int, seed: int, salt: str, commitment: str, rng_version: int, beacon_round: int
    ) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute(
                "UPDATE games SET seed=$1, salt=$2, commitment=$3, rng_version=$4, beacon_round=$5"
                " WHERE id=$6 AND status='lobby'",
                seed,
                salt,
                commitment,
                rng_version,
                beacon_round,
                game_id,
            )

    async def set_beacon(
        self,
        game_id: int,
        *,
        signature: str | None,
        note: str | None,
        message_id: int | None,
        beacon_round: int | None = None,
    ) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute(
                "UPDATE games SET beacon_signature=$1, beacon_note=$2,"
                " beacon_message_id=COALESCE($3, beacon_message_id), beacon_round=COALESCE($4, beacon_round)"
                " WHERE id=$5",
                signature,
                note,
                message_id,
                beacon_round,
                game_id,
            )

    @staticmethod
    async def _write_deal(conn: Connection, game_id: int, deal: DealtDeck) -> None:
        await conn.execute(
            "INSERT INTO deals (game_id, deal, deck) VALUES ($1,$2,$3)", game_id, deal.deal, json.dumps(deal.deck)
        )

    # -- a duplicate match's tables (the matches themselves: db.postgres_matches) -------------
    async def match_games(self, match_id: int) -> list[GameRecord]:
        async with self._read() as conn:
            found = await conn.fetch("SELECT * FROM games WHERE match_id=$1 ORDER BY id", match_id)
            seats = await conn.fetch(
                "SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id WHERE g.match_id=$1 ORDER BY s.seat", match_id
            )
        return rows.match_tables(found, seats)

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
        old_copy: OldCopy | None = None,
        ratings: RatingUpdate | None = None,
        notes: MessageNotes | None = None,
    ) -> None:
        try:
            await self._record_action(
                game_id,
                seq,
                seat,
                action,
                by_ai,
                deal_scores=deal_scores,
                results=results,
                timer=timer,
                deal=deal,
                old_copy=old_copy,
                ratings=ratings,
                notes=notes,
            )
        except StoreConflict:
            raise
        except StoreError as error:
            # The connection may have failed after the server committed (a cut just after COMMIT,
            # the driver failing to release the connection): learn the outcome before anyone is told.
            await self._settle_action(game_id, seq, seat, action, error)

    async def _settle_action(
        self, game_id: int, seq: int, seat: int, action: dict[str, Any], error: StoreError
    ) -> None:
        """Returns if the move ``seq`` is stored as given (it was saved); raises :class:`StaleAction`
        if another move holds that number, ``error`` if none does, :class:`OutcomeUnknown` if the
        database cannot be asked."""
        try:
            async with self.pool.acquire(timeout=SETTLE_TIMEOUT) as conn, conn.transaction():
                # The lost transaction holds the game's lock until the server has committed or
                # rolled it back; waiting for the lock is waiting for the outcome (bounded).
                await conn.execute(f"SET LOCAL lock_timeout = '{int(SETTLE_TIMEOUT * 1000)}ms'")
                await conn.execute("SELECT pg_advisory_xact_lock($1)", game_id)
                row = await conn.fetchrow("SELECT seat, action FROM actions WHERE game_id=$1 AND seq=$2", game_id, seq)
        except DRIVER_ERRORS as lookup:
            raise OutcomeUnknown(f"{error}; then asking whether move {seq} was saved failed: {lookup}") from error
        except StoreError as lookup:  # the store is closing
            raise OutcomeUnknown(f"{error}; then asking whether move {seq} was saved failed: {lookup}") from error
        if row is None:
            raise error
        if int(row["seat"]) == seat and json.loads(row["action"]) == action:
            return  # saved: the move and everything written with it were committed
        raise StaleAction(game_id, seq, seq + 1) from error

    async def _record_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        by_ai: bool,
        *,
        deal_scores: list[DealScore] | None,
        results: list[ResultRow] | None,
        timer: Timer | None,
        deal: DealtDeck | None,
        old_copy: OldCopy | None,
        ratings: RatingUpdate | None = None,
        notes: MessageNotes | None = None,
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
            if old_copy is not None:
                await self._write_old_copy(conn, old_copy)
            if ratings is not None:
                await self._write_ratings(conn, ratings.rows, ratings.changes)
            if notes:
                await self._write_notes(conn, notes)

    @staticmethod
    async def _write_timer(conn: Connection, game_id: int, timer: Timer | None) -> None:
        await conn.execute("DELETE FROM timers WHERE game_id=$1", game_id)
        if timer is not None:
            await conn.execute(
                "INSERT INTO timers (game_id, seq, deadline, reminded, ping_at, pinged) VALUES ($1,$2,$3,$4,$5,$6)",
                game_id,
                timer.seq,
                None if timer.deadline is None else float(timer.deadline),
                int(timer.reminded),
                None if timer.ping_at is None else float(timer.ping_at),
                int(timer.pinged),
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
            if status == "cancelled":
                await conn.execute(f"UPDATE games SET match_id=NULL WHERE id=$1 AND {NEVER_STARTED}", game_id)

    # -- timers -----------------------------------------------------------------------------
    async def set_timer(self, timer: Timer | None, game_id: int) -> None:
        async with self._tx(game_id) as conn:
            await self._write_timer(conn, game_id, timer)

    async def timers(self) -> list[Timer]:
        found = await self._fetch(
            "SELECT game_id, seq, deadline, reminded, ping_at, pinged FROM timers ORDER BY game_id"
        )
        return [rows.timer(r) for r in found]

    # -- turn pings -------------------------------------------------------------------------
    async def set_pings(self, user_id: int, on: bool) -> None:
        async with self._tx() as conn:
            await conn.execute("DELETE FROM ping_optouts WHERE user_id=$1", user_id)
            if not on:
                await conn.execute("INSERT INTO ping_optouts (user_id) VALUES ($1)", user_id)

    async def pings_off(self, user_ids: list[int]) -> set[int]:
        if not user_ids:
            return set()
        found = await self._fetch("SELECT user_id FROM ping_optouts WHERE user_id = ANY($1::bigint[])", user_ids)
        return {int(r["user_id"]) for r in found}

    # -- member languages -------------------------------------------------------------------
    async def set_member_language(self, user_id: int, locale: str) -> None:
        async with self._tx() as conn:
            await conn.execute(
                "INSERT INTO member_languages (user_id, locale) VALUES ($1, $2)"
                " ON CONFLICT (user_id) DO UPDATE SET locale=excluded.locale",
                user_id,
                locale,
            )

    async def member_languages(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        found = await self._fetch(
            "SELECT user_id, locale FROM member_languages WHERE user_id = ANY($1::bigint[])", user_ids
        )
        return {int(r["user_id"]): str(r["locale"]) for r in found}

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

    async def set_finale_shown(self, game_id: int, revealed: bool = False, *, closed: Sequence[int] = ()) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute("UPDATE games SET finale_shown=$2 WHERE id=$1", game_id, 2 if revealed else 1)
            await self._drop_old_copies(conn, game_id, closed)

    async def write_notes(self, notes: MessageNotes) -> None:
        async with self._tx() as conn:
            await self._write_notes(conn, notes)

    @classmethod
    async def _write_notes(cls, conn: Connection, notes: MessageNotes) -> None:
        for game_id, (message_id, key) in notes.messages.items():
            await conn.execute("UPDATE games SET message_id=$1, message_key=$2 WHERE id=$3", message_id, key, game_id)
        for game_id, revealed in notes.finales.items():
            await conn.execute("UPDATE games SET finale_shown=$2 WHERE id=$1", game_id, 2 if revealed else 1)
        for game_id, closed in notes.closed.items():
            await cls._drop_old_copies(conn, game_id, sorted(closed))

    async def save_old_copy(self, copy: OldCopy) -> None:
        async with self._tx(copy.game_id) as conn:
            await self._write_old_copy(conn, copy)

    @staticmethod
    async def _write_old_copy(conn: Connection, copy: OldCopy) -> None:
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
            await self._drop_old_copies(conn, game_id, [message_id])

    @staticmethod
    async def _drop_old_copies(conn: Connection, game_id: int, message_ids: Sequence[int]) -> None:
        if message_ids:
            await conn.executemany(
                "DELETE FROM old_copies WHERE game_id=$1 AND message_id=$2", [(game_id, m) for m in message_ids]
            )

    async def old_copies(self) -> list[OldCopy]:
        found = await self._fetch(
            "SELECT game_id, message_id, look, after_post FROM old_copies ORDER BY game_id, message_id"
        )
        return [OldCopy(r["game_id"], r["message_id"], json.loads(r["look"]), bool(r["after_post"])) for r in found]

    async def save_panels(self, panels: list[SavedPanel]) -> None:
        async with self._tx() as conn:
            await conn.executemany(
                "INSERT INTO panels (game_id, seat, application_id, token, message_id, opened, language) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET application_id=excluded.application_id, "
                "token=excluded.token, message_id=excluded.message_id, opened=excluded.opened, "
                "language=excluded.language",
                [(p.game_id, p.seat, p.application_id, p.token, p.message_id, p.opened, p.language) for p in panels],
            )

    async def take_panels(self, game_ids: list[int]) -> list[SavedPanel]:
        if not game_ids:
            return []
        async with self._tx() as conn:
            rows = await conn.fetch(
                "DELETE FROM panels WHERE game_id = ANY($1::bigint[]) "
                "RETURNING game_id, seat, application_id, token, message_id, opened, language",
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
