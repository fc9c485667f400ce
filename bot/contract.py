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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

import discord

from bot.beacon.binding import deal_seed_of
from bot.coaching import Coaching
from bot.comparison import BY_POINTS, Comparison
from bot.errors import Refusal
from bot.profiles import Profile
from bot.replaying import Replayer
from bot.snapshot import snapshot
from db.store import DealScore, GameRecord, ResultRow, SeatRecord, Timer
from draw.looks import four_colour
from draw.pictures import ImageFile
from draw.readable import readable
from draw.seats import mention
from games.common.engine import Engine, Event
from locales import N_, translate

#: an engine's view (``engine.view(seat)``) as the generic runtime passes it around; each game's
#: kind and renderers read their own engine's TypedDict (``OhHellSeatView``, ``ShitheadView``)
View = Mapping[str, Any]
#: an action as engines take it: ``{"type": ..., ...}`` (each game's own TypedDicts fit it)
Action = Mapping[str, Any]
#: a game's own engine, seat view and action types, which its :class:`GameKind` is generic over
EngineT = TypeVar("EngineT", bound=Engine)
ViewT = TypeVar("ViewT", bound=Mapping[str, Any])
ActionT = TypeVar("ActionT", bound=Mapping[str, Any])


#: the answer to anyone but a player of the table at a player's door
NOT_PLAYING = N_("You are not playing at this table.")


@dataclass(slots=True)
class Rendered:
    """A message's content; ``view=None`` leaves no components on it.

    ``files=None`` leaves a message's attachments as they are when it is edited (a lobby has none);
    a list (even empty) replaces them, so a table that stops showing a picture drops its file."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    files: list[ImageFile] | None = None

    def kwargs(self) -> dict[str, Any]:
        """For an edit (``attachments=`` replaces the message's files with fresh ones)."""
        out: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        if self.files is not None:
            out["attachments"] = [f.file() for f in self.files]
        return out

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message: what is set (``send`` refuses ``view=None``)."""
        fields: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        out = {k: v for k, v in fields.items() if v is not None}
        if self.files:
            out["files"] = [f.file() for f in self.files]
        return out


@dataclass(frozen=True, slots=True)
class MoveNotes:
    """What a move leaves besides the game's new state (:meth:`GameKind.move_notes`): the scores
    of the deals it ended, for the store, and the one-liners it leaves on the table, in order."""

    deal_scores: list[DealScore] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Press:
    """One press of a control on a player's panel, as its custom id and the interaction carry it:
    ``key`` is the decision digest the panel was drawn with (:meth:`GameKind.decision_digest`),
    ``act`` and ``arg`` what the game wrote in the custom id, ``values`` what a select's chooser
    picked (empty for a button). What it asks for is the game's to say
    (:meth:`GameKind.press_action`); everything else about it is the runtime's
    (:mod:`bot.interaction`)."""

    key: str
    act: str
    arg: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PanelRedraw:
    """A press that moves nothing: the panel is drawn again and answers it (Refresh, or choosing
    cards that a later press plays). ``rendered``: the panel as the game drew it for this press
    (a choice marked); None: the panel as it is now, with ``warning`` or ``note`` on it."""

    warning: str | None = None
    note: str | None = None
    rendered: Rendered | None = None


@dataclass(frozen=True, slots=True)
class Explicit:
    """A press's move that names all it asks for (these cards, Ready), so that it means the same
    from a panel drawn before a change: it is not refused as out of date, the engine's check alone
    judges it (and says why, "you are already ready"). Any other move a press asks for is refused
    once the decision digest its panel was drawn with is not the seat's now."""

    action: Action


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One settable rule: its name, the values it takes (as typed by a host) and a line of help."""

    name: str
    values: tuple[str, ...]
    help: str


def _nothing(table: LiveTable) -> None:
    return None


def _no_note(table: LiveTable, seat: SeatRecord) -> None:
    return None


@dataclass(slots=True)
class Lent:
    """What other features lend every game's messages, so that they show under each game's
    messages without the game importing those features (they meet only through the runtime).
    The runtime fills it from the registered features (:class:`bot.features.Features`, each
    feature's one :class:`~bot.features.Feature`) and hands it to every live table
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
    #: the control each seat's last move was pressed with (:func:`bot.panels.press_of`): the same
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
        """``user_id``'s seat, or :class:`~bot.errors.Refusal`: the one guard of every door that
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


def _readable(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def drawn(self: Any, table: LiveTable, *args: Any, **kwargs: Any) -> Any:
        return readable(method(self, table, *args, **kwargs), four_colour(table.record.options))

    return drawn


class GameKind(ABC, Generic[EngineT, ViewT, ActionT]):
    """What the runtime needs from one game: its rules, how its table looks, how it scores and
    how a computer plays it. Implemented by ``cogs/<game>/kind.py``.

    Generic over the game's own engine, seat view and action types, so that a game's adapter
    reads its own engine and views with their own types (:meth:`game` is the one check that a
    table's engine is this game's); the runtime holds any game as :data:`AnyKind`."""

    key: str  # the engine's GAME and the slash command group
    title: str
    engine: type[EngineT]
    presets: tuple[str, ...]
    default_preset: str
    #: per preset key: a name a player understands and one line of what the preset is
    preset_info: Mapping[str, tuple[str, str]] = {}
    #: the label of the table button that shows a player their cards privately (named in notices)
    hand_button: str = N_("My hand")
    #: the table's **My hand** button, drawn by the runtime (``hand_item(game_id, label=...)``): a
    #: subclass of :class:`bot.interaction.HandItem` that gives the game's custom id
    hand_item: Callable[..., discord.ui.Item[Any]]
    #: how a duplicate match compares the players who held the same cards (points by default)
    comparison: Comparison = BY_POINTS
    #: the mark after the name of a game's loser in a list of results (💩); none by default
    loser_mark: str = ""
    #: the game's coach (``/<game> analysis``); None: the game has none
    coaching: Coaching | None = None
    #: how a finished game reads step by step (``/<game> replay``); None: the game has no replay
    replayer: Replayer[EngineT] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every message a game draws for a table goes out readable: its ♠ and ♣ as the card
        emojis (four-colour when the table chose it) or words (:mod:`draw.readable`)."""
        super().__init_subclass__(**kwargs)
        for name in READABLE:
            method = cls.__dict__.get(name)
            if method is not None:
                setattr(cls, name, _readable(method))

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

    def add_profile(self, lines: list[str], profile: Profile) -> None:
        """Add this game's own figures to a member's ``/cardstats`` lines (the first says games,
        wins and places; the second the rating): bids made, times the loser… By default none."""

    @abstractmethod
    def player_range(self, rules: Any) -> tuple[int, int]: ...

    def preset_name(self, preset: str) -> str:
        """A preset as a player reads it ("Oh Shit (secret bids)"), its key if it has no name."""
        return self.preset_info.get(preset, (preset, ""))[0]

    def preset_line(self, preset: str) -> str:
        return self.preset_info.get(preset, ("", ""))[1]

    # -- the running game ---------------------------------------------------------------------
    @abstractmethod
    def message_key(self, engine: EngineT) -> Any:
        """When this changes a new table message is posted (a new deal) and hands are sent."""

    def message_key_of(self, engine: EngineT) -> Any:
        """:meth:`message_key` of ``engine``'s state, made once per state (:mod:`bot.snapshot`):
        the move pipeline asks for the state before a move, the presenter for the state after it
        (which the next move asks for again), the display and a restart for the state shown."""
        return snapshot(engine).message_key(lambda: self.message_key(engine))

    @abstractmethod
    def decision_key(self, view: ViewT, seat: int) -> Any:
        """Everything that bears on ``seat``'s choice now, as JSON-able data, from ``view``: that
        seat's own view, which the runtime passes in (built once per move by :mod:`bot.snapshot`),
        so that the key is made from what ``seat`` may see and nothing else.

        A form or panel drawn for ``seat`` carries a digest of this (:meth:`decision_digest`), and
        the move pipeline refuses its action once the key has changed: a control goes stale when
        something that matters to *that* player changed (the deal, the phase, whether they are to
        act, their legal actions, the bids and cards they can see), never on another player's
        secret bid or unrelated move. It must never hold what ``seat`` may not see."""

    def decision_digest(self, engine: EngineT, seat: int) -> str:
        """A short, restart-proof digest of :meth:`decision_key` for a custom id: 12 hex digits.
        Made once per move and seat (:mod:`bot.snapshot`): the move's check, the panels' redraw
        and their buttons all ask for it."""
        shown = snapshot(engine)
        return shown.digest(seat, lambda: digest(self.decision_key(cast(ViewT, shown.view(seat)), seat)))

    def panel_extra(self, engine: EngineT, seat: int) -> Any:
        """What else ``seat``'s open panel shows that may change while it is not their turn (a
        request to answer), as hashable data: a change redraws the panel (:mod:`bot.panels`).
        None by default."""
        return None

    def computers_wait(self, engine: EngineT) -> bool:
        """Whether a computer whose turn it is waits now (people are answering a request, a
        take-back, that its move would end): the next change at the table wakes it. False by
        default."""
        return False

    def move_notes(self, table: LiveTable, events: list[Event]) -> MoveNotes:
        """What a move's ``events`` leave besides the new state (``table`` holds it), read once
        per move by the move pipeline: the deals they scored, stored with the move, and the public
        one-liners (a deal's result) it adds to :attr:`LiveTable.notices`, so that drawing the
        table never changes it. By default nothing (a game without deals or points)."""
        return MoveNotes()

    def table(self, table: LiveTable, events: list[Event]) -> Rendered:
        """The public table message after ``events``: drawn from the table as it is, changing
        nothing (what the events leave on it comes from :meth:`notices`). The runtime hands the
        game's :meth:`draw_table` this state's public view (built once per move, however many
        places show it: :mod:`bot.snapshot`), then puts what the other features lend a table
        message: **My hand** (:attr:`hand_item`) first, then the game's own controls if any, then
        what the other features lend (:class:`Lent`: a seat's take-back, Watch): the game draws
        its message, the runtime adds the shared controls, and neither asks the other."""
        rendered = self.draw_table(table, events, snapshot(self.mine(table.engine)).view(None))
        controls = discord.ui.View(timeout=None)
        controls.add_item(self.hand_item(table.id, label=self.hand_button))
        for item in [*(rendered.view.children if rendered.view is not None else []), *table.lent.table_controls(table)]:
            controls.add_item(item)
        controls.stop()  # dispatched by custom id (dynamic items): nothing to store
        rendered.view = controls
        return rendered

    @abstractmethod
    def draw_table(self, table: LiveTable, events: list[Event], view: View) -> Rendered:
        """The game's public table message (for :meth:`table`), drawn from ``view``, the public
        view of the table's state; it asks the runtime for nothing more."""

    @abstractmethod
    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        """The last state of a table message whose deal (or game) just ended: no controls."""

    def panel(self, table: LiveTable, seat: int, *, warning: str | None = None, note: str | None = None) -> Rendered:
        """``seat``'s live private panel (ephemeral; kept current by :mod:`bot.panels`): what
        ``seat`` alone may see, their cards and one control a move. The runtime hands the game's
        :meth:`draw_panel` the seat's view and decision digest of this state (each made once per
        move: :mod:`bot.snapshot`)."""
        engine = self.mine(table.engine)
        view = cast(ViewT, snapshot(engine).view(seat))
        return self.draw_panel(table, seat, view, self.decision_digest(engine, seat), warning=warning, note=note)

    @abstractmethod
    def draw_panel(
        self, table: LiveTable, seat: int, view: ViewT, key: str, *, warning: str | None = None, note: str | None = None
    ) -> Rendered:
        """The game's panel for ``seat`` (for :meth:`panel`), drawn from ``view`` (that seat's
        own) with ``key`` (its decision digest) on every control; ``warning`` says why nothing
        happened, ``note`` what did."""

    @abstractmethod
    def press_action(self, table: LiveTable, seat: int, press: Press) -> Action | Explicit | PanelRedraw:
        """What a press on ``seat``'s panel asks for: the move to make, or only a redraw; a
        :class:`~bot.errors.Refusal` when it asks for nothing the player may do. Only the mapping:
        who may press, a press from an out-of-date panel, the computer playing the seat, a double
        press and the answer are the runtime's, the same in every game (:mod:`bot.interaction`)."""

    @abstractmethod
    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        """The private message sent at a new deal (``None``: nothing to send)."""

    @abstractmethod
    def results(self, table: LiveTable) -> list[ResultRow]: ...

    @abstractmethod
    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        """The final standings; under them the controls the features lend a final message
        (``view=table.lent.finale(table)``: the lobby's **Rematch**)."""

    @abstractmethod
    def ai_action(self, view: ViewT, level: str, rng: random.Random) -> ActionT:
        """A computer seat's move, decided from ``ai_view``'s view alone (run off the event loop)."""

    def ai_decider(self) -> Callable[[ViewT, str, random.Random], ActionT] | None:
        """A module-level function deciding as :meth:`ai_action` does, ``(view, level, rng) -> Action``,
        for worker processes (it is pickled by name); None: decide in a thread of the bot's process."""
        return None

    @abstractmethod
    def ai_view(self, engine: EngineT, seat: int) -> ViewT:
        """What a computer seat decides from: that seat's view (a game may add public facts)."""

    def replay(self, rules: Any, record: GameRecord) -> EngineT:
        """The game's state after ``record``'s stored actions, from its stored seed and generator:
        every rebuild (a restart, a re-read, a failed commit, a finished game shown again) goes here."""
        seats, seed = len(record.seats), deal_seed_of(record)
        return self.mine(self.engine.replay(rules, seats, seed, record.actions, rng_version=record.rng_version))

    def game(self, table: LiveTable) -> EngineT:
        """The table's engine as this game's own type (its views are this game's TypedDicts)."""
        return self.mine(table.engine)

    def mine(self, engine: Engine | None) -> EngineT:
        """``engine`` as this game's own type; a table that has not started, or another game's
        engine, is a bug in the runtime (TypeError)."""
        if not isinstance(engine, self.engine):
            raise TypeError(f"not a started {self.title} game: {type(engine).__name__}")
        return engine

    def scores(self, table: LiveTable) -> Rendered:
        """The running scores, for ``/<game> scores``; by default the public table itself, with the
        pictures its embeds point at (``attachment://``: without the file Discord shows none)."""
        rendered = self.table(table, [])
        return Rendered(content=None, embeds=rendered.embeds, view=None, files=rendered.files)

    def stored_scores(self, record: GameRecord, rows: list[ResultRow], deals: list[DealScore]) -> Rendered | None:
        """``/<game> scores`` of a finished game, from what the store kept; ``None``: the generic
        list of places."""
        return None


#: any game's kind, as the runtime holds it (it passes each kind only what that kind gave it)
AnyKind = GameKind[Any, Any, Any]

#: length of :func:`digest`'s text (48 bits: a chance collision between two states is negligible)
DIGEST_LENGTH = 12


def digest(key: Any) -> str:
    """12 lower-case hex digits of a JSON-able value; the same in every process and after restarts
    (canonical JSON, SHA-256), so a custom id carrying it stays comparable after a restart."""
    text = json.dumps(key, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_LENGTH]
