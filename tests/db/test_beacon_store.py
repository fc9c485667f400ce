"""A game's drand beacon in the store (migration 0018), on both backends: the seed, commitment and
named round written while the game is still a lobby (so a restarted bot waits for the same round
with the same seed), the verified signature or the reason there is none, kept through the start;
a duplicate match's round named once, by its first table."""

from __future__ import annotations

from db.records import DealtDeck, MatchBeacon, RatingChange, SeatRecord
from db.store import Store

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


async def test_only_games_ended_once_they_named_a_round_are_listed_as_abandoned(store: Store) -> None:
    lobby = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.end_game(lobby, "cancelled")  # cancelled before any round was named: not listed
    plain = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    await store.start_game(plain, {}, 5, SEATS, 3, commitment="ab" * 32, salt="cd" * 32)
    await store.end_game(plain, "cancelled")  # no round named: not listed
    named = []
    for guild, kind in ((1, "ohhell"), (1, "ohhell"), (2, "ohhell"), (1, "shithead")):
        game = await store.create_game(kind, guild, 10, 100, "classic", {})
        await store.reserve_start(game, 5, "cd" * 32, "ab" * 32, 3, 1000 + game)
        await store.end_game(game, "cancelled")
        named.append(game)
    found = await store.abandoned_games(1, "ohhell", limit=10)
    assert [(g.id, g.kind, g.preset, g.beacon_round) for g in found] == [
        (named[1], "ohhell", "classic", 1000 + named[1]),
        (named[0], "ohhell", "classic", 1000 + named[0]),
    ]
    assert all(g.ended_at.endswith("Z") for g in found)
    assert [g.id for g in await store.abandoned_games(1, "ohhell", limit=1)] == [named[1]]


async def test_a_members_labelled_rated_games_are_counted_by_the_leaderboards_query(store: Store) -> None:
    labelled = await store.create_game("ohhell", 1, 10, 100, "classic", {})
    bound = await store.create_game("ohhell", 1, 11, 100, "classic", {})
    for game, signature in ((labelled, None), (bound, SIGNATURE)):
        await store.reserve_start(game, 5, "cd" * 32, "ab" * 32, 3, 1000)
        await store.set_beacon(game, signature=signature, note=None if signature else "No relay.", message_id=7)
    changes = [RatingChange(game, 0, "u:100", 25.0, 8.0, 26.0, 7.5) for game in (labelled, bound)]
    await store.save_ratings(1, "ohhell", [], [*changes, RatingChange(labelled, 1, "ai:strong", 25.0, 8.0, 24.0, 7.5)])
    assert len(await store.unbeaconed_rated(1, "ohhell")) == 1
    assert len(await store.unbeaconed_rated(1, "ohhell", "u:100")) == 1
    assert len(await store.unbeaconed_rated(1, "ohhell", "u:200")) == 0
