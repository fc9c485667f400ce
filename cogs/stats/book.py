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

from bot.tables import secrecy
from bot.tables.secrecy import Door
from cogs.stats.ratings import ALL_TIME, Ledger, display, rate_games, rebuild
from db.store import FinishedGame, RatingChange, RatingRow, Store
from locales import _, ngettext


def _key(game: FinishedGame) -> tuple[str, int]:
    return (game.finished_at, game.id)


class RatingBook:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        #: all-time ratings by (server, game, identity); a server appears once loaded
        self._known: dict[tuple[int, str], dict[str, RatingRow]] = {}

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
