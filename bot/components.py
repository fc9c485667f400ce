"""The base of every persistent component: its custom id carries the state, so it works after a
restart, and its callback goes through the one error handler."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import discord

from bot.errors import report

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class GameItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):  # the base itself never matches
    """Subclasses give a ``template`` whose named groups are their constructor's keyword
    arguments (digits become ints) and implement :meth:`handle`."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):  # type: ignore[override]
        return cls(**{k: int(v) if v.isdigit() else v for k, v in match.groupdict().items()})

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.handle(interaction)
        except Exception as error:  # noqa: BLE001 - the one handler decides what to say
            await report(interaction, error)

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError
