"""The bot finds its features on disk (:func:`bot.client.extensions`) rather than naming them:
every package under ``cogs/`` is loaded, each game's package is named after its command, and
the features that extend every game's commands see every game."""

from __future__ import annotations

from discord import app_commands

from bot.client import extensions, game_commands
from bot.host.local import new_commands


async def test_every_feature_is_loaded_and_every_game_registered(simcord_env):
    bot = simcord_env.bot
    assert set(bot.extensions) == set(extensions())
    assert len(extensions()) == 5, extensions()
    assert sorted(bot.tables.kinds) == game_commands() and len(game_commands()) == 2
    for key in game_commands():
        group = bot.tree.get_command(key)
        assert isinstance(group, app_commands.Group), key
        names = {c.name for c in group.commands}
        assert {"new", "verify", "history"} <= names, (key, names)
    assert new_commands() == " or ".join(f"/{key} new" for key in bot.tables.kinds)


async def test_the_stats_commands_offer_every_registered_game(simcord_env):
    """``/leaderboard`` and ``/cardstats`` list the registered games by title (made after them)."""
    bot = simcord_env.bot
    wanted = [(kind.title, kind.key) for kind in bot.tables.kinds.values()]
    assert wanted == [("Oh Hell", "ohhell"), ("Shithead", "shithead")]
    for name in ("leaderboard", "cardstats"):
        command = bot.tree.get_command(name)
        assert isinstance(command, app_commands.Command), name
        game = next(p for p in command.parameters if p.name == "game")
        assert [(c.name, c.value) for c in game.choices] == wanted, name
