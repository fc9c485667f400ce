"""The PostgreSQL store's queries for ratings, history and profiles (:mod:`cogs.stats`).

They read finished games and write only the stats tables, never a live game, so they sit apart
from the game queries of :mod:`db.postgres`. The SQL both stores share is in :mod:`db.stats_sql`;
what is PostgreSQL's own (casts, ``FILTER``, ``COLLATE "C"``, ``ANY``) is here.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from db import rows
from db.postgres_pool import NOW, Connection, PostgresPool
from db.records import AbandonedGame, FinishedGame, GuildSettings, MemberGame, MemberStats, RatingChange, RatingRow
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
    rating_values,
)


class PostgresStats(PostgresPool):
    """Stats queries on the pool; :class:`db.postgres.PostgresStore` adds the game queries."""

    async def member_stats(
        self, user_id: int, guild_id: int | None, *, held: Collection[int] = ()
    ) -> list[MemberStats]:
        # SUM over BIGINT is NUMERIC in PostgreSQL: cast back so the figures are ints as in SQLite.
        # COLLATE "C" orders kinds byte by byte, as SQLite's BINARY collation does.
        found = await self._fetch(
            "SELECT g.kind AS kind, COUNT(*) AS games,"
            " COUNT(*) FILTER (WHERE r.place = 1 AND r.is_loser = 0) AS wins,"
            " COALESCE(SUM(r.is_loser), 0)::BIGINT AS losses, MAX(r.total) AS best,"
            " COALESCE(SUM(r.total), 0)::BIGINT AS points"
            " FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE r.user_id=$1 AND g.status='finished' AND ($2::BIGINT IS NULL OR g.guild_id=$2)"
            + not_held(held)
            + ' GROUP BY g.kind ORDER BY g.kind COLLATE "C"',
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
        held: Collection[int] = (),
    ) -> list[FinishedGame]:
        order = "DESC" if newest_first else "ASC"
        wanted = finished_filter(unrated_only=unrated_only, held=held)
        async with self._read() as conn:
            games = await conn.fetch(
                "SELECT g.id, g.kind, g.guild_id, g.preset, g.finished_at, g.beacon_round, g.beacon_signature"
                " FROM games g"
                " WHERE g.status='finished' AND COALESCE(g.guild_id, 0)=$1 AND ($2::TEXT IS NULL OR g.kind=$2)"
                " AND EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)"
                + wanted
                + f' ORDER BY g.finished_at COLLATE "C" {order}, g.id {order} LIMIT $3',
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
        return rows.finished_games(games, results, seats)

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
            await self._write_ratings(conn, rows, changes)

    @staticmethod
    async def _write_ratings(conn: Connection, rows: list[RatingRow], changes: list[RatingChange]) -> None:
        """Rating rows (each replaced) and rating changes, in the caller's transaction."""
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

    async def unbeaconed_rated(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[str]:
        found = await self._fetch(UNBEACONED_RATED, guild_id or 0, kind, identity)
        return [r["finished_at"] or "" for r in found]

    async def abandoned_games(self, guild_id: int | None, kind: str, *, limit: int) -> list[AbandonedGame]:
        found = await self._fetch(ABANDONED_GAMES, guild_id or 0, kind, limit)
        return [rows.abandoned_game(r) for r in found]

    async def finishing_stamp(self) -> str:
        found = await self._fetch(f"SELECT {NOW} AS now")
        return str(found[0]["now"])

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

    async def member_games(self, user_id: int, guild_id: int | None, *, held: Collection[int] = ()) -> list[MemberGame]:
        found = await self._fetch(member_games_sql(held), user_id, guild_id or 0)
        return [rows.member_game(r) for r in found]

    async def analysis(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        found = await self._fetch("SELECT version, data FROM analyses WHERE game_id=$1", game_id)
        return (found[0]["version"], json.loads(found[0]["data"])) if found else None

    async def save_analysis(self, game_id: int, version: int, data: dict[str, Any]) -> None:
        async with self._tx(game_id) as conn:
            await conn.execute(ANALYSIS_UPSERT, game_id, version, json.dumps(data))
