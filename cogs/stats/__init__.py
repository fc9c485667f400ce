"""Statistics (an extension): ratings, leaderboards, profiles, history and replays.

- :mod:`cogs.stats.ratings`: the rating model (pure); :mod:`cogs.stats.book`: ratings kept in
  the store, live and rebuilt; :mod:`cogs.stats.profile`: a member's profile (pure)
- :mod:`cogs.stats.commands`: ``/cardstats``, ``/leaderboard``, ``/cardadmin``
- :mod:`cogs.stats.history`, :mod:`cogs.stats.replay`: ``/<game> history`` and ``/<game> replay``
- :mod:`cogs.stats.coach`: ``/<game> analysis`` for each game with a coach (its
  :attr:`~bot.seam.contract.GameKind.coaching`; off the event loop, stored)

It plugs in with one :class:`~bot.seam.features.Feature`: its commands in each game's group and its
own, the replay's buttons, rating a finished game, and the rating on a seat in a lobby.
"""

from __future__ import annotations

from discord import app_commands

from bot.client import CardBot
from bot.seam.contract import AnyKind
from bot.seam.features import Feature
from cogs.stats.book import RatingBook
from cogs.stats.coach import Coach, add_coach_command
from cogs.stats.commands import CardAdmin, Stats, stats_commands
from cogs.stats.history import ReplayButton, add_history_commands


async def setup(bot: CardBot) -> None:
    book = RatingBook(bot.store)
    cog = Stats(bot, book, Coach(bot))

    def per_game(group: app_commands.Group, kind: AnyKind) -> None:
        add_history_commands(bot, group, kind.key, kind.title)
        if kind.coaching is not None:
            add_coach_command(bot, group, cog.coach, kind)

    bot.features.add(
        Feature(
            name="stats",
            per_game=per_game,
            commands=lambda kinds: [*stats_commands(cog, kinds), CardAdmin(bot, book)],
            items=(ReplayButton,),
            on_finish=cog.on_finished,
            finish_rating=book.finishing,
            seat_note=cog.seat_note,
        )
    )
    await bot.add_cog(cog)
