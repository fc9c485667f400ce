"""A duplicate match through the real bot: two tables in two channels play the same deck orders
with the same rules, seat for seat; the shared seed stays secret until both are over; a player of
one table cannot watch the other; and the comparison's numbers are the stored scores."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.helpers import OhHellDriver, make_bot, message_text, table_message

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def _lobby(env, member, channel, command: str, **kwargs):
    result = await member.slash(channel, command, **kwargs)
    assert result.response is not None and not result.ephemeral, result
    return result


def _two_rooms(env):
    """A server with two channels for two tables, and ann and bob on it: (guild, cards, more-cards, ann, bob)."""
    guild = env.create_guild()
    first, second = guild.create_text_channel("cards"), guild.create_text_channel("more-cards")
    return guild, first, second, guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("bob"))


async def _short_match(env, host, channel, tables: int):
    """``host`` opens a short Oh Hell match of ``tables`` tables in ``channel``: (its first lobby, the code)."""
    opened = await _lobby(env, host, channel, "ohhell duplicate new", tables=tables)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    for option, value in SHORT.items():
        await host.slash(channel, "ohhell set", option=option, value=value)
    return opened, code


async def _start_with_computers(env, member, lobby, channel):
    """Two computers join ``lobby`` and ``member`` starts it: the live table."""
    for _ in range(2):
        await member.click(lobby, label="Add computer")
    assert not (await member.click(lobby, label="Start")).ephemeral
    return env.bot.tables.in_channel(channel.id)


async def test_two_tables_play_the_same_cards_and_compare(simcord_env):
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    bot_id = env.bot.user.id

    opened = await _lobby(env, ann, first, "ohhell duplicate new", tables=2)
    note = opened.followups[-1].content
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", note).group(1)
    assert "table 1 of 2" in note
    for option, value in SHORT.items():
        assert "✅" in (await ann.slash(first, "ohhell set", option=option, value=value)).response.content
    lobby_a = opened.response
    for _ in range(3):
        await ann.click(lobby_a, label="Add computer")

    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code.lower())
    assert "table 2 of 2" in joined.followups[-1].content
    table_b = env.bot.tables.in_channel(second.id)
    assert table_b.record.options == {"fixed_hands": "3,2", "sequence": "fixed"}
    full = await bob.slash(second, "ohhell duplicate join", code=code)
    assert full.ephemeral and ("already" in full.response.content or "All 2" in full.response.content)
    for _ in range(2):
        await bob.click(joined.response, label="Add computer")

    assert not (await ann.click(lobby_a, label="Start")).ephemeral
    table_a = env.bot.tables.in_channel(first.id)
    secret = [str(table_a.record.seed), table_a.record.salt]
    # bob sits at the other table of the match: he may not watch this one
    refused = await bob.click(table_message(first, bot_id), label="Watch")
    assert refused.ephemeral and "duplicate match" in refused.response.content

    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    final_a = first.last_message
    assert "Game over" in final_a.content and "every table of this duplicate match" in final_a.content
    early = await ann.slash(first, "ohhell verify", game=table_a.id)
    assert early.ephemeral and "still playing" in early.response.content

    # the second table must seat as many players as the first did
    refused = await bob.click(joined.response, label="Start")
    assert refused.ephemeral and "seats 4 players" in refused.response.content
    await bob.click(joined.response, label="Add computer")
    assert not (await bob.click(joined.response, label="Start")).ephemeral
    assert table_b.record.commitment == table_a.record.commitment
    for channel in (first, second):  # nothing showed the shared seed while a table still played
        assert not any(s in message_text(m) for m in channel.history() for s in secret)
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()

    store = env.bot.store
    deals_a, deals_b = await store.deals(table_a.id), await store.deals(table_b.id)
    common = min(len(deals_a), len(deals_b))
    assert common >= 2 and deals_a[:common] == deals_b[:common]  # the same decks, deal by deal

    # both channels: the shuffle can be checked now (the seed is in /ohhell verify's answer, not
    # the channel), and the comparison shows the stored numbers
    for channel in (first, second):
        texts = [message_text(m) for m in channel.history()]
        reveals = [t for t in texts if "shuffle can be checked" in t and "/ohhell verify" in t]
        assert reveals, f"no reveal in {channel.name}"
        assert not any(s in t for t in texts for s in secret)
        comparison = next(m for m in channel.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or ""))
        fields = {f.name: f.value for f in comparison.embeds[0].fields}
        # (a table that tied for first played extra deals: those are shown apart, not compared)
        played = [{d.deal for d in await store.deal_scores(r.id)} for r in (table_a, table_b)]
        for record in (table_a, table_b):
            results = {r.seat: r for r in await store.results(record.id)}
            scores = [d for d in await store.deal_scores(record.id) if d.deal in played[0] & played[1]]
            for seat in range(4):
                deltas = ", ".join(f"{d.delta:+d}" for d in scores if d.seat == seat)
                lines = fields[f"Seat {seat + 1}'s cards"].splitlines()
                line = next(x for x in lines if x.startswith(f"#{record.id} "))
                kept = [d.total for d in scores if d.seat == seat][-1]
                assert f"**{kept}**" in line and f"deals {deltas}" in line, line
                if kept != results[seat].total:
                    assert f"total **{results[seat].total}**" in message_text(comparison), line
        assert "Ranking" in " ".join(fields)
    verified = await bob.slash(second, "ohhell verify", game=table_a.id)
    reply = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(reply), message_text(reply)


async def test_a_shithead_duplicate_compares_finishing_places(simcord_env):
    from tests.helpers import ShitheadDriver

    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    opened = await _lobby(env, ann, first, "shithead duplicate new")
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    joined = await _lobby(env, bob, second, "shithead duplicate join", code=code)
    for member, lobby in ((ann, opened.response), (bob, joined.response)):
        for _ in range(2):
            await member.click(lobby, label="Add computer")
    games = []
    for member, lobby, channel in ((ann, opened.response, first), (bob, joined.response, second)):
        assert not (await member.click(lobby, label="Start")).ephemeral
        driver = ShitheadDriver(env, channel, {member.id: member})
        games.append(driver.live.record)
        await driver.play_to_end()
    store = env.bot.store
    assert (await store.deals(games[0].id)) == (await store.deals(games[1].id))
    for channel in (first, second):
        comparison = next(m for m in channel.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or ""))
        fields = {f.name: f.value for f in comparison.embeds[0].fields}
        for record in games:
            for row in await store.results(record.id):
                lines = fields[f"Seat {row.seat + 1}'s cards"].splitlines()
                line = next(x for x in lines if x.startswith(f"#{record.id} "))
                assert f"**{row.place}**" in line, line


async def test_a_tables_result_counts_in_ratings_and_profiles_once_the_whole_match_is_over(simcord_env, db_path):
    """The history holds a duplicate table's result while its match still plays the same cards
    (bot.tables.secrecy's HELD); /cardstats, the leaderboard and the ratings counted it as soon as the
    table finished, so a player still to play could read the other table's outcome there. A table
    counts once every table of its match is over, and then both are rated in finishing order,
    also when the bot restarts between the two tables (its start catches the ratings up)."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    store = env.bot.store

    opened, code = await _short_match(env, ann, first, tables=2)
    table_a = await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    table_b = await _start_with_computers(env, bob, joined.response, second)

    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    finale_a = message_text(first.last_message)
    assert "Game over" in finale_a and "Ratings\n" not in finale_a, finale_a
    assert "the ratings come when every table of this duplicate match has finished" in finale_a
    # bob, still to play the same cards, reads ann's profile and the server's leaderboard
    profile = await bob.slash(second, "cardstats", member=ann)
    assert "No finished games here yet." in message_text(profile.response), message_text(profile.response)
    assert await store.rating_changes(guild.id, "ohhell") == []
    board = await bob.slash(second, "leaderboard", game="ohhell", season="all")
    assert "not ranked yet" not in message_text(board.response), message_text(board.response)

    old_bot, new_bot = env.bot, make_bot(db_path)
    await env.restart_bot(new_bot)
    await old_bot.close()
    store = new_bot.store
    assert await store.rating_changes(guild.id, "ohhell") == []  # the start rated nothing held
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    finale_b = message_text(second.last_message)
    assert "Ratings" in finale_b and "bob:" in finale_b, finale_b
    changes = await store.rating_changes(guild.id, "ohhell")
    assert {c.game_id for c in changes} == {table_a.id, table_b.id}
    assert [c.game_id for c in changes][0] == table_a.id  # rated in finishing order
    profile = await bob.slash(second, "cardstats", member=ann)
    assert "1 played" in message_text(profile.response), message_text(profile.response)


async def test_a_match_whose_other_tables_never_come_is_closed_by_its_host(simcord_env):
    """ann's table of a two-table match is over and nobody opens the other: her result was held
    for ever (unrated, not verifiable, no comparison). Only she, the host (or a manager of the
    server), may close the match with the tables it has; then the comparison and the shuffle check
    come at once, the result counts in the ratings, and no table may join it any more."""
    env = simcord_env
    guild, first, other, ann, bob = _two_rooms(env)
    store = env.bot.store
    opened, code = await _short_match(env, ann, first, tables=2)
    table = await _start_with_computers(env, ann, opened.response, first)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    held = await ann.slash(first, "ohhell verify", game=table.id)
    assert held.ephemeral and "the match's host closes it" in held.response.content, held.response.content

    refused = await bob.slash(first, "ohhell duplicate close", code=code)
    assert refused.ephemeral and "Only the match's host" in refused.response.content
    closed = await ann.slash(first, "ohhell duplicate close", code=code.lower())
    assert not closed.ephemeral, closed.response.content
    said = closed.response.content
    assert f"**{code}** is closed with its one table of 2" in said and "Every table has finished" in said, said
    texts = [message_text(m) for m in first.history()]
    assert any("Duplicate match: one table" in t for t in texts), texts
    assert any("shuffle can be checked" in t and "/ohhell verify" in t for t in texts), texts
    verified = await ann.slash(first, "ohhell verify", game=table.id)
    reply = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(reply), message_text(reply)
    assert await store.rating_changes(guild.id, "ohhell") == []
    board = await bob.slash(first, "leaderboard", game="ohhell", season="all")  # the book catches up
    assert "not ranked yet" in message_text(board.response), message_text(board.response)  # (one game)
    assert {c.game_id for c in await store.rating_changes(guild.id, "ohhell")} == {table.id}

    late = await bob.slash(other, "ohhell duplicate join", code=code)
    assert late.ephemeral and "was closed by its host" in late.response.content
    again = await ann.slash(first, "ohhell duplicate close", code=code)
    assert again.ephemeral and "closed already" in again.response.content


async def test_a_match_closed_while_a_table_plays_is_over_when_that_table_ends(simcord_env, db_path):
    """A three-table match with two tables open, one over and one playing: closed by its host, it
    waits for the playing table (nothing is compared or revealed before), through a restart of the
    bot, and when that table ends both channels get the comparison of the two and both are rated."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=3)
    table_a = await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    table_b = await _start_with_computers(env, bob, joined.response, second)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()

    closed = await ann.slash(first, "ohhell duplicate close", code=code)
    assert "closed with its 2 tables of 3" in closed.response.content, closed.response.content
    assert f"It is over once game #{table_b.id} ends." in closed.response.content
    for channel in (first, second):
        assert not any("Duplicate match:" in message_text(m) for m in channel.history())

    old_bot, new_bot = env.bot, make_bot(db_path)
    await env.restart_bot(new_bot)
    await old_bot.close()
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    for channel in (first, second):
        texts = [message_text(m) for m in channel.history()]
        assert any("Duplicate match: 2 tables played the same cards" in t for t in texts), channel.name
    changes = await new_bot.store.rating_changes(guild.id, "ohhell")
    assert {c.game_id for c in changes} == {table_a.id, table_b.id}


async def test_a_shithead_match_is_closed_the_same_way(simcord_env):
    """/shithead duplicate close: the same rule and command for the other game; its comparison of
    one table lists the finishing places, and its shuffle can be checked at once."""
    from tests.helpers import ShitheadDriver

    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    opened = await _lobby(env, ann, room, "shithead duplicate new")
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    table = await _start_with_computers(env, ann, opened.response, room)
    await ShitheadDriver(env, room, {ann.id: ann}).play_to_end()
    wrong_game = await ann.slash(room, "ohhell duplicate close", code=code)
    assert wrong_game.ephemeral and "There is no Oh Hell duplicate match" in wrong_game.response.content
    closed = await ann.slash(room, "shithead duplicate close", code=code)
    assert "is closed with its one table of 2" in closed.response.content, closed.response.content
    comparison = next(m for m in room.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or ""))
    assert "one table" in comparison.embeds[0].title
    places = {r.seat: r.place for r in await env.bot.store.results(table.id)}
    field = comparison.embeds[0].fields[0]
    assert f"**{places[0]}**" in field.value, field.value
    verified = await ann.slash(room, "shithead verify", game=table.id)
    reply = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(reply), message_text(reply)


async def test_a_manager_of_the_matchs_own_server_may_close_it_and_another_servers_may_not(simcord_env):
    """bob opens a match on ann's server; cat owns another server. ann, who can manage the match's
    server, may close it though she is not its host; cat, a manager elsewhere, may not."""
    env = simcord_env
    ann_user, cat_user = env.create_user("ann"), env.create_user("cat")
    home, away = env.create_guild("A", owner=ann_user), env.create_guild("B", owner=cat_user)
    room, elsewhere = home.create_text_channel("cards"), away.create_text_channel("cards")
    ann, bob, cat = home.add_member(ann_user), home.add_member(env.create_user("bob")), away.add_member(cat_user)
    opened = await _lobby(env, bob, room, "ohhell duplicate new", tables=2)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    refused = await cat.slash(elsewhere, "ohhell duplicate close", code=code)
    assert refused.ephemeral and "Only the match's host" in refused.response.content
    closed = await ann.slash(room, "ohhell duplicate close", code=code)
    assert not closed.ephemeral and "is closed with its one table of 2" in closed.response.content
    lobby = env.bot.tables.in_channel(room.id)
    assert f"It is over once game #{lobby.id} ends." in closed.response.content  # its lobby still to play


async def _two_tables_started(env):
    """ann's two-table match, her table and bob's started: (first, second, ann, bob, the code)."""
    guild, first, second, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    await _start_with_computers(env, bob, joined.response, second)
    return first, second, ann, bob, code


async def _first_of_two_tables_played(env):
    """:func:`_two_tables_started`, and ann's table played to its end."""
    first, second, ann, bob, code = await _two_tables_started(env)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    return first, second, ann, bob, code


def _told_checkable(channel) -> list[str]:
    return [t for t in (message_text(m) for m in channel.history()) if "shuffle can be checked" in t]


def _comparisons(channel) -> list:
    return [m for m in channel.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or "")]


async def test_a_match_whose_tables_all_ended_is_not_closed_again(simcord_env):
    """Both tables of ann's match played to the end and the comparison came: the match is over, so
    /ohhell duplicate close says so and nothing is posted again (it closed it and posted a second
    comparison in both channels)."""
    env = simcord_env
    first, second, ann, bob, code = await _first_of_two_tables_played(env)
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]

    late = await ann.slash(first, "ohhell duplicate close", code=code)
    assert late.ephemeral and "is over already" in late.response.content, late.response.content
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]
    assert (await env.bot.store.match_by_code(code)).closed_at is None


async def test_two_closes_at_the_same_moment_close_once_and_compare_once(simcord_env):
    """The host and a server manager close the same finished table's match at the same moment (or
    the match's last table ends as it is closed): both read it open, but the store closes it for one
    of them only, and only one comparison is posted. SimCord runs one user operation at a time, so
    the two closes race on the seams the command goes through (the store's close, the comparison)."""
    import asyncio

    from bot.fairness import duplicate
    from bot.fairness.shuffles import match_done

    env = simcord_env
    guild, first, other, ann, bob = _two_rooms(env)
    store = env.bot.store
    opened, code = await _short_match(env, ann, first, tables=2)
    await _start_with_computers(env, ann, opened.response, first)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    match = await store.match_by_code(code)

    closes = await asyncio.gather(store.close_match(match.id), store.close_match(match.id))
    assert sum(c is not None for c in closes) == 1, closes  # the other was closed already
    games = await store.match_games(match.id)
    assert match_done(await store.match_by_code(code), games)
    kind = env.bot.tables.kinds["ohhell"]
    presenter = env.bot.tables.presenter
    await asyncio.gather(*(duplicate.finish(store, presenter, kind, games) for _ in range(2)))
    await env.settle()
    assert len(_comparisons(first)) == 1
    # a close through the command afterwards: closed already, nothing posted again
    again = await ann.slash(first, "ohhell duplicate close", code=code)
    assert again.ephemeral and "closed already" in again.response.content, again.response.content
    assert len(_comparisons(first)) == 1


def _stop_before_the_comparison(monkeypatch) -> Callable[[], None]:
    """The process stops as the match's last table ends: nothing of the comparison is claimed or
    posted. Returns what gives the next process the real comparison back."""
    from bot.fairness import duplicate

    real = duplicate.finish

    async def stopped(*args, **kwargs) -> None:
        """The process stops here."""

    monkeypatch.setattr(duplicate, "finish", stopped)
    return lambda: monkeypatch.setattr(duplicate, "finish", real)


async def _restarted(env, db_path):
    """The bot restarted on the same database, settled: the new bot."""
    old_bot, new_bot = env.bot, make_bot(db_path)
    await env.restart_bot(new_bot)
    await old_bot.close()
    await env.settle()
    return new_bot


async def test_a_comparison_lost_to_a_stop_is_posted_after_the_restart(simcord_env, db_path, monkeypatch):
    """The bot stops just after the match's last table ended (its end committed, the comparison not
    yet posted): the match was over for ever without a comparison. The restarted bot finds the
    match over and uncompared, and posts it in both tables' channels, once."""
    env = simcord_env
    first, second, ann, bob, code = await _first_of_two_tables_played(env)
    resume = _stop_before_the_comparison(monkeypatch)
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    assert [len(_comparisons(c)) for c in (first, second)] == [0, 0]

    resume()
    new_bot = await _restarted(env, db_path)
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]
    # each channel is told once that its shuffle can be checked: bob's by his table's own end
    # (before the stop), ann's by the comparison (it told bob's channel a second time)
    assert [len(_told_checkable(c)) for c in (first, second)] == [1, 1]
    assert not await new_bot.store.claim_comparison((await new_bot.store.match_by_code(code)).id)
    await _restarted(env, db_path)  # a second restart finds nothing left to post
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]


async def test_a_table_its_host_ended_is_told_once_when_the_comparison_comes_after_a_restart(
    simcord_env, db_path, monkeypatch
):
    """bob ends his table of the match early (/ohhell end, Confirm) after ann's has played: his
    "Game ended" message says the shuffle can be checked, and the bot stops before the comparison.
    The restarted bot posts the comparison in both channels, and told bob's channel a second time
    that its shuffle can be checked (the store did not know his table's end had said it)."""
    env = simcord_env
    first, second, ann, bob, code = await _first_of_two_tables_played(env)
    resume = _stop_before_the_comparison(monkeypatch)
    asked = await bob.slash(second, "ohhell end")
    confirmed = await bob.click(asked.response, label="Confirm")
    assert "is ended" in confirmed.response.content, confirmed.response.content
    await env.settle()
    # ann's standings held her seed (the match waited for bob's table); bob's "ended" said it
    assert [len(_told_checkable(c)) for c in (first, second)] == [0, 1]
    assert [len(_comparisons(c)) for c in (first, second)] == [0, 0]

    resume()
    await _restarted(env, db_path)
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]
    assert [len(_told_checkable(c)) for c in (first, second)] == [1, 1]


async def test_a_join_that_loses_the_last_place_to_another_leaves_nothing_behind(simcord_env, monkeypatch):
    """cat types /ohhell duplicate join as bob's join takes the match's last place: her command read
    the match with a place free (as if read just before bob's was saved). The store links bob's
    table only; cat is told the match is full, and her channel has no lobby, no table, no message."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    third = guild.create_text_channel("even-more-cards")
    cat = guild.add_member(env.create_user("cat"))
    store = env.bot.store
    opened, code = await _short_match(env, ann, first, tables=2)
    before_bob = await store.match_games((await store.match_by_code(code)).id)
    await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    real = store.match_games

    async def read_before_bob(match_id: int):
        store.match_games = real
        return before_bob

    monkeypatch.setattr(store, "match_games", read_before_bob)
    late = await cat.slash(third, "ohhell duplicate join", code=code)
    assert late.ephemeral and "All 2 tables of that match are open already" in late.response.content, late
    assert env.bot.tables.in_channel(third.id) is None and list(third.history()) == []
    match = await store.match_by_code(code)
    assert [g.channel_id for g in await store.match_games(match.id)] == [first.id, second.id]
    again = await ann.slash(third, "ohhell new")  # the channel is free for another table
    assert not again.ephemeral, again.response.content


async def test_a_cancelled_lobby_gives_its_place_in_the_match_back(simcord_env):
    """bob opens the second table of ann's two-table match, then presses Cancel: his lobby never
    played. It kept the match's last place (cat could not open a table) and counted as one of the
    match's tables, so the match was over with an empty table once ann's ended. The place is free
    again: cat opens the second table, and the comparison waits for it."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    third = guild.create_text_channel("even-more-cards")
    cat = guild.add_member(env.create_user("cat"))
    opened, code = await _short_match(env, ann, first, tables=2)
    await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    cancelled = await bob.click(joined.response, label="Cancel")
    assert not cancelled.ephemeral, cancelled
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    assert len(_comparisons(first)) == 0  # one table of two has played
    late = await _lobby(env, cat, third, "ohhell duplicate join", code=code)
    assert "table 2 of 2" in late.followups[-1].content, late.followups[-1].content
    await _start_with_computers(env, cat, late.response, third)
    await OhHellDriver(env, third, {cat.id: cat}, seed=6).play_to_end()
    assert [len(_comparisons(c)) for c in (first, second, third)] == [1, 0, 1]


async def test_a_closed_match_whose_waiting_lobby_is_cancelled_is_over_at_once(simcord_env):
    """ann closes her match while bob's lobby of it has not started ("over once game #B ends"); bob
    cancels that lobby instead of playing it. The match is over then, with ann's table: the
    comparison and the shuffle check come at once (they came only after a restart of the bot)."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    table_a = await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    closed = await ann.slash(first, "ohhell duplicate close", code=code)
    assert "It is over once game" in closed.response.content, closed.response.content
    assert len(_comparisons(first)) == 0
    await bob.click(joined.response, label="Cancel")
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 0]
    assert "one table" in _comparisons(first)[0].embeds[0].title
    texts = [message_text(m) for m in first.history()]
    assert any("shuffle can be checked" in t for t in texts), texts
    verified = await ann.slash(first, "ohhell verify", game=table_a.id)
    reply = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(reply), message_text(reply)


async def test_the_table_that_ends_first_is_told_its_shuffle_can_be_checked_whatever_its_number(simcord_env):
    """bob's table (the match's second, the higher game number) ends first, its seed held; ann's
    (the first) ends last and its final standings say the shuffle can be checked. The comparison
    told the tables other than the highest-numbered one, so bob's channel never heard its shuffle
    could be checked and ann's heard it twice."""
    env = simcord_env
    first, second, ann, bob, code = await _two_tables_started(env)
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    assert not any("shuffle can be checked" in message_text(m) for m in second.history())
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    for channel in (first, second):
        said = [message_text(m) for m in channel.history() if "shuffle can be checked" in message_text(m)]
        assert len(said) == 1, (channel.name, said)
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]


async def test_a_table_whose_rules_differ_is_told_which(simcord_env):
    """bob's table joined with the match's rules, then he changed one: his Start is refused, and the
    refusal names what differs from the rules the match's first table started with."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    await _start_with_computers(env, ann, opened.response, first)
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    assert "✅" in (await bob.slash(second, "ohhell set", option="fixed_hands", value="2,1")).response.content
    for _ in range(2):
        await bob.click(joined.response, label="Add computer")
    refused = await bob.click(joined.response, label="Start")
    assert refused.ephemeral, refused
    text = refused.response.content
    assert "rules differ" in text and "fixed_hands" in text and "3,2" in text, text


async def test_a_match_whose_only_lobby_was_cancelled_has_nothing_to_join(simcord_env):
    """ann opens a match and cancels its lobby: the match has no table left (a cancelled lobby
    leaves its match), so bob's join is refused with the reason, not an error."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    opened, code = await _short_match(env, ann, first, tables=2)
    await ann.click(opened.response, label="Cancel")
    late = await bob.slash(second, "ohhell duplicate join", code=code)
    assert late.ephemeral and "no table" in late.response.content, late.response.content
    assert env.bot.tables.in_channel(second.id) is None and env.errors == []


async def test_a_finale_lost_to_a_stop_while_the_match_waits_still_holds_the_seed(simcord_env, db_path, monkeypatch):
    """ann's table of a two-table match ends, and the bot stops before its final standings are
    posted; bob's table still plays. The restarted bot posts her standings: they said her shuffle
    could be checked (the rebuilt table forgot the match), though its seed stays secret until bob's
    table ends. Then bob's table ends, and each channel is told once."""
    from bot.messages.presentation import Presenter

    env = simcord_env
    first, second, ann, bob, code = await _two_tables_started(env)
    real_post = Presenter.post_finale
    monkeypatch.setattr(Presenter, "post_finale", lambda self, table, results: None)  # stopped first
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    monkeypatch.setattr(Presenter, "post_finale", real_post)
    old_bot, new_bot = env.bot, make_bot(db_path)
    await env.restart_bot(new_bot)
    await old_bot.close()
    await env.settle()
    texts = [message_text(m) for m in first.history()]
    assert any("come when every table of this duplicate match has finished" in t for t in texts), texts[-3:]
    assert _told_checkable(first) == []
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    assert [len(_told_checkable(c)) for c in (first, second)] == [1, 1]
    assert [len(_comparisons(c)) for c in (first, second)] == [1, 1]
