"""A game's slash-command group, ``/<game>``: the game makes it in its ``setup()`` and adds its
own commands (``hand``); every other feature's commands (the lobby's ``new``, ``set``…, fair
play's ``verify``, the stats' ``history``) are added to each registered game's group by the
runtime at start-up, from the feature's registration (:attr:`bot.features.Feature.per_game`), so
the features meet through the runtime and never import one another."""

from __future__ import annotations

from discord import app_commands

from bot.contract import AnyKind
from bot.speech import pgettext


def game_group(kind: AnyKind) -> app_commands.Group:
    """The empty ``/<game>`` group of ``kind``."""
    return app_commands.Group(
        name=kind.key, description=pgettext("command description", "Play {game}", game=kind.title), guild_only=True
    )
