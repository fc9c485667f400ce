"""The store, on each backend (``store`` runs every test on SQLite and on PostgreSQL): migrations,
the one-live-game-per-channel rule, atomic action commits, and every read and write of the interface.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from db.errors import ChannelBusy, StoreConflict, StoreError
from db.records import DealScore, ResultRow, SeatRecord, Timer
from db.sqlite_connection import migrations
from db.store import Store

# Discord snowflakes are 64-bit: well past what a 32-bit column holds.
GUILD = 1_178_473_619_233_402_880
CHANNEL = 1_178_473_619_233_402_881
ANN = 1_178_473_619_233_402_882
BOB = 9_223_372_036_854_775_807  # the largest 64-bit id


def test_migrations_are_numbered_from_one() -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))


async def test_reopening_does_not_migrate_twice(new_store: Callable[[], Store]) -> None:
    first = new_store()
    await first.open()
    game = await first.create_game("ohhell", 1, 10, 100, "classic", {})
    await first.close()
    again = new_store()
    await again.open()
    record = await again.get_game(game)
    assert record is not None and record.preset == "classic"
    assert record.rng_version == 1  # migration 0003's default


async def test_one_live_game_per_channel(store: Store) -> None:
    first = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    with pytest.raises(ChannelBusy) as busy:
        await store.create_game("shithead", 1, 10, 200, "pagat", {})
    assert busy.value.game_id == first
    await store.end_game(first, "cancelled")
    assert await store.create_game("shithead", 1, 10, 200, "pagat", {}) != first


async def test_two_hosts_racing_for_a_channel_cannot_both_win(store: Store) -> None:
    outcomes = await asyncio.gather(
        *(store.create_game("ohhell", 1, 10, host, "classic", {}) for host in (100, 200, 300)),
        return_exceptions=True,
    )
    won = [o for o in outcomes if isinstance(o, int)]
    lost = [o for o in outcomes if isinstance(o, ChannelBusy)]
    assert len(won) == 1 and len(lost) == 2
    assert {b.game_id for b in lost} == set(won)
    assert [g.id for g in await store.live_games()] == won


async def test_action_and_what_it_finished_commit_together(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {"scoring": "e2"})
    seats = [SeatRecord(0, 100, "Ann"), SeatRecord(1, None, "Computer 1 (quick)", "quick")]
    await store.start_game(game, {"deck": "standard52"}, 42, seats, 2)
    record = await store.get_game(game)
    assert record is not None and record.rng_version == 2
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1}, timer=Timer(game, 1, 123.0, False))
    scores = [DealScore(1, 0, 1, 1, 10, 10), DealScore(1, 1, 0, 0, 10, 10)]
    results = [ResultRow(0, 100, "Ann", 1, 10, False, {"exact": 1}), ResultRow(1, None, "C", 1, 10, False, {})]
    # A second action with the same sequence number must fail and leave no trace of its extras.
    with pytest.raises(StoreConflict):
        await store.record_action(game, 0, 1, {"type": "bid", "bid": 0}, deal_scores=scores, results=results)
    record = await store.get_game(game)
    assert record is not None and record.status == "playing"
    assert record.actions == [(0, {"type": "bid", "bid": 1})]
    assert await store.deal_scores(game) == []
    assert await store.results(game) == []
    assert [t.seq for t in await store.timers()] == [1]
    await store.record_action(game, 1, 1, {"type": "bid", "bid": 0}, deal_scores=scores, results=results)
    record = await store.get_game(game)
    assert record is not None and record.status == "finished" and len(record.actions) == 2
    assert [d.total for d in await store.deal_scores(game)] == [10, 10]
    assert await store.timers() == []
    stats = await store.member_stats(100, 1)
    assert (stats[0].games, stats[0].wins, stats[0].points) == (1, 1, 10)
    assert await store.live_games() == []


async def test_the_same_action_recorded_twice_at_once_lands_once(store: Store) -> None:
    game = await store.create_game("shithead", 1, 10, 100, "pagat", {})
    await store.start_game(game, {}, 7, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    outcomes = await asyncio.gather(
        store.record_action(game, 0, 0, {"type": "play", "cards": ["3C"]}, timer=Timer(game, 1, 10.0, False)),
        store.record_action(game, 0, 1, {"type": "play", "cards": ["4D"]}, timer=Timer(game, 1, 20.0, False)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StoreConflict) for o in outcomes) == 1
    assert sum(o is None for o in outcomes) == 1
    record = await store.get_game(game)
    assert record is not None and len(record.actions) == 1
    (timer,) = await store.timers()
    won = outcomes.index(None)
    assert record.actions[0][0] == won and timer.deadline == [10.0, 20.0][won]


async def test_an_action_for_no_game_is_a_conflict(store: Store) -> None:
    with pytest.raises(StoreConflict):
        await store.record_action(12345, 0, 0, {"type": "bid", "bid": 1})
    assert await store.get_game(12345) is None


async def test_an_unknown_status_is_refused(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    with pytest.raises(StoreConflict):
        await store.end_game(game, "abandoned")
    record = await store.get_game(game)
    assert record is not None and record.status == "lobby"


async def test_live_games_come_back_with_seats_and_log(store: Store) -> None:
    game = await store.create_game("ohhell", None, 11, 100, "spades", {})
    await store.set_seats(game, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob", dm_closed=True)])
    (live,) = await store.live_games()
    assert live.id == game and live.status == "lobby" and live.guild_id is None
    assert [s.name for s in live.seats] == ["Ann", "Bob"] and live.seats[1].dm_closed
    assert live.seats[0].dm_closed is False and live.seats[1].dm_closed is True


async def test_discord_ids_and_seeds_keep_all_64_bits(store: Store) -> None:
    game = await store.create_game("ohhell", GUILD, CHANNEL, ANN, "classic", {})
    seed = 2**62 - 1  # what bot/tables/manager.py draws at most
    await store.start_game(game, {}, seed, [SeatRecord(0, ANN, "Ann"), SeatRecord(1, BOB, "Bob")], 2)
    await store.set_message(game, BOB - 1, "deal-1")
    record = await store.get_game(game)
    assert record is not None
    assert (record.guild_id, record.channel_id, record.host_id, record.seed) == (GUILD, CHANNEL, ANN, seed)
    assert (record.message_id, record.message_key) == (BOB - 1, "deal-1")
    assert [s.user_id for s in record.seats] == [ANN, BOB]
    results = [ResultRow(1, BOB, "Bob", 1, 30, False, {}), ResultRow(0, ANN, "Ann", 2, 12, False, {})]
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 0}, results=results)
    assert [r.user_id for r in await store.results(game)] == [BOB, ANN]
    (stats,) = await store.member_stats(BOB, GUILD)
    assert (stats.games, stats.wins, stats.best_total) == (1, 1, 30)
    last = await store.last_game(CHANNEL, "ohhell")
    assert last is not None and last.id == game


async def test_json_comes_back_as_it_went_in(store: Store) -> None:
    options = {"z": 1, "a": [1, 2.5, None, True], "nested": {"ü": "é", "emoji": "🂡"}, "0": "zero"}
    rules = {"deck": "standard52", "deals": [10, 9, 8], "trump": None}
    game = await store.create_game("ohhell", 1, 10, 100, "custom", options)
    await store.start_game(game, rules, 1, [SeatRecord(0, 100, "Ånn 🃏")], 2)
    action = {"type": "play", "card": "QH", "meta": {"b": 2, "a": 1}}
    results = [ResultRow(0, 100, "Ånn 🃏", 1, None, False, {"ties": [1, 2], "z": 0, "a": 1})]
    await store.record_action(game, 0, 0, action, results=results)
    record = await store.get_game(game)
    assert record is not None
    assert record.options == options and list(record.options) == list(options)  # key order kept
    assert record.rules == rules and list(record.rules) == list(rules)
    assert record.actions == [(0, action)] and list(record.actions[0][1]["meta"]) == ["b", "a"]
    assert record.seats[0].name == "Ånn 🃏"
    (result,) = await store.results(game)
    assert result.stats == {"ties": [1, 2], "z": 0, "a": 1} and list(result.stats) == ["ties", "z", "a"]
    assert result.total is None and result.is_loser is False


async def test_lobby_changes(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {"a": 1})
    await store.set_message(game, 555, "lobby")
    await store.set_options(game, "spades", {"b": 2}, 60)
    await store.set_seats(game, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")])
    await store.set_seats(game, [SeatRecord(0, 200, "Bob"), SeatRecord(1, None, "Computer", "hard")])
    await store.update_seat(game, SeatRecord(1, 300, "Cy", None, True))
    record = await store.get_game(game)
    assert record is not None
    assert (record.preset, record.options, record.turn_seconds) == ("spades", {"b": 2}, 60)
    assert (record.message_id, record.message_key) == (555, "lobby")
    assert record.seats == [SeatRecord(0, 200, "Bob"), SeatRecord(1, 300, "Cy", None, True)]
    assert record.rules is None and record.seed is None and record.actions == []
    await store.set_message(game, None)
    await store.set_options(game, "spades", {}, None)
    record = await store.get_game(game)
    assert record is not None
    assert (record.message_id, record.message_key, record.turn_seconds) == (None, None, None)
    assert await store.get_game(game + 1000) is None


async def test_starting_replaces_the_seats_and_freezes_the_rules(store: Store) -> None:
    game = await store.create_game("shithead", 1, 10, 100, "pagat", {})
    await store.set_seats(game, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob"), SeatRecord(2, 300, "Cy")])
    await store.start_game(game, {"jokers": 0}, 99, [SeatRecord(0, 100, "Ann"), SeatRecord(1, None, "AI", "easy")], 1)
    record = await store.get_game(game)
    assert record is not None and record.status == "playing" and record.live
    assert (record.rules, record.seed, record.rng_version) == ({"jokers": 0}, 99, 1)
    assert [s.is_ai for s in record.seats] == [False, True]
    assert record.seats[1].ai_level == "easy"


async def test_a_deal_score_written_again_replaces_the_first(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {}, 1, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    await store.record_action(
        game, 0, 0, {"n": 0}, deal_scores=[DealScore(2, 1, 1, 0, -1, 9), DealScore(1, 0, 1, 1, 11, 11)]
    )
    await store.record_action(game, 1, 1, {"n": 1}, deal_scores=[DealScore(2, 1, None, None, 5, 15)])
    assert await store.deal_scores(game) == [DealScore(1, 0, 1, 1, 11, 11), DealScore(2, 1, None, None, 5, 15)]


async def test_timers_are_set_replaced_and_cleared(store: Store) -> None:
    one = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    two = await store.create_game("ohhell", 1, 11, 100, "classic", {})
    deadline = 1_732_412_345.123456789
    await store.set_timer(Timer(one, 3, deadline, False), one)
    await store.set_timer(Timer(two, 5, 10, True), two)  # an int deadline is stored as a float
    await store.set_timer(Timer(one, 4, deadline + 1, True), one)
    timers = sorted(await store.timers(), key=lambda t: t.game_id)
    assert timers == [Timer(one, 4, deadline + 1, True), Timer(two, 5, 10.0, True)]
    assert isinstance(timers[1].deadline, float) and timers[0].reminded is True
    await store.set_timer(None, one)
    assert [t.game_id for t in await store.timers()] == [two]
    await store.end_game(two, "cancelled")
    assert await store.timers() == []


async def test_ending_a_game(store: Store) -> None:
    game = await store.create_game("shithead", 1, 10, 100, "pagat", {})
    await store.start_game(game, {}, 1, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    await store.end_game(
        game, "finished", [ResultRow(1, 200, "Bob", 1, None, False, {}), ResultRow(0, 100, "Ann", 2, None, True, {})]
    )
    record = await store.get_game(game)
    assert record is not None and record.status == "finished" and not record.live
    results = await store.results(game)
    assert [(r.seat, r.place, r.is_loser) for r in results] == [(1, 1, False), (0, 2, True)]
    assert await store.live_games() == []
    other = await store.create_game("shithead", 1, 10, 100, "pagat", {})
    await store.end_game(other, "cancelled")
    assert await store.results(other) == []


async def test_results_are_ordered_by_place_then_seat(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    rows = [
        ResultRow(3, 400, "D", 2, 5, False, {}),
        ResultRow(2, 300, "C", 1, 9, False, {}),
        ResultRow(0, 100, "A", 3, 1, True, {}),
        ResultRow(1, 200, "B", 1, 9, False, {}),
    ]
    await store.end_game(game, "finished", rows)
    assert [r.seat for r in await store.results(game)] == [1, 2, 3, 0]


async def test_last_game_is_the_latest_started_one_of_the_kind(store: Store) -> None:
    assert await store.last_game(10, "ohhell") is None
    first = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.end_game(first, "finished")
    second = await store.create_game("shithead", 1, 10, 100, "pagat", {})
    await store.end_game(second, "cancelled")
    third = await store.create_game("ohhell", 1, 10, 100, "spades", {})
    await store.start_game(third, {}, 1, [], 2)
    await store.create_game("ohhell", 1, 11, 100, "classic", {})  # another channel
    last = await store.last_game(10, "ohhell")
    assert last is not None and last.id == third
    await store.end_game(third, "cancelled")
    await store.create_game("ohhell", 1, 10, 100, "classic", {})  # a lobby never counts
    last = await store.last_game(10, "ohhell")
    assert last is not None and last.id == third
    last = await store.last_game(10, "shithead")
    assert last is not None and last.id == second


async def test_member_stats(store: Store) -> None:
    async def finished(kind: str, guild: int | None, channel: int, rows: list[ResultRow]) -> int:
        game = await store.create_game(kind, guild, channel, 100, "p", {})
        await store.end_game(game, "finished", rows)
        return game

    await finished(
        "ohhell", 1, 10, [ResultRow(0, ANN, "Ann", 1, 30, False, {}), ResultRow(1, 200, "B", 2, 5, False, {})]
    )
    await finished(
        "ohhell", 1, 10, [ResultRow(0, ANN, "Ann", 2, -4, False, {}), ResultRow(1, 200, "B", 1, 8, False, {})]
    )
    await finished("ohhell", 2, 20, [ResultRow(0, ANN, "Ann", 1, 12, False, {})])
    await finished(
        "shithead", 1, 10, [ResultRow(0, ANN, "Ann", 2, None, True, {}), ResultRow(1, 200, "B", 1, None, False, {})]
    )
    await finished("shithead", 1, 10, [ResultRow(0, ANN, "Ann", 1, None, False, {})])
    cancelled = await store.create_game("ohhell", 1, 10, 100, "p", {})
    await store.end_game(cancelled, "cancelled", [ResultRow(0, ANN, "Ann", 1, 99, False, {})])

    ohhell, shithead = await store.member_stats(ANN, 1)
    assert (ohhell.kind, ohhell.games, ohhell.wins, ohhell.losses, ohhell.best_total, ohhell.points) == (
        "ohhell",
        2,
        1,
        0,
        30,
        26,
    )
    assert (shithead.kind, shithead.games, shithead.wins, shithead.losses, shithead.best_total, shithead.points) == (
        "shithead",
        2,
        1,
        1,
        None,
        0,
    )
    everywhere = await store.member_stats(ANN, None)
    assert [(s.kind, s.games, s.points) for s in everywhere] == [("ohhell", 3, 38), ("shithead", 2, 0)]
    assert all(type(getattr(s, f)) is int for s in everywhere for f in ("games", "wins", "losses", "points"))
    assert await store.member_stats(ANN, 3) == []
    assert await store.member_stats(999, None) == []


async def test_a_closed_store_says_so(new_store: Callable[[], Store]) -> None:
    store = new_store()
    with pytest.raises(StoreError):
        await store.get_game(1)
    await store.open()
    await store.close()
    with pytest.raises(StoreError):
        await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.close()  # twice is fine


async def test_writes_to_one_game_at_once_do_not_collide(store: Store) -> None:
    """SQLite writes one transaction at a time; the PostgreSQL store must not fail where it would not."""
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    lineups = [[SeatRecord(s, 100 + n, f"P{n}.{s}") for s in range(n % 3 + 2)] for n in range(6)]
    await asyncio.gather(*(store.set_seats(game, seats) for seats in lineups))
    record = await store.get_game(game)
    assert record is not None and record.seats in lineups
    await asyncio.gather(
        store.start_game(game, {}, 1, lineups[0], 2),
        *(store.update_seat(game, SeatRecord(0, 100, f"Ann {n}")) for n in range(4)),
        *(store.set_timer(Timer(game, n, float(n), False), game) for n in range(4)),
    )
    assert len(await store.timers()) == 1
