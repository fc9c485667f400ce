"""The one error path (:mod:`bot.messages.errors`): every refusal reaches a member through
:func:`bot.messages.errors.report`, and no command answers its own refusals on the side."""

from __future__ import annotations

from pathlib import Path

from discord import app_commands

from bot.messages.errors import answers_refusals
from tests.cogs.conftest import db_path, simcord_bot  # noqa: F401  (the SimCord fixtures)

ROOT = Path(__file__).resolve().parents[3]


def test_no_command_carries_a_decorator_of_its_own_for_refusals():
    """A decorator to remember on each command is how one gets forgotten: none is left."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "guarded" in line
    ]
    assert found == [], found


async def test_every_slash_command_of_the_bot_answers_its_refusals_through_the_one_handler(simcord_env):
    """Every command the started bot has, at any depth of its groups (those every feature added
    for every game included), hands a refusal to ``report``."""
    commands = [c for c in simcord_env.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(commands) > 20
    assert [c.qualified_name for c in commands if not answers_refusals(c)] == []
