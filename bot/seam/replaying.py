"""How a finished game reads step by step (``/<game> replay``): the stats feature replays any
game from its stored record and asks the game's :class:`Replayer` (its adapter's
:attr:`~bot.seam.contract.GameKind.replayer`) what a step is and how it reads, so it names no game."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Generic, TypeVar

import discord

from games.common.engine import Engine, Event

EngineT = TypeVar("EngineT", bound=Engine)


class Replayer(ABC, Generic[EngineT]):
    """One game's replay pages, over its own engine type."""

    @abstractmethod
    def ends_step(self, engine: EngineT, events: list[Event]) -> bool:
        """Whether the action that gave ``events`` closes a step (a trick won, any action…)."""

    @abstractmethod
    def start_lines(self, engine: EngineT, names: list[str]) -> list[str]:
        """The first step's lines: the game as dealt."""

    @abstractmethod
    def event_lines(self, engine: EngineT, events: list[Event], names: list[str]) -> list[str]:
        """What an action did, in public lines (a private event is shown by the hands anyway)."""

    @abstractmethod
    def add_hands(self, embed: discord.Embed, engine: EngineT, names: list[str]) -> None:
        """Every hand as it stands at a step (the game is over: nothing is secret any more)."""
