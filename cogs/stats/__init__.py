"""Statistics (an extension): ratings, leaderboards, profiles, history and replays.

- :mod:`cogs.stats.ratings`: the rating model (pure); :mod:`cogs.stats.book`: ratings kept in
  the store, live and rebuilt; :mod:`cogs.stats.profile`: a member's profile (pure)
- :mod:`cogs.stats.commands`: ``/cardstats``, ``/leaderboard``, ``/cardadmin``
- :mod:`cogs.stats.history`, :mod:`cogs.stats.replay`: ``/<game> history`` and ``/<game> replay``
- :mod:`cogs.stats.coach`: ``/<game> analysis`` for each game with a coach (its
  :attr:`~bot.contract.GameKind.coaching`; off the event loop, stored)
"""

from __future__ import annotations

from discord import app_commands

from bot.client import CardBot
from cogs.stats.book import RatingBook
from cogs.stats.coach import Coach, add_coach_command
from cogs.stats.commands import CardAdmin, Stats, add_stats_commands
from cogs.stats.history import ReplayButton, add_history_commands


async def setup(bot: CardBot) -> None:
    book = RatingBook(bot.store)
    cog = Stats(bot, book, Coach(bot))
    bot.tables.finish_hooks.append(cog.on_finished)
    for kind in bot.tables.kinds.values():
        kind.seat_note = cog.seat_note
        group = bot.tree.get_command(kind.key)
        if isinstance(group, app_commands.Group):
            add_history_commands(bot, group, kind.key, kind.title)
            if kind.coaching is not None:
                add_coach_command(bot, group, cog.coach, kind)
    add_stats_commands(bot.tree, cog)
    bot.tree.add_command(CardAdmin(bot, book))
    bot.add_dynamic_items(ReplayButton)
    await bot.add_cog(cog)
