"""A game's drand beacon in the store (migration 0018), on both backends: the seed, commitment and
named round written while the game is still a lobby (so a restarted bot waits for the same round
with the same seed), the verified signature or the reason there is none, kept through the start;
a duplicate match's round named once, by its first table."""

from __future__ import annotations

from db.store import DealtDeck, MatchBeacon, SeatRecord, Store

SEATS = [SeatRecord(0, 100, "Ann"), SeatRecord(1, None, "Computer", "strong")]
SIGNATURE = "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"


async def test_the_named_round_is_stored_before_the_start_and_kept_through_it(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.reserve_start(game, 2**62 - 1, "cd" * 32, "ab" * 32, 3, 1000)
    record = await store.get_game(game)
    assert record is not None and record.status == "lobby"
    assert (record.seed, record.salt, record.commitment, record.beacon_round) == (2**62 - 1, "cd" * 32, "ab" * 32, 1000)
    assert record.beacon_signature is None and record.beacon_note is None
    await store.set_beacon(game, signature=None, note=None, message_id=2**63 - 5)
    await store.set_beacon(game, signature=SIGNATURE, note=None, message_id=None)  # keeps the message
    await store.start_game(
        game, {}, 2**62 - 1, SEATS, 3, commitment="ab" * 32, salt="cd" * 32, first_deal=DealtDeck(1, ["AS"])
    )
    record = await store.get_game(game)
    assert record is not None and record.status == "playing"
    assert (record.beacon_round, record.beacon_signature, record.beacon_message_id) == (1000, SIGNATURE, 2**63 - 5)


async def test_a_labelled_game_keeps_its_reason(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.reserve_start(game, 5, "cd" * 32, "ab" * 32, 3, 1000)
    await store.set_beacon(game, signature=None, note="No drand relay gave round 1000 in time.", message_id=7)
    record = await store.get_game(game)
    assert record is not None and record.beacon_note == "No drand relay gave round 1000 in time."


async def test_a_game_without_a_beacon_has_none(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(game, {}, 5, SEATS, 3, commitment="ab" * 32, salt="cd" * 32)
    record = await store.get_game(game)
    assert record is not None
    assert (record.beacon_round, record.beacon_signature, record.beacon_note, record.beacon_message_id) == (None,) * 4


async def test_a_matchs_beacon_is_the_first_one_settled(store: Store) -> None:
    match = await store.create_match("ohhell", "ABCD", 1, 100, 3, 5, "cd" * 32)
    assert (await store.get_match(match.id)).beacon is None
    first = MatchBeacon(1000, 11, SIGNATURE, None)
    assert await store.share_match_beacon(match.id, first) == first
    assert await store.share_match_beacon(match.id, MatchBeacon(1003, 12, None, "No relay.")) == first
    assert (await store.get_match(match.id)).beacon == first


async def test_a_games_round_can_be_replaced_by_its_matchs(store: Store) -> None:
    game = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.reserve_start(game, 5, "cd" * 32, "ab" * 32, 3, 1003)
    await store.set_beacon(game, signature=SIGNATURE, note=None, message_id=11, beacon_round=1000)
    record = await store.get_game(game)
    assert record is not None and (record.beacon_round, record.beacon_message_id) == (1000, 11)
