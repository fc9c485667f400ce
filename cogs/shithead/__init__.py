"""Shithead on Discord (an extension): everything about how the game looks and is played here.

- :mod:`cogs.shithead.kind`: the :class:`~bot.contract.GameKind` adapter the runtime calls
- :mod:`cogs.shithead.render`: the table, panel, DM and final embeds
- :mod:`cogs.shithead.controls`: **My cards**, the private panel and its controls
- :mod:`cogs.shithead.commands`: ``/shithead`` and the cog
"""

from __future__ import annotations

from bot.client import CardBot
from cogs.shithead.commands import ShitheadCog, shithead_group
from cogs.shithead.controls import PanelButton, PanelSelect, QuickButton, TableButton
from cogs.shithead.kind import ShitheadKind

__all__ = ["ShitheadKind", "setup"]


async def setup(bot: CardBot) -> None:
    kind = ShitheadKind(bot)
    bot.tables.register(kind)
    bot.tree.add_command(shithead_group(kind))
    bot.add_dynamic_items(TableButton, PanelButton, PanelSelect, QuickButton)
    await bot.add_cog(ShitheadCog(bot, kind))
