"""Misclick protection as players meet it, through SimCord: ``confirm_cards`` (a card's first
press picks it, the second plays it), taking a card back with the table's consent (asked on the
panel, accepted or refused by each other player with one press, computers accepting), a secret
bid changed until the last bid is in, and a pending take-back across a restart."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import CardBot
from bot.host.settings import Settings
from tests.helpers import (
    for_tests,
    live_panel,
    make_bot,
    message_text,
    open_hand,
    open_table,
    table_message,
    walk_components,
)


def buttons_by_act(panel: Any, act: str) -> list[dict[str, Any]]:
    """The panel's enabled buttons whose custom id's act is ``act`` (``a`` arm, ``p`` play,
    ``b`` bid, ``u`` take back, ``y`` accept, ``n`` refuse or withdraw)."""
    out = []
    for c in walk_components(panel.components):
        custom_id = c.get("custom_id") or ""
        if custom_id.startswith("ohp:") and not c.get("disabled") and custom_id.split(":")[3] == act:
            out.append(c)
    return out


async def click(env, channel, person, act: str, index: int = 0) -> Any:
    panel = live_panel(env, channel, person)
    found = buttons_by_act(panel, act)
    assert found, f"no {act!r} button on the panel:\n{message_text(panel)}"
    result = await person.click(panel, custom_id=found[index]["custom_id"])
    assert result.acknowledged, result
    return result.response


async def table_of(env, options: dict[str, str], names=("ann", "bob", "cat"), computers: int = 0, preset="classic"):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in names]
    await open_table(env, channel, people[0], people[1:], preset=preset, options=options, computers=computers)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    for person in people:
        await open_hand(person, channel, env.bot.user.id)
    return channel, table, by_seat


async def bid_all(env, channel, table, by_seat) -> None:
    """Every person bids through the panel (the first bid offered) until the play starts."""
    while table.engine.view(None)["phase"] == "bidding":
        seat = table.engine.to_act()[0]
        await click(env, channel, by_seat[seat], "b")


def notices(env, channel) -> str:
    return message_text(table_message(channel, env.bot.user.id))


async def test_confirm_cards_a_first_press_picks_a_card_the_second_plays_it(simcord_env):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {"confirm_cards": "on"})
    await bid_all(env, channel, table, by_seat)
    seat = table.engine.to_act()[0]
    person = by_seat[seat]
    moves = table.engine.action_count
    panel = live_panel(env, channel, person)
    assert "press it again to play it" in message_text(panel)
    assert not buttons_by_act(panel, "p"), "no card plays at one press"
    picks = buttons_by_act(panel, "a")
    first, other = picks[0], picks[-1]
    answer = await click(env, channel, person, "a", 0)
    assert table.engine.action_count == moves, "arming is the panel's, never a move"
    armed = buttons_by_act(answer, "p")
    assert [b["custom_id"].split(":")[4] for b in armed] == [first["custom_id"].split(":")[4]]
    assert armed[0]["style"] == 1 and "press again to play" in armed[0]["label"]  # blue, and says so
    # pressing another card picks that one instead
    answer = await click(env, channel, person, "a", -1)  # (the picked one plays now)
    assert [b["custom_id"].split(":")[4] for b in buttons_by_act(answer, "p")] == [other["custom_id"].split(":")[4]]
    assert table.engine.action_count == moves
    card = other["custom_id"].split(":")[4].partition(".")[2]
    await click(env, channel, person, "p")
    assert table.engine.action_count == moves + 1 and table.engine.log[-1] == (seat, {"type": "play", "card": card})


async def test_without_confirm_cards_one_press_plays(simcord_env):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {})
    await bid_all(env, channel, table, by_seat)
    seat = table.engine.to_act()[0]
    panel = live_panel(env, channel, by_seat[seat])
    assert not buttons_by_act(panel, "a") and buttons_by_act(panel, "p")
    moves = table.engine.action_count
    await click(env, channel, by_seat[seat], "p")
    assert table.engine.action_count == moves + 1


async def test_a_card_taken_back_when_everyone_accepts(simcord_env):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {})
    await bid_all(env, channel, table, by_seat)
    seat = table.engine.to_act()[0]
    hand = table.engine.hand(seat)
    await click(env, channel, by_seat[seat], "p")
    card = table.engine.log[-1][1]["card"]
    assert card not in table.engine.hand(seat)
    answer = await click(env, channel, by_seat[seat], "u")  # ↩️ Take back
    assert "waiting for" in message_text(answer) and buttons_by_act(answer, "n")  # (Withdraw)
    assert "asks to take back" in notices(env, channel)
    others = [s for s in by_seat if s != seat]
    for other in others:  # each other player's open panel now asks them
        shown = live_panel(env, channel, by_seat[other])
        assert "asks to take back" in message_text(shown) and buttons_by_act(shown, "y"), message_text(shown)
    await click(env, channel, by_seat[others[0]], "y")
    assert card not in table.engine.hand(seat)  # one acceptance is not enough
    await click(env, channel, by_seat[others[1]], "y")
    assert sorted(table.engine.hand(seat)) == sorted(hand) and table.engine.to_act() == [seat]
    assert "everyone agreed" in notices(env, channel)
    kinds = [a["type"] for _, a in table.engine.log[-4:]]
    assert kinds == ["play", "undo_ask", "undo_accept", "undo_accept"]
    # stored as moves: the record's log is the engine's
    assert [a for _, a in table.record.actions[-4:]] == [dict(a) for _, a in table.engine.log[-4:]]
    # the player's panel offers the cards again
    assert buttons_by_act(live_panel(env, channel, by_seat[seat]), "p")


async def test_a_refusal_ends_the_request_and_the_card_stays(simcord_env):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {})
    await bid_all(env, channel, table, by_seat)
    seat = table.engine.to_act()[0]
    await click(env, channel, by_seat[seat], "p")
    card = table.engine.log[-1][1]["card"]
    await click(env, channel, by_seat[seat], "u")
    other = next(s for s in by_seat if s != seat)
    await click(env, channel, by_seat[other], "n")
    assert card not in table.engine.hand(seat) and table.engine.undo_request() is None
    assert "refused to let" in notices(env, channel)
    assert not buttons_by_act(live_panel(env, channel, by_seat[seat]), "u"), "asked once per card"
    for s in by_seat:
        assert not buttons_by_act(live_panel(env, channel, by_seat[s]), "y")


@pytest.fixture
def simcord_bot(db_path, simcord_bot):  # the conftest's bot is closed at teardown; this one too
    """Computers that wait a minute before each move: time for a person to ask for a card back."""
    yield for_tests(CardBot(Settings(token="test-token", database_path=db_path, ai_delay=60.0)))


async def test_computers_accept_a_take_back(simcord_env):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {}, names=("ann",), computers=2)
    (seat,) = by_seat
    for _ in range(20):
        if table.engine.to_act() == [seat] and table.engine.view(None)["phase"] == "playing":
            break
        if table.engine.to_act() == [seat]:
            await click(env, channel, by_seat[seat], "b")
        else:
            await env.advance_time(61)
    hand = table.engine.hand(seat)
    await click(env, channel, by_seat[seat], "p")
    await click(env, channel, by_seat[seat], "u")
    assert sorted(table.engine.hand(seat)) == sorted(hand) and table.engine.to_act() == [seat]
    assert table.engine.log[-1][1]["type"] == "undo_ask" and sorted(table.engine.log[-1][1]["auto_accept"]) == [
        s for s in range(3) if s != seat
    ]
    assert "everyone agreed" in notices(env, channel) and "accept or refuse" not in notices(env, channel)


async def test_a_pending_take_back_survives_a_restart(simcord_env, db_path):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {})
    await bid_all(env, channel, table, by_seat)
    seat = table.engine.to_act()[0]
    hand = table.engine.hand(seat)
    await click(env, channel, by_seat[seat], "p")
    await click(env, channel, by_seat[seat], "u")
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    restored = env.bot.tables.in_channel(channel.id, "ohhell")
    assert restored is not table and restored.engine.undo_request() is not None
    for other in [s for s in by_seat if s != seat]:
        await click(env, channel, by_seat[other], "y")  # the panels kept across the restart
    assert sorted(restored.engine.hand(seat)) == sorted(hand) and restored.engine.to_act() == [seat]


async def test_a_secret_bid_is_changed_on_the_panel_until_the_last_bid(simcord_env):
    env = simcord_env
    channel, table, by_seat = await table_of(env, {}, preset="oh-shit")
    first, second, third = sorted(by_seat)
    panel = live_panel(env, channel, by_seat[first])
    bids = buttons_by_act(panel, "b")
    await click(env, channel, by_seat[first], "b", len(bids) - 1)  # the highest
    answer = live_panel(env, channel, by_seat[first])
    assert "Change it until the last bid is in" in message_text(answer), message_text(answer)
    await click(env, channel, by_seat[first], "b", 0)  # changed to 0
    assert table.engine.bidding.bids[first] == 0
    assert "changed their secret bid" in notices(env, channel)
    assert table.engine.view(second)["bids"][first] is None, "still secret"
    await click(env, channel, by_seat[second], "b")
    await click(env, channel, by_seat[third], "b")
    assert table.engine.view(None)["phase"] == "playing" and table.engine.view(None)["bids"][first] == 0
    assert not buttons_by_act(live_panel(env, channel, by_seat[first]), "b"), "no change once all are in"


async def ann_plays_and_takes_back(env, channel, table, ann) -> str:
    """``ann`` bids and plays through her panel (computers, a minute a move, moved on by the
    clock) until her first card, then takes it back: the computers accept at once."""
    (seat,) = [s for s in range(len(table.seats)) if table.seats[s].user_id == ann.id]
    await open_hand(ann, channel, env.bot.user.id)
    for _ in range(40):
        engine = table.engine
        playing = engine.view(None)["phase"] == "playing"
        if engine.to_act() == [seat] and playing and len(engine.tricks.cards) < len(table.seats) - 1:
            break  # (the trick's last card closes it: nothing to take back)
        if engine.to_act() == [seat]:
            await click(env, channel, ann, "p" if playing else "b")
        else:
            await env.advance_time(61)
    await click(env, channel, ann, "p")
    card = table.engine.log[-1][1]["card"]
    await click(env, channel, ann, "u")
    assert table.engine.log[-1][1]["type"] == "undo_ask" and card in table.engine.hand(seat)
    return card


async def test_a_take_back_at_one_duplicate_table_changes_no_other_tables_cards_and_verifies(simcord_env):
    """A duplicate match: at one table a card is taken back; both tables still play the same deck
    orders deal by deal, and the table with the take-back verifies (its shuffle file replays the
    stored moves, the take-back among them)."""
    import dataclasses

    from tests.cogs.fairness.test_duplicate import SHORT, _lobby, _two_rooms
    from tests.helpers import OhHellDriver

    env = simcord_env
    _, first, second, ann, bob = _two_rooms(env)
    opened = await _lobby(env, ann, first, "ohhell duplicate new", tables=2)
    code = opened.followups[-1].content.split("**")[1]
    for option, value in SHORT.items():
        await ann.slash(first, "ohhell set", option=option, value=value)
    for _ in range(2):
        await ann.click(opened.response, label="Add computer")
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    for _ in range(2):
        await bob.click(joined.response, label="Add computer")
    assert not (await ann.click(opened.response, label="Start")).ephemeral
    table_a = env.bot.tables.in_channel(first.id)
    await ann_plays_and_takes_back(env, first, table_a, ann)
    tables = env.bot.tables
    tables.settings = dataclasses.replace(tables.settings, ai_delay=0.0)  # the rest at full speed
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    assert not (await bob.click(joined.response, label="Start")).ephemeral
    table_b = env.bot.tables.in_channel(second.id)
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    store = env.bot.store
    deals_a, deals_b = await store.deals(table_a.id), await store.deals(table_b.id)
    common = min(len(deals_a), len(deals_b))
    assert common >= 2 and deals_a[:common] == deals_b[:common]
    assert any(a["type"] == "undo_ask" for _, a in table_a.record.actions)
    verified = await bob.slash(second, "ohhell verify", game=table_a.id)
    reply = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(reply), message_text(reply)


def shithead_buttons(panel: Any, act: str) -> list[dict[str, Any]]:
    return [
        c
        for c in walk_components(panel.components)
        if (c.get("custom_id") or "").split(":")[0] in ("shq", "shb")
        and (c.get("custom_id") or "").split(":")[3] == act
    ]


async def test_shithead_confirm_cards_a_first_press_picks_a_play_the_second_plays_it(simcord_env):
    """Shithead's one-press plays (the green buttons) follow ``confirm_cards`` too."""
    from tests.cogs.shithead.test_games import seat_table

    env = simcord_env
    _, channel, people = await seat_table(env, ["ann", "bob"], 0, options={"confirm_cards": "on"})
    table = env.bot.tables.in_channel(channel.id, "shithead")
    for person in people:
        shown = await person.click(table_message(channel, env.bot.user.id), label="My cards")
        ready = shithead_buttons(shown.response, "ready")
        await person.click(shown.response, custom_id=ready[0]["custom_id"])
    assert table.engine.view(None)["phase"] == "play"
    turn = table.engine.view(None)["turn"]
    person = next(p for p in people if table.seat_of(p.id) == turn)
    panel = live_panel(env, channel, person)
    picks = shithead_buttons(panel, "arm")
    assert picks and not shithead_buttons(panel, "put"), message_text(panel)
    moves = table.engine.action_count
    answer = await person.click(panel, custom_id=picks[0]["custom_id"])
    assert table.engine.action_count == moves, "picking is the panel's, never a move"
    armed = shithead_buttons(answer.response, "put")
    assert len(armed) == 1 and armed[0]["style"] == 1 and "press again to play" in armed[0]["label"]
    assert armed[0]["custom_id"].split(":")[4] == picks[0]["custom_id"].split(":")[4]
    await person.click(answer.response, custom_id=armed[0]["custom_id"])
    assert table.engine.action_count == moves + 1
    assert table.engine.log[-1][1]["cards"] == armed[0]["custom_id"].split(":")[4].split(".")


async def test_a_computer_to_play_waits_while_people_answer_a_take_back(simcord_env):
    """bob asks for his card back; the computer after him accepts at once and does not play on
    (its card would end the request) until ann has answered."""
    env = simcord_env
    channel, table, by_seat = await table_of(env, {}, names=("ann", "bob"), computers=1)
    ann, bob = (by_seat[s] for s in sorted(by_seat))
    bob_seat, computer = table.seat_of(bob.id), next(s for s in range(3) if s not in by_seat)
    assert table.engine.deal.next_seat[bob_seat] == computer
    for _ in range(60):
        engine = table.engine
        playing = engine.view(None)["phase"] == "playing"
        (seat,) = engine.to_act()
        if seat == bob_seat and playing and len(engine.tricks.cards) < 2:
            break
        if seat in by_seat:
            await click(env, channel, by_seat[seat], "p" if playing else "b")
        else:
            await env.advance_time(61)
    await click(env, channel, bob, "p")
    card = table.engine.log[-1][1]["card"]
    await click(env, channel, bob, "u")
    assert table.engine.undo_request() == (bob_seat, card, [table.seat_of(ann.id)])
    moves = table.engine.action_count
    await env.advance_time(600)
    assert table.engine.action_count == moves, "the computer played on"
    await click(env, channel, ann, "y")
    assert card in table.engine.hand(bob_seat) and table.engine.to_act() == [bob_seat]
    await click(env, channel, bob, "p")
    await env.advance_time(61)
    assert table.engine.to_act() != [computer], "after the answer the computer plays again"


async def test_a_picked_card_is_kept_by_the_panel_message_across_a_restart(simcord_env, db_path):
    """Picking is kept in the panel's own buttons (nothing in memory): after a restart the picked
    card's button on the panel still plays it."""
    env = simcord_env
    channel, table, by_seat = await table_of(env, {"confirm_cards": "on"})
    await bid_all(env, channel, table, by_seat)
    seat = table.engine.to_act()[0]
    person = by_seat[seat]
    await click(env, channel, person, "a", 0)
    moves = table.engine.action_count
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    restored = env.bot.tables.in_channel(channel.id, "ohhell")
    assert len(buttons_by_act(live_panel(env, channel, person), "p")) == 1  # still picked
    await click(env, channel, person, "p")
    assert restored.engine.action_count == moves + 1
