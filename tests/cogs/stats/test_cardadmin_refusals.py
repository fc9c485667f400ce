"""``/cardadmin`` refusals are answers, not crashes: the error-handling
decorator must find the interaction after ``self`` on a group's or cog's method commands."""

from __future__ import annotations

import logging


async def test_cardadmin_refusals_are_answered_and_logged_as_nothing(simcord_env, caplog):
    caplog.set_level(logging.ERROR)
    env = simcord_env
    ann = env.create_user("ann")
    guild = env.create_guild("A", owner=ann)
    room = guild.create_text_channel("cards")
    owner = guild.add_member(ann)
    bob = guild.add_member(env.create_user("bob"))
    # The server lets bob see /cardadmin (Integrations settings) though he cannot manage it.
    command = env.backend.find_command("cardadmin", guild.id) or env.backend.find_command("cardadmin", None)
    assert command is not None
    guild.set_command_permissions(int(command["id"]), {bob: True})

    for actor, args, expected in (
        (bob, {"length": "monthly"}, "Only members who can manage this server"),
        (bob, {}, "Only members who can manage this server"),
        (owner, {"length": "monthly", "min_games": 0}, "between 1 and 100"),
        (owner, {"length": "monthly", "min_games": 101}, "between 1 and 100"),
    ):
        name = "cardadmin seasons" if args else "cardadmin rebuild-ratings"
        result = await actor.slash(room, name, **args)
        assert result.ephemeral, result
        assert expected in result.response.content, result.response.content
        assert "Something went wrong" not in result.response.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    settings = await env.bot.store.guild_settings(guild.id)
    assert settings.min_games != 0 and settings.min_games != 101
