"""Games bound to a drand round, through the real bot as players see them (``DRAND=on``): the
commitment naming the round is posted before the round is due; the channel reads the round's
check, or the label, before the first card; a bound game deals from the seed and the round, a
labelled one from the seed alone; ``/ohhell verify`` checks either after the end.

The relay here is in memory (the relay client against a fake relay on 127.0.0.1 is
tests/bot/fairness/beacon/test_relay.py): it serves the real quicknet round 1000 once it is due on a chain
whose genesis is moved so that round 1000 falls just after the test's Start (SimCord's clock is
in 2026); the key is the pinned one, so the signature checked is the real one."""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.fairness.beacon.binding import LABEL, WAIT, Binding, deal_seed
from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.fairness.beacon.game import Beacons
from bot.fairness.beacon.relay import Transport
from bot.fairness.shuffles import dealt
from tests.bot.fairness.beacon.fake_relay import ROUNDS
from tests.helpers import OhHellDriver, close_made_bots, make_bot, message_text, open_table

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}
ROUND = 1000


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, drand=True)
    yield bot
    await close_made_bots()


def shifted_chain(lead: float = 1.5) -> Chain:
    """The quicknet chain (its pinned key) with round 1000 due ``lead`` seconds from now."""
    now = discord.utils.utcnow().timestamp()
    return dataclasses.replace(QUICKNET, genesis_time=round(now + lead) - (ROUND - 1) * QUICKNET.period)


def in_memory_relay(chain: Chain, *, answers: bool, asked: list[int]) -> Transport:
    async def get(address: str) -> tuple[int, bytes]:
        number = int(address.rsplit("/", 1)[1])
        asked.append(number)
        if not answers:
            return 500, b"down"
        if discord.utils.utcnow().timestamp() < chain.round_time(number) or number not in ROUNDS:
            return 404, b"{}"
        return 200, json.dumps(ROUNDS[number]).encode()

    return get


def use_relay(env, *, answers: bool) -> tuple[Chain, list[int]]:
    beacons = env.bot.tables.seating.beacons
    assert isinstance(beacons, Beacons)
    chain, asked = shifted_chain(), []
    beacons.chain, beacons.relays = chain, ["https://relay.test"]
    beacons.transport = in_memory_relay(chain, answers=answers, asked=asked)
    return chain, asked


def assert_told_before_the_first_card(env, members, marker: str) -> None:
    """The channel read ``marker`` (the round's check, or the label) before any hand went out."""
    requests = env.http_requests
    dms = {f"/channels/{m.user.dm_channel.id}/messages" for m in members}
    told = next(
        i for i, r in enumerate(requests) if r.method == "POST" and marker in json.dumps(r.json, ensure_ascii=False)
    )
    first_hand = next(i for i, r in enumerate(requests) if r.method == "POST" and r.path in dms)
    assert told < first_hand


async def test_a_game_bound_to_its_round_deals_from_the_seed_and_the_round(simcord_env, tmp_path):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    chain, asked = use_relay(env, answers=True)
    lobby = await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
    table = env.bot.tables.in_channel(channel.id)
    assert table.record.status == "lobby" and table.record.beacon_round == ROUND and not asked
    naming = [
        m
        for m in channel.history()
        if f"round **{ROUND}**" in message_text(m) and "does not exist yet" in message_text(m)
    ]
    assert naming and table.record.commitment in message_text(naming[0])
    # the message's own (Discord) time is before the round is due: the proof the commitment came first
    assert discord.utils.snowflake_time(naming[0].id).timestamp() < chain.round_time(ROUND)
    # while it waits, the lobby refuses changes (a seat less would change the deal)
    assert not [c for row in lobby.components for c in row.children]  # the lobby lost its buttons
    changed = await ann.slash(channel, "ohhell set", option="sequence", value="up")
    assert changed.ephemeral and f"wait for drand round {ROUND}" in changed.response.content
    await env.advance_time(3)
    assert asked and set(asked) == {ROUND}
    record = table.record
    assert record.status == "playing" and record.beacon_signature == ROUNDS[ROUND]["signature"]
    assert_told_before_the_first_card(env, [ann, bob], "🎲")
    # the first deck is the one the seed and the round deal, not the seed's alone
    binding = Binding(ROUND, record.beacon_signature)
    engine = table.kind.engine.new(table.rules, len(table.seats), deal_seed(record.seed, binding), rng_version=3)
    alone = table.kind.engine.new(table.rules, len(table.seats), record.seed, rng_version=3)
    stored = await env.bot.store.deals(table.id)
    assert stored[0] == dealt(engine) != dealt(alone)
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=3)
    await driver.play_to_end()
    answer = await bob.slash(channel, "ohhell verify", game=table.id)
    reply = answer.followups[-1] if answer.followups else answer.response
    text = message_text(reply)
    assert "❌" not in text and f"round {ROUND}'s signature checks against the chain's pinned key" in text
    assert f"before round {ROUND} was due" in text and "the seed and the round deal" in text
    exported = json.loads(await reply.attachments[0].read())
    assert exported["beacon"]["round"] == ROUND and exported["beacon"]["signature"] == ROUNDS[ROUND]["signature"]
    assert exported["beacon"]["label"] is None


async def test_a_game_whose_round_never_comes_is_labelled_before_the_first_card(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    chain, asked = use_relay(env, answers=False)
    await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
    table = env.bot.tables.in_channel(channel.id)
    assert table.record.status == "lobby"
    await env.advance_time(3 + WAIT + 1)
    record = table.record
    assert record.status == "playing" and record.beacon_signature is None
    assert record.beacon_note == f"No drand relay gave round {ROUND} in time."
    assert asked and set(asked) == {ROUND}  # no other round was ever asked for
    assert_told_before_the_first_card(env, [ann, bob], LABEL)
    stored = await env.bot.store.deals(table.id)
    alone = table.kind.engine.new(table.rules, len(table.seats), record.seed, rng_version=3)
    assert stored[0] == dealt(alone)
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=5)
    await driver.play_to_end()
    answer = await bob.slash(channel, "ohhell verify", game=table.id)
    reply = answer.followups[-1] if answer.followups else answer.response
    assert f"⚠️ **{LABEL}**: No drand relay gave round {ROUND} in time." in message_text(reply)
    history = await bob.slash(channel, "ohhell history")
    fields = [f.name for f in history.response.embeds[0].fields]
    assert any(f.startswith(f"#{table.id} ") and f.endswith(LABEL) for f in fields), fields
    board = await bob.slash(channel, "leaderboard", game="ohhell", season="all")
    footer = board.response.embeds[0].footer.text
    assert f" · 1 game here was {LABEL}" in footer, footer


async def test_a_bot_restarted_while_waiting_deals_from_the_same_round_and_seed(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    chain, asked = use_relay(env, answers=True)
    await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
    before = await env.bot.store.get_game(env.bot.tables.in_channel(channel.id).id)
    assert before is not None and before.status == "lobby" and before.beacon_round == ROUND and not asked
    old = env.bot
    new = make_bot(db_path, drand=True)
    beacons = new.tables.seating.beacons
    beacons.chain, beacons.relays = chain, ["https://relay.test"]
    beacons.transport = in_memory_relay(chain, answers=True, asked=asked)
    await env.restart_bot(new)
    await old.close()
    await env.advance_time(3)
    table = env.bot.tables.in_channel(channel.id)
    record = table.record
    assert record.status == "playing" and set(asked) == {ROUND}
    assert (record.seed, record.commitment, record.beacon_round) == (before.seed, before.commitment, ROUND)
    assert record.beacon_signature == ROUNDS[ROUND]["signature"]
    # one commitment message only: the restarted bot did not name another round
    assert sum("does not exist yet" in message_text(m) for m in channel.history()) == 1
    stored = await env.bot.store.deals(table.id)
    engine = table.kind.engine.new(
        table.rules, len(table.seats), deal_seed(record.seed, Binding(ROUND, record.beacon_signature)), rng_version=3
    )
    assert stored[0] == dealt(engine)


async def _match_of_two(env, first, second, ann, bob):
    """A two-table match, three computers at each table: (ann's lobby, bob's lobby)."""
    opened = await ann.slash(first, "ohhell duplicate new", tables=2)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    for option, value in SHORT.items():
        await ann.slash(first, "ohhell set", option=option, value=value)
    joined = await bob.slash(second, "ohhell duplicate join", code=code)
    for lobby, member in ((opened.response, ann), (joined.response, bob)):
        for _ in range(3):
            await member.click(lobby, label="Add computer")
    return opened.response, joined.response


@pytest.mark.parametrize("answers", [True, False], ids=["bound", "labelled"])
async def test_every_table_of_a_duplicate_match_deals_by_its_first_tables_round(simcord_env, answers):
    """The second table starts a minute after the round was due: it names no new round and asks no
    relay; it takes the match's outcome, bound or labelled, even where the relay now answers (a
    second chance would let the match's cards differ between tables), and deals the same cards."""
    env = simcord_env
    guild = env.create_guild()
    first, second = guild.create_text_channel("cards"), guild.create_text_channel("more-cards")
    ann, bob = guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("bob"))
    chain, asked = use_relay(env, answers=answers)
    lobby_a, lobby_b = await _match_of_two(env, first, second, ann, bob)
    assert not (await ann.click(lobby_a, label="Start")).ephemeral
    await env.advance_time(3 + WAIT + 1)
    table_a = env.bot.tables.in_channel(first.id)
    assert table_a.record.status == "playing" and (table_a.record.beacon_signature is not None) == answers
    env.bot.tables.seating.beacons.transport = in_memory_relay(chain, answers=True, asked=asked)
    asked_before = len(asked)
    await env.advance_time(60)
    assert not (await bob.click(lobby_b, label="Start")).ephemeral
    await env.advance_time(3)
    table_b = env.bot.tables.in_channel(second.id)
    a, b = table_a.record, table_b.record
    assert b.status == "playing" and (b.beacon_round, b.beacon_signature) == (a.beacon_round, a.beacon_signature)
    assert b.beacon_note == a.beacon_note and b.beacon_message_id == a.beacon_message_id
    assert len(asked) == asked_before and set(asked) == {ROUND}
    assert (await env.bot.store.deals(table_a.id))[0] == (await env.bot.store.deals(table_b.id))[0]


async def test_a_commitment_discord_refused_to_post_names_no_round_and_the_game_is_labelled(simcord_env):
    """Without the public message there is no proof the seed came first: the game is labelled,
    and no relay is asked."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    chain, asked = use_relay(env, answers=True)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=500, code=0, message="injected", times=1)
    await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
    await env.advance_time(3)
    record = env.bot.tables.in_channel(channel.id).record
    assert record.status == "playing" and record.beacon_signature is None and not asked
    assert record.beacon_note == "The commitment naming the round could not be posted."
    assert_told_before_the_first_card(env, [ann, bob], LABEL)


async def test_a_game_the_host_ends_after_its_round_is_published_stays_in_the_history_as_abandoned(simcord_env):
    """A host (or a bot) that drops a game once its round has shown the decks is seen doing it:
    the history lists the game as abandoned with the round, and its shuffle can still be checked.
    A lobby closed before it named a round stays out."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    use_relay(env, answers=True)
    lobby_channel = guild.create_text_channel("lobby")
    await ann.slash(lobby_channel, "ohhell new")
    lobby = env.bot.tables.in_channel(lobby_channel.id)
    assert lobby.record.status == "lobby" and lobby.record.beacon_round is None
    closed = await ann.slash(lobby_channel, "ohhell end")
    assert closed.response.content == "The table was closed."
    await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
    table = env.bot.tables.in_channel(channel.id)
    await env.advance_time(3)
    assert table.record.status == "playing" and table.record.beacon_signature == ROUNDS[ROUND]["signature"]
    asked = await ann.slash(channel, "ohhell end")
    confirmed = await ann.click(asked.response, label="Confirm")
    assert f"Game #{table.id} is ended" in confirmed.response.content
    history = await bob.slash(channel, "ohhell history")
    embed = history.response.embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert [n.split(" ")[0] for n in fields] == [f"#{table.id}"], fields  # the closed lobby is not listed
    name = next((n for n in fields if n.startswith(f"#{table.id} · ")), None)
    assert name is not None and name.endswith(f" · abandoned after drand round {ROUND} was published"), fields
    assert fields[name] == f"/ohhell verify game:{table.id} checks its shuffle"
    answer = await bob.slash(channel, "ohhell verify", game=table.id)
    reply = answer.followups[-1] if answer.followups else answer.response
    text = message_text(reply)
    assert "❌" not in text and f"round {ROUND}'s signature checks against the chain's pinned key" in text
    exported = json.loads(await reply.attachments[0].read())
    assert exported["beacon"]["round"] == ROUND


def test_a_game_is_abandoned_only_if_it_ended_once_its_round_was_published():
    """The round's time is the chain's (round 1000 of the pinned chain); the end is the store's time."""
    from cogs.stats.history import abandoned_after_round  # (imported here: the SimCord tests run without it)
    from db.records import AbandonedGame

    due = datetime.fromtimestamp(QUICKNET.round_time(ROUND), UTC)
    for seconds, listed in ((-1, False), (0, True), (60, True)):
        ended = (due + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")
        assert abandoned_after_round(AbandonedGame(1, "ohhell", "classic", ended, ROUND), QUICKNET) is listed


async def test_the_profile_counts_the_rated_games_played_without_their_beacon(simcord_env):
    """/cardstats says how many of a member's rated games were labelled; a bound game adds nothing."""
    env = simcord_env
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    labelled = 0
    for answers in (True, False, True):
        channel = guild.create_text_channel("cards")
        use_relay(env, answers=answers)
        await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
        await env.advance_time(3 + (0 if answers else WAIT + 1))
        assert env.bot.tables.in_channel(channel.id).record.status == "playing"
        await OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=5).play_to_end()
        labelled += not answers
        profile = await bob.slash(channel, "cardstats", game="ohhell")
        text = "\n".join(f.value for f in profile.response.embeds[0].fields)
        assert "Rating **" in text, text
        if labelled:
            assert f"Of the games rated, {labelled} was {LABEL}" in text, text
        else:
            assert LABEL not in text, text  # bound games only: no label
