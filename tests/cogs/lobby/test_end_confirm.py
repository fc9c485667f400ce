"""``/<game> end`` asks the host first: an ephemeral "End game #N now?" with Confirm and
Cancel. Cancel changes nothing; Confirm ends the game even if it moved on meanwhile; a second
Confirm says it has already ended; the buttons still work after a restart."""

from __future__ import annotations

from tests.helpers import OhHellDriver, ShitheadDriver, bot_messages, make_bot, open_table, walk_components

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def test_ohhell_end_asks_then_ends_even_after_the_game_moved_on(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await open_table(env, channel, ann, [bob], options=SHORT, computers=1)
    table = env.bot.tables.in_channel(channel.id)
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=3)

    refused = await bob.slash(channel, "ohhell end")
    assert refused.ephemeral and "Only the host" in refused.response.content

    asked = await ann.slash(channel, "ohhell end")
    assert asked.ephemeral and asked.response.content == f"End game #{table.id} now? No result is recorded."
    assert [c.get("label") for c in walk_components(asked.response.components) if c["type"] == 2] == [
        "Confirm",
        "Cancel",
    ]
    assert all(asked.response.id != m.id for m in channel.history(viewer=bob))  # only the host sees it
    kept = await ann.click(asked.response, label="Cancel")
    assert "goes on" in kept.response.content and not kept.response.components
    assert env.bot.tables.is_live(table)

    asked = await ann.slash(channel, "ohhell end")
    question = asked.response
    moves = len(table.engine.log)
    for _ in range(3):  # the game moves on while the question is open
        await driver.step()
    assert len(table.engine.log) > moves and env.bot.tables.is_live(table)

    second = (await ann.slash(channel, "ohhell end")).response  # asked twice: both questions stay open
    await env.restart_bot(make_bot(db_path))  # the question's buttons survive a restart
    confirmed = await ann.click(question, label="Confirm")
    assert confirmed.acknowledged and f"Game #{table.id} is ended" in confirmed.response.content
    assert env.bot.tables.in_channel(channel.id) is None
    said = [m.content for m in bot_messages(channel, env.bot.user.id)]
    assert any(f"ended game #{table.id}. No result is recorded" in s for s in said), said
    assert any("Game ended by" in s for s in said), said
    stored = await env.bot.tables.store.get_game(table.id)
    assert stored.status == "cancelled"

    again = await ann.click(second, label="Confirm")
    assert "already ended" in again.response.content


async def test_shithead_end_asks_and_a_finished_game_is_not_ended(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await open_table(env, channel, ann, [bob], command="shithead")
    table = env.bot.tables.in_channel(channel.id)
    asked = await ann.slash(channel, "shithead end")
    assert asked.ephemeral and f"End game #{table.id} now?" in asked.response.content
    assert env.bot.tables.is_live(table)
    await ShitheadDriver(env, channel, {ann.id: ann, bob.id: bob}, watch=False).play_to_end()
    late = await ann.click(asked.response, label="Confirm")
    assert f"Game #{table.id} has finished" in late.response.content
    stored = await env.bot.tables.store.get_game(table.id)
    assert stored.status == "finished"
