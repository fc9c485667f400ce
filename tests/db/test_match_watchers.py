"""Migration 0010: who watched a table of a duplicate match (so they never sit at another of its
tables), on SQLite and PostgreSQL: kept once per member, per match, and gone with the match."""

from __future__ import annotations

from db.store import Store


async def test_a_matchs_watchers_are_kept_once_and_per_match(store: Store) -> None:
    first = await store.create_match("ohhell", "ABCDEF", 1, 10, 2, 2**62 - 1, "00" * 32)
    second = await store.create_match("ohhell", "GHJKLM", 1, 10, 2, 5, "11" * 32)
    assert await store.match_watchers(first.id) == set()
    big = 2**63 - 25  # a Discord id needs all 64 bits
    assert [await store.add_match_watcher(first.id, user) for user in (big, 7, big)] == [True, True, False]
    assert await store.match_watchers(first.id) == {big, 7}
    await store.remove_match_watcher(first.id, 7)  # a watch taken back (bot.tables.secrecy.sides_taken)
    assert await store.match_watchers(first.id) == {big}
    await store.add_match_watcher(first.id, 7)
    assert await store.match_watchers(second.id) == set()
