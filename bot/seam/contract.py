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
import functools
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar, cast, get_args, get_origin

import discord

from bot.fairness.beacon.binding import deal_seed_of
from bot.messages.errors import Refusal
from bot.seam.answers import GAME_OVER, Action, Explicit, MoveNotes, OptionSpec, PanelRedraw, Press, Rendered
from bot.seam.coaching import Coaching
from bot.seam.comparison import BY_POINTS, Comparison
from bot.seam.profiles import Profile
from bot.seam.replaying import Replayer
from bot.tables.snapshot import snapshot
from db.records import DealScore, GameRecord, ResultRow, SeatRecord, Timer
from draw.readable import drawn_readable
from draw.seats import mention
from games.common.contracts import BaseView
from games.common.engine import Engine, Event
from locales import N_, translate

#: the seam, as every game and runtime module imports it (what a game answers with is defined in
#: :mod:`bot.seam.answers` and named here too)
__all__ = [
    "GAME_OVER",
    "NOT_PLAYING",
    "READABLE",
    "DIGEST_LENGTH",
    "Action",
    "View",
    "Rendered",
    "MoveNotes",
    "Press",
    "PanelRedraw",
    "Explicit",
    "OptionSpec",
    "Lent",
    "LiveTable",
    "RuleSet",
    "HandControl",
    "GameEngine",
    "GameRules",
    "GameViews",
    "GameControls",
    "GameComputer",
    "GameResults",
    "GameKind",
    "AnyKind",
    "digest",
]

#: a view as the runtime passes it around without reading it (each game reads its own TypedDict)
View = Mapping[str, object]


#: the answer to anyone but a player of the table at a player's door
NOT_PLAYING = N_("You are not playing at this table.")


def _nothing(table: LiveTable) -> None:
    return None


def _no_note(table: LiveTable, seat: SeatRecord) -> None:
    return None


@dataclass(slots=True)
class Lent:
    """What other features lend every game's messages, so that they show under each game's
    messages without the game importing those features (they meet only through the runtime).
    The runtime fills it from the registered features (:class:`bot.seam.features.Features`, each
    feature's one :class:`~bot.seam.features.Feature`) and hands it to every live table
    (:attr:`LiveTable.lent`); a feature that is not loaded lends nothing.

    The runtime puts the table message's (:meth:`table_controls`) under the game's own controls
    (:meth:`GameKind.table`); a game's final message carries :attr:`finale`'s, which its
    ``finale`` asks for; the lobby writes :attr:`seat_note` after each seated player's name."""

    #: under a table message, after the game's own controls: the seat's take-back (the lobby)...
    take_back: Callable[[LiveTable], discord.ui.Item[Any] | None] = _nothing
    #: ...then **Watch** (the fairness feature's spectators)
    watch: Callable[[LiveTable], discord.ui.Item[Any] | None] = _nothing
    #: the controls under a game's final message (the lobby's **Rematch**)
    finale: Callable[[LiveTable], discord.ui.View | None] = _nothing
    #: a few words after a seated player's name in the lobby (the stats' rating)
    seat_note: Callable[[LiveTable, SeatRecord], str | None] = _no_note

    def table_controls(self, table: LiveTable) -> list[discord.ui.Item[Any]]:
        """The lent controls under ``table``'s message, in their order."""
        return [item for make in (self.take_back, self.watch) if (item := make(table)) is not None]


@dataclass(eq=False)
class LiveTable:
    """One game the bot is running: its stored record, its game kind, the engine's current state,
    and what only lives in memory (the lock every change takes, notices, running tasks)."""

    record: GameRecord
    kind: AnyKind
    rules: RuleSet | None = None
    engine: Engine | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: public one-liners to show on the table (timeouts, closed DMs...), newest last
    notices: list[str] = field(default_factory=list)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    timer_tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    #: the running turn timer and the seats it was armed for
    timer: Timer | None = None
    timer_waiting: frozenset[int] = frozenset()
    #: the control each seat's last move was pressed with (:func:`bot.messages.panels.press_of`): the same
    #: press again is a double click whose move already counted (in memory only)
    acted_from: dict[int, str] = field(default_factory=dict)
    #: a duplicate match's table that is over while another table still plays: its seed (shared
    #: by the match) stays secret until every table is over
    seed_held: bool = False
    #: what the features lend this table's messages (the runtime's, shared by every table of the
    #: bot); a table made outside the runtime (a test drawing one message) is lent nothing
    lent: Lent = field(default_factory=Lent)
    #: the game's id, its record's (a table's record is only ever replaced by a fresh read of the
    #: same game): a plain attribute, so that the features and the game's adapter read it as data
    #: rather than calling into the runtime
    id: int = field(init=False)

    def __post_init__(self) -> None:
        self.id = self.record.id

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    def seat_of(self, user_id: int) -> int | None:
        for s in self.record.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def player_seat(self, user_id: int) -> int:
        """``user_id``'s seat, or :class:`~bot.messages.errors.Refusal`: the one guard of every door that
        only a player at this table may use (My hand, a panel's press, Leave, spectators...)."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise Refusal(translate(NOT_PLAYING))
        return seat

    def name(self, seat: int) -> str:
        return self.record.seats[seat].name

    def mention(self, seat: int) -> str:
        return mention(self.record.seats[seat])

    def notice(self, text: str) -> None:
        self.notices.append(text)
        del self.notices[:-4]


#: the methods that draw a table's messages (each takes the table first)
READABLE = ("draw_table", "closing", "draw_panel", "dm", "finale", "scores")


def _readable(method: Callable[..., object]) -> Callable[..., object]:
    @functools.wraps(method)
    def drawn(self: object, table: LiveTable, *args: object, **kwargs: object) -> object:
        return drawn_readable(method, self, table, *args, **kwargs)

    return drawn


class RuleSet(Protocol):
    """What the runtime asks of a game's rules: a game's own rules class fits it as it is (how a
    game words its rules is its kind's: :meth:`GameRules.describe`)."""

    def to_json(self) -> dict[str, object]: ...

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Self: ...

    def player_range(self) -> tuple[int, int]: ...


class HandControl(Protocol):
    """The table's **My hand** button as a game gives it: a subclass of
    :class:`bot.tables.interaction.HandItem` (the class itself: the runtime draws one per table)."""

    def __call__(self, game_id: int, *, label: str) -> discord.ui.Item[discord.ui.View | discord.ui.LayoutView]: ...


#: a game's own rules, engine, public view, seat view and action types, which the parts of its
#: kind are generic over
RulesT = TypeVar("RulesT", bound=RuleSet)
EngineT = TypeVar("EngineT", bound=Engine)
PublicT = TypeVar("PublicT", bound=BaseView)
SeatT = TypeVar("SeatT", bound=BaseView)
ActionT = TypeVar("ActionT", bound=Mapping[str, object])


class GameEngine(ABC, Generic[EngineT, PublicT, SeatT]):
    """A game's name and engine, and the table's engine as the game's own: what every other part
    reads a game's state through, with the views its engine builds (once per state:
    :mod:`bot.tables.snapshot`), typed as the game declared them."""

    key: str  # the engine's GAME and the slash command group
    title: str
    engine: type[EngineT]

    def game(self, table: LiveTable) -> EngineT:
        """The table's engine as this game's own type (its views are this game's TypedDicts)."""
        return self.mine(table.engine)

    def mine(self, engine: Engine | None) -> EngineT:
        """``engine`` as this game's own type; a table that has not started, or another game's
        engine, is a bug in the runtime (TypeError)."""
        if not isinstance(engine, self.engine):
            raise TypeError(f"not a started {self.title} game: {type(engine).__name__}")
        return engine

    def public_view(self, engine: EngineT) -> PublicT:
        """``engine``'s public view, built once per state (:mod:`bot.tables.snapshot`)."""
        # the engine's own view, typed as the kind declares it: _check_views holds the two equal
        return cast(PublicT, snapshot(engine).view(None))

    def seat_view(self, engine: EngineT, seat: int) -> SeatT:
        """``seat``'s view of ``engine``, built once per state (:mod:`bot.tables.snapshot`)."""
        return cast(SeatT, snapshot(engine).view(seat))  # as public_view


class GameRules(ABC, Generic[RulesT]):
    """A game's rules as a host sets them: its presets and options, and its rules object
    (:class:`RuleSet`), which says how it is stored, described and how many play."""

    presets: tuple[str, ...]
    default_preset: str
    #: the game's rules class (its ``from_json`` reads a stored game's)
    rule_set: type[RulesT]
    #: per preset key: a name a player understands and one line of what the preset is
    preset_info: Mapping[str, tuple[str, str]] = {}

    @abstractmethod
    def options(self) -> list[OptionSpec]: ...

    @abstractmethod
    def make_rules(self, preset: str, options: dict[str, str]) -> RulesT:
        """The engine's rules; raises RulesError with a reason a host can act on."""

    def rules_to_json(self, rules: RulesT) -> dict[str, object]:
        return rules.to_json()

    def rules_from_json(self, data: dict[str, object]) -> RulesT:
        return self.rule_set.from_json(data)

    @abstractmethod
    def describe(self, rules: RulesT) -> list[str]:
        """The rules in force in a host's words, a line each (the lobby and ``/<game> rules``)."""

    def player_range(self, rules: RulesT) -> tuple[int, int]:
        return rules.player_range()

    def preset_name(self, preset: str) -> str:
        """A preset as a player reads it ("Oh Shit (secret bids)"), its key if it has no name."""
        return self.preset_info.get(preset, (preset, ""))[0]

    def preset_line(self, preset: str) -> str:
        return self.preset_info.get(preset, ("", ""))[1]

    def add_profile(self, lines: list[str], profile: Profile) -> None:
        """Add this game's own figures to a member's ``/cardstats`` lines (the first says games,
        wins and places; the second the rating): bids made, times the loser… By default none."""


class GameViews(GameEngine[EngineT, PublicT, SeatT]):
    """How a game's messages look: the public table, a seat's panel and private message, the
    final standings and the scores. Each is drawn from the table as it is, changing nothing, and
    from the view it is handed (built once per move by :mod:`bot.tables.snapshot`): the public view for
    what the channel sees, a seat's own view for what only that seat sees."""

    @abstractmethod
    def draw_table(self, table: LiveTable, events: list[Event], view: PublicT) -> Rendered:
        """The game's public table message (for :meth:`GameKind.table`), drawn from ``view``, the
        public view of the table's state; it asks the runtime for nothing more."""

    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        """The last state of a table message whose deal (or game) just ended: no controls. By
        default the table as it stands, saying the result follows (a game of one table message)."""
        drawn = self.draw_table(table, events, self.public_view(self.game(table)))
        return Rendered(content=translate(GAME_OVER), embeds=drawn.embeds, view=None, files=drawn.files)

    @abstractmethod
    def draw_panel(
        self, table: LiveTable, seat: int, view: SeatT, key: str, *, warning: str | None = None, note: str | None = None
    ) -> Rendered:
        """The game's panel for ``seat`` (for :meth:`GameKind.panel`), drawn from ``view`` (that
        seat's own) with ``key`` (its decision digest) on every control; ``warning`` says why
        nothing happened, ``note`` what did."""

    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        """The private message sent at a new deal; by default none (the panel is the only one)."""
        return None

    @abstractmethod
    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        """The final standings; under them the controls the features lend a final message
        (``view=table.lent.finale(table)``: the lobby's **Rematch**)."""

    def stored_scores(self, record: GameRecord, rows: list[ResultRow], deals: list[DealScore]) -> Rendered | None:
        """``/<game> scores`` of a finished game, from what the store kept; ``None``: the generic
        list of places."""
        return None


class GameControls(GameEngine[EngineT, PublicT, SeatT]):
    """What a player presses and when a control goes out of date: the table's **My hand**, what a
    press on a panel asks for, and the keys that say when a message or a panel is no longer current."""

    #: the label of the table button that shows a player their cards privately (named in notices)
    hand_button: str = "My hand"
    #: the table's **My hand** button, drawn by the runtime (``hand_item(game_id, label=...)``)
    hand_item: HandControl

    def message_key(self, engine: EngineT) -> Hashable:
        """When this changes a new table message is posted (a new deal) and hands are sent. By
        default one table message for the whole game (stored as it is: a game changing it would
        post a new message for every game running when it changed)."""
        return "game"

    @abstractmethod
    def decision_key(self, view: SeatT, seat: int) -> object:
        """Everything that bears on ``seat``'s choice now, as JSON-able data, from ``view``: that
        seat's own view, which the runtime passes in (built once per move by :mod:`bot.tables.snapshot`),
        so that the key is made from what ``seat`` may see and nothing else.

        A form or panel drawn for ``seat`` carries a digest of this
        (:meth:`GameKind.decision_digest`), and the move pipeline refuses its action once the key
        has changed: a control goes stale when something that matters to *that* player changed
        (the deal, the phase, whether they are to act, their legal actions, the bids and cards
        they can see), never on another player's secret bid or unrelated move. It must never hold
        what ``seat`` may not see."""

    @abstractmethod
    def press_action(self, table: LiveTable, seat: int, press: Press) -> Action | Explicit | PanelRedraw:
        """What a press on ``seat``'s panel asks for: the move to make, or only a redraw; a
        :class:`~bot.messages.errors.Refusal` when it asks for nothing the player may do. Only the mapping:
        who may press, a press from an out-of-date panel, the computer playing the seat, a double
        press and the answer are the runtime's, the same in every game (:mod:`bot.tables.interaction`)."""

    def panel_extra(self, engine: EngineT, seat: int) -> Hashable:
        """What else ``seat``'s open panel shows that may change while it is not their turn (a
        request to answer), as hashable data: a change redraws the panel (:mod:`bot.messages.panels`).
        None by default."""
        return None

    def message_key_of(self, engine: Engine) -> Hashable:
        """:meth:`message_key` of ``engine``'s state, made once per state (:mod:`bot.tables.snapshot`):
        the move pipeline asks for the state before a move, the presenter for the state after it
        (which the next move asks for again), the display and a restart for the state shown."""
        mine = self.mine(engine)
        return snapshot(mine).message_key(lambda: self.message_key(mine))

    def decision_digest(self, engine: Engine, seat: int) -> str:
        """A short, restart-proof digest of :meth:`decision_key` for a custom id: 12 hex digits.
        Made once per move and seat (:mod:`bot.tables.snapshot`): the move's check, the panels' redraw
        and their buttons all ask for it."""
        mine = self.mine(engine)
        return snapshot(mine).digest(seat, lambda: digest(self.decision_key(self.seat_view(mine, seat), seat)))


class GameComputer(GameEngine[EngineT, PublicT, SeatT], Generic[EngineT, PublicT, SeatT, ActionT]):
    """How a computer plays a seat: from that seat's view alone, off the event loop."""

    @abstractmethod
    def ai_action(self, view: SeatT, level: str, rng: random.Random) -> ActionT:
        """A computer seat's move, decided from ``ai_view``'s view alone (run off the event loop)."""

    def ai_decider(self) -> Callable[[SeatT, str, random.Random], ActionT] | None:
        """A module-level function deciding as :meth:`ai_action` does, ``(view, level, rng) -> Action``,
        for worker processes (it is pickled by name); None: decide in a thread of the bot's process."""
        return None

    def ai_view(self, engine: EngineT, seat: int) -> SeatT:
        """What a computer seat decides from: by default that seat's view (a game may add public
        facts)."""
        return self.seat_view(engine, seat)

    def computers_wait(self, engine: EngineT) -> bool:
        """Whether a computer whose turn it is waits now (people are answering a request, a
        take-back, that its move would end): the next change at the table wakes it. False by
        default."""
        return False


class GameResults(GameEngine[EngineT, PublicT, SeatT]):
    """What a game leaves: what a move leaves besides the new state, the results of a finished
    game, how a duplicate match compares them, and what reads a finished game again."""

    #: how a duplicate match compares the players who held the same cards (points by default)
    comparison: Comparison = BY_POINTS
    #: the mark after the name of a game's loser in a list of results (💩); none by default
    loser_mark: str = ""
    #: the game's coach (``/<game> analysis``); None: the game has none
    coaching: Coaching | None = None
    #: how a finished game reads step by step (``/<game> replay``); None: the game has no replay
    replayer: Replayer[EngineT] | None = None

    def move_notes(self, table: LiveTable, events: list[Event]) -> MoveNotes:
        """What a move's ``events`` leave besides the new state (``table`` holds it), read once
        per move by the move pipeline: the deals they scored, stored with the move, and the public
        one-liners (a deal's result) it adds to :attr:`LiveTable.notices`, so that drawing the
        table never changes it. By default nothing (a game without deals or points)."""
        return MoveNotes()

    def results(self, table: LiveTable) -> list[ResultRow]:
        """The finished game's results, best first, as the store keeps them: by default the
        engine's own standings (:meth:`~games.common.engine.Engine.final_standings`, what a
        replayed game is checked against), with no figures of the game's own."""
        rows = [
            ResultRow(
                seat=row["seat"],
                user_id=table.seats[row["seat"]].user_id,
                name=table.name(row["seat"]),
                place=row["place"],
                total=row["total"],
                is_loser=row["is_loser"],
                stats={},
            )
            for row in self.game(table).final_standings()
        ]
        return sorted(rows, key=lambda r: (r.place, r.seat))


class GameKind(
    GameRules[RulesT],
    GameViews[EngineT, PublicT, SeatT],
    GameControls[EngineT, PublicT, SeatT],
    GameComputer[EngineT, PublicT, SeatT, ActionT],
    GameResults[EngineT, PublicT, SeatT],
    Generic[EngineT, RulesT, PublicT, SeatT, ActionT],
):
    """One game as the runtime runs it: its name and engine, and the parts a game implements
    (each small, most of it defaulted): its rules (:class:`GameRules`), how its messages look
    (:class:`GameViews`), its controls (:class:`GameControls`), its computer players
    (:class:`GameComputer`) and its results (:class:`GameResults`). Implemented by
    ``cogs/<game>/kind.py``.

    Generic over the game's own engine, rules, views and actions, so that a game's adapter reads
    them with their own types; its views are the ones its engine declares
    (``Engine[PublicT, SeatT]``: checked when the kind is defined). What is left here is the
    runtime's: how it holds a table's engine as the game's, and how it puts together the table
    message and a panel around what the game draws. The runtime holds any game as :data:`AnyKind`."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Every message a game draws for a table goes out readable: its ♠ and ♣ as the card
        emojis (four-colour when the table chose it) or words (:mod:`draw.readable`). And a kind's
        views are its engine's: the runtime hands the game the views its engine built."""
        super().__init_subclass__(**kwargs)
        for name in READABLE:
            method = cls.__dict__.get(name)
            if method is not None:
                setattr(cls, name, _readable(method))
        _check_views(cls)

    # -- the runtime's side of a table ----------------------------------------------------------
    def replay(self, rules: RulesT, record: GameRecord) -> EngineT:
        """The game's state after ``record``'s stored actions, from its stored seed and generator:
        every rebuild (a restart, a re-read, a refused or failed commit, a finished game shown
        again) goes here."""
        seats, seed = len(record.seats), deal_seed_of(record)
        return self.mine(self.engine.replay(rules, seats, seed, record.actions, rng_version=record.rng_version))

    def table(self, table: LiveTable, events: list[Event]) -> Rendered:
        """The public table message after ``events``: drawn from the table as it is, changing
        nothing (what the events leave on it comes from :meth:`move_notes`). The runtime hands the
        game's :meth:`draw_table` this state's public view (built once per move, however many
        places show it: :mod:`bot.tables.snapshot`), then puts what the other features lend a table
        message: **My hand** (:attr:`hand_item`) first, then the game's own controls if any, then
        what the other features lend (:class:`Lent`: a seat's take-back, Watch): the game draws
        its message, the runtime adds the shared controls, and neither asks the other."""
        rendered = self.draw_table(table, events, self.public_view(self.game(table)))
        controls = discord.ui.View(timeout=None)
        controls.add_item(self.hand_item(table.id, label=self.hand_button))
        for item in [*(rendered.view.children if rendered.view is not None else []), *table.lent.table_controls(table)]:
            controls.add_item(item)
        controls.stop()  # dispatched by custom id (dynamic items): nothing to store
        rendered.view = controls
        return rendered

    def panel(self, table: LiveTable, seat: int, *, warning: str | None = None, note: str | None = None) -> Rendered:
        """``seat``'s live private panel (ephemeral; kept current by :mod:`bot.messages.panels`): what
        ``seat`` alone may see, their cards and one control a move. The runtime hands the game's
        :meth:`draw_panel` the seat's view and decision digest of this state (each made once per
        move: :mod:`bot.tables.snapshot`)."""
        engine = self.game(table)
        view = self.seat_view(engine, seat)
        # (a game over leaves no decision: its panels have no control to carry a digest)
        key = "" if engine.is_over else self.decision_digest(engine, seat)
        return self.draw_panel(table, seat, view, key, warning=warning, note=note)

    def scores(self, table: LiveTable) -> Rendered:
        """The running scores, for ``/<game> scores``; by default the public table itself, with the
        pictures its embeds point at (``attachment://``: without the file Discord shows none)."""
        rendered = self.table(table, [])
        return Rendered(content=None, embeds=rendered.embeds, view=None, files=rendered.files)


def _check_views(kind: type) -> None:
    """A kind's public and seat view types must be its engine's (``GameKind[E, R, P, S, A]`` with
    ``E`` an ``Engine[P, S]``), so that :meth:`GameKind.public_view` hands the game what its engine
    built. The type checker cannot tie the two together, so this does, when the kind is defined."""
    declared = next((get_args(b) for b in getattr(kind, "__orig_bases__", ()) if get_origin(b) is GameKind), None)
    if declared is None or not isinstance(declared[0], type):
        return  # a kind deriving from a game's kind, or a generic one: its base was checked
    engine = declared[0]
    views = next(
        (get_args(b) for c in engine.__mro__ for b in getattr(c, "__orig_bases__", ()) if get_origin(b) is Engine),
        None,
    )
    if views is None or tuple(views) != tuple(declared[2:4]):
        raise TypeError(f"{kind.__name__} declares views {declared[2:4]}, its engine {engine.__name__} gives {views}")


#: any game's kind, as the runtime holds it (it passes each kind only what that kind gave it)
AnyKind = GameKind[Any, Any, Any, Any, Any]

#: length of :func:`digest`'s text (48 bits: a chance collision between two states is negligible)
DIGEST_LENGTH = 12


def digest(key: Any) -> str:
    """12 lower-case hex digits of a JSON-able value; the same in every process and after restarts
    (canonical JSON, SHA-256), so a custom id carrying it stays comparable after a restart."""
    text = json.dumps(key, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_LENGTH]
