"""Who may see or do what at a table: the one secrecy policy every door asks.

A *door* is anything that lets a member act on a table or read what it dealt: a player's own hand
(**My hand** and every press on a player's panel: the most secret thing of all), Join (the
lobby's button, and opening a table of a duplicate match), taking over a seat handed to one
mid-game, Watch, replay, the coach's analysis, scores, history, verify, the exported JSON files,
the shuffle's seed, the ratings and profiles (``/leaderboard``, ``/cardstats``) and a duplicate
match's comparison. Each asks :func:`decide` with
the asker's *role* at that table and the table's *state*, and refuses with the policy's own
sentence; so a secret is kept (or given) the same way at every door, not door by door.

Why a duplicate match needs a policy at all: its tables deal the very same cards, seat for seat,
each at its own pace. Until every table is over, anything that shows a table's cards, bids or
tricks (a replay, an analysis, a finished deal's hands in Watch, the scores deal by deal, the
seed in a JSON file) tells a player of a table still to play what is coming. So, while a match
has tables still to play (:attr:`State.HELD`), nobody replays, analyses, verifies or exports its
finished tables, only their own players read their scores and history, and one member plays or
watches at most *one side* of the match: a member seated at one of its tables never sits at or
watches another, and one who watched may not sit down afterwards (the watchers are kept in the
store for that).

The public table message in a channel is beyond any door: whoever can read that channel reads it.

:func:`decide`, :func:`role_of`, :func:`state_of` and :func:`where` are pure (the table-driven test
covers every door x role x state); :func:`situation` reads what they need from the store.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum

from bot.fairness.shuffles import is_over, match_done, match_over
from bot.messages.errors import Refusal
from bot.seam.contract import NOT_PLAYING
from db.errors import StoreError
from db.records import GameRecord, MatchRecord
from db.store import Store
from locales import N_, translate

log = logging.getLogger(__name__)


class Door(Enum):
    JOIN = "join"  # take a seat (the lobby's Join; opening a table of a match, whose opener sits)
    WATCH = "watch"  # the spectator's private view (and its Refresh)
    REPLAY = "replay"  # the step-by-step replay and its page buttons
    ANALYSE = "analyse"  # the coach
    SCORES = "scores"  # the score sheet (bids and tricks deal by deal)
    HISTORY = "history"  # a game's result in the list of past games
    VERIFY = "verify"  # the shuffle check
    EXPORT = "export"  # a JSON file with the seed (the replay's hand history, verify's shuffle file)
    SEED = "seed"  # the seed and salt revealed in the channel
    TAKE_SEAT = "take seat"  # take over a seat handed to you mid-game (and be offered one)
    HAND = "hand"  # My hand and every press on a player's panel: the seat's own cards and choices
    STATS = "stats"  # a finished game counted in the ratings and profiles (/leaderboard, /cardstats)
    COMPARISON = "comparison"  # a duplicate match's comparison, posted in every table's channel


class Role(Enum):
    SEATED = "seated"  # has a seat at this table
    MATCH_PLAYER = "match player"  # has a seat at another table of this table's duplicate match
    SPECTATOR = "spectator"  # watched a table of this table's duplicate match
    OUTSIDER = "outsider"  # none of these
    MANAGER = "manager"  # a server manager who is none of the above: no secret more than an outsider


class State(Enum):
    LOBBY = "lobby"  # not started
    LIVE = "live"  # being played
    FINISHED = "finished"  # over (finished or ended), and so is every table of its match
    HELD = "held"  # over, but its duplicate match has tables still to play the same cards


#: a player's door (:attr:`Door.HAND`) of a game over
ENDED = N_("This game has ended.")

#: what a refused door would have done, for the sentences below
_DONE = {
    Door.JOIN: N_("sit down"),
    Door.WATCH: N_("watched"),
    Door.REPLAY: N_("replayed"),
    Door.ANALYSE: N_("analysed"),
    Door.SCORES: N_("shown"),
    Door.HISTORY: N_("shown"),
    Door.VERIFY: N_("checked"),
    Door.EXPORT: N_("exported"),
    Door.SEED: N_("revealed"),
    Door.TAKE_SEAT: N_("take a seat"),
    Door.HAND: N_("played"),
    Door.STATS: N_("counted"),
    Door.COMPARISON: N_("compared"),
}

_TEXTS = {
    "started": N_("This game has already started."),
    "already_seated": N_("You are already at this table."),
    "seated_in_match": N_(
        "You have a seat at another table of this duplicate match, which plays the same cards: "
        "you may not {verb} at this one."
    ),
    "watched_match": N_(
        "You watched a table of this duplicate match, so you have seen its cards: you may not sit at one of its tables."
    ),
    "not_started": N_("The game has not started yet."),
    "over": N_("Game #{game} is over: there is nothing left to watch."),
    "own_table": N_(
        "You are playing at this table: your cards are under **{hand}**. Watching is for people who are not playing."
    ),
    "not_over": N_("Game #{game} has not finished: it can be {done} once it ends."),
    "seed_secret": N_("Game #{game} is not over: its seed stays secret until then."),
    "held": N_(
        "Game #{game} is a table of a duplicate match whose other tables are still playing the same cards: "
        "it can be {done} once every table has finished (or the match's host closes it with the tables it has,"
        " or it closes itself when its other tables have not opened in time)."
    ),
    "elsewhere": N_("This control belongs to a table in another channel."),
    "other_server": N_("There is no game #{game} on this server."),
    "not_live": N_("Game #{game} is not being played: there is no seat to take over."),
    "not_playing": NOT_PLAYING,
    "ended": ENDED,
    "ok": "",
}

#: the verb of "you may not … at this one" per door
_VERB = {
    Door.JOIN: N_("sit"),
    Door.TAKE_SEAT: N_("take a seat"),
    Door.WATCH: N_("watch the cards"),
    Door.SCORES: N_("read the scores"),
}


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    why: str  # a key of the sentences above ("ok" when allowed)
    door: Door

    def text(self, game: int, hand: str = N_("My hand")) -> str:
        """The refusal as a member reads it (in the language being spoken: each part translated)."""
        return translate(
            _TEXTS[self.why],
            game=game,
            hand=translate(hand),
            done=translate(_DONE[self.door]),
            verb=translate(_VERB.get(self.door, N_("look"))),
        )


def _yes(door: Door) -> Decision:
    return Decision(True, "ok", door)


def _no(door: Door, why: str) -> Decision:
    return Decision(False, why, door)


def decide(door: Door, role: Role, state: State) -> Decision:
    """May someone of ``role`` pass ``door`` of a table in ``state``? (The one rule book: one
    rule a kind of door, below.)"""
    if door is Door.JOIN or door is Door.TAKE_SEAT:
        return _seat_door(door, role, state)
    if door is Door.HAND:
        return _hand_door(role, state)
    if door is Door.WATCH:
        return _watch_door(role, state)
    if door is Door.SCORES:
        return _scores_door(role, state)
    if door is Door.HISTORY:
        return _history_door(role, state)
    return _cards_door(door, state)


def _seat_door(door: Door, role: Role, state: State) -> Decision:
    """Join: the lobby's seats. Take seat: a seat handed over mid-game, whose new player sees the
    seat's hand from then on; as at Join, nobody who saw a table of the same duplicate match (its
    cards) may take one."""
    if door is Door.JOIN and state is not State.LOBBY:
        return _no(door, "started")
    if door is Door.TAKE_SEAT and state is not State.LIVE:
        return _no(door, "not_live")
    if role is Role.SEATED:
        return _no(door, "already_seated")
    if role is Role.MATCH_PLAYER:
        return _no(door, "seated_in_match")
    if role is Role.SPECTATOR:
        return _no(door, "watched_match")
    return _yes(door)


def _hand_door(role: Role, state: State) -> Decision:
    """Only the seat's own player, and only while there is a game to play: a finished game's
    hands are the replay's, behind its own door."""
    door = Door.HAND
    if role is not Role.SEATED:
        return _no(door, "not_playing")
    if state is State.LOBBY:
        return _no(door, "not_started")
    if state is not State.LIVE:
        return _no(door, "ended")
    return _yes(door)


def _watch_door(role: Role, state: State) -> Decision:
    """A live table, to anyone but its own players and the players of its match."""
    door = Door.WATCH
    if state is State.LOBBY:
        return _no(door, "not_started")
    if state is not State.LIVE:
        return _no(door, "over")
    if role is Role.SEATED:
        return _no(door, "own_table")
    if role is Role.MATCH_PLAYER:
        return _no(door, "seated_in_match")
    return _yes(door)


def _scores_door(role: Role, state: State) -> Decision:
    """A live table's scores are its public table; a held table's belong to its own players."""
    door = Door.SCORES
    if role is Role.MATCH_PLAYER and state in (State.LIVE, State.HELD):
        return _no(door, "seated_in_match")
    if state is State.HELD and role is not Role.SEATED:
        return _no(door, "held")
    return _yes(door)


def _history_door(role: Role, state: State) -> Decision:
    """A finished table's deals, to its own players while its match is held."""
    door = Door.HISTORY
    if state in (State.LOBBY, State.LIVE):
        return _no(door, "not_over")
    if state is State.HELD and role is not Role.SEATED:
        return _no(door, "held")
    return _yes(door)


def _cards_door(door: Door, state: State) -> Decision:
    """Replay, analysis, verify, export and the seed: every card and the seed itself; the ratings,
    the profiles and the comparison, which show what every table of a match did with its cards:
    to anyone, once the table is over and its match no longer held."""
    if state in (State.LOBBY, State.LIVE):
        return _no(door, "seed_secret" if door in (Door.VERIFY, Door.EXPORT, Door.SEED) else "not_over")
    if state is State.HELD:
        return _no(door, "held")
    return _yes(door)


#: the doors reached only from the table's own channel
_AT_THE_TABLE = (Door.JOIN, Door.WATCH, Door.TAKE_SEAT)
#: the doors reached from anywhere: a player's panel is also sent by direct message (the seat is
#: the key, wherever it is pressed); the ratings and the comparison are no table's request
_ANYWHERE = (Door.HAND, Door.STATS, Door.COMPARISON)

#: the doors decided by the table alone, as this process holds it (its seats and whether it is
#: played), without a read of the store: every press asks, so none may wait on the database. For
#: these :func:`decide` tells no role but the seated from the others, nor a finished table from a
#: held one (the table-driven test checks it), which only the store could tell
AT_THE_TABLE_ALONE = (Door.HAND,)


def where(door: Door, record: GameRecord, guild_id: int | None, channel_id: int | None) -> Decision:
    """The place a request comes from: a server's games are reached only from that server, and a
    table's Join and Watch only from its own channel (a control copied onto another message must
    not seat a non-member or show another server's table)."""
    if door in _ANYWHERE:
        return _yes(door)
    if record.guild_id != guild_id:
        return _no(door, "elsewhere" if door in _AT_THE_TABLE else "other_server")
    if door in _AT_THE_TABLE and record.channel_id != channel_id:
        return _no(door, "elsewhere")
    return _yes(door)


def _counts(game: GameRecord) -> bool:
    """A table whose seats count as the match's: one that started, or a lobby that may still."""
    return game.seed is not None or game.status == "lobby"


def role_of(
    user_id: int, record: GameRecord | None, games: list[GameRecord], watchers: set[int], manager: bool = False
) -> Role:
    """``user_id``'s role at ``record`` (None: a table of the match not opened yet), whose match
    has the tables ``games`` and the watchers ``watchers`` (both empty outside a match)."""
    if record is not None and any(s.user_id == user_id for s in record.seats):
        return Role.SEATED
    others = [g for g in games if record is None or g.id != record.id]
    if any(s.user_id == user_id for g in others if _counts(g) for s in g.seats):
        return Role.MATCH_PLAYER
    if user_id in watchers:
        return Role.SPECTATOR
    return Role.MANAGER if manager else Role.OUTSIDER


def state_of(record: GameRecord, match_done: bool) -> State:
    """The table's state; ``match_done``: every table of its match is over (True outside a match)."""
    if record.status == "lobby":
        return State.LOBBY
    if not is_over(record):
        return State.LIVE
    return State.FINISHED if record.match_id is None or match_done else State.HELD


def here(door: Door, record: GameRecord, user_id: int) -> Decision:
    """The policy's answer at one of the doors :data:`AT_THE_TABLE_ALONE`, from the table alone."""
    assert door in AT_THE_TABLE_ALONE, door
    return decide(door, role_of(user_id, record, [], set()), state_of(record, match_done=True))


def require_here(door: Door, record: GameRecord, user_id: int) -> None:
    """:func:`here`, refusing (:class:`~bot.messages.errors.Refusal`) unless allowed."""
    decision = here(door, record, user_id)
    if not decision.allowed:
        raise Refusal(decision.text(record.id))


def match_state(match: MatchRecord | None, games: list[GameRecord]) -> State:
    """A match's state as its finished tables have it: :attr:`State.FINISHED` once every table it
    will have is over (:func:`bot.fairness.shuffles.match_done`), else :attr:`State.HELD`."""
    return State.FINISHED if match_done(match, games) else State.HELD


def match_allows(door: Door, match: MatchRecord | None, games: list[GameRecord]) -> bool:
    """Whether ``door`` is open, for anyone, on what a duplicate match's finished tables did (its
    comparison, :attr:`Door.COMPARISON`, shows every table's cards and scores): not while one of
    its tables is still to play them."""
    return decide(door, Role.OUTSIDER, match_state(match, games)).allowed


async def held_matches(store: Store, door: Door) -> frozenset[int]:
    """The duplicate matches whose finished tables ``door`` may not show yet (the ratings and
    profiles: :attr:`Door.STATS`): the rule is applied here, once, in Python; the store's queries
    leave out the games of these matches by number (``held=``). Only a match whose comparison
    nobody has claimed can be one (a comparison is claimed only once a match is over)."""
    held = set()
    for match in await store.uncompared_matches():
        if not match_allows(door, match, await store.match_games(match.id)):
            held.add(match.id)
    return frozenset(held)


@dataclass(frozen=True, slots=True)
class Situation:
    role: Role
    state: State


async def situation(store: Store, record: GameRecord, user_id: int, manager: bool = False) -> Situation:
    """What :func:`decide` needs to know about ``user_id`` and ``record``, read from the store."""
    games: list[GameRecord] = []
    watchers: set[int] = set()
    done = True
    if record.match_id is not None:
        done, games = await match_over(store, record)
        games = [record if g.id == record.id else g for g in games]  # the live record is the newer
        watchers = await store.match_watchers(record.match_id)
    return Situation(role_of(user_id, record, games, watchers, manager), state_of(record, done))


async def match_role(store: Store, match_id: int, user_id: int) -> Role:
    """``user_id``'s role in a match before a new table of it opens (its opener takes a seat)."""
    return role_of(user_id, None, await store.match_games(match_id), await store.match_watchers(match_id))


#: said to a member whose Join, Watch or new table lost to another of her requests on the same
#: match made at the same moment elsewhere (:func:`sides_taken`)
BOTH_SIDES = N_(
    "You asked to play and to watch this duplicate match at the same moment: you play or watch one side "
    "of it, so this request was not kept."
)


async def sides_taken(store: Store, match_id: int, user_id: int) -> bool:
    """Whether ``user_id`` holds two sides of the match as stored now: seated at two tables of it
    that count, or seated at one and a watcher. Asked again after a door's write, so that two
    requests decided at once in two processes (each seeing the match before the other wrote)
    cannot both stand: the later one to ask sees both writes and takes its own back. A store that
    fails to answer leaves the write standing (it is saved; the lock held in this process still
    kept its own requests apart), and says so in the log."""
    try:
        games = await store.match_games(match_id)
        seated = sum(1 for g in games if _counts(g) and any(s.user_id == user_id for s in g.seats))
        return seated > 1 or (seated == 1 and user_id in await store.match_watchers(match_id))
    except StoreError as error:
        log.warning("duplicate match %s: could not check member %s's sides again: %s", match_id, user_id, error)
        return False


async def ask(
    store: Store,
    door: Door,
    record: GameRecord,
    user_id: int,
    guild_id: int | None,
    channel_id: int | None = None,
    manager: bool = False,
) -> Decision:
    """The policy's answer for ``user_id`` at ``door`` of ``record``, asked from ``guild_id`` /
    ``channel_id`` (where the request was made)."""
    place = where(door, record, guild_id, channel_id)
    if not place.allowed:
        return place
    found = await situation(store, record, user_id, manager)
    return decide(door, found.role, found.state)


async def require(
    store: Store,
    door: Door,
    record: GameRecord,
    user_id: int,
    guild_id: int | None,
    channel_id: int | None = None,
    *,
    manager: bool = False,
    hand: str = N_("My hand"),
    extra: str = "",
) -> None:
    """:func:`ask`, refusing (:class:`~bot.messages.errors.Refusal`, with ``extra`` after the
    sentence) unless allowed."""
    decision = await ask(store, door, record, user_id, guild_id, channel_id, manager)
    if not decision.allowed:
        raise Refusal(f"{decision.text(record.id, hand)}{extra}")
