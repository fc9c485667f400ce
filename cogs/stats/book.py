"""Ratings kept up to date in the store: after each finished game, and rebuilt on request.

:meth:`RatingBook.catch_up` rates every finished game of a server and game that has no rating
changes yet, oldest first: right after a game ends (the finale shows its changes), and again
before a leaderboard is read, so a game whose rating a restart interrupted is rated later in its
turn. A table of a duplicate match is rated once every table of its match is over (its tables
still to play deal the same cards): until then no finished-games query of the book sees it. If an
unrated game finished before a game already rated (two games ending in one second,
or a rating interrupted by a restart), the server's ratings of that game are rebuilt instead,
so the live ratings always equal a rebuild from the stored games.

The all-time ratings are also held in memory (:meth:`RatingBook.note`) for the lobby, which is
drawn without waiting on the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

from bot.seam.contract import LiveTable
from bot.tables import secrecy
from bot.tables.secrecy import Door
from cogs.stats.ratings import ALL_TIME, Ledger, display, rate_game, rate_games, rebuild, season_of
from db.records import FinishedGame, RatingChange, RatingRow, RatingUpdate, ResultRow
from db.store import Store
from locales import _, ngettext

log = logging.getLogger(__name__)


#: how far the bot's clock and the store's may be apart (the store writes a game's finishing time)
CLOCKS_APART = timedelta(minutes=5)


#: a time as the store writes it (ISO-8601 UTC, to the second)
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def _stamp(moment: datetime) -> str:
    """A time as the store writes it (:data:`STAMP`)."""
    return moment.strftime(STAMP)


def _key(game: FinishedGame) -> tuple[str, int]:
    return (game.finished_at, game.id)


class RatingBook:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        #: all-time ratings by (server, game, identity); a server appears once loaded
        self._known: dict[tuple[int, str], dict[str, RatingRow]] = {}
        #: games rated with the move that finished them: their changes, the server's season length
        #: and the finishing time assumed (:meth:`finished`), until the finish hook reads them
        self._rated: dict[int, tuple[list[RatingChange], str, datetime]] = {}

    def _lock(self, guild_id: int, kind: str) -> asyncio.Lock:
        return self._locks.setdefault((guild_id, kind), asyncio.Lock())

    async def catch_up(self, guild_id: int | None, kind: str) -> dict[int, list[RatingChange]]:
        """Rate the games not rated yet; returns their changes by game id."""
        guild = guild_id or 0
        async with self._lock(guild, kind):
            held = await secrecy.held_matches(self.store, Door.STATS)  # a match counts once it is over
            pending = await self.store.finished_games(guild_id, kind, unrated_only=True, held=held)
            if not pending:
                await self._load(guild, kind)
                return {}
            newest = await self.store.finished_games(
                guild_id, kind, limit=len(pending) + 1, newest_first=True, held=held
            )
            pending_ids = {g.id for g in pending}
            first = _key(pending[0])
            if any(g.id not in pending_ids and _key(g) > first for g in newest):
                changes = await self._rebuild(guild_id, kind, held)
                found: dict[int, list[RatingChange]] = {game_id: [] for game_id in pending_ids}
                for change in changes:  # one pass: a rebuild's changes are every game's
                    if change.game_id in found:
                        found[change.game_id].append(change)
                return found
            settings = await self.store.guild_settings(guild_id)
            ledger = Ledger.of(guild, kind, await self.store.ratings(guild_id, kind))
            # in a thread: a server's first read after migration 0011 rates every game it has
            # (up to a millisecond a game with shared places), which the event loop must not wait on
            found = await asyncio.to_thread(rate_games, ledger, pending, settings.season)
            await self.store.save_ratings(guild_id, kind, ledger.changed(), [c for cs in found.values() for c in cs])
            self._remember(guild, kind, ledger)
            return found

    @contextlib.asynccontextmanager
    async def finishing(self, table: LiveTable, results: list[ResultRow]) -> AsyncIterator[RatingUpdate | None]:
        """A game's last move is about to be committed: yields what it does to the ratings, for
        the move's own transaction, or None where it cannot be rated alone now (a duplicate match's
        table, rated once the match is over; other games not rated yet, which are rated in their
        turn by :meth:`catch_up` after the commit). The server's ratings stay locked until the move
        is committed (then remembered) or refused (then forgotten), so no other rating reads them
        half-written."""
        guild, kind = table.record.guild_id or 0, table.kind.key
        async with self._lock(guild, kind):
            try:
                update = await self._rate_alone(table, results) if table.record.match_id is None else None
            except Exception:  # the move goes on without: its game is rated after (catch_up)
                log.warning("game %s: could not rate it with its last move", table.id, exc_info=True)
                update = None
            if update is None:
                yield None
                return
            ledger, changes, (length, assumed) = update
            yield RatingUpdate(table.record.guild_id, kind, ledger.changed(), changes)
            # (only once the move is committed: a refused one raises at the yield)
            self._rated[table.id] = (changes, length, assumed)
            self._remember(guild, kind, ledger)

    async def _rate_alone(
        self, table: LiveTable, results: list[ResultRow]
    ) -> tuple[Ledger, list[RatingChange], tuple[str, datetime]] | None:
        """The game rated on the server's ratings as stored, if every other finished game is
        rated and none finished later than now; None otherwise. The store writes the finishing
        time with the move, on its own clock (UTC): the season is the one of the store's now
        (:meth:`~db.store.Store.finishing_stamp`), checked after the commit (:meth:`finished`)."""
        guild_id, kind = table.record.guild_id, table.kind.key
        held = await secrecy.held_matches(self.store, Door.STATS)
        if await self.store.finished_games(guild_id, kind, unrated_only=True, held=held):
            return None
        # The store's clock, not the process's: the store stamps the finishing time itself
        # (SQLite's and PostgreSQL's own now), and the season is judged against that stamp.
        now = await self.store.finishing_stamp()
        assumed = datetime.strptime(now, STAMP).replace(tzinfo=UTC)
        newest = await self.store.finished_games(guild_id, kind, limit=1, newest_first=True, held=held)
        if newest and newest[0].finished_at > now:
            return None  # (a clock behind the store's: rated after the commit, rebuilding if need be)
        settings = await self.store.guild_settings(guild_id)
        ledger = Ledger.of(guild_id or 0, kind, await self.store.ratings(guild_id, kind))
        game = FinishedGame(
            id=table.id,
            kind=kind,
            guild_id=guild_id,
            preset=table.record.preset,
            finished_at=now,
            results=results,
            ai_levels={s.seat: s.ai_level for s in table.record.seats if s.ai_level is not None},
        )
        return ledger, rate_game(ledger, game, settings.season), (settings.season, assumed)

    async def finished(self, table: LiveTable) -> dict[int, list[RatingChange]]:
        """After a game's end is committed: its rating changes by game, with those of any game
        rated with it. A game rated with its last move (:meth:`finishing`) near the turn of a
        season is checked against the finishing time the store wrote (a season turning between
        the two clocks rebuilds the server's ratings); any other is rated now (:meth:`catch_up`)."""
        guild_id, kind = table.record.guild_id, table.kind.key
        rated = self._rated.pop(table.id, None)
        if rated is None:
            return await self.catch_up(guild_id, kind)
        changes, length, assumed = rated
        if season_of(_stamp(assumed - CLOCKS_APART), length) == season_of(_stamp(assumed + CLOCKS_APART), length):
            return {table.id: changes}
        stored = await self.store.finished_games(guild_id, kind, limit=1, newest_first=True)
        mine = next((g for g in stored if g.id == table.id), None)
        if mine is None or season_of(mine.finished_at, length) == season_of(_stamp(assumed), length):
            return {table.id: changes}
        async with self._lock(guild_id or 0, kind):
            rebuilt = await self._rebuild(guild_id, kind, await secrecy.held_matches(self.store, Door.STATS))
        return {table.id: [c for c in rebuilt if c.game_id == table.id]}

    async def rebuild(self, guild_id: int | None, kind: str) -> int:
        """Every rating of a server and game recomputed from its stored games; returns how many games."""
        async with self._lock(guild_id or 0, kind):
            changes = await self._rebuild(guild_id, kind, await secrecy.held_matches(self.store, Door.STATS))
            return len({c.game_id for c in changes})

    async def _rebuild(self, guild_id: int | None, kind: str, held: frozenset[int]) -> list[RatingChange]:
        games = await self.store.finished_games(guild_id, kind, held=held)
        settings = await self.store.guild_settings(guild_id)
        ledger, changes = await asyncio.to_thread(rebuild, guild_id or 0, kind, games, settings.season)
        await self.store.save_ratings(guild_id, kind, list(ledger.rows.values()), changes, replace=True)
        self._remember(guild_id or 0, kind, ledger)
        return changes

    async def _load(self, guild: int, kind: str) -> None:
        if (guild, kind) not in self._known:
            self._remember(guild, kind, Ledger.of(guild, kind, await self.store.ratings(guild, kind, ALL_TIME)))

    def _remember(self, guild: int, kind: str, ledger: Ledger) -> None:
        known = self._known.setdefault((guild, kind), {})
        for (season, ident), row in ledger.rows.items():
            if season == ALL_TIME:
                known[ident] = row

    async def warm(self, guild_id: int | None, kinds: list[str]) -> None:
        """Ready a server's ratings for its lobbies, rating any game not rated yet first (after
        migration 0011 every game: the lobby would otherwise call everyone new until a read)."""
        for kind in kinds:
            await self.catch_up(guild_id, kind)

    def note(self, guild_id: int | None, kind: str, ident: str) -> str | None:
        """A seated player's rating for the lobby ('rating 1043 · 12 games'), 'new' if unrated,
        None while this server's ratings are not loaded; in the language spoken now."""
        known = self._known.get((guild_id or 0, kind))
        if known is None:
            return None
        row = known.get(ident)
        if row is None:
            return _("new")
        return ngettext(
            "rating {rating} · {n} game", "rating {rating} · {n} games", row.games, rating=display(row.mu, row.sigma)
        )
