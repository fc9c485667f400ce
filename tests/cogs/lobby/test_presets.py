"""A new preset keeps the host's earlier `/ohhell set` changes that still apply
(and says which it dropped and why); fixed hands are set in one step."""

from __future__ import annotations


async def _lobby(env, preset="classic"):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    lobby = (await ann.slash(channel, "ohhell new", preset=preset)).response
    return channel, ann, lobby, env.bot.tables.in_channel(channel.id)


def _text(result) -> str:
    parts = [result.response.content or ""] if result.response is not None else []
    parts += [f.content or "" for f in result.followups]
    return "\n".join(parts)


async def test_a_new_preset_keeps_the_changes_that_still_apply_and_says_so(simcord_env):
    env = simcord_env
    channel, ann, lobby, table = await _lobby(env)
    for option, value in (("scoring", "square"), ("deck", "pack63"), ("devils_bridge", "on")):
        done = await ann.slash(channel, "ohhell set", option=option, value=value)
        assert done.ephemeral and "✅" in done.response.content, done.response.content
    chosen = await ann.select(lobby, ["bowers"], custom_id=f"lobbypreset:{table.id}")
    told = _text(chosen)
    assert "Kept your changes on bowers: scoring=square, devils_bridge=on." in told
    assert "Dropped deck=pack63:" in told and "seats 6–7 players" in told  # the rules' own reason
    assert all(f.ephemeral for f in chosen.followups)
    assert table.record.preset == "bowers"
    assert table.record.options == {"scoring": "square", "devils_bridge": "on"}
    stored = await env.bot.store.get_game(table.id)
    assert stored.preset == "bowers" and stored.options == {"scoring": "square", "devils_bridge": "on"}
    rules = await ann.slash(channel, "ohhell rules")
    text = rules.response.embeds[0].description
    assert "10 + bid²" in text and "Devil's Bridge" in text


async def test_a_new_preset_with_nothing_set_says_nothing_more(simcord_env):
    env = simcord_env
    channel, ann, lobby, table = await _lobby(env)
    chosen = await ann.select(lobby, ["spades"], custom_id=f"lobbypreset:{table.id}")
    assert chosen.followups == [] and table.record.preset == "spades" and table.record.options == {}


async def test_fixed_hands_in_one_step_and_the_exact_words_for_sequence_fixed(simcord_env):
    env = simcord_env
    channel, ann, lobby, table = await _lobby(env)
    refused = await ann.slash(channel, "ohhell set", option="sequence", value="fixed")
    assert refused.ephemeral and "/ohhell set fixed_hands 5,4,3" in refused.response.content
    assert table.record.options == {}
    await ann.slash(channel, "ohhell set", option="sequence", value="down")
    done = await ann.slash(channel, "ohhell set", option="fixed_hands", value="3,2,1")
    assert "✅" in done.response.content
    rules = table.kind.make_rules(table.record.preset, table.record.options)
    assert rules.sequence == "fixed" and rules.hand_sizes(3) == [3, 2, 1]
    await ann.slash(channel, "ohhell set", option="sequence", value="up")  # the later change counts
    rules = table.kind.make_rules(table.record.preset, table.record.options)
    assert rules.sequence == "up"
