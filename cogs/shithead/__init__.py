"""Shithead on Discord (an extension): everything about how the game looks and is played here.
It plugs in with one :class:`~bot.seam.features.Game`: its kind, ``/shithead`` and its buttons.

- :mod:`cogs.shithead.kind`: the :class:`~bot.seam.contract.GameKind` adapter the runtime calls
- :mod:`cogs.shithead.render`: the table, panel, DM and final embeds
- :mod:`cogs.shithead.controls`: the table's **My cards** button and the views under the table and the DM
- :mod:`cogs.shithead.panel`: the private panel and its controls (what it offers in
  :mod:`cogs.shithead.panel_choices`, what a press asks for in :mod:`cogs.shithead.panel_actions`)
- :mod:`cogs.shithead.commands`: ``/shithead`` and the cog
"""

from __future__ import annotations

from bot.client import CardBot
from bot.seam.features import Game
from cogs.shithead.commands import ShitheadCog, shithead_group
from cogs.shithead.controls import TableButton
from cogs.shithead.kind import ShitheadKind
from cogs.shithead.panel import PanelButton, PanelSelect, QuickButton

__all__ = ["ShitheadKind", "setup"]


async def setup(bot: CardBot) -> None:
    kind = ShitheadKind(bot)
    bot.features.add(Game(kind, shithead_group(kind), items=(TableButton, PanelButton, PanelSelect, QuickButton)))
    await bot.add_cog(ShitheadCog(bot, kind))
