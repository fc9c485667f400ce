"""``/ohhell``: the game's group (:func:`bot.seam.groups.game_group`; the other features add theirs) plus ``hand``,
which opens the same live panel as **My hand**."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client import tables_of
from bot.messages.errors import Refusal
from bot.messages.speech import pgettext
from bot.seam.groups import game_group
from bot.tables.interaction import open_panel
from cogs.ohhell.kind import OhHellKind
from locales import _


def ohhell_group(kind: OhHellKind) -> app_commands.Group:
    group = game_group(kind)

    @group.command(
        name="hand", description=pgettext("command description", "Open your hand and its buttons, privately")
    )
    async def hand(interaction: discord.Interaction) -> None:
        table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
        if table is None or table.engine is None:
            raise Refusal(_("There is no Oh Hell game running in this channel."))
        await open_panel(interaction, table.id)

    return group
