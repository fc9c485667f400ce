"""Fair play (issue 16), an extension: ``/<game> verify`` checks a finished game's shuffle (the
runtime's half is :mod:`bot.fairness`), and spectators watch a live table (**Watch**,
``/<game> spectators``). At its setup it adds its commands to each game's group
(:func:`cogs.fairness.commands.add_fairness_commands`) and lends each game its Watch button.

- :mod:`cogs.fairness.commands`: ``/<game> verify``
- :mod:`cogs.fairness.spectators`: the Watch / Refresh button, the spectator's view, ``/<game> spectators``
"""

from __future__ import annotations

from bot.client import CardBot
from bot.groups import groups_of
from cogs.fairness.commands import add_fairness_commands
from cogs.fairness.spectators import WatchButton, spectator_view, watch_button


async def setup(bot: CardBot) -> None:
    bot.add_dynamic_items(WatchButton)
    for kind, group in groups_of(bot.tree, list(bot.tables.kinds.values())):
        add_fairness_commands(group, kind)
        kind.lent.watch = watch_button
    presenter = bot.tables.presenter
    # the bot keeps each view current, drawn from the table message's own rendering of the move
    presenter.watchers.render = lambda table: spectator_view(table, presenter.live_face(table))
