"""Fair play, an extension: ``/<game> verify`` checks a finished game's shuffle (the
runtime's half is :mod:`bot.fairness.shuffles`), and spectators watch a live table (**Watch**,
``/<game> spectators``). It plugs in with one :class:`~bot.seam.features.Feature`: its commands in
each game's group (:func:`cogs.fairness.commands.add_fairness_commands`), the Watch button under
every table and what a spectator sees.

- :mod:`cogs.fairness.commands`: ``/<game> verify``
- :mod:`cogs.fairness.spectators`: the Watch / Refresh button, the spectator's view, ``/<game> spectators``
"""

from __future__ import annotations

from bot.client import CardBot
from bot.seam.features import Feature
from cogs.fairness.commands import add_fairness_commands
from cogs.fairness.spectators import WatchButton, spectator_view, watch_button


async def setup(bot: CardBot) -> None:
    # the bot keeps each spectator's view current, drawn from the table message's own rendering
    bot.features.add(
        Feature(
            name="fairness",
            per_game=add_fairness_commands,
            items=(WatchButton,),
            watch=watch_button,
            spectator_view=spectator_view,
        )
    )
