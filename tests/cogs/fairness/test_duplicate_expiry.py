"""A duplicate match whose other tables never come closes itself (bot.fairness.match_expiry), as users of
the match see it: the host is told the deadline, the tables it has are compared once they are over
and their shuffles can be checked, a table still playing is waited for, a full match is left to
its tables, a restart keeps the deadline, a host's close first leaves nothing to say, and a match
whose first table could not open leaves nothing behind."""

from __future__ import annotations

import re

import pytest

from bot.fairness import duplicate
from bot.fairness.match_expiry import MatchExpiry
from bot.host import metrics
from bot.host.settings import Settings, SettingsError
from tests.cogs.fairness.test_duplicate import _comparisons, _lobby, _short_match, _start_with_computers, _two_rooms
from tests.helpers import OhHellDriver, make_bot, message_text

DAY = 24 * 3600
#: every match still open with a place free, whatever its deadline (the store's expiry query)
FAR = "9999-12-31T00:00:00Z"


def _closed_itself(channel) -> list[str]:
    return [t for t in (message_text(m) for m in channel.history()) if "closed itself" in t]


async def test_a_match_whose_other_tables_never_open_closes_itself_after_seven_days(simcord_env):
    """ann's table of a two-table match is over and nobody opens the other. Her result was held for
    ever unless she remembered to close the match. The host is told the deadline when she opens it;
    six days on nothing has changed; past the seventh the channel is told the match closed itself,
    the comparison and the shuffle check follow, her game verifies, and nobody may join any more."""
    env = simcord_env
    guild, first, other, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    note = opened.followups[-1].content
    assert re.search(r"If its other tables have not all opened by <t:\d+:f>, it closes with the tables it has", note)
    table = await _start_with_computers(env, ann, opened.response, first)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()

    await env.advance_time(6 * DAY)
    assert _closed_itself(first) == [] and _comparisons(first) == []
    assert (await env.bot.store.match_by_code(code)).closed_at is None
    held = await ann.slash(first, "ohhell verify", game=table.id)
    assert held.ephemeral and "the match's host closes it" in held.response.content, held.response.content

    await env.advance_time(DAY + 3600)
    said = _closed_itself(first)
    assert len(said) == 1, said
    assert re.search(rf"\*\*{code}\*\* closed itself: its other tables did not all open by <t:\d+:f>", said[0]), said[0]
    assert "its one table of 2" in said[0] and "Every table has finished" in said[0], said[0]
    assert len(_comparisons(first)) == 1
    texts = [message_text(m) for m in first.history()]
    assert any("shuffle can be checked" in t and "/ohhell verify" in t for t in texts), texts
    verified = await ann.slash(first, "ohhell verify", game=table.id)
    reply = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(reply), message_text(reply)
    late = await bob.slash(other, "ohhell duplicate join", code=code)
    assert late.ephemeral and "closed itself" in late.response.content, late.response.content

    await env.advance_time(3 * DAY)  # later sweeps find nothing more to close or say
    assert len(_closed_itself(first)) == 1 and len(_comparisons(first)) == 1


async def test_a_table_still_playing_when_its_match_expires_is_waited_for_through_a_restart(simcord_env, db_path):
    """A three-table match with two tables open: ann's over, bob's not yet started when the week
    runs out. Both channels are told the match closed itself and waits for bob's game; nothing is
    compared before it ends, the bot restarts in between, and when it ends both channels get the
    comparison of the two tables, once."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=3)
    await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    assert "If its other tables have not all opened by <t:" in joined.followups[-1].content
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    lobby = env.bot.tables.in_channel(second.id)

    await env.advance_time(7 * DAY + 3600)
    for channel in (first, second):
        said = _closed_itself(channel)
        assert len(said) == 1 and f"It is over once game #{lobby.id} ends." in said[0], (channel.name, said)
        assert _comparisons(channel) == []

    old_bot, new_bot = env.bot, make_bot(db_path)
    await env.restart_bot(new_bot)
    await old_bot.close()
    await env.settle()
    table_b = await _start_with_computers(env, bob, joined.response, second)
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    for channel in (first, second):
        assert len(_comparisons(channel)) == 1, channel.name
        assert len(_closed_itself(channel)) == 1, channel.name
    changes = await new_bot.store.rating_changes(guild.id, "ohhell")
    assert table_b.id in {c.game_id for c in changes}


async def test_the_deadline_outlives_a_restart_and_a_full_match_is_left_to_its_tables(simcord_env, db_path):
    """Two matches: ann's waits for its second table across a restart and closes itself on time
    after it; bob's has both its tables open (one still playing), so its deadline passing changes
    nothing: it is over when its tables are, as ever. The operator shortened MATCH_EXPIRY_DAYS to
    2 in the restart: ann's match keeps the deadline it was opened with, and its close names that
    deadline, not the new setting's "2 days" (which it said, wrongly, before)."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    third, fourth = guild.create_text_channel("third"), guild.create_text_channel("fourth")
    opened, code = await _short_match(env, ann, first, tables=2)
    deadline = re.search(r"opened by (<t:\d+:f>)", opened.followups[-1].content)
    assert deadline, opened.followups[-1].content
    await _start_with_computers(env, ann, opened.response, first)
    full, full_code = await _short_match(env, bob, third, tables=2)
    await _start_with_computers(env, bob, full.response, third)
    other = await _lobby(env, ann, fourth, "ohhell duplicate join", code=full_code)
    assert "If its other tables" not in other.followups[-1].content  # the last place: no deadline to meet

    await env.advance_time(3 * DAY)
    old_bot, new_bot = env.bot, make_bot(db_path, match_expiry_days=2)
    await env.restart_bot(new_bot)
    await old_bot.close()
    await env.advance_time(3 * DAY + 3600)
    assert _closed_itself(first) == []  # six days: the match's own deadline is the seventh
    await env.advance_time(DAY)
    said = _closed_itself(first)
    assert len(said) == 1 and f"**{code}**" in said[0], said
    assert f"its other tables did not all open by {deadline.group(1)}" in said[0], said[0]
    assert "2 days" not in said[0], said[0]
    assert _closed_itself(third) == [] and _closed_itself(fourth) == []
    assert (await new_bot.store.match_by_code(full_code)).closed_at is None


async def test_a_match_its_host_closed_first_is_not_closed_again(simcord_env):
    """ann closes her match herself on the sixth day; the sweep past the seventh finds it closed and
    says nothing (it would have told the channel a second time, and wrongly, that it closed itself)."""
    env = simcord_env
    guild, first, other, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    await _start_with_computers(env, ann, opened.response, first)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    await env.advance_time(6 * DAY)
    closed = await ann.slash(first, "ohhell duplicate close", code=code)
    assert f"**{code}** is closed with its one table of 2" in closed.response.content, closed.response.content
    await env.advance_time(2 * DAY)
    assert _closed_itself(first) == [] and len(_comparisons(first)) == 1
    late = await bob.slash(other, "ohhell duplicate join", code=code)
    assert late.ephemeral and "was closed by its host" in late.response.content, late.response.content


async def test_a_match_whose_first_table_cannot_open_leaves_nothing_behind(simcord_env):
    """ann asks for a duplicate match in a channel where a lobby is open: refused, as before, but the
    match was made first and stayed, open for ever, its code never shown to anyone."""
    env = simcord_env
    guild, first, other, ann, bob = _two_rooms(env)
    await _lobby(env, bob, first, "ohhell new")
    refused = await ann.slash(first, "ohhell duplicate new", tables=2)
    assert refused.ephemeral, refused
    assert await env.bot.store.expired_matches(FAR) == []
    opened, code = await _short_match(env, ann, other, tables=2)  # elsewhere it opens as ever
    assert [m.code for m in await env.bot.store.expired_matches(FAR)] == [code]


async def test_with_expiry_off_a_match_waits_for_its_host(simcord_env, db_path, monkeypatch):
    """MATCH_EXPIRY_DAYS=0: no deadline is told or kept; past the default's week the match is
    still open (eight virtual days, not more: each is 72 renewals of the bot's lease to run through)."""
    monkeypatch.setenv("MATCH_EXPIRY_DAYS", "0")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert Settings.from_env().match_expiry_days == 0
    env = simcord_env
    old_bot = env.bot
    bot = make_bot(db_path, match_expiry_days=0.0)
    await env.restart_bot(bot)
    await old_bot.close()
    guild, first, other, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    assert "If its other tables" not in opened.followups[-1].content
    await env.advance_time(8 * DAY)
    assert _closed_itself(first) == []
    assert (await env.bot.store.match_by_code(code)).closed_at is None


@pytest.mark.parametrize("text", ["-1", "soon", "nan", "inf"])
def test_a_wrong_expiry_setting_is_one_sentence(monkeypatch, text):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("MATCH_EXPIRY_DAYS", text)
    with pytest.raises(SettingsError, match="MATCH_EXPIRY_DAYS must be a number of days"):
        Settings.from_env()
    monkeypatch.setenv("MATCH_EXPIRY_DAYS", "2.5")
    assert Settings.from_env().match_expiry_days == 2.5


async def test_a_process_closes_only_the_matches_of_its_own_shards(simcord_env):
    """Sharded, each process sweeps the matches of the servers its shards run (the server the match
    was opened on): another process's sweep leaves ann's match alone, her own shard's closes it once,
    and a second sweep (another process, at the same moment) finds it closed and says nothing."""
    env = simcord_env
    guild, first, other, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    tables = env.bot.tables
    await tables.expiry.close()  # the bot's own sweep stands aside: the two below are the processes
    await env.advance_time(8 * DAY)

    def process(owns_it: bool) -> MatchExpiry:
        return MatchExpiry(tables.store, tables.presenter, tables.kinds, lambda g: owns_it, 7.0, tables.sleep)

    expired = metrics.MATCHES_EXPIRED._value.get()
    assert await process(False).sweep() == 0
    assert (await tables.store.match_by_code(code)).closed_at is None
    assert await process(True).sweep() == 1
    assert metrics.MATCHES_EXPIRED._value.get() == expired + 1  # cardtable_matches_expired_total
    await env.settle()
    assert len(_closed_itself(first)) == 1
    match = await tables.store.match_by_code(code)
    assert not await duplicate.expire(tables.store, tables.presenter, tables.kinds["ohhell"], match)
    await env.settle()
    assert len(_closed_itself(first)) == 1
