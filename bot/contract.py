"""The contract between the generic runtime and one game: what the bot must know about a game to
run it (:class:`GameKind`), what a rendering is (:class:`Rendered`), and the live table both sides
share (:class:`LiveTable`).

This module is the bottom of ``bot/``: it imports nothing from the runtime, so every runtime
module (registry, seating, presentation, clock) and every game cog can import it without forming
a circle. Each game's cog defines one :class:`GameKind` and registers it with the table manager
in its ``setup()``; the lobby, the table manager and the restart code only ever talk to this
interface.
"""

from __future__ import annotations

import asyncio
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import discord

from db.store import DealScore, GameRecord, ResultRow, SeatRecord, Timer
from games.common.engine import Engine, Event

#: an engine's view (``engine.view(seat)``) as the generic runtime passes it around; each game's
#: kind and renderers read their own engine's TypedDict (``OhHellSeatView``, ``ShitheadView``)
View = Mapping[str, Any]
#: an action as engines take it: ``{"type": ..., ...}`` (each game's own TypedDicts fit it)
Action = Mapping[str, Any]
ViewT = TypeVar("ViewT", bound=Mapping[str, Any])


@dataclass(slots=True)
class Rendered:
    """A message's content; ``view=None`` leaves no components on it."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None

    def kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embeds": self.embeds, "view": self.view}

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message: what is set (``send`` refuses ``view=None``)."""
        return {k: v for k, v in self.kwargs().items() if v is not None}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One settable rule: its name, the values it takes (as typed by a host) and a line of help."""

    name: str
    values: tuple[str, ...]
    help: str


@dataclass(eq=False)
class LiveTable:
    """One game the bot is running: its stored record, its game kind, the engine's current state,
    and what only lives in memory (the lock every change takes, notices, running tasks)."""

    record: GameRecord
    kind: GameKind
    rules: Any = None
    engine: Engine | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: public one-liners to show on the table (timeouts, closed DMs...), newest last
    notices: list[str] = field(default_factory=list)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    timer_tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    #: the running turn timer and the seats it was armed for
    timer: Timer | None = None
    timer_waiting: frozenset[int] = frozenset()

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    def seat_of(self, user_id: int) -> int | None:
        for s in self.record.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def name(self, seat: int) -> str:
        return self.record.seats[seat].name

    def mention(self, seat: int) -> str:
        s = self.record.seats[seat]
        if s.user_id is None or s.ai_level is not None:
            return f"**{s.name}**"
        return f"<@{s.user_id}>"

    def notice(self, text: str) -> None:
        self.notices.append(text)
        del self.notices[:-4]


class GameKind(ABC, Generic[ViewT]):
    """What the runtime needs from one game: its rules, how its table looks, how it scores and
    how a computer plays it. Implemented by ``cogs/<game>/kind.py``."""

    key: str  # the engine's GAME and the slash command group
    title: str
    engine: type[Engine]
    presets: tuple[str, ...]
    default_preset: str
    ai_levels: tuple[str, ...] = ("quick", "strong")
    #: the label of the table button that shows a player their cards privately (named in notices)
    hand_button: str = "My hand"

    # -- rules --------------------------------------------------------------------------------
    @abstractmethod
    def options(self) -> list[OptionSpec]: ...

    @abstractmethod
    def make_rules(self, preset: str, options: dict[str, str]) -> Any:
        """The engine's rules; raises RulesError with a reason a host can act on."""

    @abstractmethod
    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    @abstractmethod
    def rules_from_json(self, data: dict[str, Any]) -> Any: ...

    @abstractmethod
    def describe(self, rules: Any) -> list[str]: ...

    @abstractmethod
    def player_range(self, rules: Any) -> tuple[int, int]: ...

    # -- the running game ---------------------------------------------------------------------
    @abstractmethod
    def message_key(self, engine: Engine) -> Any:
        """When this changes a new table message is posted (a new deal) and hands are sent."""

    @abstractmethod
    def table(self, table: LiveTable, events: list[Event]) -> Rendered:
        """The public table message after ``events``."""

    @abstractmethod
    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        """The last state of a table message whose deal (or game) just ended: no controls."""

    @abstractmethod
    def hand(self, table: LiveTable, seat: int) -> Rendered:
        """What ``seat`` alone may see, for an ephemeral reply."""

    @abstractmethod
    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        """The private message sent at a new deal (``None``: nothing to send)."""

    @abstractmethod
    def deal_scores(self, engine: Engine, events: list[Event]) -> list[DealScore]: ...

    @abstractmethod
    def results(self, table: LiveTable) -> list[ResultRow]: ...

    @abstractmethod
    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered: ...

    @abstractmethod
    def ai_action(self, view: ViewT, level: str, rng: random.Random) -> Action:
        """A computer seat's move, decided from ``ai_view``'s view alone (run off the event loop)."""

    def ai_decider(self) -> Any:
        """A module-level function deciding as :meth:`ai_action` does, ``(view, level, rng) -> Action``,
        for worker processes (it is pickled by name); None: decide in a thread of the bot's process."""
        return None

    @abstractmethod
    def ai_view(self, engine: Engine, seat: int) -> ViewT:
        """What a computer seat decides from: that seat's view (a game may add public facts)."""

    def scores(self, table: LiveTable) -> Rendered:
        """The running scores, for ``/<game> scores``; by default the public table itself."""
        rendered = self.table(table, [])
        return Rendered(content=None, embeds=rendered.embeds, view=None)

    def describe_action(self, table: LiveTable, seat: int, action: Mapping[str, Any]) -> str:
        """A short public line for what a computer did on someone's behalf (no hidden card)."""
        return "made their move"
