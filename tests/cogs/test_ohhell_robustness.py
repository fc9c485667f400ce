"""What players do wrong or unluckily: closed DMs, restarts, double clicks, stale forms, strangers."""

from __future__ import annotations

import pytest

from tests.helpers import OhHellDriver, end_game, make_bot, modal_options, open_table, table_message

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def _setup(env, names=("ann", "bob", "cat"), preset="classic", options=SHORT):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in names]
    await open_table(env, channel, people[0], people[1:], preset=preset, options=options)
    table = env.bot.tables.in_channel(channel.id)
    return guild, channel, people, table


def _actor_for(people, table, seat):
    return next(p for p in people if p.id == table.seats[seat].user_id)


@pytest.mark.simcord(settle_timeout=0.5)
async def test_closed_dms_keep_the_game_going(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    bob = people[1]
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await open_table(env, channel, people[0], people[1:], options=SHORT)
    table = env.bot.tables.in_channel(channel.id)
    board = table_message(channel, env.bot.user.id)
    notes = " ".join(f.value for e in board.embeds for f in e.fields)
    assert "can't DM bob" in notes
    assert list(bob.user.dm_channel.history()) == []
    assert people[0].user.dm_channel.last_message.embeds, "the others still get their hand by DM"
    # Bob sees his hand through the button instead, privately.
    shown = await bob.click(board, label="My hand")
    assert shown.ephemeral
    bob_seat = table.seat_of(bob.id)
    hand = table.engine.view(bob_seat)["hand"]
    text = " ".join(f.value for f in shown.response.embeds[0].fields)
    from bot.render.cards import label

    assert all(label(code).replace("♣", "").replace("♦", "").replace("♥", "").replace("♠", "") in text for code in hand)
    assert not any(m.id == shown.response.id for m in channel.history(viewer=people[0]))
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    assert "Game over" in channel.last_message.content
    assert env.errors == [] or all("50007" in str(e) for e in env.errors)


@pytest.mark.simcord(settle_timeout=0.5)
async def test_restart_in_the_middle_of_a_trick(simcord_env, db_path):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=3)
    # Bids, then one card of the first trick.
    while table.engine.view(None)["phase"] == "bidding":
        await driver.step()
    await driver.step()
    before = table.engine.view(None)
    assert len(before["trick"]) == 1
    old_bot = env.bot
    await env.restart_bot(make_bot(db_path))
    await old_bot.close()
    restored = env.bot.tables.in_channel(channel.id)
    assert restored is not None and restored is not table
    after = restored.engine.view(None)
    assert after["trick"] == before["trick"] and after["bids"] == before["bids"]
    # The buttons of the message posted before the restart still work.
    seat = after["to_act"][0]
    actor = _actor_for(people, restored, seat)
    shown = await actor.click(table_message(channel, env.bot.user.id), label="Play a card")
    options = modal_options(shown)
    submitted = await actor.submit_modal(shown, {"choice": [options[0]]})
    assert not submitted.ephemeral
    assert len(restored.engine.view(None)["trick"]) == 2
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=4)
    await driver.play_to_end()
    results = await env.bot.store.results(restored.id)
    scores = await env.bot.store.deal_scores(restored.id)
    assert {r.seat: r.total for r in results} == {s: sum(d.delta for d in scores if d.seat == s) for s in range(3)}


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_form_submitted_twice_counts_once(simcord_env):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    board = table_message(channel, env.bot.user.id)
    first = await actor.click(board, label="Bid")
    second = await actor.click(board, label="Bid")  # a double click opens the form twice
    value = modal_options(first)[0]
    done = await actor.submit_modal(first, {"choice": [value]})
    assert not done.ephemeral
    log_length = len(table.engine.log)
    again = await actor.submit_modal(second, {"choice": [value]})
    assert again.ephemeral and "moved on" in again.response.content
    assert len(table.engine.log) == log_length == 1
    stored = await env.bot.store.get_game(table.id)
    assert len(stored.actions) == 1


@pytest.mark.simcord(settle_timeout=0.5)
async def test_out_of_turn_strangers_and_a_busy_channel(simcord_env):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    board = table_message(channel, env.bot.user.id)
    seat = table.engine.to_act()[0]
    waiting = next(p for p in people if p.id != table.seats[seat].user_id)
    refused = await waiting.click(board, label="Bid")
    assert refused.ephemeral and "not your turn" in refused.response.content
    stranger = guild.add_member(env.create_user("zed"))
    refused = await stranger.click(board, label="My hand")
    assert refused.ephemeral and "not playing" in refused.response.content
    busy = await stranger.slash(channel, "ohhell new")
    assert busy.ephemeral and "already has a game" in busy.response.content
    busy = await stranger.slash(channel, "shithead new") if "shithead" in env.bot.tables.__dict__ else busy
    assert busy.ephemeral
    assert table.engine.log == []


@pytest.mark.simcord(settle_timeout=0.5)
async def test_stale_forms_after_the_deal_and_after_the_game(simcord_env):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=5)
    # Keep a form open from deal 1, finish deal 1, then submit it.
    while table.engine.view(None)["phase"] == "bidding":
        await driver.step()
    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    stale = await actor.click(table_message(channel, env.bot.user.id), label="Play a card")
    stale_value = modal_options(stale)[0]
    while table.engine.view(None)["deal"] == 1:
        await driver.step()
    late = await actor.submit_modal(stale, {"choice": [stale_value]})
    assert late.ephemeral and "moved on" in late.response.content
    # A form kept open when the host ends the game.
    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    kept = await actor.click(table_message(channel, env.bot.user.id), label="Bid")
    await end_game(people[0], channel)
    late = await actor.submit_modal(kept, {"choice": [modal_options(kept)[0]]})
    assert late.ephemeral and "ended" in late.response.content
    # Finished tables keep no buttons to press.
    assert all(not m.components for m in channel.history())


@pytest.mark.simcord(settle_timeout=0.5)
async def test_tables_in_several_channels_and_servers_at_once(simcord_env):
    env = simcord_env
    drivers = []
    for server in range(2):
        guild = env.create_guild(name=f"server {server}")
        for room in range(2):
            channel = guild.create_text_channel(f"cards-{room}")
            people = [guild.add_member(env.create_user(f"p{server}{room}{i}")) for i in range(3)]
            await open_table(env, channel, people[0], people[1:], options=SHORT)
            drivers.append(OhHellDriver(env, channel, {p.id: p for p in people}, seed=server * 2 + room))
    assert len({d.table().id for d in drivers}) == 4
    live = list(drivers)
    while live:
        live = [d for d in live if await d.step()]
    for driver in drivers:
        assert "Game over" in driver.channel.last_message.content


@pytest.mark.simcord(settle_timeout=0.5)
async def test_nothing_is_shown_that_was_not_saved(simcord_env):
    from db.store import StoreError

    env = simcord_env
    guild, channel, people, table = await _setup(env)
    store = env.bot.store
    real = store.record_action

    async def broken(*args, **kwargs):
        raise StoreError("disk full")

    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    board = table_message(channel, env.bot.user.id)
    before = board.embeds[0].to_dict()
    shown = await actor.click(board, label="Bid")
    store.record_action = broken
    failed = await actor.submit_modal(shown, {"choice": [modal_options(shown)[0]]})
    store.record_action = real
    assert failed.ephemeral and "could not save" in failed.response.content
    assert table.engine.log == [] and table.engine.to_act() == [seat]
    assert table_message(channel, env.bot.user.id).embeds[0].to_dict() == before
    assert (await store.get_game(table.id)).actions == []
    # Once the disk is back, the player opens the form again and the bid counts.
    shown = await actor.click(board, label="Bid")
    again = await actor.submit_modal(shown, {"choice": [modal_options(shown)[0]]})
    assert not again.ephemeral and len(table.engine.log) == 1


@pytest.mark.simcord(settle_timeout=0.5)
async def test_two_moves_at_the_same_moment_one_counts(simcord_env):
    """SimCord runs one user operation at a time, so two handlers racing are driven directly,
    as the form handler calls the table: each takes the table's lock, then acts."""
    import asyncio

    from bot.errors import Refusal

    env = simcord_env
    guild, channel, people, table = await _setup(env)
    seat = table.engine.to_act()[0]
    shown = table.kind.decision_digest(table.engine, seat)  # both forms were drawn from this state

    async def handler(bid: int) -> None:
        async with table.lock:
            await env.bot.tables.act(table, seat, {"type": "bid", "bid": bid}, expect_key=shown)

    outcomes = await asyncio.gather(handler(0), handler(1), return_exceptions=True)
    await env.settle()
    assert outcomes[0] is None and isinstance(outcomes[1], Refusal)
    assert table.engine.log == [(seat, {"type": "bid", "bid": 0})]
    assert (await env.bot.store.get_game(table.id)).actions == [(seat, {"type": "bid", "bid": 0})]


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_new_deal_whose_table_could_not_be_posted_comes_back(simcord_env, db_path):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=8)
    # Play deal 1 to its last card, then let the post of deal 2's table fail.
    while not (table.engine.view(None)["phase"] == "playing" and sum(table.engine.view(None)["hand_counts"]) == 1):
        await driver.step()
    env.inject_error(
        "POST", f"/channels/{channel.id}/messages", status=403, code=50013, message="Missing Permissions", times=1
    )
    await driver.step()
    assert env.errors == [], "the failed post is logged and the move stands, not raised as an error"
    assert table.engine.view(None)["deal"] == 2
    assert all(not m.components for m in channel.history()), "no usable table: deal 2 was not posted"
    # Any player can bring it back ...
    again = await people[1].slash(channel, "ohhell table")
    assert again.ephemeral
    board = table_message(channel, env.bot.user.id)
    assert "deal 2" in board.embeds[0].title
    # ... and a restart posts it by itself when it is missing. Lose it once more to see that.
    stored = await env.bot.store.get_game(table.id)
    await env.bot.store.set_message(table.id, stored.message_id, "stale")
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    await env.settle()
    newest = table_message(channel, env.bot.user.id)
    assert newest.id != board.id and "deal 2" in newest.embeds[0].title
    old_copy = next(m for m in channel.history() if m.id == board.id)
    assert not old_copy.components and "moved below" in old_copy.content, "the replaced copy has no controls"
    await OhHellDriver(env, channel, {p.id: p for p in people}, seed=9).play_to_end()
    assert "Game over" in channel.last_message.content
