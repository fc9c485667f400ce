"""A duplicate match keeps its cards secret at every door, through the real
bot: table A finishes while table B of the same match has not played yet. Nobody replays,
analyses, verifies or exports A, nor reads A's scores deal by deal, except A's own players for
their scores; a member who watched A may not then sit at B; a member seated at A may not sit at B
(neither by B's Join nor by opening a table of the match). Once B is over, everything opens."""

from __future__ import annotations

import json
import re

from tests.helpers import OhHellDriver, message_text, table_message

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def _match(env):
    """Table A (ann and three computers, started) and table B (bob's lobby, three computers)."""
    guild = env.create_guild()
    first, second, third = (guild.create_text_channel(n) for n in ("cards", "more-cards", "third"))
    ann, bob, cy, dee = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy", "dee"))
    opened = await ann.slash(first, "ohhell duplicate new", tables=3)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    for option, value in SHORT.items():
        await ann.slash(first, "ohhell set", option=option, value=value)
    for _ in range(3):
        await ann.click(opened.response, label="Add computer")
    joined = await bob.slash(second, "ohhell duplicate join", code=code)
    for _ in range(3):
        await bob.click(joined.response, label="Add computer")
    assert not (await ann.click(opened.response, label="Start")).ephemeral
    table_a = env.bot.tables.in_channel(first.id)
    return guild, (first, second, third), (ann, bob, cy, dee), code, joined.response, table_a


def refused(result, *words: str) -> str:
    assert result.ephemeral and result.response is not None, result
    text = result.response.content or ""
    assert all(w in text for w in words), text
    assert not result.response.attachments, "a refusal carries no file"
    return text


async def test_a_finished_table_of_an_unfinished_match_is_closed_at_every_door(simcord_env):
    env = simcord_env
    guild, (first, second, third), (ann, bob, cy, dee), code, lobby_b, table_a = await _match(env)
    game_a = table_a.id
    secret = str(table_a.record.seed)

    # cy watches A while it plays (and so sees a finished deal's hands)
    watched = await cy.click(table_message(first, env.bot.user.id), label="Watch")
    assert watched.ephemeral and "watching" in watched.response.content
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()

    # A is over, B has not played: no replay, analysis, verify or export, for anyone
    for member in (ann, bob, cy, dee):
        refused(await member.slash(first, "ohhell replay", game=game_a), "still playing")
        refused(await member.slash(first, "ohhell analysis", game=game_a), "still playing")
        refused(await member.slash(first, "ohhell verify", game=game_a), "still playing")
    # a replay page's button, planted with A's number on a message, is refused the same way
    carrier_channel = guild.create_text_channel("carrier")
    carrier = (await dee.slash(carrier_channel, "ohhell new")).response
    forged = f"replay:{game_a}:0:first"
    env.backend.get_message(carrier_channel.id, carrier.id).components = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "X", "custom_id": forged}]}
    ]
    refused(await dee.click(carrier, custom_id=forged), "still playing")
    # A's scores deal by deal: its own player yes, anyone else no (bob sits at B, dee could still)
    own = await ann.slash(first, "ohhell scores")
    assert own.ephemeral and own.response.embeds
    refused(await bob.slash(first, "ohhell scores"), "another table")
    for member in (cy, dee):
        refused(await member.slash(first, "ohhell scores"), "still playing")
    # the history lists A without its result (its places and points would tell B what is coming)
    listed = await dee.slash(first, "ohhell history")
    text = message_text(listed.response)
    assert f"#{game_a}" in text and "ann" not in text, text
    mine = await ann.slash(first, "ohhell history")
    assert "ann" in message_text(mine.response)

    # cy watched A; B deals the same cards: cy may not sit at B, nor open a table of the match
    refused(await cy.click(lobby_b, label="Join"), "watched")
    refused(await cy.slash(third, "ohhell duplicate join", code=code), "watched")
    # ann sits at A: she may not sit at B too, by its Join or by opening a third table
    refused(await ann.click(lobby_b, label="Join"), "another table")
    refused(await ann.slash(third, "ohhell duplicate join", code=code), "another table")
    table_b = env.bot.tables.in_channel(second.id)
    assert [s.user_id for s in table_b.seats if s.user_id is not None] == [bob.id]
    assert env.bot.tables.in_channel(third.id) is None

    # dee, never seated nor watching, may still sit at B; then B is played
    assert not (await dee.click(lobby_b, label="Join")).ephemeral
    await bob.click(lobby_b, label="Remove computer")
    assert not (await bob.click(lobby_b, label="Start")).ephemeral
    await OhHellDriver(env, second, {bob.id: bob, dee.id: dee}, seed=6).play_to_end()
    # the third table never opened: the match is not over until it is. A lobby of it cancelled
    # gives its place back (the match still waits); its host closes it with the two tables it has
    host = guild.add_member(env.create_user("eve"))
    third_lobby = await host.slash(third, "ohhell duplicate join", code=code)
    assert not third_lobby.ephemeral
    await host.click(third_lobby.response, label="Cancel")
    refused(await cy.slash(first, "ohhell replay", game=game_a), "still playing")
    closed = await ann.slash(first, "ohhell duplicate close", code=code)
    assert not closed.ephemeral and "closed with its 2 tables of 3" in closed.response.content, closed

    # every table is over: A opens to everyone, its replay's file carries the shared seed
    replay = await cy.slash(first, "ohhell replay", game=game_a)
    assert replay.ephemeral and replay.response.embeds, replay.response.content
    (attached,) = replay.response.attachments
    data = json.loads(await attached.read())
    assert str(data["seed"]) == secret
    assert (await bob.slash(first, "ohhell scores")).response.embeds
    assert "ann" in message_text((await dee.slash(first, "ohhell history")).response)


async def test_a_table_ended_early_is_marked_and_ranked_apart_in_the_comparison(simcord_env):
    """Table B is ended by its host after one deal; its players are not ranked
    against those who played every deal (bob's one deal must not put him first)."""
    from tests.helpers import end_game

    env = simcord_env
    guild = env.create_guild()
    first, second = guild.create_text_channel("cards"), guild.create_text_channel("more-cards")
    ann, bob = guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("bob"))
    opened = await ann.slash(first, "ohhell duplicate new", tables=2)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    for option, value in {"fixed_hands": "3,2,1", "sequence": "fixed"}.items():
        await ann.slash(first, "ohhell set", option=option, value=value)
    joined = await bob.slash(second, "ohhell duplicate join", code=code)
    for member, lobby in ((ann, opened.response), (bob, joined.response)):
        for _ in range(2):
            await member.click(lobby, label="Add computer")
        assert not (await member.click(lobby, label="Start")).ephemeral
    table_a, table_b = env.bot.tables.in_channel(first.id), env.bot.tables.in_channel(second.id)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    driver = OhHellDriver(env, second, {bob.id: bob}, seed=6)
    while table_b.engine.deal_number == 1:
        assert await driver.step()
    await end_game(bob, second)

    comparison = next(m for m in second.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or ""))
    fields = {f.name: f.value for f in comparison.embeds[0].fields}
    for seat in range(3):
        lines = fields[f"Seat {seat + 1}'s cards"].splitlines()
        line_b = next(x for x in lines if x.startswith(f"#{table_b.id} "))
        assert "ended early" in line_b, line_b
        line_a = next(x for x in lines if x.startswith(f"#{table_a.id} "))
        assert "ended early" not in line_a, line_a
    ranking = next((v for k, v in fields.items() if k.startswith("Ranking")), "")
    assert f"#{table_b.id}" not in ranking and f"#{table_a.id}" not in ranking, ranking  # nobody to compare with
    apart = next(v for k, v in fields.items() if "ended early" in k.lower())
    assert all(f"#{table_b.id}" in line for line in apart.splitlines()) and "bob" in apart


def _comparisons(channel) -> list:
    """The comparisons posted in ``channel``, as a member reading it sees them."""
    return [m for m in channel.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or "")]


async def test_the_comparison_waits_for_the_last_table_of_the_match(simcord_env):
    """The comparison shows what every table did with the same cards: ann, seated at table A,
    finishes A and reads no comparison in her channel while B has not played; B finishes, and
    still none, as a third table may yet come; its host closes the match: then every table's
    channel gets it, once."""
    env = simcord_env
    guild, (first, second, third), (ann, bob, cy, dee), code, lobby_b, table_a = await _match(env)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    assert not _comparisons(first) and not _comparisons(second)
    assert not (await bob.click(lobby_b, label="Start")).ephemeral
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    assert not _comparisons(first) and not _comparisons(second)  # a third table may still come
    closed = await ann.slash(first, "ohhell duplicate close", code=code)
    assert not closed.ephemeral, closed.response.content
    assert len(_comparisons(first)) == 1 and len(_comparisons(second)) == 1
