"""The records the store hands back and takes: plain dataclasses for games, seats, matches, timers,
results and ratings.

Cogs and the table manager see only these and :class:`db.store.Store`, never SQL, so either backend
(:mod:`db.sqlite`, :mod:`db.postgres`) can stand behind them; :mod:`db.rows` turns a row into one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None
    dm_closed: bool = False
    #: the player lets spectators see their hand (``/<game> spectators``); off by default
    shows_hand: bool = False

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
    #: the deal seed: secret until the game is over (kept out of repr so no log line can show it)
    seed: int | None = field(repr=False)
    turn_seconds: int | None
    message_id: int | None
    message_key: str | None = None
    #: the deal generator the game was shuffled with (games/common/rng.py); 1 before it existed
    rng_version: int = 1
    #: the SHA-256 commitment to the seed shown at the start (games/common/commitment.py); None
    #: for games started before it existed
    commitment: str | None = None
    #: the salt (hex) that went into the commitment: as secret as the seed until the game is over
    salt: str | None = field(default=None, repr=False)
    #: the duplicate match this game is a table of (``MatchRecord``), or None
    match_id: int | None = None
    #: its final standings (or, ended early by its host, its "ended" message) said its shuffle can be
    #: checked (:meth:`~db.store.Store.set_finale_shown`)
    finale_revealed: bool = False
    #: the drand round the game's decks are bound to (bot.fairness.beacon), None without a beacon
    beacon_round: int | None = None
    #: the round's signature (hex) once fetched and verified: the decks come from it and the seed
    beacon_signature: str | None = None
    #: why the game has no beacon although it named a round (one sentence): it is labelled
    beacon_note: str | None = None
    #: the public message that committed to the seed and named the round
    beacon_message_id: int | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "playing")


@dataclass(slots=True)
class MatchRecord:
    """A duplicate match: tables that share the deal seed (and salt), rules and player count."""

    id: int
    kind: str
    code: str
    guild_id: int | None
    host_id: int
    tables: int
    seed: int = field(repr=False)
    salt: str = field(repr=False)
    #: fixed when the first table starts (None before)
    rules: dict[str, Any] | None = None
    players: int | None = None
    #: when it was closed (ISO UTC; by its host, a server manager, or the bot once it expired): no
    #: table joins after, and the tables that opened are the whole match
    closed_at: str | None = None
    #: by when its tables must have opened (ISO UTC, the bot's clock); past it the bot closes it
    #: with the tables it has (:mod:`bot.fairness.match_expiry`). None: never (a match from before 0016)
    expires_at: str | None = None
    #: the drand beacon every table of the match deals by (bot.fairness.beacon): None until a table settles one
    beacon: MatchBeacon | None = None


@dataclass(frozen=True, slots=True)
class MatchBeacon:
    """A duplicate match's drand round, the commitment message that named it, and its signature
    (verified) or why there is none."""

    round: int
    message_id: int | None
    signature: str | None
    note: str | None


@dataclass(slots=True)
class DealtDeck:
    """One deal's whole deck in the order it was dealt (card codes, the first card dealt first)."""

    deal: int
    deck: list[str]


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
    """What a turn's clock still has to do, kept so that a restart keeps it: the turn's deadline
    (None: the table has no turn timer) and its reminder, and the ping of a player who is not
    looking (``ping_at`` None: the table pings nobody; migration 0017)."""

    game_id: int
    seq: int
    deadline: float | None
    reminded: bool
    ping_at: float | None = None
    pinged: bool = False


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
class OldCopy:
    """A copy of a table's message still to lose its controls, and the look it ends with."""

    game_id: int
    message_id: int
    look: dict[str, Any]  # {"content": str | None, "embeds": [embed dicts]}
    after_post: bool = False


@dataclass(slots=True)
class MessageNotes:
    """What the channel shows that a restart reads, and nothing else needs: each table's message
    (its id and the deal it shows), the final standings posted (True: they said the shuffle can
    be checked) and the old copies closed (by game). Being only about Discord's messages, they
    are written with the next write that is made anyway (the next move of any game:
    :meth:`~db.store.Store.record_action`), or at a stop (:meth:`~db.store.Store.write_notes`); after a crash the
    restarted bot finds them again in the channel."""

    messages: dict[int, tuple[int | None, str | None]] = field(default_factory=dict)
    finales: dict[int, bool] = field(default_factory=dict)
    closed: dict[int, set[int]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.messages or self.finales or self.closed)


@dataclass(frozen=True, slots=True)
class SavedPanel:
    """A player's open private panel kept across a stop: what Discord needs to edit it (the
    interaction's application and token, valid 15 minutes after the click that made it)."""

    game_id: int
    seat: int
    application_id: int
    token: str
    message_id: int  # the panel's message
    opened: float  # wall-clock seconds of that click
    language: str | None = None  # what it speaks: its player's language (None: the table's)


@dataclass(frozen=True, slots=True)
class SeatHandover:
    """A seat handed to another member mid-game: who played it before and who plays it from
    move ``moves`` on (the game's recorded actions then), and who offered it (the seat's player,
    or the host for an absent player)."""

    game_id: int
    seat: int
    moves: int
    from_user: int
    from_name: str
    to_user: int
    to_name: str
    by_user: int


@dataclass(slots=True)
class MemberStats:
    kind: str
    games: int
    wins: int
    losses: int  # last place / the shithead
    best_total: int | None
    points: int


@dataclass(slots=True)
class FinishedGame:
    """A finished game's summary: what the history lists and what ratings are computed from.

    ``finished_at`` is the store's ISO-8601 UTC text; ``ai_levels`` the computer seats' levels."""

    id: int
    kind: str
    guild_id: int | None
    preset: str
    finished_at: str
    results: list[ResultRow]
    ai_levels: dict[int, str] = field(default_factory=dict)
    #: the drand round its decks came from; None without one (see ``unbeaconed``)
    beacon_round: int | None = None
    #: it named a drand round that never came: labelled "commit–reveal only (no beacon)"
    unbeaconed: bool = False


@dataclass(slots=True)
class AbandonedGame:
    """A game ended or cancelled once it had named a drand round (``beacon_round``): listed as
    abandoned where it ended after the round was published (``ended_at``: the store's ISO-8601
    UTC text), so that a game dropped for the decks its round gave stays seen."""

    id: int
    kind: str
    preset: str
    ended_at: str
    beacon_round: int


@dataclass(slots=True)
class RatingRow:
    """One identity's rating in a server, game and season (``'all'``: all time)."""

    guild_id: int
    kind: str
    season: str
    identity: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    last_game: int


@dataclass(slots=True)
class RatingChange:
    """What one finished game did to one seat's all-time rating."""

    game_id: int
    seat: int
    identity: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(slots=True)
class RatingUpdate:
    """What a finished game does to its server's ratings, written in the transaction of the move
    that finished it (:meth:`~db.store.Store.record_action`), so the game's end and its rating are one write."""

    guild_id: int | None
    kind: str
    rows: list[RatingRow]
    changes: list[RatingChange]


@dataclass(slots=True)
class MemberGame:
    """One finished game from a member's side: their place and, for Oh Hell, their bids."""

    game_id: int
    kind: str
    preset: str
    finished_at: str
    seat: int
    place: int
    total: int | None
    is_loser: bool
    players: int
    deals: int
    bids_made: int


@dataclass(slots=True)
class GuildSettings:
    season: str = "monthly"
    min_games: int = 3
