"""The PostgreSQL store's duplicate matches: a match's record, its tables joining and its close,
the claim of its comparison, and who watched it. Each decision that two members may make at the
same moment (the last place, the close, the comparison) is one transaction that locks or
conditionally updates the match's row, so only one of them gets it, in this process or another.
The match's tables themselves are games, read by :meth:`db.postgres.PostgresStore.match_games`."""

from __future__ import annotations

import json
from typing import Any

from db import rows
from db.postgres_pool import NOW, PostgresPool
from db.records import MatchBeacon, MatchRecord
from db.stats_sql import EXPIRED_MATCHES, UNCOMPARED_MATCHES


class PostgresMatches(PostgresPool):
    async def create_match(
        self,
        kind: str,
        code: str,
        guild_id: int | None,
        host_id: int,
        tables: int,
        seed: int,
        salt: str,
        expires_at: str | None = None,
    ) -> MatchRecord:
        async with self._tx() as conn:
            # the deadline's column only when there is one: a match without is inserted as before
            # migration 0016 (the tests of older schemas make their matches with this code)
            deadline = (", expires_at", ",$8", (expires_at,)) if expires_at is not None else ("", "", ())
            match_id = await conn.fetchval(
                f"INSERT INTO matches (kind, code, guild_id, host_id, tables, seed, salt, created_at{deadline[0]})"
                f" VALUES ($1,$2,$3,$4,$5,$6,$7,{NOW}{deadline[1]}) RETURNING id",
                kind,
                code,
                guild_id,
                host_id,
                tables,
                seed,
                salt,
                *deadline[2],
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

    async def fix_match_rules(self, match_id: int, rules: dict[str, Any], players: int) -> MatchRecord:
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

    async def share_match_beacon(self, match_id: int, beacon: MatchBeacon) -> MatchBeacon:
        async with self._tx() as conn:
            await conn.execute(
                "UPDATE matches SET beacon_round=$1, beacon_message_id=$2, beacon_signature=$3, beacon_note=$4"
                " WHERE id=$5 AND beacon_round IS NULL",
                beacon.round,
                beacon.message_id,
                beacon.signature,
                beacon.note,
                match_id,
            )
        found = await self.get_match(match_id)
        assert found is not None and found.beacon is not None
        return found.beacon

    async def close_match(self, match_id: int, at: str | None = None) -> MatchRecord | None:
        async with self._tx() as conn:
            sql = (
                f"UPDATE matches SET closed_at=COALESCE($2::text, {NOW}) WHERE id=$1 AND closed_at IS NULL RETURNING id"
            )
            closed = await conn.fetch(sql, match_id, at)
        return await self.get_match(match_id) if closed else None

    async def claim_comparison(self, match_id: int) -> bool:
        async with self._tx() as conn:
            sql = f"UPDATE matches SET compared_at={NOW} WHERE id=$1 AND compared_at IS NULL RETURNING id"
            return bool(await conn.fetch(sql, match_id))

    async def uncompared_matches(self) -> list[MatchRecord]:
        return [rows.match(r) for r in await self._fetch(UNCOMPARED_MATCHES)]

    async def expired_matches(self, now: str) -> list[MatchRecord]:
        return [rows.match(r) for r in await self._fetch(EXPIRED_MATCHES, now)]

    async def discard_match(self, match_id: int) -> bool:
        async with self._tx() as conn:
            sql = (
                "DELETE FROM matches WHERE id=$1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.match_id = matches.id)"
                " RETURNING id"
            )
            return bool(await conn.fetch(sql, match_id))

    async def join_match(self, game_id: int, match_id: int) -> int | None:
        async with self._tx(game_id) as conn:
            # the match's row locked to the end of the transaction: joins and closes of one match
            # read and write one after another, in this process and any other
            found = await conn.fetchrow(
                "SELECT tables FROM matches WHERE id=$1 AND closed_at IS NULL FOR UPDATE", match_id
            )
            if found is None:
                return None
            joined = await conn.fetchval("SELECT COUNT(*) FROM games WHERE match_id=$1", match_id)
            if joined >= found["tables"]:
                return None
            await conn.execute("UPDATE games SET match_id=$1 WHERE id=$2", match_id, game_id)
            return int(joined) + 1

    async def add_match_watcher(self, match_id: int, user_id: int) -> bool:
        async with self._tx() as conn:
            sql = (
                "INSERT INTO match_watchers (match_id, user_id) VALUES ($1,$2) ON CONFLICT DO NOTHING RETURNING user_id"
            )
            return bool(await conn.fetch(sql, match_id, user_id))

    async def remove_match_watcher(self, match_id: int, user_id: int) -> None:
        async with self._tx() as conn:
            await conn.execute("DELETE FROM match_watchers WHERE match_id=$1 AND user_id=$2", match_id, user_id)

    async def match_watchers(self, match_id: int) -> set[int]:
        found = await self._fetch("SELECT user_id FROM match_watchers WHERE match_id=$1", match_id)
        return {int(r["user_id"]) for r in found}
