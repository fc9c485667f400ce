"""Rows into records, once for both stores: an aiosqlite row and an asyncpg record are both read by
column name, and the stored forms (JSON text, 0/1 flags) are the same in both databases, so how a
row becomes a :mod:`db.records` record must not be written twice and drift apart."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from db.records import (
    AbandonedGame,
    DealScore,
    DealtDeck,
    FinishedGame,
    GameRecord,
    MatchBeacon,
    MatchRecord,
    MemberGame,
    MemberStats,
    RatingChange,
    RatingRow,
    ResultRow,
    SeatHandover,
    SeatRecord,
    Timer,
)


class Row(Protocol):
    """A database row read by column name (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, column: str, /) -> Any: ...
    def keys(self) -> Any: ...


def optional(row: Row, column: str) -> Any:
    """A column a later migration added: None where the store is read before it ran (a test of
    an older schema reads through today's code)."""
    return row[column] if column in row.keys() else None


def seat(row: Row) -> SeatRecord:
    return SeatRecord(
        row["seat"], row["user_id"], row["name"], row["ai_level"], bool(row["dm_closed"]), bool(row["shows_hand"])
    )


def seat_handover(row: Row) -> SeatHandover:
    return SeatHandover(
        int(row["game_id"]),
        int(row["seat"]),
        int(row["moves"]),
        int(row["from_user"]),
        str(row["from_name"]),
        int(row["to_user"]),
        str(row["to_name"]),
        int(row["by_user"]),
    )


def action(row: Row) -> tuple[int, dict[str, Any]]:
    return row["seat"], json.loads(row["action"])


def game(row: Row, seats: Iterable[Row], actions: Iterable[Row]) -> GameRecord:
    """A game with its seats (ordered by seat) and its actions (ordered by sequence number)."""
    return GameRecord(
        id=row["id"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        preset=row["preset"],
        options=json.loads(row["options"]),
        rules=json.loads(row["rules"]) if row["rules"] else None,
        seed=row["seed"],
        rng_version=row["rng_version"],
        turn_seconds=row["turn_seconds"],
        message_id=row["message_id"],
        message_key=row["message_key"],
        commitment=row["commitment"],
        salt=row["salt"],
        match_id=row["match_id"],
        finale_revealed=row["finale_shown"] == 2,
        beacon_round=optional(row, "beacon_round"),  # (each None in a schema before 0018)
        beacon_signature=optional(row, "beacon_signature"),
        beacon_note=optional(row, "beacon_note"),
        beacon_message_id=optional(row, "beacon_message_id"),
        seats=[seat(s) for s in seats],
        actions=[action(a) for a in actions],
    )


def match(row: Row) -> MatchRecord:
    return MatchRecord(
        id=row["id"],
        kind=row["kind"],
        code=row["code"],
        guild_id=row["guild_id"],
        host_id=row["host_id"],
        tables=row["tables"],
        seed=row["seed"],
        salt=row["salt"],
        rules=json.loads(row["rules"]) if row["rules"] else None,
        players=row["players"],
        closed_at=row["closed_at"],
        expires_at=row["expires_at"] if "expires_at" in row.keys() else None,  # (a schema before 0016)
        beacon=match_beacon(row),
    )


def match_beacon(row: Row) -> MatchBeacon | None:
    if "beacon_round" not in row.keys() or row["beacon_round"] is None:  # (none, or a schema before 0018)
        return None
    return MatchBeacon(row["beacon_round"], row["beacon_message_id"], row["beacon_signature"], row["beacon_note"])


def dealt_deck(row: Row) -> DealtDeck:
    return DealtDeck(row["deal"], json.loads(row["deck"]))


def timer(row: Row) -> Timer:
    return Timer(
        row["game_id"], row["seq"], row["deadline"], bool(row["reminded"]), row["ping_at"], bool(row["pinged"])
    )


def deal_score(row: Row) -> DealScore:
    return DealScore(row["deal"], row["seat"], row["bid"], row["tricks"], row["delta"], row["total"])


def result(row: Row) -> ResultRow:
    return ResultRow(
        row["seat"],
        row["user_id"],
        row["name"],
        row["place"],
        row["total"],
        bool(row["is_loser"]),
        json.loads(row["stats"]),
    )


def member_stats(row: Row) -> MemberStats:
    return MemberStats(row["kind"], row["games"], row["wins"] or 0, row["losses"] or 0, row["best"], row["points"])


def match_tables(games: Iterable[Row], seats: Iterable[Row]) -> list[GameRecord]:
    """A duplicate match's tables with their seats and without their moves (see
    :meth:`db.store.Store.match_games`), the seats of all of them read at once."""
    by_game: dict[int, list[Row]] = {}
    for row in seats:
        by_game.setdefault(row["game_id"], []).append(row)
    return [game(g, by_game.get(g["id"], []), []) for g in games]


def finished_games(games: Iterable[Row], results: Iterable[Row], seats: Iterable[Row]) -> list[FinishedGame]:
    """Each game with its own results and seats, the rows of all the games sorted to their game in
    one pass (their order kept): a server's whole history is read at once, and looking each game's
    rows up in all of them took seconds for a few thousand games (bench/store_matches.py)."""
    by_game: dict[int, tuple[list[Row], list[Row]]] = {}
    for row in results:
        by_game.setdefault(row["game_id"], ([], []))[0].append(row)
    for row in seats:
        by_game.setdefault(row["game_id"], ([], []))[1].append(row)
    none: tuple[list[Row], list[Row]] = ([], [])
    return [finished_game(g, *by_game.get(g["id"], none)) for g in games]


def finished_game(row: Row, results: Iterable[Row], seats: Iterable[Row]) -> FinishedGame:
    """A finished game with its results (ordered by place) and its computer seats' levels."""
    return FinishedGame(
        id=row["id"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        preset=row["preset"],
        finished_at=row["finished_at"] or "",
        results=[result(r) for r in results],
        ai_levels={s["seat"]: s["ai_level"] for s in seats if s["ai_level"] is not None},
        beacon_round=optional(row, "beacon_round") if optional(row, "beacon_signature") is not None else None,
        unbeaconed=optional(row, "beacon_round") is not None and optional(row, "beacon_signature") is None,
    )


def abandoned_game(row: Row) -> AbandonedGame:
    return AbandonedGame(row["id"], row["kind"], row["preset"], row["finished_at"] or "", row["beacon_round"])


def rating(row: Row) -> RatingRow:
    return RatingRow(
        row["guild_id"],
        row["kind"],
        row["season"],
        row["identity"],
        row["name"],
        float(row["mu"]),
        float(row["sigma"]),
        row["games"],
        row["wins"],
        row["last_game"],
    )


def rating_change(row: Row) -> RatingChange:
    return RatingChange(
        row["game_id"],
        row["seat"],
        row["identity"],
        float(row["mu_before"]),
        float(row["sigma_before"]),
        float(row["mu_after"]),
        float(row["sigma_after"]),
    )


def member_game(row: Row) -> MemberGame:
    return MemberGame(
        row["game_id"],
        row["kind"],
        row["preset"],
        row["finished_at"] or "",
        row["seat"],
        row["place"],
        row["total"],
        bool(row["is_loser"]),
        int(row["players"]),
        int(row["deals"]),
        int(row["made"]),
    )
