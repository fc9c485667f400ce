"""Shithead's table controls: the table message's **My cards** button, and the views under the
table message and under the cards sent by DM.

The table message (edited in place) shows what everyone may see and carries **My cards**. That
button answers with the player's *panel* (:mod:`cogs.shithead.panel`), an ephemeral message
holding their hand and exactly the controls their situation allows; it is drawn through the
presenter, so this module needs nothing of the panel's own.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.contract import LiveTable
from bot.errors import Refusal


class TableButton(GameItem[discord.ui.Button[Any]], template=r"sh:(?P<game_id>\d+):cards"):
    fields = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="My cards", style=discord.ButtonStyle.primary, custom_id=f"sh:{game_id}:cards")
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        await send_panel(interaction, self.game_id)


async def send_panel(interaction: discord.Interaction, game_id: int) -> None:
    table = tables_of(interaction).get(game_id)
    seat = table.player_seat(interaction.user.id)
    if table.engine is None:
        raise Refusal("The game has not started yet.")
    rendered = tables_of(interaction).presenter.panels.render(table, seat)
    sent = await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
    await tables_of(interaction).presenter.panels.opened(table, seat, interaction, sent.message_id)


def table_view(table: LiveTable) -> discord.ui.View:
    """**My cards**; the runtime adds what the other features lend (a seat's take-back, Watch)."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    controls.stop()  # dispatched by custom id (dynamic items): nothing to store
    return controls


def dm_view(table: LiveTable) -> discord.ui.View:
    """The button under the cards sent by DM: it opens the same live panel, in the DM."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    controls.stop()
    return controls
