"""The lobby every game shares (an extension): ``/<game> new`` opens a table whose lobby message
carries Join / Leave / Add computer / Start / Cancel buttons and the host's preset picker, and the
commands it adds to each game's group (:func:`cogs.lobby.commands.add_lobby_commands`). It plugs
in with one :class:`~bot.seam.features.Feature`: those commands, its buttons, how a lobby looks, the
**Take my seat back** under a table and the **Rematch** under a final message.

- :mod:`cogs.lobby.commands`: the ``/<game>`` group (new, set, rules, scores, table, leave, back, end, handover)
- :mod:`cogs.lobby.options`: ``/<game> set``'s options, how each reads a value, and the change
- :mod:`cogs.lobby.controls`: the lobby's buttons and the table's **Take my seat back**
- :mod:`cogs.lobby.render`: the lobby message
- :mod:`cogs.lobby.ending`: ``/<game> end``'s Confirm / Cancel
- :mod:`cogs.lobby.handover`: ``/<game> handover`` and its offer's Take the seat / Decline
- :mod:`cogs.lobby.rematch`: the final standings' **Rematch** (a new lobby, same rules, players invited)
"""

from __future__ import annotations

from discord.ext.commands import Cog

from bot.client import CardBot
from bot.seam.features import Feature
from cogs.lobby.commands import add_lobby_commands
from cogs.lobby.controls import LobbyButton, PresetSelect, SeatBackButton, render_lobby, take_back_button
from cogs.lobby.ending import EndButton
from cogs.lobby.handover import HandoverButton
from cogs.lobby.rematch import RematchButton, rematch_view


class Lobby(Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot


async def setup(bot: CardBot) -> None:
    bot.features.add(
        Feature(
            name="lobby",
            per_game=add_lobby_commands,
            items=(LobbyButton, PresetSelect, SeatBackButton, RematchButton, EndButton, HandoverButton),
            lobby=render_lobby,
            take_back=take_back_button,
            finale=rematch_view,
        )
    )
    await bot.add_cog(Lobby(bot))
