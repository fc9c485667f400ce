"""Discord limits edits of messages older than an hour (error 30046): a deal with
turn timers of hours edits its table for days. A table that must change once it is nearly an hour
old is posted again (the old copy closed, as ``/ohhell table`` does), and a 30046 on an edit is a
reason to post it again, never a reason to stop."""

from __future__ import annotations

from tests.bot.messages.test_display import Player, _oh_hell, assert_shows_truth, texts
from tests.helpers import table_message

OLD_EDIT = {"status": 429, "code": 30046, "message": "Maximum number of edits to messages older than 1 hour reached."}


def _edits_of(env, message_id: int, since: int) -> list:
    return [r for r in env.http_requests[since:] if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}")]


async def test_a_table_older_than_an_hour_is_posted_again_not_edited(simcord_env, monkeypatch):
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=0, names=("ann", "bob", "cat"))
    player = Player(env, channel, {p.id: p for p in people}, seed=3)
    await player.step()
    await env.settle()
    old = table_message(channel, env.bot.user.id)
    await env.advance_time(3700)  # play-by-post: the next move comes after more than an hour
    since = len(env.http_requests)
    await player.step()
    await env.settle()
    new = table_message(channel, env.bot.user.id)
    assert new.id != old.id, "the table was posted again"
    assert table.record.message_id == new.id
    # the old copy was edited once only, to lose its controls and point below
    closing = _edits_of(env, old.id, since)
    assert len(closing) == 1, closing
    old_now = next(m for m in channel.history() if m.id == old.id)
    assert not old_now.components and "moved below" in old_now.content
    assert_shows_truth(channel, table)
    await player.play_to_end()
    assert env.errors == []


async def test_30046_on_an_edit_posts_the_table_again(simcord_env, monkeypatch):
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=0, names=("ann", "bob", "cat"))
    player = Player(env, channel, {p.id: p for p in people}, seed=3)
    await player.step()
    await env.settle()
    old = table_message(channel, env.bot.user.id)
    # every edit of that message is refused from now on (its old copy can only be deleted)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/{old.id}", times=None, **OLD_EDIT)
    await player.step()
    await env.settle()
    new = table_message(channel, env.bot.user.id)
    assert new.id != old.id and table.record.message_id == new.id
    assert_shows_truth(channel, table)
    assert old.id not in [m.id for m in channel.history()], "the old copy, which cannot be edited, is deleted"
    assert not any("keeps failing" in t for t in texts(channel))
    await player.play_to_end()
    assert not any("keeps failing" in t for t in texts(channel))
    assert env.errors == []


async def test_an_old_lobby_is_still_edited_in_place(simcord_env):
    """Only a game in play moves below: a lobby open for hours stays where people found it."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    lobby = (await ann.slash(channel, "ohhell new")).response
    await env.advance_time(3700)
    await ann.slash(channel, "ohhell set", option="hook", value="off")
    await env.settle()
    assert [m.id for m in channel.history() if m.author.id == env.bot.user.id and m.embeds] == [lobby.id]
    joined = await bob.click(next(m for m in channel.history() if m.id == lobby.id), label="Join")
    assert joined.acknowledged
    assert env.errors == []
