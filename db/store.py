"""The storage interface the bot talks to, and the records it hands back.

Cogs and the table manager only ever see :class:`Store` and these dataclasses, never SQL, so a
PostgreSQL backend can replace :class:`db.sqlite.SqliteStore` without touching them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class StoreError(Exception):
    """A storage failure the bot reports to the user as 'try again'."""


class StoreConflict(StoreError):
    """A write broke a uniqueness rule (an action already recorded, a busy channel)."""


class StoreConfigError(StoreError):
    """The store cannot start as configured (a wrong ``DATABASE_URL``, a server that is down…).

    Its message is one sentence saying what is wrong and what to do about it.
    """


class StaleAction(StoreConflict):
    """An action was recorded for a sequence number that is not the game's next one: another
    process (or task) committed a move first, so the caller's view of the game is out of date."""

    def __init__(self, game_id: int, seq: int, next_seq: int) -> None:
        super().__init__(f"game {game_id} is at action {next_seq}, not {seq}")
        self.game_id, self.seq, self.next_seq = game_id, seq, next_seq


class ChannelBusy(StoreConflict):
    """The channel already has a live (lobby or playing) game."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"channel already has game {game_id}")
        self.game_id = game_id


@dataclass(slots=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None
    dm_closed: bool = False

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(slots=True)
class GameRecord:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    preset: str
    options: dict[str, Any]
    rules: dict[str, Any] | None
    seed: int | None
    turn_seconds: int | None
    message_id: int | None
    message_key: str | None = None
    #: the deal generator the game was shuffled with (games/common/rng.py); 1 before it existed
    rng_version: int = 1
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "playing")


@dataclass(slots=True)
class DealScore:
    deal: int
    seat: int
    bid: int | None
    tricks: int | None
    delta: int
    total: int


@dataclass(slots=True)
class ResultRow:
    seat: int
    user_id: int | None
    name: str
    place: int
    total: int | None
    is_loser: bool
    stats: dict[str, Any]


@dataclass(slots=True)
class Timer:
    game_id: int
    seq: int
    deadline: float
    reminded: bool


@dataclass(frozen=True, slots=True)
class Lease:
    """A shard's lease as another process holds it (what stands in the way of a claim)."""

    shard: int
    shard_count: int
    holder: str
    seconds_left: float


@dataclass(frozen=True, slots=True)
class GameVersion:
    """How far a stored game is: compared with a live table to see whether another process moved it."""

    status: str
    actions: int


@dataclass(slots=True)
class MemberStats:
    kind: str
    games: int
    wins: int
    losses: int  # last place / the shithead
    best_total: int | None
    points: int


class Store(Protocol):
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    # lobby ---------------------------------------------------------------------------------
    async def create_game(
        self, kind: str, guild_id: int | None, channel_id: int, host_id: int, preset: str, options: dict[str, Any]
    ) -> int:
        """A new lobby; raises :class:`ChannelBusy` if the channel has a live game."""

    async def set_message(self, game_id: int, message_id: int | None, key: str | None = None) -> None: ...
    async def set_options(
        self, game_id: int, preset: str, options: dict[str, Any], turn_seconds: int | None
    ) -> None: ...
    async def set_seats(self, game_id: int, seats: list[SeatRecord]) -> None: ...
    async def start_game(
        self, game_id: int, rules: dict[str, Any], seed: int, seats: list[SeatRecord], rng_version: int
    ) -> None: ...

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
    ) -> None:
        """Commit one accepted action, with whatever it finished, in a single transaction.

        ``seq`` must be the game's next sequence number (its count of recorded actions), checked
        inside the transaction that writes it, so of two processes applying the same move exactly
        one commits; the other gets :class:`StaleAction` (a :class:`StoreConflict`).
        """

    async def update_seat(self, game_id: int, seat: SeatRecord) -> None: ...
    async def end_game(self, game_id: int, status: str, results: list[ResultRow] | None = None) -> None: ...

    # timers --------------------------------------------------------------------------------
    async def set_timer(self, timer: Timer | None, game_id: int) -> None: ...
    async def timers(self) -> list[Timer]: ...

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
    async def last_game(self, channel_id: int, kind: str) -> GameRecord | None: ...
    async def deal_scores(self, game_id: int) -> list[DealScore]: ...
    async def results(self, game_id: int) -> list[ResultRow]: ...
    async def member_stats(self, user_id: int, guild_id: int | None) -> list[MemberStats]: ...
