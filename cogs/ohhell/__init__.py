"""Oh Hell on Discord (an extension): everything about how the game looks and is played here.
It plugs in with one :class:`~bot.seam.features.Game`: its kind, ``/ohhell`` and its buttons.

- :mod:`cogs.ohhell.kind`: the :class:`~bot.seam.contract.GameKind` adapter the runtime calls
- :mod:`cogs.ohhell.render`: the table, hand, deal result and standings embeds
- :mod:`cogs.ohhell.controls`: the table's **My hand** button (also under the hand sent by DM)
- :mod:`cogs.ohhell.panel`: the live private panel (My hand): one button a bid or card
- :mod:`cogs.ohhell.commands`: ``/ohhell`` and the cog
"""

from __future__ import annotations

from bot.client import CardBot
from bot.seam.features import Game
from cogs.ohhell.commands import ohhell_group
from cogs.ohhell.controls import TableButton
from cogs.ohhell.kind import OhHellKind
from cogs.ohhell.panel import PanelButton

__all__ = ["OhHellKind", "setup"]


async def setup(bot: CardBot) -> None:
    kind = OhHellKind(bot)
    bot.features.add(Game(kind, ohhell_group(kind), items=(TableButton, PanelButton)))
