"""Migration 0007: whether a finished game's standings reached its channel, on each backend."""

from __future__ import annotations

import pytest

from db.records import ResultRow, SeatRecord
from db.store import Store


async def test_a_finished_game_waits_for_its_standings_to_be_shown(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {"deck": "standard52"}, 42, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    assert await store.unshown_finales() == [], "a game still playing has no standings yet"
    results = [ResultRow(0, 100, "Ann", 1, 10, False, {}), ResultRow(1, 200, "Bob", 2, 5, False, {})]
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1}, results=results)
    assert [g.id for g in await store.unshown_finales()] == [game]
    await store.set_finale_shown(game)
    assert await store.unshown_finales() == []
    assert (await store.get_game(game)).finale_revealed is False  # (a held seed, or no reveal)
    await store.set_finale_shown(game, revealed=True)  # standings that said the shuffle can be checked
    assert (await store.get_game(game)).finale_revealed is True
    assert await store.unshown_finales() == []
    other = await store.create_game("ohhell", 1, 11, 100, "classic", {})
    await store.end_game(other, "cancelled")
    assert await store.unshown_finales() == [], "an ended game has no standings to post"


async def test_old_copies_wait_to_close_across_a_restart(store: Store) -> None:
    """Migration 0008: an old copy of a table still to lose its controls is kept until dropped."""
    from db.records import OldCopy

    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    big = 2**62 + 5  # Discord ids need all 64 bits
    look = {"content": "⬇️ This table moved below.", "embeds": [{"title": "Oh Hell · deal 1", "type": "rich"}]}
    await store.save_old_copy(OldCopy(game, big, look, after_post=True))
    await store.save_old_copy(OldCopy(game, 7, {"content": None, "embeds": []}))
    await store.save_old_copy(OldCopy(game, 7, {"content": "closed", "embeds": []}))  # saved again: replaced
    assert await store.old_copies() == [
        OldCopy(game, 7, {"content": "closed", "embeds": []}, False),
        OldCopy(game, big, look, True),
    ]
    await store.drop_old_copy(game, 7)
    await store.drop_old_copy(game, 7)  # dropping twice is harmless
    assert await store.old_copies() == [OldCopy(game, big, look, True)]


async def test_open_panels_are_kept_across_a_stop_and_handed_over_once(store: Store) -> None:
    """Migration 0009: the tokens of players' open panels, saved at a stop, read once at the start;
    0020: with the language each panel speaks."""
    from db.records import SavedPanel

    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    other = await store.create_game("ohhell", 1, 11, 100, "classic", {})
    big = 2**62 + 9  # Discord ids need all 64 bits
    ann = SavedPanel(game, 0, big, "token-a", big + 1, 1_790_000_000.25)
    await store.save_panels([ann, SavedPanel(game, 1, big, "token-b", 5, 1.0), SavedPanel(other, 0, big, "c", 6, 2.0)])
    newer = SavedPanel(game, 1, big, "token-b2", 8, 3.5, "es")
    await store.save_panels([newer])  # the same seat again: the newer panel replaces it
    assert await store.take_panels([]) == []
    assert sorted(await store.take_panels([game]), key=lambda p: p.seat) == [ann, newer]
    assert await store.take_panels([game]) == [], "handed over once"
    assert await store.take_panels([other, game]) == [SavedPanel(other, 0, big, "c", 6, 2.0)]


async def test_the_table_a_move_closes_is_written_with_the_move_and_forgotten_with_the_next_write(
    store: Store,
) -> None:
    """A move that ends a deal saves the table message it closed in its own transaction (a stale
    move saves none of it); the table's next message, or the standings shown, forget it in theirs."""
    from db.errors import StaleAction
    from db.records import OldCopy

    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {"deck": "standard52"}, 42, [SeatRecord(0, 100, "Ann"), SeatRecord(1, 200, "Bob")], 2)
    closed = OldCopy(game, 2**62 + 3, {"content": None, "embeds": [{"title": "Deal 1", "type": "rich"}]})
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1}, old_copy=closed)
    assert await store.old_copies() == [closed]
    other = OldCopy(game, 9, {"content": "x", "embeds": []})
    with pytest.raises(StaleAction):
        await store.record_action(game, 0, 1, {"type": "bid", "bid": 0}, old_copy=other)
    assert await store.old_copies() == [closed], "the stale move wrote nothing"
    await store.set_message(game, 2**62 + 4, '["deal", 2]', closed=[closed.message_id])
    assert await store.old_copies() == []
    assert (await store.get_game(game)).message_id == 2**62 + 4
    results = [ResultRow(0, 100, "Ann", 1, 10, False, {}), ResultRow(1, 200, "Bob", 2, 5, False, {})]
    await store.record_action(game, 1, 1, {"type": "bid", "bid": 0}, results=results, old_copy=other)
    await store.set_finale_shown(game, closed=[other.message_id])
    assert await store.old_copies() == [] and await store.unshown_finales() == []
