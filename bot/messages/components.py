"""The base of every persistent component: its custom id carries the state, so it works after a
restart, and its callback goes through the one error handler."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

import discord

from bot.host import metrics
from bot.messages.errors import report

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class GameItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):  # the base itself never matches
    """Subclasses give a ``template`` whose named groups are their constructor's keyword
    arguments, declare in :attr:`fields` how to read each group that is not text (nothing is
    guessed from what a value looks like: ``"10"`` stays text unless its field says ``int``),
    and implement :meth:`handle`."""

    #: a converter per named group of the template; groups not named here are passed as text
    fields: ClassVar[Mapping[str, Callable[[str], Any]]] = {}

    @classmethod
    def parse(cls, match: re.Match[str]) -> dict[str, Any]:
        """The constructor's keyword arguments from a matching custom id."""
        return {name: cls.fields.get(name, str)(text) for name, text in match.groupdict().items()}

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> GameItem[ItemT]:
        return cls(**cls.parse(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        metrics.pressed(interaction, type(self).__name__)  # timed until its answer goes out
        try:
            await borrow(interaction, getattr(self, "game_id", None))
            await self.handle(interaction)
        except Exception as error:  # noqa: BLE001 - the one handler decides what to say
            await report(interaction, error)
        finally:
            metrics.answered(interaction)  # (a press left unanswered: timed to here)

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


async def borrow(interaction: discord.Interaction, game_id: object) -> None:
    """Before a game's control is handled: let the bot's table manager make sure it sees that game
    as stored, also when another process owns it (``TableManager.borrow``)."""
    tables = getattr(interaction.client, "tables", None)
    if isinstance(game_id, int) and tables is not None:
        await tables.borrow(game_id)
