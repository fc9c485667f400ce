"""Migration 0016: a duplicate match's deadline for its tables to open, on SQLite and PostgreSQL.
The expiry sweep (bot.fairness.match_expiry) finds the matches still open with a place free whose deadline
has passed; a close as of the deadline is told from a host's by its time; and a match no table
ever joined can be deleted (its first table could not open), one with a table cannot."""

from __future__ import annotations

from db.store import Store

GUILD, ANN = 1, 10


async def test_the_expired_matches_are_the_open_ones_with_a_place_free_past_their_deadline(store: Store) -> None:
    soon = await store.create_match("ohhell", "SOON23", GUILD, ANN, 2, 1, "00" * 32, "2026-01-08T00:00:00Z")
    later = await store.create_match("ohhell", "LATE23", GUILD, ANN, 2, 1, "00" * 32, "2026-01-09T00:00:00Z")
    never = await store.create_match("ohhell", "NEVR23", GUILD, ANN, 2, 1, "00" * 32)
    full = await store.create_match("ohhell", "FULL23", GUILD, ANN, 1, 1, "00" * 32, "2026-01-08T00:00:00Z")
    closed = await store.create_match("ohhell", "SHUT23", GUILD, ANN, 2, 1, "00" * 32, "2026-01-08T00:00:00Z")
    game = await store.create_game("ohhell", GUILD, 5, ANN, "classic", {})
    assert await store.join_match(game, full.id) == 1
    assert await store.close_match(closed.id) is not None
    assert never.expires_at is None and soon.expires_at == "2026-01-08T00:00:00Z"

    assert await store.expired_matches("2026-01-07T23:59:59Z") == []
    assert [m.id for m in await store.expired_matches("2026-01-08T00:00:00Z")] == [soon.id]
    assert [m.id for m in await store.expired_matches("2026-02-01T00:00:00Z")] == [soon.id, later.id]

    expired = await store.close_match(soon.id, at=soon.expires_at)
    assert expired is not None and expired.closed_at == soon.expires_at  # closed as of its deadline
    assert await store.close_match(soon.id, at=soon.expires_at) is None  # once
    hosts = await store.close_match(later.id)
    assert hosts is not None and hosts.closed_at is not None and hosts.closed_at != hosts.expires_at
    assert await store.expired_matches("2026-02-01T00:00:00Z") == []


async def test_only_a_match_no_table_joined_is_discarded(store: Store) -> None:
    empty = await store.create_match("ohhell", "EMPT23", GUILD, ANN, 2, 1, "00" * 32, "2026-01-08T00:00:00Z")
    used = await store.create_match("ohhell", "USED23", GUILD, ANN, 2, 1, "00" * 32)
    await store.add_match_watcher(empty.id, 7)
    game = await store.create_game("ohhell", GUILD, 5, ANN, "classic", {})
    await store.join_match(game, used.id)
    assert await store.discard_match(used.id) is False
    assert await store.discard_match(empty.id) is True
    assert await store.get_match(empty.id) is None and await store.match_watchers(empty.id) == set()
    assert await store.discard_match(empty.id) is False
    assert (await store.get_match(used.id)) is not None
