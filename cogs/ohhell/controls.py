"""Oh Hell's table buttons: **My hand** opens the player's live panel (:mod:`cogs.ohhell.panel`),
where every bid and card is one press; what pressing it does is the runtime's
(:class:`bot.tables.interaction.HandItem`), the same in every game.

The same button goes on the hand sent by DM, so a player can open the panel from there too. Table
messages drawn before the panel existed carry **Bid** and **Play a card**; their custom ids are
still recognised and open the panel, so an old message keeps working after an upgrade.
"""

from __future__ import annotations

import discord

from bot.seam.contract import LiveTable
from bot.tables import interaction
from bot.tables.interaction import HandItem


class TableButton(HandItem, template=r"oh:(?P<game_id>\d+):(?P<act>bid|play|hand)"):
    custom_id_format = "oh:{game_id}:{act}"
    parts = {"act": "hand"}


def dm_view(table: LiveTable) -> discord.ui.View:
    """The button under a hand sent by DM: it opens the same live panel, in the DM."""
    return interaction.dm_view(TableButton(table.id, label=table.kind.hand_button))
