"""The provable shuffle's storage (migration 0005), on both backends: the commitment and salt
stored at the start with the first deck, each later deck with the move that dealt it, in the
same transaction, and read back in deal order."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from db.errors import StoreConflict
from db.records import DealtDeck, SeatRecord
from db.store import Store

SEATS = [SeatRecord(0, 100, "Ann"), SeatRecord(1, None, "Computer", "strong")]
DIGEST = "ab" * 32
SALT = "cd" * 32
SEED = 2**62 - 1  # the largest seed the bot draws


async def _started(store: Store) -> int:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(
        game,
        {"deck": "standard52"},
        SEED,
        SEATS,
        2,
        commitment=DIGEST,
        salt=SALT,
        first_deal=DealtDeck(1, ["AS", "10H", "X"]),
    )
    return game


async def test_the_start_stores_the_commitment_salt_and_first_deck(store: Store) -> None:
    game = await _started(store)
    record = await store.get_game(game)
    assert record is not None
    assert (record.seed, record.commitment, record.salt) == (SEED, DIGEST, SALT)
    assert await store.deals(game) == [DealtDeck(1, ["AS", "10H", "X"])]


async def test_a_deck_is_stored_with_the_move_that_dealt_it(store: Store) -> None:
    game = await _started(store)
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 1})
    await store.record_action(game, 1, 1, {"type": "bid", "bid": 0}, deal=DealtDeck(2, ["2C#1", "KD"]))
    assert await store.deals(game) == [DealtDeck(1, ["AS", "10H", "X"]), DealtDeck(2, ["2C#1", "KD"])]
    # a move already recorded is refused, and the deck that came with it is not stored either
    with pytest.raises(StoreConflict):
        await store.record_action(game, 1, 1, {"type": "bid", "bid": 0}, deal=DealtDeck(3, ["QS"]))
    assert [d.deal for d in await store.deals(game)] == [1, 2]
    assert await store.deals(game + 1) == []


async def test_games_before_the_commitment_have_none(new_store: Callable[[], Store]) -> None:
    store = new_store()
    await store.open()
    game = await store.create_game("shithead", 1, 10, 100, "pagat", {})
    await store.start_game(game, {}, 5, SEATS, 2)
    record = await store.get_game(game)
    assert record is not None and record.commitment is None and record.salt is None
    assert await store.deals(game) == []


async def test_the_seed_and_salt_stay_out_of_a_records_repr(store: Store) -> None:
    record = await store.get_game(await _started(store))
    assert record is not None
    assert str(SEED) not in repr(record) and SALT not in repr(record) and DIGEST in repr(record)


async def test_a_players_leave_to_show_their_hand_is_stored(new_store: Callable[[], Store]) -> None:
    store = new_store()
    await store.open()
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.set_seats(game, [SeatRecord(0, 100, "Ann", shows_hand=True), SeatRecord(1, 200, "Bob")])
    await store.update_seat(game, SeatRecord(1, 200, "Bob", None, False, True))
    await store.update_seat(game, SeatRecord(0, 100, "Ann", None, False, False))
    await store.close()
    again = new_store()
    await again.open()
    record = await again.get_game(game)
    assert record is not None and [s.shows_hand for s in record.seats] == [False, True]


async def test_a_duplicate_match_and_its_tables(store: Store) -> None:
    match = await store.create_match("ohhell", "ABC234", 1, 100, 2, SEED, SALT)
    assert (match.code, match.tables, match.seed, match.salt, match.rules) == ("ABC234", 2, SEED, SALT, None)
    assert str(SEED) not in repr(match) and SALT not in repr(match)
    with pytest.raises(StoreConflict):
        await store.create_match("ohhell", "ABC234", 1, 200, 3, 1, SALT)
    assert await store.match_by_code("ABC234") == match and await store.match_by_code("NOPE") is None
    first = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    second = await store.create_game("ohhell", 2, 20, 200, "classic", {})
    assert await store.join_match(first, match.id) == 1  # the table's number in the match
    assert await store.join_match(second, match.id) == 2
    third = await store.create_game("ohhell", 3, 30, 300, "classic", {})
    assert await store.join_match(third, match.id) is None  # both tables taken
    assert (await store.get_game(third)).match_id is None
    fixed = await store.fix_match_rules(match.id, {"deck": "standard52"}, 3)
    assert (fixed.rules, fixed.players) == ({"deck": "standard52"}, 3)
    again = await store.fix_match_rules(match.id, {"deck": "pack63"}, 6)  # the first table's rules stay
    assert (again.rules, again.players) == ({"deck": "standard52"}, 3)
    games = await store.match_games(match.id)
    assert [g.id for g in games] == [first, second] and all(g.match_id == match.id for g in games)
    assert (await store.get_game(first)).match_id == match.id
