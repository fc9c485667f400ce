"""SQL the two stores share for ratings and profiles (:mod:`cogs.stats`), written once in
PostgreSQL's numbered-parameter form (ISO timestamps ordered byte by byte); SQLite runs it through :func:`qmarks`."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from db.records import RatingChange, RatingRow

#: one rating written over the one before (both databases take ``ON CONFLICT … DO UPDATE``)
RATING_UPSERT = (
    "INSERT INTO ratings (guild_id, kind, season, identity, name, mu, sigma, games, wins, last_game)"
    " VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (guild_id, kind, season, identity) DO UPDATE SET"
    " name=excluded.name, mu=excluded.mu, sigma=excluded.sigma, games=excluded.games,"
    " wins=excluded.wins, last_game=excluded.last_game"
)

RATING_CHANGE_INSERT = (
    "INSERT INTO rating_changes (game_id, seat, identity, mu_before, sigma_before, mu_after, sigma_after)"
    " VALUES ($1,$2,$3,$4,$5,$6,$7)"
)

ANALYSIS_UPSERT = (
    "INSERT INTO analyses (game_id, version, data) VALUES ($1,$2,$3)"
    " ON CONFLICT (game_id) DO UPDATE SET version=excluded.version, data=excluded.data"
)


def not_held(held: Collection[int]) -> str:
    """The condition that leaves out the games ``g`` of the duplicate matches ``held``: those
    whose results the ratings and profiles may not count yet. Which matches those are is the
    secrecy policy's to decide, in Python (``bot.tables.secrecy.held_matches``); the SQL only takes its
    answer, so that the rule is written once. (Numbers, written into the statement: a list of
    any length in both databases' forms.)"""
    if not held:
        return ""
    return " AND (g.match_id IS NULL OR g.match_id NOT IN (" + ",".join(str(int(m)) for m in sorted(held)) + "))"


#: a game that never started (a lobby, or one cancelled as a lobby): it has no seed yet, as
#: ``bot.tables.secrecy``'s ``_counts`` reads it
NEVER_STARTED = "seed IS NULL"

#: the matches whose comparison no call has claimed: those still being played, and any the bot
#: stopped before comparing (whether each is over is the secrecy policy's to say:
#: ``bot.tables.secrecy.match_allows``; migration 0013 marked compared the matches over before it)
UNCOMPARED_MATCHES = "SELECT * FROM matches m WHERE m.compared_at IS NULL ORDER BY m.id"


#: the open matches whose time to gather their tables has run out ($1: now, ISO UTC as the bot
#: writes ``expires_at``): not closed, and a place still free (a full match is over when its
#: tables are, and needs no closing)
EXPIRED_MATCHES = (
    "SELECT * FROM matches m WHERE m.closed_at IS NULL AND m.expires_at IS NOT NULL AND m.expires_at <= $1"
    " AND (SELECT COUNT(*) FROM games g WHERE g.match_id = m.id) < m.tables"
    " ORDER BY m.id"
)


def finished_filter(*, unrated_only: bool, held: Collection[int]) -> str:
    """The extra conditions of a finished-games query (both stores): games with no rating changes
    yet, and games of no match ``held`` (:func:`not_held`)."""
    wanted = " AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id)" if unrated_only else ""
    return wanted + not_held(held)


def member_games_sql(held: Collection[int]) -> str:
    """A member's finished games on a server ($1 the member, $2 the server or 0) but those of the
    matches ``held``, with their bids: ``deals`` the deals they bid in, ``made`` those whose
    tricks equalled the bid."""
    return _MEMBER_GAMES + not_held(held) + ' ORDER BY g.finished_at COLLATE "C", g.id'


_MEMBER_GAMES = (
    "SELECT g.id AS game_id, g.kind AS kind, g.preset AS preset, g.finished_at AS finished_at,"
    " r.seat AS seat, r.place AS place, r.total AS total, r.is_loser AS is_loser,"
    " (SELECT COUNT(*) FROM results o WHERE o.game_id = g.id) AS players,"
    " (SELECT COUNT(*) FROM deal_scores d WHERE d.game_id = g.id AND d.seat = r.seat AND d.bid IS NOT NULL)"
    " AS deals,"
    " (SELECT COUNT(*) FROM deal_scores d WHERE d.game_id = g.id AND d.seat = r.seat AND d.bid = d.tricks) AS made"
    " FROM results r JOIN games g ON g.id = r.game_id"
    " WHERE r.user_id = $1 AND g.status = 'finished' AND COALESCE(g.guild_id, 0) = $2"
)

#: when each rated game of a server and game ($1 the server or 0, $2 the game; $3 one identity's
#: rated games, or NULL for all) finished that named a drand round but dealt without it: labelled
#: "commit–reveal only (no beacon)" (the leaderboard's footer and the profile count them)
UNBEACONED_RATED = (
    "SELECT g.finished_at FROM games g WHERE COALESCE(g.guild_id, 0)=$1 AND g.kind=$2"
    " AND g.beacon_round IS NOT NULL AND g.beacon_signature IS NULL"
    " AND EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id AND c.identity = COALESCE($3, c.identity))"
)

#: the games of a server and game ($1 the server or 0, $2 the game, $3 how many) ended or cancelled
#: once they had named a drand round, the last ended first: those ended after the round was
#: published are listed as abandoned (the round's time is the chain's: ``bot.fairness.beacon.chain``)
ABANDONED_GAMES = (
    "SELECT g.id, g.kind, g.preset, g.finished_at, g.beacon_round FROM games g"
    " WHERE g.status = 'cancelled' AND g.beacon_round IS NOT NULL AND COALESCE(g.guild_id, 0)=$1 AND g.kind=$2"
    ' ORDER BY g.finished_at COLLATE "C" DESC, g.id DESC LIMIT $3'
)

_NUMBERED = re.compile(r"\$\d+")


def qmarks(sql: str) -> str:
    """SQLite's form: every ``$n`` (each used once, in order) becomes ``?``, and PostgreSQL's
    byte-order collation goes (it is SQLite's own BINARY order already)."""
    return _NUMBERED.sub("?", sql).replace(' COLLATE "C"', "")


def rating_values(r: RatingRow) -> tuple[Any, ...]:
    return (r.guild_id, r.kind, r.season, r.identity, r.name, r.mu, r.sigma, r.games, r.wins, r.last_game)


def change_values(c: RatingChange) -> tuple[Any, ...]:
    return (c.game_id, c.seat, c.identity, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
