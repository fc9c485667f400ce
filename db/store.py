"""The storage interface the bot talks to.

Cogs and the table manager only ever see :class:`Store`, the records it hands back
(:mod:`db.records`) and the errors it raises (:mod:`db.errors`), never SQL, so a PostgreSQL backend
can replace :class:`db.sqlite.SqliteStore` without touching them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from db.records import (
    AbandonedGame,
    DealScore,
    DealtDeck,
    FinishedGame,
    GameRecord,
    GameVersion,
    GuildSettings,
    Lease,
    MatchBeacon,
    MatchRecord,
    MemberGame,
    MemberStats,
    MessageNotes,
    OldCopy,
    RatingChange,
    RatingRow,
    RatingUpdate,
    ResultRow,
    SavedPanel,
    SeatHandover,
    SeatRecord,
    Timer,
)


class Store(Protocol):
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    # lobby ---------------------------------------------------------------------------------
    async def create_game(
        self, kind: str, guild_id: int | None, channel_id: int, host_id: int, preset: str, options: dict[str, Any]
    ) -> int:
        """A new lobby; raises :class:`~db.errors.ChannelBusy` if the channel has a live game."""

    async def set_message(
        self, game_id: int, message_id: int | None, key: str | None = None, *, closed: Sequence[int] = ()
    ) -> None:
        """The table's message (``key``: the deal it shows); ``closed``: old copies of it that lost
        their controls meanwhile, forgotten in the same transaction (:meth:`drop_old_copy`)."""

    async def set_options(
        self, game_id: int, preset: str, options: dict[str, Any], turn_seconds: int | None
    ) -> None: ...
    async def set_seats(self, game_id: int, seats: list[SeatRecord]) -> None: ...
    async def start_game(
        self,
        game_id: int,
        rules: dict[str, Any],
        seed: int,
        seats: list[SeatRecord],
        rng_version: int,
        *,
        commitment: str | None = None,
        salt: str | None = None,
        first_deal: DealtDeck | None = None,
    ) -> None:
        """The game starts: its rules, seed, commitment (and salt) and first deck, in one transaction."""

    async def reserve_start(
        self, game_id: int, seed: int, salt: str, commitment: str, rng_version: int, beacon_round: int
    ) -> None:
        """A lobby about to start with a beacon: its seed, salt and commitment and the round it names,
        written before the round is published (the lobby stays a lobby until :meth:`start_game`), so
        that a restarted bot waits for the same round with the same seed."""

    async def set_beacon(
        self,
        game_id: int,
        *,
        signature: str | None,
        note: str | None,
        message_id: int | None,
        beacon_round: int | None = None,
    ) -> None:
        """The game's beacon as it stands: the verified signature, or why there is none, and the
        message that named the round (a None message id, or round, keeps the one stored)."""

    async def share_match_beacon(self, match_id: int, beacon: MatchBeacon) -> MatchBeacon:
        """A duplicate match's beacon: the first table to settle its round writes it; every table
        gets the one written (so all deal the same cards). Returns the match's."""

    # duplicate matches -----------------------------------------------------------------------
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
        """A new match; :class:`~db.errors.StoreConflict` if ``code`` is taken."""

    async def discard_match(self, match_id: int) -> bool:
        """Delete the match if no table ever joined it (its first table could not open: the
        channel was busy); False, and nothing changed, once one has."""

    async def expired_matches(self, now: str) -> list[MatchRecord]:
        """The matches still open, with a place free, whose ``expires_at`` is at or before ``now``
        (ISO UTC): the ones :mod:`bot.fairness.match_expiry` closes."""

    async def get_match(self, match_id: int) -> MatchRecord | None: ...
    async def match_by_code(self, code: str) -> MatchRecord | None: ...
    async def fix_match_rules(self, match_id: int, rules: dict[str, Any], players: int) -> MatchRecord:
        """Fix the match's rules and player count if no table has yet; returns the match as stored."""

    async def join_match(self, game_id: int, match_id: int) -> int | None:
        """Make the game a table of the match if the match is open and has a place left; returns
        the table's number in the match (1 for the first), or None (full, or closed). One decision
        in one transaction: two channels joining the last place at once get it for one of them."""

    async def close_match(self, match_id: int, at: str | None = None) -> MatchRecord | None:
        """Close the match now (``closed_at`` now, or ``at``: an expired match is closed as of its
        deadline, which is how its close is told from a host's): the tables that opened are the
        whole match from here on. Returns
        the closed match, or None when it was closed already (by another call, at the same moment
        perhaps: only one of two closes racing gets the match, so only one says it closed it)."""

    async def claim_comparison(self, match_id: int) -> bool:
        """Whether this call is the one to post the match's comparison: True once per match, False
        for every call after (the two last tables ending at once, or a close as the last ends, each
        try to post it; migration 0013)."""

    async def uncompared_matches(self) -> list[MatchRecord]:
        """The matches whose comparison no call has claimed: those still to be played, and those
        over whose comparison the bot stopped before posting (a restart posts them: whether a
        match is over is :func:`bot.tables.secrecy.match_allows`'s to say)."""

    async def match_games(self, match_id: int) -> list[GameRecord]:
        """The match's tables (games), in the order they joined, without their moves (``actions``
        empty): what every door of a match's table and its end read (seats, state, channel); a
        long game's thousands of moves are read with :meth:`get_game` when they are wanted."""

    async def remove_match_watcher(self, match_id: int, user_id: int) -> None:
        """Take back a watch just added (:func:`bot.tables.secrecy.sides_taken`: decided at the same moment
        as a seat elsewhere, and nothing was shown)."""

    async def add_match_watcher(self, match_id: int, user_id: int) -> bool:
        """``user_id`` watched a table of the match (kept once; see :mod:`bot.tables.secrecy`): True when
        this call added them, False when they had watched already."""

    async def match_watchers(self, match_id: int) -> set[int]:
        """The members who watched a table of the match."""

    # play ----------------------------------------------------------------------------------
    async def record_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        *,
        by_ai: bool = False,
        deal_scores: list[DealScore] | None = None,
        results: list[ResultRow] | None = None,
        timer: Timer | None = None,
        deal: DealtDeck | None = None,
        old_copy: OldCopy | None = None,
        ratings: RatingUpdate | None = None,
        notes: MessageNotes | None = None,
    ) -> None:
        """Commit one accepted action, with whatever it finished (and the deck of the deal it
        started), in a single transaction: a press's effects are one write, so a stop at any
        point leaves the move with its deal's scores, the next deal and the game's end, or none.

        ``old_copy``: the table message the move closed (a deal or the game ended), still to lose
        its controls, saved with the move so that a restart closes it (:meth:`save_old_copy`).
        ``ratings``: what the game the move finished does to the ratings (:meth:`save_ratings`).
        ``notes``: what the channels show, of any game, still to write (:meth:`write_notes`).

        ``seq`` must be the game's next sequence number (its count of recorded actions), checked
        inside the transaction that writes it, so of two processes applying the same move exactly
        one commits; the other gets :class:`~db.errors.StaleAction` (a :class:`~db.errors.StoreConflict`).
        """

    async def update_seat(self, game_id: int, seat: SeatRecord) -> None: ...
    async def hand_over_seat(
        self, handover: SeatHandover, seat: SeatRecord, *, host_id: int | None = None, match_id: int | None = None
    ) -> None:
        """The seat changes hands, in one transaction: ``seat`` (its new player) replaces the row
        still held by ``handover.from_user``, the hand-over is logged, ``host_id`` (if given)
        becomes the game's host, and with ``match_id`` the old player is kept as one who saw the
        duplicate match's cards (:mod:`bot.tables.secrecy`). :class:`~db.errors.StoreConflict` if the seat is no
        longer ``from_user``'s (handed or changed meanwhile): nothing is written then."""

    async def seat_handovers(self, game_ids: list[int]) -> list[SeatHandover]:
        """The hand-overs of these games, oldest first (each game's in the order they happened)."""

    async def end_game(self, game_id: int, status: str, results: list[ResultRow] | None = None) -> None:
        """End the game with ``status`` (and its results, if any). A lobby cancelled before it
        started leaves its duplicate match in the same transaction: it never played, so it is not
        one of the match's tables, and its place is free for another (migration 0015)."""

    async def set_finale_shown(self, game_id: int, revealed: bool = False, *, closed: Sequence[int] = ()) -> None:
        """The final standings of a finished game reached its channel (``closed``: old copies of
        its table closed meanwhile, forgotten in the same transaction); ``revealed``: they said its
        shuffle can be checked (the column holds 2 then, 1 when they said the seed is held: a
        duplicate match's table that ended before the match did), which a restart's comparison
        reads so as not to tell that channel again. A game its host ended early is marked revealed
        when its "ended" message says so (its status stays cancelled: no standings to post)."""

    async def write_notes(self, notes: MessageNotes) -> None:
        """What the channels show (:class:`MessageNotes`), in one transaction: each table's message
        as :meth:`set_message`, each finale as :meth:`set_finale_shown`, each closed copy dropped."""

    async def save_old_copy(self, copy: OldCopy) -> None:
        """An old copy of a table waits to lose its controls (kept across a restart)."""

    async def drop_old_copy(self, game_id: int, message_id: int) -> None:
        """That old copy has lost its controls (or is gone)."""

    async def old_copies(self) -> list[OldCopy]:
        """Every old copy still to close, of any game, oldest first."""

    async def save_panels(self, panels: list[SavedPanel]) -> None:
        """Players' open panels at a stop (one per game and seat; a newer one replaces it)."""

    async def take_panels(self, game_ids: list[int]) -> list[SavedPanel]:
        """The saved panels of these games, removed from the store as they are handed over."""

    # timers --------------------------------------------------------------------------------
    async def set_timer(self, timer: Timer | None, game_id: int) -> None: ...
    async def timers(self) -> list[Timer]: ...

    # turn pings -------------------------------------------------------------------------------
    async def set_pings(self, user_id: int, on: bool) -> None:
        """Whether ``user_id`` wants turn pings (every table, every game; on unless turned off)."""

    async def pings_off(self, user_ids: list[int]) -> set[int]:
        """Those of ``user_ids`` who turned turn pings off."""

    # member languages -------------------------------------------------------------------------
    async def set_member_language(self, user_id: int, locale: str) -> None:
        """Keep the locale tag ``user_id``'s Discord client last spoke in (replacing the one kept)."""

    async def member_languages(self, user_ids: list[int]) -> dict[int, str]:
        """The kept locale tag of each of ``user_ids`` that has one."""

    # shard leases ------------------------------------------------------------------------
    async def claim_leases(self, holder: str, shards: list[int], shard_count: int, seconds: float) -> list[Lease]:
        """Take the leases of ``shards`` for ``seconds`` (on the database's clock), all or none.

        Returns the live leases of other holders that stand in the way: one on a wanted shard, or
        any held with another shard count (the guilds would be split differently). An empty list
        means every lease is now ``holder``'s; an expired lease is taken over.
        """

    async def renew_leases(self, holder: str, seconds: float) -> list[int]:
        """Push ``holder``'s leases ``seconds`` ahead; returns the shards it still holds."""

    async def release_leases(self, holder: str) -> None: ...

    # reading -------------------------------------------------------------------------------
    async def game_versions(self, game_ids: list[int]) -> dict[int, GameVersion]:
        """Status and action count of each stored game of ``game_ids`` (games not found are left out)."""

    async def get_game(self, game_id: int) -> GameRecord | None: ...
    async def live_games(self) -> list[GameRecord]: ...
    async def unshown_finales(self) -> list[GameRecord]:
        """Finished games whose final standings never reached the channel (a restart posts them)."""

    async def last_game(self, channel_id: int, kind: str) -> GameRecord | None: ...
    async def deal_scores(self, game_id: int) -> list[DealScore]: ...
    async def deals(self, game_id: int) -> list[DealtDeck]:
        """The game's stored decks, by deal number."""

    async def results(self, game_id: int) -> list[ResultRow]: ...
    async def member_stats(
        self, user_id: int, guild_id: int | None, *, held: Collection[int] = ()
    ) -> list[MemberStats]:
        """A member's figures by game on a server, leaving out the games of the matches ``held``."""

    # ratings, history and profiles (cogs/stats) -------------------------------------------
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
        """Finished games of a server (``None``: outside any server) in finishing order
        (``finished_at``, then id), with their results; ``unrated_only``: no rating changes yet;
        ``held``: duplicate matches whose tables are left out (:func:`bot.tables.secrecy.held_matches`:
        what the ratings may not count yet, while the history shows such a table as held)."""

    async def ratings(self, guild_id: int | None, kind: str, season: str | None = None) -> list[RatingRow]:
        """The ratings of a server and game, of one season or (``None``) of every season."""

    async def save_ratings(
        self,
        guild_id: int | None,
        kind: str,
        rows: list[RatingRow],
        changes: list[RatingChange],
        *,
        replace: bool = False,
    ) -> None:
        """Write ratings (replacing each row) and rating changes in one transaction; ``replace``
        first deletes every rating and rating change of that server and game (a rebuild)."""

    async def rating_changes(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[RatingChange]:
        """Rating changes of a server and game (of one identity if given), in game order."""

    async def unbeaconed_rated(self, guild_id: int | None, kind: str, identity: str | None = None) -> list[str]:
        """When each rated game of a server and game (of one identity's rated games if given) that
        named a drand round but dealt without it (labelled "commit–reveal only (no beacon)")
        finished: the leaderboard and the profile count them."""

    async def abandoned_games(self, guild_id: int | None, kind: str, *, limit: int) -> list[AbandonedGame]:
        """The last ``limit`` games of a server and game ended or cancelled once they had named a
        drand round, the last ended first (whether the round was published by then is the
        chain's to say: :meth:`bot.fairness.beacon.chain.Chain.round_time`)."""

    async def finishing_stamp(self) -> str:
        """The time the store would write now as a game's finishing time (its own clock, UTC,
        ISO-8601 to the second, as ``finished_at`` reads): what a game's season is judged by."""

    async def guild_settings(self, guild_id: int | None) -> GuildSettings: ...
    async def set_guild_settings(self, guild_id: int | None, settings: GuildSettings) -> None: ...
    async def member_games(self, user_id: int, guild_id: int | None, *, held: Collection[int] = ()) -> list[MemberGame]:
        """A member's finished games on a server, oldest first, but those of the matches ``held``."""

    async def analysis(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The stored analysis of a game and its version, or None."""

    async def save_analysis(self, game_id: int, version: int, data: dict[str, Any]) -> None:
        """Store (or replace) a game's analysis."""
