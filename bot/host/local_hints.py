"""A command typed as a chat line on the local page, answered with the command it was meant to be.

On the page (as on Discord) a slash command is run by picking it from the list the composer
offers; a line typed with a slip of a letter in the game's name matches no command and is sent as
an ordinary chat message, which the bot never reads (it has no message-content intent, here as
on Discord). The local mode sees what its page sends, so it answers such a line itself, in the
channel, with the nearest command: ``There is no /<typo> command: did you mean /<game> new?``
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

#: how alike a typed command and a real one must be to be offered (difflib's ratio)
CLOSE = 0.6


def known_commands(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Every command a person can run, as typed after the slash: ``<game> new``, ``leaderboard``."""
    found: list[str] = []

    def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> None:
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child)
        else:
            found.append(command.qualified_name)

    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, (app_commands.Command, app_commands.Group)):
            walk(command)
    return found


def command_hint(content: str, commands: Iterable[str]) -> str | None:
    """What to answer a chat line that looks like a command (None: it does not, or it is one):
    the nearest command when one is near, else how commands are run."""
    text = content.strip()
    if not text.startswith("/") or text.startswith("//"):
        return None
    words = text[1:].split()
    if not words:
        return None
    known = list(commands)
    depth = max((len(c.split()) for c in known), default=1)
    typed = [" ".join(words[:n]).lower() for n in range(1, min(depth, len(words)) + 1)]
    if any(t in known for t in typed):
        return None  # a real command, typed out rather than picked (its options not filled)
    typed_name = typed[-1]
    nearest = difflib.get_close_matches(typed_name, known, n=1, cutoff=CLOSE)
    if not nearest:  # a shorter command typed with words after it ("/leaderbord please")
        nearest = difflib.get_close_matches(typed[0], known, n=1, cutoff=CLOSE)
    if nearest:
        return f"There is no /{typed_name} command: did you mean /{nearest[0]}? Type / and pick it from the list."
    return f"There is no /{typed_name} command. Type / to see the commands, and pick one from the list."
