"""The PostgreSQL store's seats changing hands mid-game (:meth:`db.store.Store.hand_over_seat`):
as :mod:`db.sqlite_seats`, in one transaction holding the game's advisory lock, written only while
the seat is still the old player's (two acceptances at once, in any process: one wins)."""

from __future__ import annotations

from db import rows
from db.errors import StoreConflict
from db.postgres_pool import PostgresPool
from db.records import SeatHandover, SeatRecord


class PostgresSeats(PostgresPool):
    async def hand_over_seat(
        self, handover: SeatHandover, seat: SeatRecord, *, host_id: int | None = None, match_id: int | None = None
    ) -> None:
        h = handover
        async with self._tx(h.game_id) as conn:
            status = await conn.execute(
                "UPDATE seats SET user_id=$1, name=$2, ai_level=$3, dm_closed=$4, shows_hand=$5"
                " WHERE game_id=$6 AND seat=$7 AND user_id=$8",
                seat.user_id,
                seat.name,
                seat.ai_level,
                int(seat.dm_closed),
                int(seat.shows_hand),
                h.game_id,
                h.seat,
                h.from_user,
            )
            if status != "UPDATE 1":
                raise StoreConflict(f"game {h.game_id}: seat {h.seat} is no longer member {h.from_user}'s")
            number = await conn.fetchval(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM seat_handovers WHERE game_id=$1", h.game_id
            )
            await conn.execute(
                "INSERT INTO seat_handovers (game_id, number, seat, moves, from_user, from_name, to_user, to_name,"
                " by_user) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                h.game_id,
                int(number),
                h.seat,
                h.moves,
                h.from_user,
                h.from_name,
                h.to_user,
                h.to_name,
                h.by_user,
            )
            if host_id is not None:
                await conn.execute("UPDATE games SET host_id=$1 WHERE id=$2", host_id, h.game_id)
            if match_id is not None:
                await conn.execute(
                    "INSERT INTO match_watchers (match_id, user_id) VALUES ($1,$2) ON CONFLICT DO NOTHING",
                    match_id,
                    h.from_user,
                )

    async def seat_handovers(self, game_ids: list[int]) -> list[SeatHandover]:
        if not game_ids:
            return []
        found = await self._fetch(
            "SELECT game_id, seat, moves, from_user, from_name, to_user, to_name, by_user FROM seat_handovers"
            " WHERE game_id = ANY($1::BIGINT[]) ORDER BY game_id, number",
            list(game_ids),
        )
        return [rows.seat_handover(r) for r in found]
