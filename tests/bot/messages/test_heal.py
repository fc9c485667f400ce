"""The gaps a self-healing display can leave, closed: old copies still to close survive a
restart, the lobby's own edits heal like the table's, a store that fails after a commit is never
answered "nothing changed", a rate limit waits as long as Discord says, and a restart finishes a
table edit the stopped bot had not made."""

from __future__ import annotations

import asyncio
import fnmatch
from typing import Any

import discord
import pytest
from simcord.http import router

from db.errors import StoreError
from tests.bot.messages.test_display import (
    UNTRUE,
    Player,
    _last_trick,
    _oh_hell,
    assert_shows_truth,
    inject,
    shown,
    texts,
)
from tests.helpers import make_bot, message_text, table_message


def controls(channel, message_id: int) -> list:
    return next(m for m in channel.history() if m.id == message_id).components


async def restart(env, db_path: str):
    """A graceful stop (what a stop leaves undone is saved), then a new bot on the same database."""
    old = env.bot
    await old.close()
    await env.restart_bot(make_bot(db_path))
    await env.settle()
    return env.bot


# -- old copies still to close survive a restart ------------------------------------------------


async def written(env: Any) -> None:
    """What the bot noted about the channel is written, as the next move's write (or a stop) does."""
    notes = env.bot.tables.presenter.take_notes()
    if notes is not None:
        await env.bot.store.write_notes(notes)


async def test_a_copy_replaced_by_table_command_closes_after_a_restart(simcord_env, monkeypatch, db_path):
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    old = table_message(channel, env.bot.user.id)
    # Closing the old copy fails (Discord errors) until the bot stops.
    fault = inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/{old.id}", 1000)
    again = await people[1].slash(channel, "ohhell table")
    assert "again" in again.response.content
    assert controls(channel, old.id), "the old copy still has its buttons (its close failed)"
    fault[0] = 0
    await restart(env, db_path)
    await env.advance_time(2)
    await env.settle()
    old_now = next(m for m in channel.history() if m.id == old.id)
    assert not old_now.components and "moved below" in old_now.content
    table = env.bot.tables.in_channel(channel.id)
    assert_shows_truth(channel, table)
    await written(env)
    assert await env.bot.store.old_copies() == []
    await Player(env, channel, {p.id: p for p in people}, seed=4).play_to_end()
    assert env.errors == []


async def test_a_finished_deals_table_closes_after_a_restart(simcord_env, monkeypatch, db_path):
    """A deal's table whose close failed keeps its buttons until the stop; the restarted bot
    closes it with the deal's result, and the game goes on."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    player = Player(env, channel, {p.id: p for p in people}, seed=3)
    while not (table.engine.view(None)["deal"] == 1 and _last_trick(table)):
        await player.step()
    deal1 = table.record.message_id
    fault = inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/{deal1}", 1000)
    while table.engine.view(None)["deal"] == 1:
        # The last card may come from the table's own answer (which would close it): that fails too.
        player.before_press = lambda: inject(env, monkeypatch, "500", "POST", "/interactions/*/callback")
        await player.step()
    await env.settle()
    fault[0] = 0
    assert controls(channel, deal1), "deal 1's table still has its buttons (its close failed)"
    assert len(await env.bot.store.old_copies()) == 1, "saved before its edit was tried"
    await restart(env, db_path)
    await env.advance_time(2)
    await env.settle()
    closed = next(m for m in channel.history() if m.id == deal1)
    assert not closed.components
    assert "deal 1" in message_text(closed).lower() and "your bid" not in message_text(closed)
    await written(env)
    assert await env.bot.store.old_copies() == []
    table = env.bot.tables.in_channel(channel.id)
    assert_shows_truth(channel, table)
    await Player(env, channel, {p.id: p for p in people}, seed=5).play_to_end()
    assert not any(u in t for t in texts(channel) for u in UNTRUE)
    assert env.errors == []


async def test_a_finished_games_last_table_closes_after_a_restart(simcord_env, monkeypatch, db_path):
    """The game ends; closing its last table fails until the stop: the restarted bot closes it
    (the game is not live any more: only its display is rebuilt)."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    player = Player(env, channel, {p.id: p for p in people}, seed=5)
    while not (table.engine.view(None)["deal"] == 2 and _last_trick(table)):
        await player.step()
    last = table.record.message_id
    fault = inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/{last}", 1000)
    while env.bot.tables.in_channel(channel.id) is not None:
        player.before_press = lambda: inject(env, monkeypatch, "500", "POST", "/interactions/*/callback")
        await player.step()
    await env.advance_time(6)
    await env.settle()
    assert "Game over" in channel.last_message.content
    assert controls(channel, last), "the last table still has its buttons (its close failed)"
    fault[0] = 0
    await restart(env, db_path)
    await env.advance_time(2)
    await env.settle()
    assert not controls(channel, last)
    await written(env)
    assert await env.bot.store.old_copies() == []
    assert sum("Game over" in t for t in texts(channel)) == 1
    assert env.errors == []


# -- the lobby's own edits go through the display -------------------------------------------------
@pytest.mark.parametrize("fault", ["500", "403", "timeout"])
async def test_a_failed_lobby_edit_heals_by_itself(simcord_env, monkeypatch, fault):
    env = simcord_env
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)  # past the settle time: the virtual clock waits
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    lobby = (await ann.slash(channel, "ohhell new", preset="classic")).response
    await bob.click(lobby, label="Join")
    failing = inject(env, monkeypatch, fault, "PATCH", f"/channels/{channel.id}/messages/{lobby.id}", 1000)
    answers = []
    for option, value in (("fixed_hands", "3,2"), ("sequence", "fixed")):
        answer = await ann.slash(channel, "ohhell set", option=option, value=value)
        answers += [m.content or "" for m in [answer.response, *answer.followups] if m is not None]
    left = await bob.slash(channel, "ohhell leave")
    answers += [m.content or "" for m in [left.response, *left.followups] if m is not None]
    assert sum("✅" in a for a in answers) == 2 and "You left the table." in answers, answers
    assert not any(u in a for a in answers for u in UNTRUE), answers
    await env.advance_time(40)
    await env.settle()
    if fault == "403":
        told = [t for t in texts(channel) if "permission" in t]
        assert len(told) == 1 and "**View Channel and Read Message History**" in told[0], told
        assert "/ohhell table" not in told[0], "a lobby has no /ohhell table to type"
    failing[0] = 0
    await env.advance_time(400)
    await env.settle()
    now = message_text(next(m for m in channel.history() if m.id == lobby.id))
    assert "3,2" in now or "3, 2" in now, now
    assert "bob" not in now.lower(), "bob's leaving shows"
    assert env.errors == []


async def test_a_cancelled_lobby_is_not_put_back_by_a_pending_edit(simcord_env, monkeypatch):
    env = simcord_env
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    lobby = (await ann.slash(channel, "ohhell new", preset="classic")).response
    inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/{lobby.id}")
    await ann.slash(channel, "ohhell set", option="sequence", value="fixed")  # its edit fails
    cancelled = await ann.click(lobby, label="Cancel")
    assert cancelled.acknowledged
    await env.advance_time(60)
    await env.settle()
    now = next(m for m in channel.history() if m.id == lobby.id)
    assert "closed" in message_text(now) and not now.components
    assert env.errors == []


# -- a store failing after a commit: the answer says what stands ---------------------------------
def fail_once(monkeypatch, store, name: str) -> list[int]:
    real = getattr(store, name)
    calls = [0]

    async def failing(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise StoreError("database or disk is full")
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, name, failing)
    return calls


async def test_start_whose_table_message_is_not_saved_says_the_game_started(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    lobby = (await ann.slash(channel, "ohhell new", preset="classic")).response
    await bob.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    said = [message_text(m) for m in [started.response, *started.followups] if m is not None]
    said.append(message_text(next(m for m in channel.history() if m.id == lobby.id)))
    assert not any(u in s for s in said for u in (*UNTRUE, "not saved")), said
    assert "the table is below" in said[-1], said
    table = env.bot.tables.in_channel(channel.id)
    await env.advance_time(10)
    await env.settle()
    # (the table's message is noted, written with the first move: :class:`db.records.MessageNotes`)
    assert env.bot.tables.presenter.notes.messages[table.id][0] == table.record.message_id
    await written(env)
    assert (await env.bot.store.get_game(table.id)).message_id == table.record.message_id
    assert_shows_truth(channel, table)
    assert env.errors == []


async def test_new_lobby_whose_message_is_not_saved_is_open(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    calls = fail_once(monkeypatch, env.bot.store, "set_message")
    opened = await ann.slash(channel, "ohhell new", preset="classic")
    said = [message_text(m) for m in [opened.response, *opened.followups] if m is not None]
    assert not any(u in s for s in said for u in (*UNTRUE, "not saved")), said
    joined = await bob.click(opened.response, label="Join")
    assert joined.acknowledged and not joined.ephemeral
    await env.advance_time(10)
    await env.settle()
    table = env.bot.tables.in_channel(channel.id)
    assert calls[0] >= 2 and (await env.bot.store.get_game(table.id)).message_id == opened.response.id
    assert env.errors == []


async def test_a_failure_after_a_move_is_committed_says_the_move_stands(simcord_env, monkeypatch):
    """Whatever fails after the commit (here the store, on the next write the move leads to), the
    player is told their move was saved, never "not saved… nothing changed"."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=0, names=("ann", "bob", "cat"))
    player = Player(env, channel, {p.id: p for p in people}, seed=1)
    moves = len(table.engine.log)
    clock = env.bot.tables.clock
    real_kick = clock.kick

    def kick(t):  # the first write after the commit fails
        clock.kick = real_kick
        raise StoreError("database or disk is full")

    player.before_press = lambda: setattr(clock, "kick", kick)
    await player.step()
    assert len(table.engine.log) == moves + 1
    assert (await env.bot.store.get_game(table.id)).actions == table.engine.log
    # The press's answer (the panel, showing the move) and a word that it was saved and stands
    assert any("saved and stands" in a for a in player.answers), player.answers
    assert not any(u in a for a in player.answers for u in (*UNTRUE, "not saved")), player.answers
    await player.play_to_end()
    assert env.errors == []


# -- a rate limit waits as long as Discord says ---------------------------------------------------
class _Limited:
    status = 429
    reason = "Too Many Requests"

    def __init__(self, retry_after: float) -> None:
        self.headers = {"Retry-After": str(retry_after)}


@pytest.mark.parametrize("how", ["header", "RateLimited"])
async def test_a_rate_limited_edit_waits_retry_after(simcord_env, monkeypatch, how):
    """A 429 on the table edit after a computer's move (as discord.py raises it once its own
    retries give up: an HTTPException with the Retry-After header, or RateLimited): the next try
    comes ``retry_after`` seconds later, not after the fixed backoff."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=2, names=("ann",))
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)
    player = Player(env, channel, {people[0].id: people[0]}, seed=1)
    while not any(table.seats[s].ai_level is None for s in table.engine.to_act()):
        await player.step()
    loop = asyncio.get_running_loop()
    tries: list[float] = []
    left = [1]
    real = router.dispatch
    path = f"/channels/{channel.id}/messages/*"

    def dispatch(backend, m: str, p: str, **kwargs: Any) -> Any:
        if m == "PATCH" and fnmatch.fnmatch(p, path):
            tries.append(loop.time())
            if left[0]:
                left[0] -= 1
                if how == "RateLimited":
                    raise discord.RateLimited(17.0)
                raise discord.HTTPException(_Limited(17.0), {"code": 0, "message": "You are being rate limited."})  # type: ignore[arg-type]
        return real(backend, m, p, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    # Open the form now (before the fault is armed, no table edit yet), then bid: the computers answer
    # by REST edits, the first of which is limited.
    player.before_press = lambda: tries.clear()
    await player.step()
    await env.settle()
    assert len(tries) == 1, tries
    await env.advance_time(16)
    await env.settle()
    assert len(tries) == 1, "not before Discord's retry_after"
    await env.advance_time(2)
    await env.settle()
    assert len(tries) == 2, tries
    assert tries[1] - tries[0] == pytest.approx(17.0, abs=0.1), tries
    assert_shows_truth(channel, table)
    assert env.errors == []


# -- a restart finishes a table edit the stopped bot had not made ----------------------------------
async def test_a_restart_resumes_a_table_edit_pending_at_the_stop(simcord_env, monkeypatch, db_path):
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=2, names=("ann",))
    player = Player(env, channel, {people[0].id: people[0]}, seed=1)
    while not any(table.seats[s].ai_level is None for s in table.engine.to_act()):
        await player.step()
    inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/*", 1000)
    player.before_press = lambda: inject(env, monkeypatch, "500", "POST", "/interactions/*/callback")
    await player.step()  # ann's answer fails, and every edit after it
    await env.settle()
    truth = table.kind.table(table, [])
    truth.view.stop()
    assert shown(channel, table).content != truth.content or shown(channel, table).embeds[0].to_dict() != (
        truth.embeds[0].to_dict()
    ), "the channel lags behind the game at the stop"
    old = env.bot
    await old.close()
    monkeypatch.setattr(router, "dispatch", _real_dispatch)  # Discord works again
    await env.restart_bot(make_bot(db_path))
    await env.settle()
    table = env.bot.tables.in_channel(channel.id)
    assert_shows_truth(channel, table)
    await Player(env, channel, {people[0].id: people[0]}, seed=2).play_to_end()
    assert "Game over" in channel.last_message.content
    assert env.errors == []


_real_dispatch = router.dispatch


@pytest.mark.parametrize("button", ["Join", "Cancel"])
async def test_a_lobby_click_whose_answer_fails_is_told_the_truth(simcord_env, monkeypatch, button):
    """The click's change is saved; its answer (which redraws the lobby) fails: the player is not
    told "nothing was changed", and the lobby message catches up by itself."""
    env = simcord_env
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    lobby = (await ann.slash(channel, "ohhell new", preset="classic")).response
    inject(env, monkeypatch, "500", "POST", "/interactions/*/callback")
    clicked = await (bob if button == "Join" else ann).click(lobby, label=button)
    said = [m.content or "" for m in [clicked.response, *clicked.followups] if m is not None]
    assert not any(u in s for s in said for u in UNTRUE), said
    await env.advance_time(10)
    await env.settle()
    now = next(m for m in channel.history() if m.id == lobby.id)
    if button == "Join":
        assert "bob" in message_text(now), message_text(now)
        assert env.bot.tables.in_channel(channel.id).seat_of(bob.id) is not None
    else:
        assert "closed" in message_text(now) and not now.components
        assert env.bot.tables.in_channel(channel.id) is None
    assert env.errors == []
