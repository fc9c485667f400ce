"""The secrecy policy (:mod:`bot.tables.secrecy`), table-driven: every door x role x state, and what each
may see. The table below *is* the rule book, written out; the test checks the policy says the same
in every one of its 13 x 5 x 4 = 260 cells, and that no cell is missing from the table.

Key: ``+`` allowed; otherwise the reason it is refused:
``started`` (the game began), ``seated`` (already at this table), ``side`` (seated at another table of
the match), ``watched`` (watched a table of the match), ``unstarted`` (nothing to watch yet),
``over`` (nothing left to watch), ``own`` (your own table), ``running`` (not over: its cards and
seed are secret), ``held`` (a duplicate match still has tables to play these cards), ``not live`` (no game being played:
no seat to take over), ``not playing`` (no seat at this table), ``ended`` (the game is over).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables.secrecy import AT_THE_TABLE_ALONE, Door, Role, State, decide, here, role_of, state_of, where
from db.records import GameRecord, SeatRecord

WHY = {
    "+": "ok",
    "started": "started",
    "seated": "already_seated",
    "side": "seated_in_match",
    "watched": "watched_match",
    "unstarted": "not_started",
    "over": "over",
    "own": "own_table",
    "running": "not_over",
    "seed": "seed_secret",
    "held": "held",
    "not live": "not_live",
    "not playing": "not_playing",
    "ended": "ended",
}

ROLES = (Role.SEATED, Role.MATCH_PLAYER, Role.SPECTATOR, Role.OUTSIDER, Role.MANAGER)

# door -> state -> the answer for each role, in the order of ROLES:
#            seated      match player  spectator   outsider    manager
RULES: dict[Door, dict[State, tuple[str, ...]]] = {
    Door.JOIN: {
        State.LOBBY: ("seated", "side", "watched", "+", "+"),
        State.LIVE: ("started",) * 5,
        State.FINISHED: ("started",) * 5,
        State.HELD: ("started",) * 5,
    },
    # a seat handed over mid-game: as Join, but only while the game is played
    Door.TAKE_SEAT: {
        State.LOBBY: ("not live",) * 5,
        State.LIVE: ("seated", "side", "watched", "+", "+"),
        State.FINISHED: ("not live",) * 5,
        State.HELD: ("not live",) * 5,
    },
    Door.WATCH: {
        State.LOBBY: ("unstarted",) * 5,
        State.LIVE: ("own", "side", "+", "+", "+"),
        State.FINISHED: ("over",) * 5,
        State.HELD: ("over",) * 5,
    },
    # a live table's scores are its public table; a held table's are its own players' only
    Door.SCORES: {
        State.LOBBY: ("+",) * 5,
        State.LIVE: ("+", "side", "+", "+", "+"),
        State.FINISHED: ("+",) * 5,
        State.HELD: ("+", "side", "held", "held", "held"),
    },
    Door.HISTORY: {
        State.LOBBY: ("running",) * 5,
        State.LIVE: ("running",) * 5,
        State.FINISHED: ("+",) * 5,
        State.HELD: ("+", "held", "held", "held", "held"),
    },
    **{
        door: {
            State.LOBBY: ("running",) * 5,
            State.LIVE: ("running",) * 5,
            State.FINISHED: ("+",) * 5,
            State.HELD: ("held",) * 5,  # nobody: not even its own players hold the seed before the end
        }
        for door in (Door.REPLAY, Door.ANALYSE)
    },
    **{
        door: {
            State.LOBBY: ("seed",) * 5,
            State.LIVE: ("seed",) * 5,
            State.FINISHED: ("+",) * 5,
            State.HELD: ("held",) * 5,
        }
        for door in (Door.VERIFY, Door.EXPORT, Door.SEED)
    },
    # My hand and every press on a panel: the seat's own player, while the game is played
    Door.HAND: {
        State.LOBBY: ("unstarted", "not playing", "not playing", "not playing", "not playing"),
        State.LIVE: ("+", "not playing", "not playing", "not playing", "not playing"),
        State.FINISHED: ("ended", "not playing", "not playing", "not playing", "not playing"),
        State.HELD: ("ended", "not playing", "not playing", "not playing", "not playing"),
    },
    # what every table of a match did with the same cards: the ratings and profiles count a
    # match's tables, and its comparison is posted, once the last of them is over; never before
    **{
        door: {
            State.LOBBY: ("running",) * 5,
            State.LIVE: ("running",) * 5,
            State.FINISHED: ("+",) * 5,
            State.HELD: ("held",) * 5,
        }
        for door in (Door.STATS, Door.COMPARISON)
    },
}

CELLS = [
    (door, role, state, answers[i])
    for door, states in RULES.items()
    for state, answers in states.items()
    for i, role in enumerate(ROLES)
]


def test_the_table_covers_every_door_role_and_state():
    assert set(RULES) == set(Door)
    for door, states in RULES.items():
        assert set(states) == set(State), door
        assert all(len(answers) == len(ROLES) for answers in states.values()), door
    assert set(ROLES) == set(Role)
    assert len(CELLS) == len(Door) * len(Role) * len(State)


@pytest.mark.parametrize(("door", "role", "state", "answer"), CELLS, ids=lambda v: getattr(v, "value", v))
def test_the_policy_says_what_the_table_says(door, role, state, answer):
    decision = decide(door, role, state)
    assert decision.allowed == (answer == "+")
    assert decision.why == WHY[answer]
    text = decision.text(17, hand="My cards")
    if not decision.allowed:
        assert text and "{" not in text, text  # a whole sentence for the member


def test_every_refusal_names_the_game_or_the_reason_without_a_secret():
    for door, role, state, answer in CELLS:
        decision = decide(door, role, state)
        if answer in ("running", "seed", "held", "over"):
            assert "#17" in decision.text(17), (door, role, state)


def _record(game_id: int, status: str, users: list[int | None], match: int | None = 1, started=True) -> GameRecord:
    return GameRecord(
        id=game_id,
        kind="ohhell",
        guild_id=10,
        channel_id=100 + game_id,
        host_id=users[0] or 0,
        status=status,
        preset="classic",
        options={},
        rules=None,
        seed=5 if started else None,
        turn_seconds=None,
        message_id=None,
        match_id=match,
        seats=[SeatRecord(i, u, f"p{i}") for i, u in enumerate(users)],
    )


def test_who_is_who_at_a_table_of_a_match():
    a = _record(1, "finished", [1, None])
    b = _record(2, "lobby", [2, None], started=False)
    gone = _record(3, "cancelled", [3], started=False)  # a lobby closed before it started
    games = [a, b, gone]
    assert role_of(1, a, games, set()) is Role.SEATED
    assert role_of(2, a, games, set()) is Role.MATCH_PLAYER  # seated in b's lobby
    assert role_of(3, a, games, set()) is Role.OUTSIDER  # b's closed lobby seats nobody
    assert role_of(4, a, games, {4}) is Role.SPECTATOR
    assert role_of(4, a, games, set(), manager=True) is Role.MANAGER
    assert role_of(1, None, games, set()) is Role.MATCH_PLAYER  # opening a new table of the match
    assert role_of(1, None, [], set()) is Role.OUTSIDER


def test_the_state_of_a_table_follows_its_match():
    assert state_of(_record(1, "lobby", [1], started=False), True) is State.LOBBY
    assert state_of(_record(1, "playing", [1]), True) is State.LIVE
    assert state_of(_record(1, "finished", [1]), False) is State.HELD
    assert state_of(_record(1, "cancelled", [1]), False) is State.HELD  # ended early: the same cards
    assert state_of(_record(1, "finished", [1]), True) is State.FINISHED
    assert state_of(_record(1, "finished", [1], match=None), False) is State.FINISHED


@pytest.mark.parametrize("door", list(Door), ids=lambda d: d.value)
def test_a_door_is_reached_only_from_the_tables_server_and_the_seat_doors_only_from_its_channel(door):
    record = _record(1, "playing", [1])
    assert where(door, record, 10, 101).allowed
    if door in (Door.HAND, Door.STATS, Door.COMPARISON):
        # a player's panel is also sent by direct message, where the seat is the key; the ratings
        # and a match's comparison are no one table's request
        assert where(door, record, None, None).allowed
        return
    other_server = where(door, record, 99, 101)
    assert not other_server.allowed and other_server.text(1)
    other_channel = where(door, record, 10, 555)
    assert other_channel.allowed == (door not in (Door.JOIN, Door.WATCH, Door.TAKE_SEAT))


@pytest.mark.parametrize("door", AT_THE_TABLE_ALONE, ids=lambda d: d.value)
def test_a_door_decided_from_the_table_alone_needs_nothing_only_the_store_knows(door):
    """``here`` decides from the table as this process holds it, without the match's other tables
    or its watchers: so the rule book must not tell the roles it cannot see (all but the seated
    look like an outsider) nor a held table from a finished one (it cannot tell the match is over)."""
    for state in State:
        answers = {decide(door, role, state) for role in ROLES if role is not Role.SEATED}
        assert len(answers) == 1, (door, state)
    for role in ROLES:
        assert decide(door, role, State.FINISHED) == decide(door, role, State.HELD), (door, role)
    mine, over = _record(1, "playing", [1, 2]), _record(1, "finished", [1, 2])
    assert here(door, mine, 1).allowed and not here(door, mine, 3).allowed
    assert (
        here(door, over, 1).why == "ended"
        and here(door, _record(1, "lobby", [1], started=False), 1).why == "not_started"
    )


def test_every_door_of_the_policy_is_asked_somewhere():
    """A door nobody asks is a secret decided somewhere else (or nowhere): every door the policy
    lists is named by the code that guards it, outside the policy itself."""
    root = Path(__file__).resolve().parents[3]
    sources = "\n".join(
        p.read_text(encoding="utf-8")
        for folder in ("bot", "cogs")
        for p in (root / folder).rglob("*.py")
        if p.name != "secrecy.py"
    )
    unasked = [door for door in Door if f"Door.{door.name}" not in sources]
    assert not unasked, unasked


def test_no_door_is_decided_again_outside_the_policy():
    """The rules the policy decides are written once: the store's queries take the matches the
    policy holds (``held=``) instead of saying in SQL when a match is over, and a match's
    comparison is posted when the policy says (``match_allows``), not where a match is read."""
    root = Path(__file__).resolve().parents[3]
    for path in (root / "db").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "NOT IN ('finished', 'cancelled')" not in text, path  # the over-match rule, in SQL
    for folder in ("bot", "cogs"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if path.name not in ("secrecy.py", "shuffles.py"):
                assert "match_done(match, games)" not in text and "match_done(closed, games)" not in text, path


async def test_sides_are_counted_from_the_store_and_a_failed_read_leaves_the_write(caplog) -> None:
    """``sides_taken``, asked once a door's write is stored: two tables that count (started, or a
    lobby), or one and a watch, is two sides; a cancelled lobby is none. A store that fails to
    answer leaves the write standing, logged."""
    from bot.tables.secrecy import sides_taken
    from db.errors import StoreError

    def table(game: int, status: str, seed: int | None, *users: int) -> GameRecord:
        return GameRecord(
            id=game, kind="ohhell", guild_id=1, channel_id=game, host_id=users[0], status=status,
            preset="classic", options={}, rules=None, turn_seconds=None, message_id=None, seed=seed,
            seats=[SeatRecord(i, u, f"p{u}") for i, u in enumerate(users)],
        )  # fmt: skip

    class Store:
        def __init__(self, games: list[GameRecord], watchers: set[int], fails: bool = False) -> None:
            self.games, self.watchers, self.fails = games, watchers, fails

        async def match_games(self, match_id: int) -> list[GameRecord]:
            if self.fails:
                raise StoreError("the disk is full")
            return self.games

        async def match_watchers(self, match_id: int) -> set[int]:
            return self.watchers

    playing, lobby, dropped = (
        table(1, "playing", 5, 10),
        table(2, "lobby", None, 20, 10),
        table(3, "cancelled", None, 10),
    )
    assert await sides_taken(Store([playing, lobby], set()), 9, 10)  # seated at two tables
    assert not await sides_taken(Store([playing, dropped], set()), 9, 10)  # the cancelled lobby is none
    assert await sides_taken(Store([lobby], {10}), 9, 10)  # seated and watching
    assert not await sides_taken(Store([lobby], {20}), 9, 10)
    assert not await sides_taken(Store([playing, lobby], set(), fails=True), 9, 10)
    assert "could not check" in caplog.text
