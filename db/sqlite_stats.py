"""The SQLite store's queries for ratings, history and profiles (:mod:`cogs.stats`).

They read finished games and write only the stats tables, never a live game, so they sit apart
from the game queries of :mod:`db.sqlite`. The SQL both stores share is in :mod:`db.stats_sql`
(run here through :func:`~db.stats_sql.qmarks`); what is SQLite's own is here.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

import aiosqlite

from db import rows
from db.records import AbandonedGame, FinishedGame, GuildSettings, MemberGame, MemberStats, RatingChange, RatingRow
from db.sqlite_connection import NOW, SqliteConnection, run, run_many
from db.stats_sql import (
    ABANDONED_GAMES,
    ANALYSIS_UPSERT,
    RATING_CHANGE_INSERT,
    RATING_UPSERT,
    UNBEACONED_RATED,
    change_values,
    finished_filter,
    member_games_sql,
    not_held,
    qmarks,
    rating_values,
)

#: how many games' rows one statement reads (SQLite's limit is 32,766 values a statement; a
#: server's whole history is read at once when its ratings are worked out)
IN_CHUNK = 5000


class SqliteStats(SqliteConnection):
    """Stats queries on the connection; :class:`db.sqlite.SqliteStore` adds the game queries."""

    async def member_stats(
        self, user_id: int, guild_id: int | None, *, held: Collection[int] = ()
    ) -> list[MemberStats]:
        found = await self._fetchall(
            "SELECT g.kind AS kind, COUNT(*) AS games, SUM(r.place = 1 AND NOT r.is_loser) AS wins,"
            " SUM(r.is_loser) AS losses, MAX(r.total) AS best, COALESCE(SUM(r.total), 0) AS points"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE r.user_id=? AND g.status='finished' AND (? IS NULL OR g.guild_id=?)"
            + not_held(held)
            + " GROUP BY g.kind ORDER BY g.kind",
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
        held: Collection[int] = (),
    ) -> list[FinishedGame]:
        order = "DESC" if newest_first else "ASC"
        wanted = finished_filter(unrated_only=unrated_only, held=held)
        games = await self._fetchall(
            "SELECT g.id, g.kind, g.guild_id, g.preset, g.finished_at, g.beacon_round, g.beacon_signature"
            " FROM games g"
            " WHERE g.status='finished' AND COALESCE(g.guild_id, 0)=? AND (? IS NULL OR g.kind=?)"
            " AND EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)"
            + wanted
            + f" ORDER BY g.finished_at {order}, g.id {order} LIMIT ?",
            (guild_id or 0, kind, kind, -1 if limit is None else limit),
        )
        if not games:
            return []
        ids = [g["id"] for g in games]
        results: list[Any] = []
        seats: list[Any] = []
        for start in range(0, len(ids), IN_CHUNK):  # SQLite takes at most 32,766 values a statement
            chunk = tuple(ids[start : start + IN_CHUNK])
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT * FROM results WHERE game_id IN ({marks}) ORDER BY place, seat"
            results += await self._fetchall(sql, chunk)
            sql = f"SELECT game_id, seat, ai_level FROM seats WHERE game_id IN ({marks}) ORDER BY seat"
            seats += await self._fetchall(sql, chunk)
        return rows.finished_games(games, results, seats)

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
                await run(db, "DELETE FROM ratings WHERE guild_id=? AND kind=?", (guild_id or 0, kind))
                await run(
                    db,
                    "DELETE FROM rating_changes WHERE game_id IN"
                    " (SELECT id FROM games WHERE COALESCE(guild_id, 0)=? AND kind=?)",
                    (guild_id or 0, kind),
                )
            await self._write_ratings(db, rows, changes)

    @staticmethod
    async def _write_ratings(db: aiosqlite.Connection, rows: list[RatingRow], changes: list[RatingChange]) -> None:
        """Rating rows (each replaced) and rating changes, in the caller's transaction."""
        await run_many(db, qmarks(RATING_UPSERT), [rating_values(r) for r in rows])
        await run_many(db, qmarks(RATING_CHANGE_INSERT), [change_values(c) for c in changes])

    async def rating_changes(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[RatingChange]:
        found = await self._fetchall(
            "SELECT c.* FROM rating_changes c JOIN games g ON g.id = c.game_id"
            " WHERE COALESCE(g.guild_id, 0)=? AND g.kind=? AND (? IS NULL OR c.identity=?)"
            " ORDER BY g.finished_at, g.id, c.seat",
            (guild_id or 0, kind, identity, identity),
        )
        return [rows.rating_change(r) for r in found]

    async def unbeaconed_rated(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[str]:
        found = await self._fetchall(qmarks(UNBEACONED_RATED), (guild_id or 0, kind, identity))
        return [r["finished_at"] or "" for r in found]

    async def abandoned_games(self, guild_id: int | None, kind: str, *, limit: int) -> list[AbandonedGame]:
        found = await self._fetchall(qmarks(ABANDONED_GAMES), (guild_id or 0, kind, limit))
        return [rows.abandoned_game(r) for r in found]

    async def finishing_stamp(self) -> str:
        found = await self._fetchall(f"SELECT {NOW} AS now")
        return str(found[0]["now"])

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        found = await self._fetchall("SELECT season, min_games FROM guild_settings WHERE guild_id=?", (guild_id or 0,))
        return GuildSettings(found[0]["season"], found[0]["min_games"]) if found else GuildSettings()

    async def set_guild_settings(self, guild_id: int | None, settings: GuildSettings) -> None:
        async with self._tx() as db:
            await run(
                db,
                "INSERT INTO guild_settings (guild_id, season, min_games) VALUES (?,?,?) ON CONFLICT (guild_id)"
                " DO UPDATE SET season=excluded.season, min_games=excluded.min_games",
                (guild_id or 0, settings.season, settings.min_games),
            )

    async def member_games(self, user_id: int, guild_id: int | None, *, held: Collection[int] = ()) -> list[MemberGame]:
        found = await self._fetchall(qmarks(member_games_sql(held)), (user_id, guild_id or 0))
        return [rows.member_game(r) for r in found]

    async def analysis(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        found = await self._fetchall("SELECT version, data FROM analyses WHERE game_id=?", (game_id,))
        return (found[0]["version"], json.loads(found[0]["data"])) if found else None

    async def save_analysis(self, game_id: int, version: int, data: dict[str, Any]) -> None:
        async with self._tx() as db:
            await run(db, qmarks(ANALYSIS_UPSERT), (game_id, version, json.dumps(data)))
