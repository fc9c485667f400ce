"""SQLite implementation of :class:`db.store.Store` through aiosqlite (WAL, numbered migrations).

All writes go through :meth:`SqliteStore._tx`, which holds one lock for the connection and wraps
the work in ``BEGIN IMMEDIATE … COMMIT`` so an action and everything it finished land together or
not at all.

The store is four modules along its seams: :mod:`db.sqlite_connection` (the file, the migrations
and the transactions), :mod:`db.sqlite_stats` (ratings,
history, profiles), :mod:`db.sqlite_matches` (duplicate matches) and this one (lobbies, games,
timers, leases).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from db import rows
from db.errors import ChannelBusy, StaleAction, StoreConflict
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
from db.sqlite_connection import EPOCH, NOW, fetch, run, run_many
from db.sqlite_matches import SqliteMatches
from db.sqlite_seats import SqliteSeats
from db.sqlite_stats import SqliteStats
from db.stats_sql import NEVER_STARTED


class SqliteStore(SqliteMatches, SqliteStats, SqliteSeats):
    """The store in one SQLite file (or ``:memory:``); ``synchronous`` is ``PRAGMA synchronous``."""

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

    async def set_message(
        self, game_id: int, message_id: int | None, key: str | None = None, *, closed: Sequence[int] = ()
    ) -> None:
        async with self._tx() as db:
            await run(db, "UPDATE games SET message_id=?, message_key=? WHERE id=?", (message_id, key, game_id))
            await self._drop_old_copies(db, game_id, closed)

    async def set_options(self, game_id: int, preset: str, options: dict[str, Any], turn_seconds: int | None) -> None:
        async with self._tx() as db:
            await run(
                db,
                "UPDATE games SET preset=?, options=?, turn_seconds=? WHERE id=?",
                (preset, json.dumps(options), turn_seconds, game_id),
            )

    async def set_seats(self, game_id: int, seats: list[SeatRecord]) -> None:
        async with self._tx() as db:
            await self._write_seats(db, game_id, seats)

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int, seats: list[SeatRecord]) -> None:
        await run(db, "DELETE FROM seats WHERE game_id=?", (game_id,))
        await run_many(
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
            await run(
                db,
                "UPDATE games SET status='playing', rules=?, seed=?, rng_version=?, commitment=?, salt=?,"
                f" started_at={NOW} WHERE id=?",
                (json.dumps(rules), seed, rng_version, commitment, salt, game_id),
            )
            if first_deal is not None:
                await self._write_deal(db, game_id, first_deal)

    async def reserve_start(
        self, game_id: int, seed: int, salt: str, commitment: str, rng_version: int, beacon_round: int
    ) -> None:
        async with self._tx() as db:
            await run(
                db,
                "UPDATE games SET seed=?, salt=?, commitment=?, rng_version=?, beacon_round=?"
                " WHERE id=? AND status='lobby'",
                (seed, salt, commitment, rng_version, beacon_round, game_id),
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
        async with self._tx() as db:
            await run(
                db,
                "UPDATE games SET beacon_signature=?, beacon_note=?,"
                " beacon_message_id=COALESCE(?, beacon_message_id), beacon_round=COALESCE(?, beacon_round) WHERE id=?",
                (signature, note, message_id, beacon_round, game_id),
            )

    @staticmethod
    async def _write_deal(db: aiosqlite.Connection, game_id: int, deal: DealtDeck) -> None:
        await run(
            db, "INSERT INTO deals (game_id, deal, deck) VALUES (?,?,?)", (game_id, deal.deal, json.dumps(deal.deck))
        )

    # -- a duplicate match's tables (the matches themselves: db.sqlite_matches) -------------
    async def match_games(self, match_id: int) -> list[GameRecord]:
        found = await self._fetchall("SELECT * FROM games WHERE match_id=? ORDER BY id", (match_id,))
        seats = await self._fetchall(
            "SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id WHERE g.match_id=? ORDER BY s.seat", (match_id,)
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
        async with self._tx() as db:
            # Inside BEGIN IMMEDIATE, so no other writer (task or process) can move the game meanwhile.
            (latest,) = await fetch(db, "SELECT MAX(seq) FROM actions WHERE game_id=?", (game_id,))
            next_seq = 0 if latest[0] is None else int(latest[0]) + 1
            if seq != next_seq:
                raise StaleAction(game_id, seq, next_seq)
            await run(
                db,
                f"INSERT INTO actions (game_id, seq, seat, action, by_ai, created_at) VALUES (?,?,?,?,?,{NOW})",
                (game_id, seq, seat, json.dumps(action), int(by_ai)),
            )
            if deal_scores:
                await run_many(
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
            if old_copy is not None:
                await self._write_old_copy(db, old_copy)
            if ratings is not None:
                await self._write_ratings(db, ratings.rows, ratings.changes)
            if notes:
                await self._write_notes(db, notes)

    @staticmethod
    async def _write_timer(db: aiosqlite.Connection, game_id: int, timer: Timer | None) -> None:
        await run(db, "DELETE FROM timers WHERE game_id=?", (game_id,))
        if timer is not None:
            await run(
                db,
                "INSERT INTO timers (game_id, seq, deadline, reminded, ping_at, pinged) VALUES (?,?,?,?,?,?)",
                (game_id, timer.seq, timer.deadline, int(timer.reminded), timer.ping_at, int(timer.pinged)),
            )

    @staticmethod
    async def _write_results(db: aiosqlite.Connection, game_id: int, status: str, results: list[ResultRow]) -> None:
        await run(db, "DELETE FROM results WHERE game_id=?", (game_id,))
        await run_many(
            db,
            "INSERT INTO results (game_id, seat, user_id, name, place, total, is_loser, stats)"
            " VALUES (?,?,?,?,?,?,?,?)",
            [
                (game_id, r.seat, r.user_id, r.name, r.place, r.total, int(r.is_loser), json.dumps(r.stats))
                for r in results
            ],
        )
        await run(db, "DELETE FROM timers WHERE game_id=?", (game_id,))
        await run(db, f"UPDATE games SET status=?, finished_at={NOW} WHERE id=?", (status, game_id))

    async def update_seat(self, game_id: int, seat: SeatRecord) -> None:
        async with self._tx() as db:
            await run(
                db,
                "UPDATE seats SET user_id=?, name=?, ai_level=?, dm_closed=?, shows_hand=? WHERE game_id=? AND seat=?",
                (seat.user_id, seat.name, seat.ai_level, int(seat.dm_closed), int(seat.shows_hand), game_id, seat.seat),
            )

    async def end_game(self, game_id: int, status: str, results: list[ResultRow] | None = None) -> None:
        async with self._tx() as db:
            await self._write_results(db, game_id, status, results or [])
            if status == "cancelled":
                await run(db, f"UPDATE games SET match_id=NULL WHERE id=? AND {NEVER_STARTED}", (game_id,))

    # -- timers -----------------------------------------------------------------------------
    async def set_timer(self, timer: Timer | None, game_id: int) -> None:
        async with self._tx() as db:
            await self._write_timer(db, game_id, timer)

    async def timers(self) -> list[Timer]:
        found = await self._fetchall("SELECT game_id, seq, deadline, reminded, ping_at, pinged FROM timers")
        return [rows.timer(r) for r in found]

    # -- turn pings -------------------------------------------------------------------------
    async def set_pings(self, user_id: int, on: bool) -> None:
        async with self._tx() as db:
            await run(db, "DELETE FROM ping_optouts WHERE user_id=?", (user_id,))
            if not on:
                await run(db, "INSERT INTO ping_optouts (user_id) VALUES (?)", (user_id,))

    async def pings_off(self, user_ids: list[int]) -> set[int]:
        if not user_ids:
            return set()
        marks = ",".join("?" * len(user_ids))
        found = await self._fetchall(f"SELECT user_id FROM ping_optouts WHERE user_id IN ({marks})", tuple(user_ids))
        return {int(r["user_id"]) for r in found}

    # -- member languages -------------------------------------------------------------------
    async def set_member_language(self, user_id: int, locale: str) -> None:
        async with self._tx() as db:
            await run(
                db,
                "INSERT INTO member_languages (user_id, locale) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET locale=excluded.locale",
                (user_id, locale),
            )

    async def member_languages(self, user_ids: list[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        found = await self._fetchall(
            f"SELECT user_id, locale FROM member_languages WHERE user_id IN ({marks})", tuple(user_ids)
        )
        return {int(r["user_id"]): str(r["locale"]) for r in found}

    # -- shard leases -----------------------------------------------------------------------
    async def claim_leases(self, holder: str, shards: list[int], shard_count: int, seconds: float) -> list[Lease]:
        async with self._tx() as db:
            found = await fetch(
                db,
                f"SELECT shard, shard_count, holder, expires_at - {EPOCH} AS remaining FROM shard_leases"
                f" WHERE holder != ? AND expires_at > {EPOCH} ORDER BY shard",
                (holder,),
            )
            others = [Lease(r[0], r[1], r[2], float(r[3])) for r in found]
            blocking = [lease for lease in others if lease.shard in shards or lease.shard_count != shard_count]
            if blocking:
                return blocking
            await run(db, "DELETE FROM shard_leases WHERE holder=?", (holder,))
            await run_many(
                db,
                "INSERT OR REPLACE INTO shard_leases (shard, shard_count, holder, expires_at)"
                f" VALUES (?, ?, ?, {EPOCH} + ?)",
                [(shard, shard_count, holder, seconds) for shard in shards],
            )
            return []

    async def renew_leases(self, holder: str, seconds: float) -> list[int]:
        async with self._tx() as db:
            await run(db, f"UPDATE shard_leases SET expires_at={EPOCH} + ? WHERE holder=?", (seconds, holder))
            found = await fetch(db, "SELECT shard FROM shard_leases WHERE holder=? ORDER BY shard", (holder,))
            return [int(r[0]) for r in found]

    async def release_leases(self, holder: str) -> None:
        async with self._tx() as db:
            await run(db, "DELETE FROM shard_leases WHERE holder=?", (holder,))

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

    async def set_finale_shown(self, game_id: int, revealed: bool = False, *, closed: Sequence[int] = ()) -> None:
        async with self._tx() as db:
            await run(db, "UPDATE games SET finale_shown=? WHERE id=?", (2 if revealed else 1, game_id))
            await self._drop_old_copies(db, game_id, closed)

    async def write_notes(self, notes: MessageNotes) -> None:
        async with self._tx() as db:
            await self._write_notes(db, notes)

    @classmethod
    async def _write_notes(cls, db: aiosqlite.Connection, notes: MessageNotes) -> None:
        for game_id, (message_id, key) in notes.messages.items():
            await run(db, "UPDATE games SET message_id=?, message_key=? WHERE id=?", (message_id, key, game_id))
        for game_id, revealed in notes.finales.items():
            await run(db, "UPDATE games SET finale_shown=? WHERE id=?", (2 if revealed else 1, game_id))
        for game_id, closed in notes.closed.items():
            await cls._drop_old_copies(db, game_id, sorted(closed))

    async def save_old_copy(self, copy: OldCopy) -> None:
        async with self._tx() as db:
            await self._write_old_copy(db, copy)

    @staticmethod
    async def _write_old_copy(db: aiosqlite.Connection, copy: OldCopy) -> None:
        await run(
            db,
            "INSERT INTO old_copies (game_id, message_id, look, after_post) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, message_id) DO UPDATE SET look=excluded.look, after_post=excluded.after_post",
            (copy.game_id, copy.message_id, json.dumps(copy.look), int(copy.after_post)),
        )

    async def drop_old_copy(self, game_id: int, message_id: int) -> None:
        async with self._tx() as db:
            await self._drop_old_copies(db, game_id, [message_id])

    @staticmethod
    async def _drop_old_copies(db: aiosqlite.Connection, game_id: int, message_ids: Sequence[int]) -> None:
        if message_ids:
            await run_many(
                db, "DELETE FROM old_copies WHERE game_id=? AND message_id=?", [(game_id, m) for m in message_ids]
            )

    async def old_copies(self) -> list[OldCopy]:
        found = await self._fetchall(
            "SELECT game_id, message_id, look, after_post FROM old_copies ORDER BY game_id, message_id"
        )
        return [OldCopy(r["game_id"], r["message_id"], json.loads(r["look"]), bool(r["after_post"])) for r in found]

    async def save_panels(self, panels: list[SavedPanel]) -> None:
        async with self._tx() as db:
            for p in panels:
                await run(
                    db,
                    "INSERT INTO panels (game_id, seat, application_id, token, message_id, opened, language) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET application_id=excluded.application_id, "
                    "token=excluded.token, message_id=excluded.message_id, opened=excluded.opened, "
                    "language=excluded.language",
                    (p.game_id, p.seat, p.application_id, p.token, p.message_id, p.opened, p.language),
                )

    async def take_panels(self, game_ids: list[int]) -> list[SavedPanel]:
        if not game_ids:
            return []
        marks = ", ".join("?" * len(game_ids))
        async with self._tx() as db:
            taken = await fetch(
                db,
                "SELECT game_id, seat, application_id, token, message_id, opened, language FROM panels "
                f"WHERE game_id IN ({marks})",
                tuple(game_ids),
            )
            found = [SavedPanel(*row) for row in taken]
            await run(db, f"DELETE FROM panels WHERE game_id IN ({marks})", tuple(game_ids))
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
