"""The Watch and Join doors, through the real bot: a spectator's view carries the pictures its
embeds show, and a Watch or Join control planted on a message of another
server or channel is refused (a custom id is data anyone could copy), and the
view follows the game by itself."""

from __future__ import annotations

import logging

import pytest

from bot.tables.secrecy import Door, Role, State, decide
from tests.helpers import OhHellDriver, current_message, open_table, table_message, walk_components

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def pictures_referred(message) -> set[str]:
    """The files a message's embeds point at (``attachment://name``)."""
    names = set()
    for embed in message.embeds:
        for url in (embed.image.url, embed.thumbnail.url):
            if url and url.startswith("attachment://"):
                names.add(url.removeprefix("attachment://"))
    return names


@pytest.mark.parametrize("game", ["ohhell", "shithead"])
async def test_the_spectators_view_carries_the_pictures_its_embeds_show(simcord_env, game):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, cy = guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("cy"))
    await open_table(env, channel, ann, [], command=game, computers=2, options=SHORT if game == "ohhell" else None)
    table = table_message(channel, env.bot.user.id)
    assert pictures_referred(table), "the table itself shows a picture"

    watched = await cy.click(table, label="Watch")
    view = watched.response
    wanted = pictures_referred(view)
    assert wanted, "the spectator sees the table's picture"
    assert wanted <= {a.filename for a in view.attachments}, (wanted, view.attachments)
    again = await cy.click(view, label="Refresh")
    assert pictures_referred(again.response) <= {a.filename for a in again.response.attachments}


async def test_a_watch_or_join_control_planted_elsewhere_is_refused(simcord_env):
    env = simcord_env
    home, away = env.create_guild(), env.create_guild()
    channel, side = home.create_text_channel("cards"), home.create_text_channel("chat")
    theirs = away.create_text_channel("cards")
    ann = home.add_member(env.create_user("ann"))
    dan = home.add_member(env.create_user("dan"))
    cy = away.add_member(env.create_user("cy"))  # not a member of ann's server
    await open_table(env, channel, ann, [], computers=2, options=SHORT)
    live = env.bot.tables.in_channel(channel.id)
    lobby = (await ann.slash(side, "ohhell new")).response  # a lobby in ann's server, another channel
    waiting = env.bot.tables.in_channel(side.id)

    async def plant(actor, where, custom_id: str):
        """A message of the bot's in ``where`` carrying a button with ``custom_id``, then pressed."""
        carrier = (await actor.slash(where, "ohhell new")).response
        stored = env.backend.get_message(where.id, carrier.id)
        stored.components = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "X", "custom_id": custom_id}]}]
        return await actor.click(carrier, custom_id=custom_id)

    # from another server: neither watching ann's table nor sitting in her lobby
    watched = await plant(cy, theirs, f"watch:{live.id}:open")
    assert watched.ephemeral and "another channel" in watched.response.content
    assert not watched.response.embeds, "nothing of the table is shown"
    joined = await plant(cy, away.create_text_channel("more"), f"lobby:{waiting.id}:join")
    assert joined.ephemeral and "another channel" in joined.response.content
    # from another channel of ann's own server: the same
    watched = await plant(dan, home.create_text_channel("x"), f"watch:{live.id}:open")
    assert watched.ephemeral and "another channel" in watched.response.content
    assert not watched.response.embeds
    joined = await plant(dan, home.create_text_channel("y"), f"lobby:{waiting.id}:join")
    assert joined.ephemeral and "another channel" in joined.response.content
    assert [s.user_id for s in waiting.seats] == [ann.id]
    # where they belong, both work
    assert not (await dan.click(lobby, label="Join")).ephemeral
    watched = await dan.click(table_message(channel, env.bot.user.id), label="Watch")
    assert watched.ephemeral and watched.response.embeds


def _public(message) -> str:
    """The public table as a message shows it: its first embed (the spectator's view starts with it)."""
    embed = message.embeds[0]
    return "\n".join([embed.title or "", embed.description or "", *(f"{f.name}:{f.value}" for f in embed.fields)])


async def test_a_spectators_view_stays_current_by_itself(simcord_env):
    """Watch once, never Refresh: after every move the view shows the table as
    the channel does, and at the end its last look, without controls."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy"))
    await open_table(env, channel, ann, [bob], computers=1, options=SHORT)
    bot_id = env.bot.user.id
    watched = await cy.click(table_message(channel, bot_id), label="Watch")
    view_id = watched.response.id
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=3)
    seen, steps = set(), 0
    while await driver.step():
        steps += 1
        if env.bot.tables.in_channel(channel.id) is None:
            break  # the game is over: the channel's newest message is the standings
        view = current_message(env, channel, view_id)
        assert _public(view) == _public(table_message(channel, bot_id)), f"the view is behind after step {steps}"
        assert pictures_referred(view) <= {a.filename for a in view.attachments}
        seen.add(_public(view))
    assert steps > 10 and len(seen) > 10
    last = current_message(env, channel, view_id)
    assert "is over" in last.content and not last.components, last.content


def _plant(env, channel, message, component: dict) -> None:
    """``component`` on the bot's ``message`` in ``channel``: a custom id is data anyone could copy."""
    env.backend.get_message(channel.id, message.id).components = [{"type": 1, "components": [component]}]


async def test_a_member_without_a_seat_is_refused_at_a_players_door_in_the_policys_words(simcord_env, caplog):
    """My hand, ``/shithead hand`` and a press on a player's panel (a button, a select) are one
    door of the secrecy policy (``Door.HAND``): cy, who has no seat, reads the same one sentence
    privately from each, the policy's own, and nothing is logged or raised as a fault (a refusal
    is an answer)."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, cy = guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("cy"))
    await open_table(env, channel, ann, [], command="shithead", computers=2)
    table = env.bot.tables.in_channel(channel.id)
    words = "⚠️ " + decide(Door.HAND, Role.OUTSIDER, State.LIVE).text(table.id)
    assert "not playing" in words
    panel = (await ann.click(table_message(channel, env.bot.user.id), label="My cards")).response
    controls = list(walk_components(panel.components))
    select = next(c for c in controls if c.get("type") == 3)
    button = next(c for c in controls if c.get("type") == 2 and c.get("custom_id"))
    carrier = table_message(channel, env.bot.user.id)
    caplog.clear()

    answers = [await cy.slash(channel, "shithead hand"), await cy.click(carrier, label="My cards")]
    _plant(env, channel, carrier, button)
    answers.append(await cy.click(carrier, custom_id=button["custom_id"]))
    _plant(env, channel, carrier, select)
    answers.append(await cy.select(carrier, [select["options"][0]["value"]], custom_id=select["custom_id"]))
    for answer in answers:
        assert answer.ephemeral and answer.response.content == words, answer.response.content
        assert not answer.response.embeds and not answer.response.components, "nothing of the seat is shown"
    assert env.errors == [], "a refusal is an answer, never a fault"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
