"""The SQLite store: migrations, the one-live-game-per-channel rule, atomic action commits."""

from __future__ import annotations

import pytest

from db.sqlite import SqliteStore, migrations
from db.store import ChannelBusy, DealScore, ResultRow, SeatRecord, StoreConflict, Timer


@pytest.fixture
async def store(tmp_path):
    s = SqliteStore(str(tmp_path / "t.sqlite3"))
    await s.open()
    yield s
    await s.close()


def test_migrations_are_numbered_from_one():
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))


async def test_reopening_does_not_migrate_twice(tmp_path):
    path = str(tmp_path / "t.sqlite3")
    first = SqliteStore(path)
    await first.open()
    game = await first.create_game("ohhell", 1, 10, 100, "classic", {})
    await first.close()
    again = SqliteStore(path)
    await again.open()
    assert (await again.get_game(game)).preset == "classic"
    await again.close()


async def test_one_live_game_per_channel(store):
    first = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    with pytest.raises(ChannelBusy) as busy:
        await store.create_game("shithead", 1, 10, 200, "pagat", {})
    assert busy.value.game_id == first
    await store.end_game(first, "cancelled")
    assert await store.create_game("shithead", 1, 10, 200, "pagat", {}) != first


async def test_action_and_what_it_finished_commit_together(store):
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {"scoring": "e2"})
    seats = [SeatRecord(0, 100, "Ann"), SeatRecord(1, None, "Computer 1 (quick)", "quick")]
    await store.start_game(game, {"deck": "standard52"}, 42, seats, 2)
    assert (await store.get_game(game)).rng_version == 2
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1}, timer=Timer(game, 1, 123.0, False))
    scores = [DealScore(1, 0, 1, 1, 10, 10), DealScore(1, 1, 0, 0, 10, 10)]
    results = [ResultRow(0, 100, "Ann", 1, 10, False, {"exact": 1}), ResultRow(1, None, "C", 1, 10, False, {})]
    # A second action with the same sequence number must fail and leave no trace of its extras.
    with pytest.raises(StoreConflict):
        await store.record_action(game, 0, 1, {"type": "bid", "bid": 0}, deal_scores=scores, results=results)
    record = await store.get_game(game)
    assert record.status == "playing"
    assert record.actions == [(0, {"type": "bid", "bid": 1})]
    assert await store.deal_scores(game) == []
    assert [t.seq for t in await store.timers()] == [1]
    await store.record_action(game, 1, 1, {"type": "bid", "bid": 0}, deal_scores=scores, results=results)
    record = await store.get_game(game)
    assert record.status == "finished" and len(record.actions) == 2
    assert [d.total for d in await store.deal_scores(game)] == [10, 10]
    assert await store.timers() == []
    stats = await store.member_stats(100, 1)
    assert (stats[0].games, stats[0].wins, stats[0].points) == (1, 1, 10)
    assert await store.live_games() == []


async def test_live_games_come_back_with_seats_and_log(store):
    game = await store.create_game("ohhell", None, 11, 100, "spades", {})
    await store.set_seats(game, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob", dm_closed=True)])
    (live,) = await store.live_games()
    assert live.id == game and live.status == "lobby"
    assert [s.name for s in live.seats] == ["Ann", "Bob"] and live.seats[1].dm_closed
