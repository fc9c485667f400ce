"""Statistics (an extension): ``/cardstats`` (:mod:`cogs.stats.commands`)."""

from __future__ import annotations

from bot.client import CardBot
from cogs.stats.commands import Stats


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Stats(bot))
