"""The store keeps each member's last language (migration 0021), on SQLite and PostgreSQL: the
locale tag their Discord client last spoke, the newest replacing the one before, and a move to
PostgreSQL takes it along."""

from __future__ import annotations

from db.postgres import PostgresStore
from db.sqlite import SqliteStore
from db.store import Store
from db.transfer import export_rows, import_rows
from tests.db.conftest import TEST_DATABASE_URL


async def test_each_members_last_language_is_kept_and_replaced(store: Store) -> None:
    assert await store.member_languages([1, 2]) == {}
    await store.set_member_language(1, "de")
    await store.set_member_language(2, "es-ES")
    await store.set_member_language(2, "en-GB")  # their client's language changed: the newest counts
    assert await store.member_languages([1, 2, 3]) == {1: "de", 2: "en-GB"}
    assert await store.member_languages([2**62]) == {} and await store.member_languages([]) == {}
    await store.set_member_language(2**62, "es-419")  # Discord ids need 64 bits
    assert await store.member_languages([2**62, 1]) == {2**62: "es-419", 1: "de"}


async def test_a_move_to_postgresql_keeps_the_members_languages(tmp_path, pg_schema) -> None:
    source = SqliteStore(str(tmp_path / "from.sqlite3"))
    target = PostgresStore(TEST_DATABASE_URL, schema=pg_schema)
    await source.open()
    await target.open()
    try:
        await source.set_member_language(42, "de")
        await import_rows(target, await export_rows(source))
        assert await target.member_languages([42, 43]) == {42: "de"}
    finally:
        await source.close()
        await target.close()
