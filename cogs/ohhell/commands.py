"""``/ohhell``: the shared game group (:func:`cogs.lobby.commands.game_group`) plus ``hand``, and
the cog whose listener takes the bid and play forms by custom id."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardBot, tables_of
from bot.errors import Refusal, guarded, report
from cogs.lobby.commands import game_group
from cogs.ohhell.controls import MODAL_PREFIX, on_form
from cogs.ohhell.kind import OhHellKind


def ohhell_group(kind: OhHellKind) -> app_commands.Group:
    group = game_group(kind)

    @group.command(name="hand", description="Show your hand, privately")
    @guarded
    async def hand(interaction: discord.Interaction) -> None:
        table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
        if table is None or table.engine is None:
            raise Refusal("There is no Oh Hell game running in this channel.")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You are not playing at this table.")
        await interaction.response.send_message(**kind.hand(table, seat).send_kwargs(), ephemeral=True)

    return group


class OhHellCog(commands.Cog):
    def __init__(self, bot: CardBot, kind: OhHellKind) -> None:
        self.bot = bot
        self.kind = kind

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(MODAL_PREFIX):
            return
        try:
            await on_form(interaction, custom_id)
        except Exception as error:  # noqa: BLE001
            await report(interaction, error)
