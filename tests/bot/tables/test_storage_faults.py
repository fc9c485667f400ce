"""The disk fills up mid-game, as a player sees it: the write of the move
pressed on their panel fails at BEGIN or at COMMIT; they are told plainly that it was not saved,
the table still shows (and the bot still holds) the last saved state, no traceback is logged, and
once there is room again the same press on the same panel counts."""

from __future__ import annotations

import logging

import pytest

from games.ohhell.game import OhHell
from tests.faults import DiskFull
from tests.helpers import open_hand, open_table, panel_moves, press, table_message, warning_of

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


@pytest.mark.parametrize("statement", ["BEGIN", "COMMIT"])
async def test_a_full_disk_tells_the_player_their_move_was_not_saved(simcord_env, statement, monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], options=SHORT)
    table = env.bot.tables.in_channel(channel.id)
    store = env.bot.store
    seat = table.engine.to_act()[0]
    actor = next(p for p in people if p.id == table.seats[seat].user_id)
    board = table_message(channel, env.bot.user.id)
    before = (board.content, [e.to_dict() for e in board.embeds])
    panel = await open_hand(actor, channel, env.bot.user.id)
    bid = next(iter(panel_moves(panel)))
    caplog.clear()
    fault = DiskFull(store, statement, monkeypatch)
    failed = await press(actor, panel, bid)
    assert fault.hits == 1
    assert failed.ephemeral, "the table is not touched"
    text = warning_of(failed)
    assert text is not None, "the press was answered as if it counted"
    assert "not saved" in text and "nothing changed" in text and "Something went wrong" not in text
    # The bot holds and shows the last saved state.
    assert table.engine.log == [] and table.engine.to_act() == [seat]
    board = table_message(channel, env.bot.user.id)
    assert (board.content, [e.to_dict() for e in board.embeds]) == before
    assert (await store.get_game(table.id)).actions == []
    assert not [r for r in caplog.records if r.exc_info], "no traceback for a full disk"
    assert any("database or disk is full" in r.getMessage() for r in caplog.records), "one line for the operator"
    # Room again: the player presses the same bid on the same panel and it counts; memory agrees
    # with the disk.
    again = await press(actor, panel, bid)
    assert again.acknowledged and warning_of(again) is None, warning_of(again)
    assert table.engine.log == [(seat, {"type": "bid", "bid": int(bid)})]
    stored = await store.get_game(table.id)
    assert stored.actions == table.engine.log and len(stored.actions) == 1
    replayed = OhHell.replay(table.rules, 3, stored.seed, stored.actions, rng_version=stored.rng_version)
    assert replayed.view(None) == table.engine.view(None)
    assert env.errors == []
