"""What players do wrong or unluckily: closed DMs, restarts, double presses, stale panels, strangers."""

from __future__ import annotations

from bot.messages.panels import COUNTED
from bot.tables.manager import STALE
from tests.helpers import (
    OhHellDriver,
    buttons,
    end_game,
    live_panel,
    make_bot,
    message_text,
    open_hand,
    open_stale_copy,
    open_table,
    panel_disabled,
    panel_moves,
    press,
    table_message,
    warning_of,
)

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
    from draw.cards import label

    assert all(label(code).replace("♣", "").replace("♦", "").replace("♥", "").replace("♠", "") in text for code in hand)
    assert not any(m.id == shown.response.id for m in channel.history(viewer=people[0]))
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    assert "Game over" in channel.last_message.content
    assert env.errors == [] or all("50007" in str(e) for e in env.errors)


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
    posted = table_message(channel, env.bot.user.id)
    old_bot = env.bot
    await env.restart_bot(make_bot(db_path))
    await old_bot.close()
    restored = env.bot.tables.in_channel(channel.id)
    assert restored is not None and restored is not table
    after = restored.engine.view(None)
    assert after["trick"] == before["trick"] and after["bids"] == before["bids"]
    # The buttons of the message posted before the restart still work: My hand, then a card.
    board = table_message(channel, env.bot.user.id)
    assert board.id == posted.id
    seat = after["to_act"][0]
    actor = _actor_for(people, restored, seat)
    panel = await open_hand(actor, channel, env.bot.user.id)
    played = await press(actor, panel, next(iter(panel_moves(panel))))
    assert warning_of(played) is None, warning_of(played)
    assert len(restored.engine.view(None)["trick"]) == 2
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=4)
    await driver.play_to_end()
    results = await env.bot.store.results(restored.id)
    scores = await env.bot.store.deal_scores(restored.id)
    # (a play-off deal that settled a tie is on the sheet but not in the total)
    totals = {r.seat: r.total + sum(r.stats.get("playoff") or []) for r in results}
    assert totals == {s: sum(d.delta for d in scores if d.seat == s) for s in range(3)}


async def test_a_move_pressed_twice_counts_once(simcord_env):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    # a double click opens the panel twice (and the older copy kept its buttons: see the helper)
    first = await open_stale_copy(actor, channel, env)
    second = live_panel(env, channel, actor)
    value = next(iter(panel_moves(first)))
    assert panel_moves(second)[value] == panel_moves(first)[value], "both drawn from the same state"
    done = await press(actor, second, value)
    assert warning_of(done) is None, warning_of(done)
    log_length = len(table.engine.log)
    again = await press(actor, first, value)  # the same move, pressed again
    assert again.response.ephemeral and warning_of(again) is None, warning_of(again)
    assert COUNTED in message_text(again.response).splitlines(), message_text(again.response)
    assert len(table.engine.log) == log_length == 1
    stored = await env.bot.store.get_game(table.id)
    assert len(stored.actions) == 1


async def test_out_of_turn_strangers_and_a_busy_channel(simcord_env):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    board = table_message(channel, env.bot.user.id)
    assert "Bid" not in buttons(board) and "Play a card" not in buttons(board), "the table has My hand only"
    seat = table.engine.to_act()[0]
    waiting = next(p for p in people if p.id != table.seats[seat].user_id)
    # Out of turn there is nothing to press: the panel says so (naming nobody: it is not redrawn
    # as the others move) and offers no move.
    shown = await open_hand(waiting, channel, env.bot.user.id)
    assert panel_moves(shown) == {} and panel_disabled(shown) == []
    assert "Not your turn yet" in message_text(shown) and "Waiting for" not in message_text(shown)
    stranger = guild.add_member(env.create_user("zed"))
    refused = await stranger.click(board, label="My hand")
    assert refused.ephemeral and "not playing" in refused.response.content
    busy = await stranger.slash(channel, "ohhell new")
    assert busy.ephemeral and "already has a game" in busy.response.content
    busy = await stranger.slash(channel, "shithead new") if "shithead" in env.bot.tables.__dict__ else busy
    assert busy.ephemeral
    assert table.engine.log == []


async def test_stale_panels_after_the_deal_and_after_the_game(simcord_env):
    env = simcord_env
    guild, channel, people, table = await _setup(env)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=5)
    # Keep a panel open from deal 1 (the player goes on from a newer one), finish deal 1, then press it.
    while table.engine.view(None)["phase"] == "bidding":
        await driver.step()
    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    stale = await open_stale_copy(actor, channel, env)
    stale_value = next(iter(panel_moves(stale)))
    while table.engine.view(None)["deal"] == 1:
        await driver.step()
    log = list(table.engine.log)
    late = await press(actor, stale, stale_value)
    assert late.response.ephemeral and warning_of(late) == f"⚠️ {STALE}", warning_of(late)
    assert table.engine.log == log
    # A panel kept open when the host ends the game.
    seat = table.engine.to_act()[0]
    actor = _actor_for(people, table, seat)
    kept = await open_stale_copy(actor, channel, env)
    newest = live_panel(env, channel, actor)  # the one the bot keeps current
    await end_game(people[0], channel)
    closed = next(m for m in channel.history(viewer=actor) if m.id == newest.id)
    assert "ended" in message_text(closed) and not closed.components, "the live panel says so, with no buttons"
    late = await press(actor, kept, next(iter(panel_moves(kept))))
    warning = warning_of(late)
    assert late.response.ephemeral and warning is not None and "ended" in warning, warning
    # Finished tables keep no buttons to press.
    assert all(not m.components for m in channel.history())


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


async def test_nothing_is_shown_that_was_not_saved(simcord_env):
    from db.errors import StoreError

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
    panel = await open_hand(actor, channel, env.bot.user.id)
    bid = next(iter(panel_moves(panel)))
    store.record_action = broken
    failed = await press(actor, panel, bid)
    store.record_action = real
    warning = warning_of(failed)
    assert failed.response.ephemeral and warning is not None and "could not save" in warning, warning
    assert table.engine.log == [] and table.engine.to_act() == [seat]
    assert table_message(channel, env.bot.user.id).embeds[0].to_dict() == before
    assert (await store.get_game(table.id)).actions == []
    # Once the disk is back, the player presses the bid again on the same panel and it counts.
    again = await press(actor, panel, bid)
    assert warning_of(again) is None and table.engine.log == [(seat, {"type": "bid", "bid": int(bid)})]


async def test_two_moves_at_the_same_moment_one_counts(simcord_env):
    """SimCord runs one user operation at a time, so two handlers racing are driven directly,
    as the panel's press handler calls the table: each takes the table's lock, then acts."""
    import asyncio

    from bot.messages.errors import Refusal

    env = simcord_env
    guild, channel, people, table = await _setup(env)
    seat = table.engine.to_act()[0]
    shown = table.kind.decision_digest(table.engine, seat)  # both panels were drawn from this state

    async def handler(bid: int) -> None:
        async with table.lock:
            await env.bot.tables.act(table, seat, {"type": "bid", "bid": bid}, expect_key=shown)

    outcomes = await asyncio.gather(handler(0), handler(1), return_exceptions=True)
    await env.settle()
    assert outcomes[0] is None and isinstance(outcomes[1], Refusal)
    assert table.engine.log == [(seat, {"type": "bid", "bid": 0})]
    assert (await env.bot.store.get_game(table.id)).actions == [(seat, {"type": "bid", "bid": 0})]


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
    # (the table on record is the one /ohhell table posted; its deal written as another's)
    await env.bot.store.set_message(table.id, board.id, "stale")
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
