"""The SQLite store's seats changing hands mid-game (:meth:`db.store.Store.hand_over_seat`): the
seat's new player, the hand-over's log row, the host moving with the seat and the old player kept
as one who saw a duplicate match's cards, in one ``BEGIN IMMEDIATE`` transaction, written only
while the seat is still the old player's (two acceptances at once: one wins)."""

from __future__ import annotations

from db import rows
from db.errors import StoreConflict
from db.records import SeatHandover, SeatRecord
from db.sqlite_connection import SqliteConnection, fetch, run


class SqliteSeats(SqliteConnection):
    async def hand_over_seat(
        self, handover: SeatHandover, seat: SeatRecord, *, host_id: int | None = None, match_id: int | None = None
    ) -> None:
        h = handover
        async with self._tx() as db:
            async with db.execute(
                "UPDATE seats SET user_id=?, name=?, ai_level=?, dm_closed=?, shows_hand=?"
                " WHERE game_id=? AND seat=? AND user_id=?",
                (
                    seat.user_id,
                    seat.name,
                    seat.ai_level,
                    int(seat.dm_closed),
                    int(seat.shows_hand),
                    h.game_id,
                    h.seat,
                    h.from_user,
                ),
            ) as cursor:
                changed = cursor.rowcount
            if changed != 1:
                raise StoreConflict(f"game {h.game_id}: seat {h.seat} is no longer member {h.from_user}'s")
            found = await fetch(
                db, "SELECT COALESCE(MAX(number), 0) + 1 FROM seat_handovers WHERE game_id=?", (h.game_id,)
            )
            number = int(found[0][0]) if found else 1
            await run(
                db,
                "INSERT INTO seat_handovers (game_id, number, seat, moves, from_user, from_name, to_user, to_name,"
                " by_user) VALUES (?,?,?,?,?,?,?,?,?)",
                (h.game_id, number, h.seat, h.moves, h.from_user, h.from_name, h.to_user, h.to_name, h.by_user),
            )
            if host_id is not None:
                await run(db, "UPDATE games SET host_id=? WHERE id=?", (host_id, h.game_id))
            if match_id is not None:
                await run(
                    db,
                    "INSERT INTO match_watchers (match_id, user_id) VALUES (?,?) ON CONFLICT DO NOTHING",
                    (match_id, h.from_user),
                )

    async def seat_handovers(self, game_ids: list[int]) -> list[SeatHandover]:
        if not game_ids:
            return []
        marks = ",".join("?" * len(game_ids))
        found = await self._fetchall(
            "SELECT game_id, seat, moves, from_user, from_name, to_user, to_name, by_user FROM seat_handovers"
            f" WHERE game_id IN ({marks}) ORDER BY game_id, number",
            tuple(game_ids),
        )
        return [rows.seat_handover(r) for r in found]
