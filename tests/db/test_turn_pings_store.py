"""The store's side of turn pings (migration 0017), on SQLite and PostgreSQL: a turn's timer keeps
when its ping is due and whether it went out, with or without a turn deadline; each member's
choice to have no pings is kept for every table."""

from __future__ import annotations

from db.postgres import PostgresStore
from db.records import Timer
from db.sqlite import SqliteStore
from db.store import Store
from db.transfer import export_rows, import_rows
from tests.db.conftest import TEST_DATABASE_URL


async def test_a_ping_rides_on_the_turn_timer_with_or_without_a_deadline(store: Store) -> None:
    one = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    two = await store.create_game("ohhell", 1, 11, 100, "classic", {})
    await store.set_timer(Timer(one, 3, None, False, 1_800_000_120.5, False), one)  # pings, no turn timer
    await store.set_timer(Timer(two, 5, 900.0, True, 120.0, True), two)
    timers = sorted(await store.timers(), key=lambda t: t.game_id)
    assert timers == [Timer(one, 3, None, False, 1_800_000_120.5, False), Timer(two, 5, 900.0, True, 120.0, True)]
    await store.set_timer(Timer(one, 3, None, False, 1_800_000_120.5, True), one)
    assert [t.pinged for t in sorted(await store.timers(), key=lambda t: t.game_id)] == [True, True]
    await store.set_timer(Timer(two, 6, 50.0, False), two)  # a turn timer alone: no ping
    assert [t for t in await store.timers() if t.game_id == two] == [Timer(two, 6, 50.0, False, None, False)]


async def test_each_member_turns_pings_off_and_on_for_themselves(store: Store) -> None:
    assert await store.pings_off([1, 2, 3]) == set()
    await store.set_pings(2, False)
    await store.set_pings(3, False)
    await store.set_pings(3, False)  # twice: still one choice
    assert await store.pings_off([1, 2, 3]) == {2, 3}
    await store.set_pings(3, True)
    await store.set_pings(1, True)  # on, never off: nothing to keep
    assert await store.pings_off([1, 2, 3, 4]) == {2}
    assert await store.pings_off([]) == set()


async def test_a_move_to_postgresql_keeps_pending_pings_and_who_wants_none(tmp_path, pg_schema) -> None:
    source = SqliteStore(str(tmp_path / "from.sqlite3"))
    target = PostgresStore(TEST_DATABASE_URL, schema=pg_schema)
    await source.open()
    await target.open()
    try:
        game = await source.create_game("ohhell", 1, 10, 100, "classic", {})
        await source.set_timer(Timer(game, 2, None, False, 777.25, False), game)
        await source.set_pings(42, False)
        await import_rows(target, await export_rows(source))
        assert await target.timers() == [Timer(game, 2, None, False, 777.25, False)]
        assert await target.pings_off([42, 43]) == {42}
    finally:
        await source.close()
        await target.close()
