"""``/shithead``: the game's group (:func:`bot.seam.groups.game_group`; the other features add theirs) plus ``hand``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardBot, tables_of
from bot.messages.errors import Refusal
from bot.messages.speech import pgettext
from bot.seam.groups import game_group
from bot.tables.interaction import open_panel
from cogs.shithead.kind import ShitheadKind
from locales import _


def shithead_group(kind: ShitheadKind) -> app_commands.Group:
    group = game_group(kind)

    @group.command(
        name="hand",
        description=pgettext("command description", "Your cards and controls, privately (the same as My cards)"),
    )
    async def hand(interaction: discord.Interaction) -> None:
        table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
        if table is None or table.engine is None:
            raise Refusal(_("There is no Shithead game running in this channel."))
        await open_panel(interaction, table.id)

    return group


class ShitheadCog(commands.Cog):
    def __init__(self, bot: CardBot, kind: ShitheadKind) -> None:
        self.bot = bot
        self.kind = kind
