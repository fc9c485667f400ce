"""Shithead's table controls: the table message's **My cards** button, and the views under the
table message and under the cards sent by DM.

The table message (edited in place) shows what everyone may see and carries **My cards**. That
button answers with the player's *panel* (:mod:`cogs.shithead.panel`), an ephemeral message
holding their hand and exactly the controls their situation allows; what pressing it does is the
runtime's (:class:`bot.tables.interaction.HandItem`), the same in every game.
"""

from __future__ import annotations

import discord

from bot.seam.contract import LiveTable
from bot.tables import interaction
from bot.tables.interaction import HandItem


class TableButton(HandItem, template=r"sh:(?P<game_id>\d+):cards"):
    custom_id_format = "sh:{game_id}:cards"


def dm_view(table: LiveTable) -> discord.ui.View:
    """The button under the cards sent by DM: it opens the same live panel, in the DM."""
    return interaction.dm_view(TableButton(table.id, label=table.kind.hand_button))
