"""Fair play (issue 16), an extension: ``/<game> verify`` checks a finished game's shuffle (the
runtime's half is :mod:`bot.fairness`), and spectators watch a live table (**Watch**,
``/<game> spectators``). The commands join each game's group through
:func:`cogs.fairness.commands.add_fairness_commands`; this extension registers the Watch button.

- :mod:`cogs.fairness.commands`: ``/<game> verify``
- :mod:`cogs.fairness.spectators`: the Watch / Refresh button, the spectator's view, ``/<game> spectators``
"""

from __future__ import annotations

from bot.client import CardBot
from cogs.fairness.spectators import WatchButton, spectator_view


async def setup(bot: CardBot) -> None:
    bot.add_dynamic_items(WatchButton)
    presenter = bot.tables.presenter
    # the bot keeps each view current, drawn from the table message's own rendering of the move
    presenter.watchers.render = lambda table: spectator_view(table, presenter.live_face(table))
