"""Handing a seat to someone mid-game, as the players meet it (SimCord): the offer, the one press
that takes the seat and the next that plays on, the old player shut out of the seat at once, the
host handing an absent player's seat, a duplicate match's watcher refused, a restart in between,
and the ratings and history of the finished game naming its final player."""

from __future__ import annotations

import re

from tests.helpers import (
    PANEL_CONTROLS,
    OhHellDriver,
    current_message,
    message_text,
    move_ids,
    open_hand,
    open_stale_copy,
    open_table,
    panel_moves,
    table_message,
    use_seed,
    walk_components,
    warning_of,
)

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def _table(env, names=("ann", "bob", "cat"), spectators=("dee",)):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = {n: guild.add_member(env.create_user(n)) for n in (*names, *spectators)}
    await open_table(env, channel, people[names[0]], [people[n] for n in names[1:]], options=SHORT)
    return guild, channel, people, env.bot.tables.in_channel(channel.id, "ohhell")


async def _until_turn_of(env, channel, table, actors, seat, seed=1):
    """Play (as the driver does) until it is ``seat``'s turn after at least one card of the deal."""
    driver = OhHellDriver(env, channel, {a.id: a for a in actors}, seed=seed)
    while not (table.engine.to_act() == [seat] and driver.cards_played > 0):
        assert await driver.step()
    return driver


def offer_buttons(result) -> dict[str, str]:
    return {c.get("label"): c.get("custom_id") for c in walk_components(result.response.components)}


def refusal(result) -> str:
    assert result.ephemeral and result.response is not None, result
    return result.response.content or ""


async def test_a_seat_handed_over_mid_deal_is_played_on_with_one_press_and_the_old_panel_is_refused(
    simcord_env, monkeypatch
):
    env = simcord_env
    use_seed(monkeypatch, 11)
    guild, channel, p, table = await _table(env)
    ann, bob, cat, dee = p["ann"], p["bob"], p["cat"], p["dee"]
    bob_seat = table.seat_of(bob.id)
    await _until_turn_of(env, channel, table, [ann, bob, cat], bob_seat)
    watched = await dee.click(table_message(channel, env.bot.user.id), label="Watch")
    assert watched.ephemeral
    stale = await open_stale_copy(bob, channel, env)  # an older copy that kept its buttons
    live = await open_hand(bob, channel, env.bot.user.id)
    hand = table.engine.view(bob_seat)["hand"]
    assert hand

    offer = await bob.slash(channel, "ohhell handover", member=dee)
    assert not offer.ephemeral, offer
    assert f"<@{dee.id}>" in offer.response.content and "Take the seat" in offer_buttons(offer)
    # nobody but dee takes it; until she does, bob keeps the seat
    assert "only they can take it" in refusal(await cat.click(offer.response, label="Take the seat"))
    assert table.seats[bob_seat].user_id == bob.id

    taken = await dee.click(offer.response, label="Take the seat")
    assert taken.ephemeral, taken
    panel = taken.response
    assert list(panel_moves(panel)), "her answer is the seat's panel, with its moves"
    assert table.seats[bob_seat].user_id == dee.id and table.seats[bob_seat].name == "dee"
    assert "took bob's seat" in current_message(env, channel, offer.response.id).content
    # she sees the seat's hand as it is now: the cards bob held, and she may play only those
    assert table.engine.view(bob_seat)["hand"] == hand and set(panel_moves(panel)) <= set(hand)

    # one press plays on
    before = table.engine.action_count
    played = await dee.click(panel, custom_id=next(iter(panel_moves(panel).values())))
    assert warning_of(played) is None and table.engine.action_count == before + 1
    assert table.record.actions[before][0] == bob_seat

    # bob lost the seat's view at once: his live panel is closed, an older copy and My hand refuse him
    closed = current_message(env, channel, live.id)
    assert "plays this seat now" in closed.content and not move_ids(closed)
    assert move_ids(stale), "the older copy still carries buttons"
    refused = await bob.click(stale, custom_id=move_ids(stale)[0])
    assert "not playing at this table" in (refused.response.content or message_text(refused.response))
    assert "not playing at this table" in refusal(
        await bob.click(table_message(channel, env.bot.user.id), label="My hand")
    )
    # dee's spectator view stopped (it may have shown hands players let spectators see)
    assert "You play bob's seat now" in current_message(env, channel, watched.response.id).content
    assert "dee, who plays it from now on" in message_text(table_message(channel, env.bot.user.id))

    # the game ends: the seat's result, rating and history are dee's; the history names bob too
    await OhHellDriver(env, channel, {ann.id: ann, cat.id: cat, dee.id: dee}, seed=3).play_to_end()
    results = await env.bot.store.results(table.id)
    assert {r.user_id for r in results} == {ann.id, cat.id, dee.id}
    rated = {r.identity for r in await env.bot.store.ratings(guild.id, "ohhell")}
    assert f"u:{dee.id}" in rated and f"u:{bob.id}" not in rated
    history = message_text((await cat.slash(channel, "ohhell history")).response)
    assert re.search(r"dee \(took over from bob\)", history), history


async def test_the_host_hands_an_absent_players_seat_and_a_restart_keeps_it(simcord_env, db_path):
    from tests.helpers import make_bot

    env = simcord_env
    guild, channel, p, table = await _table(env)
    ann, bob, cat, dee = p["ann"], p["bob"], p["cat"], p["dee"]
    bob_seat = table.seat_of(bob.id)
    # only the seat's player hands a seat being played; the host may hand an absent player's
    assert "only they can hand it over" in refusal(await ann.slash(channel, "ohhell handover", member=dee, player=bob))
    assert "Only the host" in refusal(await cat.slash(channel, "ohhell handover", member=dee, player=bob))
    await bob.slash(channel, "ohhell leave")  # away: the computer plays his seat
    assert table.seats[bob_seat].ai_level is not None
    offer = await ann.slash(channel, "ohhell handover", member=dee, player=bob)
    assert not offer.ephemeral and "bob's seat" in offer.response.content

    # the bot restarts before dee answers: the offer and the seat survive it
    await env.bot.close()
    await env.restart_bot(make_bot(db_path))
    taken = await dee.click(offer.response, label="Take the seat")
    assert taken.ephemeral and "not playing" not in (taken.response.content or ""), taken.response.content
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert table.seats[bob_seat].user_id == dee.id and table.seats[bob_seat].ai_level is None
    assert "Take my seat back" not in str(table_message(channel, env.bot.user.id).components)
    assert "not playing at this table" in refusal(await bob.slash(channel, "ohhell back"))

    # restarted again: dee is still in the seat and her buttons work
    await env.bot.close()
    await env.restart_bot(make_bot(db_path))
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert table.seats[bob_seat].user_id == dee.id
    await OhHellDriver(env, channel, {ann.id: ann, cat.id: cat, dee.id: dee}, seed=4).play_to_end()
    assert dee.id in {r.user_id for r in await env.bot.store.results(table.id)}
    assert [(h.from_user, h.to_user, h.by_user) for h in await env.bot.store.seat_handovers([table.id])] == [
        (bob.id, dee.id, ann.id)
    ]


async def test_a_host_who_hands_their_seat_hands_the_host_too_and_an_offer_lapses(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby_channel = guild.create_text_channel("lobby")
    host = guild.add_member(env.create_user("host"))
    guest = guild.add_member(env.create_user("guest"))
    await host.slash(lobby_channel, "ohhell new")
    assert "has not started" in refusal(await host.slash(lobby_channel, "ohhell handover", member=guest))
    guild, channel, p, table = await _table(env, spectators=("dee", "eve"))
    ann, bob, dee, eve = p["ann"], p["bob"], p["dee"], p["eve"]
    first = await ann.slash(channel, "ohhell handover", member=dee)
    second = await ann.slash(channel, "ohhell handover", member=eve)
    assert "already at this table" in refusal(await ann.slash(channel, "ohhell handover", member=bob))
    await dee.click(first.response, label="Take the seat")
    assert table.record.host_id == dee.id
    assert "lapsed" in refusal(await eve.click(second.response, label="Take the seat"))
    assert refusal(await dee.slash(channel, "ohhell end")).startswith("End game #")  # she is the host now
    assert "Only the host" in refusal(await ann.slash(channel, "ohhell end"))
    # declining an offer takes its buttons away
    third = await bob.slash(channel, "ohhell handover", member=eve)
    assert "can decline it" in refusal(await ann.click(third.response, label="Decline"))
    await eve.click(third.response, label="Decline")
    assert "declined" in current_message(env, channel, third.response.id).content


async def test_a_watcher_of_another_table_of_the_match_may_not_take_a_seat(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    first, second = guild.create_text_channel("cards"), guild.create_text_channel("more-cards")
    ann, bob, cy, dee = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy", "dee"))
    opened = await ann.slash(first, "ohhell duplicate new", tables=2)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    for option, value in SHORT.items():
        await ann.slash(first, "ohhell set", option=option, value=value)
    for _ in range(2):
        await ann.click(opened.response, label="Add computer")
    joined = await bob.slash(second, "ohhell duplicate join", code=code)
    await cy.click(joined.response, label="Join")
    await bob.click(joined.response, label="Add computer")
    assert not (await ann.click(opened.response, label="Start")).ephemeral
    assert not (await bob.click(joined.response, label="Start")).ephemeral
    table_b = env.bot.tables.in_channel(second.id)
    # dee watches table A: she has seen the match's cards
    assert (await dee.click(table_message(first, env.bot.user.id), label="Watch")).ephemeral
    refused = refusal(await bob.slash(second, "ohhell handover", member=dee))
    assert "watched a table of this duplicate match" in refused
    # ann plays at table A: she may not take a seat at B either
    assert "another table of this duplicate match" in refusal(await bob.slash(second, "ohhell handover", member=ann))
    assert table_b.seat_of(bob.id) is not None and table_b.seat_of(dee.id) is None
    # bob hands his seat at B on: he has seen B's cards, so he may not sit at A's side later
    eve = guild.add_member(env.create_user("eve"))
    offer = await bob.slash(second, "ohhell handover", member=eve)
    assert (await eve.click(offer.response, label="Take the seat")).ephemeral
    assert bob.id in await env.bot.store.match_watchers(table_b.record.match_id)


async def test_a_shithead_seat_is_handed_over_the_same_way(simcord_env):
    from tests.helpers import ShitheadDriver

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, dee = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "dee"))
    await open_table(env, channel, ann, [bob], command="shithead")
    table = env.bot.tables.in_channel(channel.id, "shithead")
    seat = table.seat_of(bob.id)
    offer = await bob.slash(channel, "shithead handover", member=dee)
    assert not offer.ephemeral and "Take the seat" in offer_buttons(offer)
    taken = await dee.click(offer.response, label="Take the seat")
    assert taken.ephemeral and "My cards" not in (taken.response.content or ""), taken.response.content
    controls = [c.get("custom_id") or "" for c in walk_components(taken.response.components)]
    assert any(c.startswith(PANEL_CONTROLS) for c in controls), f"her answer is the seat's panel: {controls}"
    assert table.seats[seat].user_id == dee.id
    refused = await bob.click(table_message(channel, env.bot.user.id), label="My cards")
    assert "not playing at this table" in refusal(refused)
    await ShitheadDriver(env, channel, {ann.id: ann, dee.id: dee}).play_to_end()
    assert {r.user_id for r in await env.bot.store.results(table.id)} == {ann.id, dee.id}


async def test_a_seat_handed_over_by_another_process_closes_the_old_panel_here(simcord_env):
    """Sharded, the hand-over may be stored by another process: re-reading the game here closes
    the old player's panel, which would otherwise be redrawn with the seat's hand."""
    from db.records import SeatHandover, SeatRecord

    env = simcord_env
    guild, channel, p, table = await _table(env)
    bob, dee = p["bob"], p["dee"]
    seat = table.seat_of(bob.id)
    live = await open_hand(bob, channel, env.bot.user.id)
    handover = SeatHandover(table.id, seat, len(table.record.actions), bob.id, "bob", dee.id, "dee", bob.id)
    await env.bot.store.hand_over_seat(handover, SeatRecord(seat, dee.id, "dee"))  # (as another process)
    async with table.lock:
        assert await env.bot.tables.reread(table)
    assert table.seats[seat].user_id == dee.id
    closed = current_message(env, channel, live.id)
    assert "plays this seat now" in closed.content and not move_ids(closed)
    assert (table.id, seat) not in env.bot.tables.presenter.panels.open
