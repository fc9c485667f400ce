"""What the bot needs to know about one game to run it: the bridge between the generic table
machinery (lobby, storage, restarts, timers, computer seats) and one engine.

Each game's cog defines one :class:`GameKind` and registers it; the lobby, the table manager and
the restart code only ever talk to this interface.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from db.store import DealScore, ResultRow
from games.common.engine import Engine, Event

if TYPE_CHECKING:
    from bot.tables import LiveTable


@dataclass(slots=True)
class Rendered:
    """A message's content; ``view=None`` leaves no components on it."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None

    def kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embeds": self.embeds, "view": self.view}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One settable rule: its name, the values it takes (as typed by a host) and a line of help."""

    name: str
    values: tuple[str, ...]
    help: str


class GameKind(ABC):
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
    def rules_to_json(self, rules: Any) -> dict: ...

    @abstractmethod
    def rules_from_json(self, data: dict) -> Any: ...

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
    def ai_action(self, view: dict, level: str, rng: random.Random) -> dict: ...

    def ai_view(self, engine: Engine, seat: int) -> dict:
        """What a computer seat decides from: that seat's view (a game may add public facts)."""
        return engine.view(seat)

    def scores(self, table: LiveTable) -> Rendered:
        """The running scores, for ``/<game> scores``; by default the public table itself."""
        rendered = self.table(table, [])
        return Rendered(content=None, embeds=rendered.embeds, view=None)

    def describe_action(self, table: LiveTable, seat: int, action: dict) -> str:
        """A short public line for what a computer did on someone's behalf (no hidden card)."""
        return "made their move"


KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    KINDS[kind.key] = kind
    return kind
