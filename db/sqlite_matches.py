"""The SQLite store's duplicate matches: a match's record, its tables joining and its close, the
claim of its comparison, and who watched it. Each decision that two members may make at the same
moment (the last place, the close, the comparison) is one transaction (``BEGIN IMMEDIATE``: one
writer at a time), so only one of them gets it. The match's tables themselves are games, read by
:meth:`db.sqlite.SqliteStore.match_games`."""

from __future__ import annotations

import json
from typing import Any

from db import rows
from db.records import MatchBeacon, MatchRecord
from db.sqlite_connection import NOW, SqliteConnection, fetch, run
from db.stats_sql import EXPIRED_MATCHES, UNCOMPARED_MATCHES, qmarks


class SqliteMatches(SqliteConnection):
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
        async with self._tx() as db:
            # the deadline's column only when there is one: a match without is inserted as before
            # migration 0016 (the tests of older schemas make their matches with this code)
            deadline = (", expires_at", ",?", (expires_at,)) if expires_at is not None else ("", "", ())
            async with db.execute(
                f"INSERT INTO matches (kind, code, guild_id, host_id, tables, seed, salt, created_at{deadline[0]})"
                f" VALUES (?,?,?,?,?,?,?,{NOW}{deadline[1]})",
                (kind, code, guild_id, host_id, tables, seed, salt, *deadline[2]),
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
            await run(
                db,
                "UPDATE matches SET rules=?, players=? WHERE id=? AND rules IS NULL",
                (json.dumps(rules), players, match_id),
            )
        found = await self.get_match(match_id)
        assert found is not None
        return found

    async def share_match_beacon(self, match_id: int, beacon: MatchBeacon) -> MatchBeacon:
        async with self._tx() as db:
            await run(
                db,
                "UPDATE matches SET beacon_round=?, beacon_message_id=?, beacon_signature=?, beacon_note=?"
                " WHERE id=? AND beacon_round IS NULL",
                (beacon.round, beacon.message_id, beacon.signature, beacon.note, match_id),
            )
        found = await self.get_match(match_id)
        assert found is not None and found.beacon is not None
        return found.beacon

    async def close_match(self, match_id: int, at: str | None = None) -> MatchRecord | None:
        async with self._tx() as db:
            sql = f"UPDATE matches SET closed_at=COALESCE(?, {NOW}) WHERE id=? AND closed_at IS NULL RETURNING id"
            closed = await fetch(db, sql, (at, match_id))
        return await self.get_match(match_id) if closed else None

    async def claim_comparison(self, match_id: int) -> bool:
        async with self._tx() as db:
            sql = f"UPDATE matches SET compared_at={NOW} WHERE id=? AND compared_at IS NULL RETURNING id"
            return bool(await fetch(db, sql, (match_id,)))

    async def uncompared_matches(self) -> list[MatchRecord]:
        return [rows.match(r) for r in await self._fetchall(UNCOMPARED_MATCHES)]

    async def expired_matches(self, now: str) -> list[MatchRecord]:
        return [rows.match(r) for r in await self._fetchall(qmarks(EXPIRED_MATCHES), (now,))]

    async def discard_match(self, match_id: int) -> bool:
        async with self._tx() as db:
            sql = (
                "DELETE FROM matches WHERE id=? AND NOT EXISTS (SELECT 1 FROM games g WHERE g.match_id = matches.id)"
                " RETURNING id"
            )
            return bool(await fetch(db, sql, (match_id,)))

    async def join_match(self, game_id: int, match_id: int) -> int | None:
        async with self._tx() as db:  # BEGIN IMMEDIATE: one writer at a time reads and links
            open_match = await fetch(
                db,
                "SELECT m.tables, (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id) AS joined"
                " FROM matches m WHERE m.id=? AND m.closed_at IS NULL",
                (match_id,),
            )
            found = open_match[0] if open_match else None
            if found is None or found["joined"] >= found["tables"]:
                return None
            await run(db, "UPDATE games SET match_id=? WHERE id=?", (match_id, game_id))
            return int(found["joined"]) + 1

    async def add_match_watcher(self, match_id: int, user_id: int) -> bool:
        async with self._tx() as db:
            sql = "INSERT INTO match_watchers (match_id, user_id) VALUES (?,?) ON CONFLICT DO NOTHING RETURNING user_id"
            return bool(await fetch(db, sql, (match_id, user_id)))

    async def remove_match_watcher(self, match_id: int, user_id: int) -> None:
        async with self._tx() as db:
            await run(db, "DELETE FROM match_watchers WHERE match_id=? AND user_id=?", (match_id, user_id))

    async def match_watchers(self, match_id: int) -> set[int]:
        found = await self._fetchall("SELECT user_id FROM match_watchers WHERE match_id=?", (match_id,))
        return {int(r["user_id"]) for r in found}
