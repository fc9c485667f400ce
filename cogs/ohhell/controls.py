"""Oh Hell's table buttons: **My hand** opens the player's live panel (:mod:`cogs.ohhell.panel`),
where every bid and card is one press.

The same button goes on the hand sent by DM, so a player can open the panel from there too. Table
messages drawn before the panel existed carry **Bid** and **Play a card**; their custom ids are
still recognised and open the panel, so an old message keeps working after an upgrade.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.contract import LiveTable
from bot.errors import Refusal
from cogs.ohhell.panel import open_panel


class TableButton(GameItem[discord.ui.Button[Any]], template=r"oh:(?P<game_id>\d+):(?P<act>bid|play|hand)"):
    fields = {"game_id": int}

    def __init__(self, game_id: int, act: str = "hand") -> None:
        super().__init__(
            discord.ui.Button(label="My hand", style=discord.ButtonStyle.primary, custom_id=f"oh:{game_id}:{act}")
        )
        self.game_id, self.act = game_id, act

    async def handle(self, interaction: discord.Interaction) -> None:
        table = tables_of(interaction).get(self.game_id)
        seat = table.player_seat(interaction.user.id)
        if table.engine is None:
            raise Refusal("The game has not started yet.")
        await open_panel(interaction, table, seat)


def table_view(table: LiveTable) -> discord.ui.View:
    """**My hand**; the runtime adds what the other features lend (a seat's take-back, Watch)."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    controls.stop()  # dispatched by custom id (dynamic items): nothing to store
    return controls


def dm_view(table: LiveTable) -> discord.ui.View:
    """The button under a hand sent by DM: it opens the same live panel, in the DM."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    controls.stop()
    return controls
