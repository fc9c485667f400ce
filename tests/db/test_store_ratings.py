"""The stats tables on each backend (migration 0006): finished games for the history and the
ratings, ratings and rating changes written and replaced, server settings, a member's games;
and one server never reads another's."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot.fairness.shuffles import match_over
from bot.tables.secrecy import Door, held_matches, match_allows
from db.errors import StaleAction
from db.records import (
    DealScore,
    GuildSettings,
    MatchRecord,
    RatingChange,
    RatingRow,
    RatingUpdate,
    ResultRow,
    SeatRecord,
)
from db.store import Store

GUILD = 1_178_473_619_233_402_880
OTHER = 1_178_473_619_233_402_999
ANN = 1_178_473_619_233_402_882
BOB = 9_223_372_036_854_775_807


async def finish(store: Store, guild: int | None, channel: int, kind: str = "ohhell", *, ann_place: int = 1) -> int:
    game = await store.create_game(kind, guild, channel, ANN, "classic", {})
    seats = [SeatRecord(0, ANN, "ann"), SeatRecord(1, BOB, "bob"), SeatRecord(2, None, "Computer", "strong")]
    await store.start_game(game, {"x": 1}, 7, seats, 2)
    await store.record_action(
        game,
        0,
        0,
        {"type": "bid", "bid": 1},
        deal_scores=[DealScore(1, 0, 1, 1, 11, 11), DealScore(1, 1, 2, 0, -20, -20), DealScore(1, 2, 0, 0, 10, 10)],
        results=[
            ResultRow(0, ANN, "ann", ann_place, 11, False, {}),
            ResultRow(1, BOB, "bob", 3 - ann_place + 1 if ann_place < 3 else 1, -20, False, {}),
            ResultRow(2, None, "Computer", 2, 10, False, {}),
        ],
    )
    return game


async def test_finished_games_are_listed_by_server_kind_and_rating_mark(store: Store) -> None:
    first = await finish(store, GUILD, 10)
    second = await finish(store, GUILD, 10, "shithead")
    third = await finish(store, GUILD, 10)
    theirs = await finish(store, OTHER, 20)
    live = await store.create_game("ohhell", GUILD, 10, ANN, "classic", {})  # a lobby: never listed
    games = await store.finished_games(GUILD, "ohhell")
    assert [g.id for g in games] == [first, third] and live not in [g.id for g in games]
    assert games[0].ai_levels == {2: "strong"} and [r.name for r in games[0].results] == ["ann", "Computer", "bob"]
    assert games[0].finished_at[:2] == "20" and games[0].preset == "classic"
    assert [g.id for g in await store.finished_games(GUILD)] == [first, second, third]
    assert [g.id for g in await store.finished_games(GUILD, "ohhell", limit=1, newest_first=True)] == [third]
    assert [g.id for g in await store.finished_games(OTHER, "ohhell")] == [theirs]
    await store.save_ratings(GUILD, "ohhell", [], [RatingChange(first, 0, f"u:{ANN}", 25.0, 8.0, 27.5, 7.5)])
    assert [g.id for g in await store.finished_games(GUILD, "ohhell", unrated_only=True)] == [third]


async def test_the_finishing_stamp_is_the_clock_the_store_stamps_a_finished_game_with(store: Store) -> None:
    """What the ratings judge a finishing game's season by: the store's own clock, in the form
    ``finished_at`` is read in, not earlier than the stamp of a game finished before it asked
    and not later than one finished after."""
    before = await finish(store, GUILD, 10)
    stamp = await store.finishing_stamp()
    after = await finish(store, GUILD, 10)
    stamped = {g.id: g.finished_at for g in await store.finished_games(GUILD, "ohhell")}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp), stamp
    assert stamped[before] <= stamp <= stamped[after]


async def test_ratings_and_changes_are_written_replaced_and_kept_per_server(store: Store) -> None:
    game = await finish(store, GUILD, 10)
    theirs = await finish(store, OTHER, 20)
    rows = [
        RatingRow(GUILD, "ohhell", "all", f"u:{ANN}", "ann", 27.123456789012345, 7.9, 1, 1, game),
        RatingRow(GUILD, "ohhell", "2026-11", f"u:{ANN}", "ann", 27.123456789012345, 7.9, 1, 1, game),
    ]
    change = RatingChange(game, 0, f"u:{ANN}", 25.0, 25 / 3, 27.123456789012345, 7.9)
    await store.save_ratings(GUILD, "ohhell", rows, [change])
    await store.save_ratings(
        OTHER, "ohhell", [RatingRow(OTHER, "ohhell", "all", f"u:{BOB}", "bob", 20.0, 8.0, 1, 0, theirs)], []
    )
    assert await store.ratings(GUILD, "ohhell") == [rows[1], rows[0]]  # ordered by season, then identity
    assert await store.ratings(GUILD, "ohhell", "all") == [rows[0]]  # floats come back bit for bit
    assert await store.rating_changes(GUILD, "ohhell") == [change]
    assert await store.rating_changes(GUILD, "ohhell", f"u:{BOB}") == []
    moved = RatingRow(GUILD, "ohhell", "all", f"u:{ANN}", "Ann", 30.0, 7.0, 2, 2, game)
    await store.save_ratings(GUILD, "ohhell", [moved], [])
    assert await store.ratings(GUILD, "ohhell", "all") == [moved]  # one row per identity, replaced
    await store.save_ratings(GUILD, "ohhell", [], [], replace=True)
    assert await store.ratings(GUILD, "ohhell") == [] and await store.rating_changes(GUILD, "ohhell") == []
    assert len(await store.ratings(OTHER, "ohhell")) == 1  # another server's ratings are untouched


async def test_guild_settings_default_and_change(store: Store) -> None:
    assert await store.guild_settings(GUILD) == GuildSettings("monthly", 3)
    await store.set_guild_settings(GUILD, GuildSettings("quarterly", 5))
    await store.set_guild_settings(GUILD, GuildSettings("yearly", 2))
    assert await store.guild_settings(GUILD) == GuildSettings("yearly", 2)
    assert await store.guild_settings(OTHER) == GuildSettings()


async def test_member_games_with_their_bids(store: Store) -> None:
    game = await finish(store, GUILD, 10)
    await finish(store, OTHER, 20)
    mine = await store.member_games(ANN, GUILD)
    assert len(mine) == 1
    row = mine[0]
    assert (row.game_id, row.kind, row.seat, row.place, row.total, row.players) == (game, "ohhell", 0, 1, 11, 3)
    assert (row.deals, row.bids_made) == (1, 1)
    bob = (await store.member_games(BOB, GUILD))[0]
    assert (bob.deals, bob.bids_made) == (1, 0)
    assert await store.member_games(ANN, 12345) == []


async def test_an_analysis_is_stored_replaced_and_read_back(store: Store) -> None:
    game = await finish(store, GUILD, 10)
    assert await store.analysis(game) is None
    await store.save_analysis(game, 1, {"players": [{"seat": 0, "adjusted": 1.5}]})
    await store.save_analysis(game, 2, {"players": []})
    assert await store.analysis(game) == (2, {"players": []})


async def test_live_ratings_equal_a_rebuild_on_each_backend(store: Store) -> None:
    """The rating book on this backend: games rated as they finish give the very ratings a
    rebuild from the stored games gives (floats compared exactly)."""
    from cogs.stats.book import RatingBook

    book = RatingBook(store)
    first = await finish(store, GUILD, 10)
    second = await finish(store, GUILD, 11, ann_place=2)
    assert set(await book.catch_up(GUILD, "ohhell")) == {first, second}
    third = await finish(store, GUILD, 12)
    assert set(await book.catch_up(GUILD, "ohhell")) == {third}
    live = (await store.ratings(GUILD, "ohhell"), await store.rating_changes(GUILD, "ohhell"))
    months = {g.finished_at[:7] for g in await store.finished_games(GUILD, "ohhell")}
    assert len(live[1]) == 9 and {r.season for r in live[0]} == {"all"} | months  # monthly by default
    assert await book.rebuild(GUILD, "ohhell") == 3
    assert (await store.ratings(GUILD, "ohhell"), await store.rating_changes(GUILD, "ohhell")) == live
    assert await store.ratings(OTHER, "ohhell") == []


async def test_a_duplicate_tables_game_is_settled_once_every_table_of_its_match_is_over(store: Store) -> None:
    """What the ratings and profiles count (the policy's held matches, left out of the finished
    games, a member's games and stats): a table of a duplicate match only once the match's every
    table has opened and is over; the history's plain list still shows it (as held:
    cogs.stats.history)."""
    plain = await finish(store, GUILD, 10)
    match = await store.create_match("ohhell", "ABC234", GUILD, ANN, 3, 12345, "00" * 32)
    first = await finish(store, GUILD, 11)
    await store.join_match(first, match.id)

    async def counted() -> tuple[list[int], list[int], int]:
        # the store leaves out what the secrecy policy holds, and the policy holds the match
        # until it is over
        record = await store.get_game(first)
        assert record is not None
        done, _ = await match_over(store, record)
        held = await held_matches(store, Door.STATS)
        assert (match.id in held) != done
        rated = [g.id for g in await store.finished_games(GUILD, "ohhell", held=held)]
        profile = [g.game_id for g in await store.member_games(ANN, GUILD, held=held)]
        stats = sum(s.games for s in await store.member_stats(ANN, GUILD, held=held))
        assert (first in rated) == done
        return rated, profile, stats

    assert await counted() == ([plain], [plain], 1)  # one table of three has opened
    assert [g.id for g in await store.finished_games(GUILD, "ohhell")] == [plain, first]
    second = await finish(store, GUILD, 12)
    await store.join_match(second, match.id)
    playing = await store.create_game("ohhell", GUILD, 13, BOB, "classic", {})
    await store.start_game(playing, {"x": 1}, 7, [SeatRecord(0, BOB, "bob")], 2)  # a table playing
    await store.join_match(playing, match.id)
    assert await counted() == ([plain], [plain], 1)  # every table open, one still playing
    await store.end_game(playing, "cancelled")
    assert await counted() == ([plain, first, second], [plain, first, second], 3)


async def test_a_match_closed_by_its_host_is_settled_with_the_tables_it_has(store: Store) -> None:
    """A match whose other tables never come: closed (``close_match``), it counts the tables that
    opened, once they are over (the policy's held matches, ``bot.fairness.shuffles.match_done``); a later close
    closes nothing and moves nothing."""
    match = await store.create_match("ohhell", "CLS234", GUILD, ANN, 3, 12345, "00" * 32)
    assert match.closed_at is None
    first = await finish(store, GUILD, 21)
    await store.join_match(first, match.id)
    playing = await store.create_game("ohhell", GUILD, 22, BOB, "classic", {})
    await store.start_game(playing, {"x": 1}, 7, [SeatRecord(0, BOB, "bob")], 2)  # a table playing
    await store.join_match(playing, match.id)

    async def settled() -> bool:
        held = await held_matches(store, Door.STATS)
        rated = first in [g.id for g in await store.finished_games(GUILD, "ohhell", held=held)]
        record = await store.get_game(first)
        assert record is not None
        assert (await match_over(store, record))[0] == rated
        return rated

    assert not await settled()  # two tables of three opened
    closed = await store.close_match(match.id)
    assert closed.closed_at is not None and (await store.match_by_code("CLS234")) == closed
    assert not await settled()  # closed, but a table it has is still playing
    await store.end_game(playing, "cancelled")
    assert await settled()
    assert await store.close_match(match.id) is None  # closed already: this call closed nothing
    assert (await store.match_by_code("CLS234")) == closed


async def _matches_played(store: Store, **made: tuple[int, int]) -> list[MatchRecord]:
    """A match per keyword (its code is the keyword and 234): ``(tables, finished)`` tables made
    for, and finished tables joined. A match the keyword says to close (``clo``, ``cls``, ``emp``)
    is closed with the tables it has."""
    out = []
    for code, (tables, finished) in made.items():
        match = await store.create_match("ohhell", f"{code.upper()}234", GUILD, ANN, tables, 1, "00" * 32)
        for n in range(finished):
            await store.join_match(await finish(store, GUILD, 100 + match.id * 10 + n), match.id)
        if code in ("clo", "cls", "emp"):
            await store.close_match(match.id)
        out.append(match)
    return out


async def _store_before(migration: int, new_store: Callable[[], Store], monkeypatch: pytest.MonkeyPatch) -> Store:
    """An open store whose schema stops before ``migration`` (``monkeypatch.undo()``, then a new
    store on the same database, migrates it)."""
    import db.postgres_pool
    import db.sqlite_connection
    from db.dialects import migration_files

    before = [m for m in migration_files() if m.number < migration]
    for module in (db.sqlite_connection, db.postgres_pool):
        monkeypatch.setattr(module, "migration_files", lambda: before)
    old = new_store()
    await old.open()
    return old


async def test_a_matchs_comparison_is_claimed_once(store: Store) -> None:
    """Whoever posts a match's comparison claims it first (migration 0013): the first call only."""
    match = await store.create_match("ohhell", "CMP234", GUILD, ANN, 2, 12345, "00" * 32)
    other = await store.create_match("ohhell", "CMP567", GUILD, ANN, 2, 12345, "00" * 32)
    assert [await store.claim_comparison(match.id) for _ in range(3)] == [True, False, False]
    assert await store.claim_comparison(other.id)  # another match's claim is its own


async def test_two_tables_joining_the_last_place_at_once_one_gets_it(store: Store) -> None:
    """Two channels join a two-table match at the same moment: the store links one of them only
    (each join read the match with a place free); a closed match takes no table at all."""
    import asyncio

    match = await store.create_match("ohhell", "JNR234", GUILD, ANN, 2, 1, "00" * 32)
    assert await store.join_match(await store.create_game("ohhell", GUILD, 70, ANN, "classic", {}), match.id) == 1
    racing = [await store.create_game("ohhell", GUILD, 71 + n, BOB, "classic", {}) for n in range(2)]
    numbers = await asyncio.gather(*(store.join_match(g, match.id) for g in racing))
    assert sorted(numbers, key=lambda n: n or 0) == [None, 2], numbers
    assert len(await store.match_games(match.id)) == 2
    closed = await store.create_match("ohhell", "JNC234", GUILD, ANN, 3, 1, "00" * 32)
    await store.close_match(closed.id)
    assert await store.join_match(await store.create_game("ohhell", GUILD, 75, ANN, "classic", {}), closed.id) is None


async def test_matches_not_compared_are_listed_and_the_policy_says_which_are_due(store: Store) -> None:
    """``uncompared_matches``: every match whose comparison is unclaimed; of those, the secrecy
    policy says which may be compared (every table it will have opened and over)."""
    # WAI234 waits for a table; EMP234 is closed with no table: nothing to compare
    full, *_ = await _matches_played(store, ful=(2, 2), clo=(3, 1), wai=(2, 1), emp=(2, 0))

    async def due() -> list[str]:
        listed = await store.uncompared_matches()
        return [m.code for m in listed if match_allows(Door.COMPARISON, m, await store.match_games(m.id))]

    assert [m.code for m in await store.uncompared_matches()] == ["FUL234", "CLO234", "WAI234", "EMP234"]
    assert await due() == ["FUL234", "CLO234"]
    assert await store.claim_comparison(full.id)
    assert await due() == ["CLO234"]


async def test_matches_over_before_migration_0013_are_compared_already(
    new_store: Callable[[], Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database from before migration 0013: its matches that were over had their comparison
    posted then, so none may be claimed again; a match still playing keeps its claim."""
    old = await _store_before(13, new_store, monkeypatch)
    over, closed, playing = await _matches_played(old, ovr=(2, 2), cls=(3, 1), ply=(2, 1))
    await old.close()
    monkeypatch.undo()
    new = new_store()
    await new.open()
    assert [await new.claim_comparison(m.id) for m in (over, closed, playing)] == [False, False, True]


async def test_finished_games_are_read_in_chunks_each_with_its_own_results(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's whole history is read at once (a ratings rebuild): SQLite takes at most 32,766
    values in one statement, so the games' results and seats are read in chunks (here of 2), and
    each game gets its own whatever chunk they came in."""
    import db.sqlite_stats

    monkeypatch.setattr(db.sqlite_stats, "IN_CHUNK", 2)
    made = [await finish(store, GUILD, 80 + n, ann_place=1 + n % 3) for n in range(5)]
    games = await store.finished_games(GUILD, "ohhell")
    assert [g.id for g in games] == made
    for game in games:  # as each game's own read has them
        own = await store.results(game.id)
        assert [(r.seat, r.place, r.total) for r in game.results] == [(r.seat, r.place, r.total) for r in own]
        assert game.ai_levels == {2: "strong"} and len(game.results) == 3
    assert len({tuple(r.place for r in g.results) for g in games}) > 1  # the games' results differ


async def test_a_lobby_cancelled_before_it_started_leaves_its_match(store: Store) -> None:
    """Migration 0015 and ``end_game``: a cancelled lobby is not one of its match's tables (its
    place is free again); a started table ended early stays one (it is compared, marked early)."""
    match = await store.create_match("ohhell", "LVE234", GUILD, ANN, 3, 1, "00" * 32)
    lobby = await store.create_game("ohhell", GUILD, 90, ANN, "classic", {})
    started = await store.create_game("ohhell", GUILD, 91, BOB, "classic", {})
    for game in (lobby, started):
        await store.join_match(game, match.id)
    await store.start_game(started, {"x": 1}, 7, [SeatRecord(0, BOB, "bob")], 2)
    for game in (lobby, started):
        await store.end_game(game, "cancelled")
    assert [g.id for g in await store.match_games(match.id)] == [started]
    assert (await store.get_game(lobby)).match_id is None


async def test_lobbies_cancelled_before_migration_0015_leave_their_matches(
    new_store: Callable[[], Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    old = await _store_before(15, new_store, monkeypatch)
    match = await old.create_match("ohhell", "OLD234", GUILD, ANN, 2, 1, "00" * 32)
    lobby = await old.create_game("ohhell", GUILD, 92, ANN, "classic", {})
    await old.join_match(lobby, match.id)
    await old.end_game(lobby, "cancelled")  # (this code already unlinks it: linked again as before)
    await old.join_match(lobby, match.id)
    assert [g.id for g in await old.match_games(match.id)] == [lobby]
    await old.close()
    monkeypatch.undo()
    new = new_store()
    await new.open()
    assert await new.match_games(match.id) == []


async def test_a_matchs_tables_are_read_without_their_moves(store: Store) -> None:
    """``match_games`` is what every door of a match's table reads (who sits where, which tables are
    over): not the tables' moves, which a long game has thousands of; ``get_game`` has them."""
    match = await store.create_match("ohhell", "MVS234", GUILD, ANN, 2, 1, "00" * 32)
    game = await finish(store, GUILD, 95)
    await store.join_match(game, match.id)
    [table] = await store.match_games(match.id)
    assert (table.id, table.status, [s.user_id for s in table.seats]) == (game, "finished", [ANN, BOB, None])
    assert table.actions == [] and table.seed == 7
    full = await store.get_game(game)
    assert full is not None and full.actions == [(0, {"type": "bid", "bid": 1})]


async def test_the_finishing_move_writes_its_ratings_in_its_own_transaction(store: Store) -> None:
    """A game's last move carries what it does to the ratings: committed with the move, or (the
    move refused as stale) not at all."""
    game = await store.create_game("ohhell", GUILD, 30, ANN, "classic", {})
    await store.start_game(game, {"x": 1}, 7, [SeatRecord(0, ANN, "ann"), SeatRecord(1, BOB, "bob")], 2)
    results = [ResultRow(0, ANN, "ann", 1, 5, False, {}), ResultRow(1, BOB, "bob", 2, 1, True, {})]
    rows = [RatingRow(GUILD, "ohhell", "all", f"u:{ANN}", "ann", 27.5, 7.9, 1, 1, game)]
    changes = [RatingChange(game, 0, f"u:{ANN}", 25.0, 25 / 3, 27.5, 7.9)]
    update = RatingUpdate(GUILD, "ohhell", rows, changes)
    with pytest.raises(StaleAction):  # not the game's next move: nothing of it is written
        await store.record_action(game, 1, 0, {"type": "bid", "bid": 1}, results=results, ratings=update)
    assert await store.ratings(GUILD, "ohhell") == [] and await store.rating_changes(GUILD, "ohhell") == []
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1}, results=results, ratings=update)
    assert await store.ratings(GUILD, "ohhell") == rows
    assert await store.rating_changes(GUILD, "ohhell") == changes
    assert await store.finished_games(GUILD, "ohhell", unrated_only=True) == []
