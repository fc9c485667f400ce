"""A game's slash-command group, ``/<game>``: the game makes it in its ``setup()`` and adds its
own commands (``hand``); every other feature then adds its commands to each registered game's
group at its own setup (the lobby's ``new``, ``set``…, fair play's ``verify``, the stats'
``history``), so the features meet through the runtime and never import one another."""

from __future__ import annotations

from discord import app_commands

from bot.contract import AnyKind


def game_group(kind: AnyKind) -> app_commands.Group:
    """The empty ``/<game>`` group of ``kind``."""
    return app_commands.Group(name=kind.key, description=f"Play {kind.title}", guild_only=True)


def groups_of(tree: app_commands.CommandTree, kinds: list[AnyKind]) -> list[tuple[AnyKind, app_commands.Group]]:
    """Each registered game with its group, for a feature adding its commands to every game."""
    out = []
    for kind in kinds:
        group = tree.get_command(kind.key)
        if isinstance(group, app_commands.Group):
            out.append((kind, group))
    return out
