"""The shape every game engine has, so the bot, the computer players and the tests drive any game
the same way.

An engine is a deterministic state machine. Everything random comes from the game's own dice,
:func:`games.common.rng.make_rng` over the game's seed and generator version (never the global
``random``), so ``(rules, seats, seed, generator version, log)`` rebuilds the identical game: that
is how the bot persists a game (it stores the log) and how a restarted bot resumes one.

Actions and events are plain JSON-able data so they can be stored and shown without knowing
the game: an action is a ``dict`` with a ``"type"`` key (``{"type": "bid", "bid": 2}``,
``{"type": "play", "card": "QH"}``); an event is an :class:`Event`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, overload

from games.common.cards import Card
from games.common.contracts import BaseView
from games.common.rng import GENERATOR_VERSION

if TYPE_CHECKING:  # games/ runs on the standard library alone; only the type checker reads it
    from typing_extensions import TypeVar
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, *constraints: object, default: object = None, **kwargs: object) -> object:  # noqa: N802
        """A type variable; its default (PEP 696) is for the type checker alone before 3.13."""
        return _TypeVar(name, *constraints, **kwargs)


#: the public view a game's engine gives (``view(None)``), its own TypedDict (covariant: any
#: game's engine is an ``Engine`` read as :class:`BaseView`)
PublicT = TypeVar("PublicT", bound=BaseView, default=BaseView, covariant=True)
#: the view a seat gets (``view(seat)``): the public one unless the game gives seats more
SeatT = TypeVar("SeatT", bound=BaseView, default=PublicT, covariant=True)

#: an action as stored and sent: a JSON object with a ``"type"`` key. Each game types its own
#: actions as TypedDicts; what an engine *receives* is any mapping, checked by :meth:`Engine.check`.
Action = dict[str, Any]
ActionData = Mapping[str, Any]


class GameError(Exception):
    """Base of every error an engine raises; ``str(error)`` can be shown to a player as it is."""


class IllegalAction(GameError):
    """The action is not allowed now (out of turn, an illegal card, a bid out of range...)."""


class RulesError(GameError):
    """A rule set that cannot work; the message says why and what would work."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``seat`` set means only that seat may see it (a dealt hand)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": self.data}
        if self.seat is not None:
            out["seat"] = self.seat
        return out


#: every game's engine by its ``GAME`` name, registered when its class is defined: how a stored
#: game or a hand history finds its engine (:mod:`games.replay` imports the packages under games/)
ENGINES: dict[str, type[Engine]] = {}


class Engine(ABC, Generic[PublicT, SeatT]):
    """What the bot needs from a game. Subclasses add their own richer, typed API.

    Generic over the game's own views (``Engine[OhHellView, OhHellSeatView]``), so that whoever
    reads an engine's views (the bot's renderers, its snapshot of a state) gets the game's own
    TypedDicts without narrowing them; a bare ``Engine`` is any game's, read as a :class:`BaseView`."""

    #: short name used in the database and in custom ids ("ohhell", "shithead")
    GAME: ClassVar[str]
    #: version of :meth:`to_json`'s layout; bump when it changes and keep reading older ones
    JSON_VERSION: ClassVar[int] = 1
    #: the deal generator this game was shuffled with (games/common/rng.py)
    rng_version: int = GENERATOR_VERSION
    #: how a game draws on its seed, written into the shuffle file so that its stand-alone
    #: checker (tools/verify_shuffle.py) needs no game's rules: the ``randrange(seats)`` draws
    #: made before the first shuffle (a first dealer drawn before the cards are shuffled)...
    DRAWS_BEFORE_SHUFFLE: ClassVar[int] = 0
    #: ...and how generator 1 (Python's ``random.Random``) shuffled: "keys" sorts the cards by
    #: one ``random()`` each (:func:`games.common.shuffle.shuffled`), "python" is ``random.shuffle``
    LEGACY_SHUFFLE: ClassVar[str] = "keys"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        game = cls.__dict__.get("GAME")
        if isinstance(game, str):
            ENGINES[game] = cls

    # -- building -----------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> Any:
        """The game's rules from the JSON object a stored game or a hand history keeps."""

    @classmethod
    @abstractmethod
    def new(cls, rules: Any, seats: int, seed: int, *, rng_version: int = GENERATOR_VERSION) -> Engine:
        """A fresh game dealt from ``make_rng(seed, rng_version)``; raises :class:`RulesError`
        before dealing if the rules cannot work."""

    @classmethod
    def replay(
        cls,
        rules: Any,
        seats: int,
        seed: int,
        log: Sequence[tuple[int, ActionData]],
        *,
        rng_version: int = GENERATOR_VERSION,
    ) -> Engine:
        """Rebuild a game from its seed, the generator version it was dealt with, and its log."""
        game = cls.new(rules, seats, seed, rng_version=rng_version)
        for seat, action in log:
            game, _ = game.apply(seat, action)
        return game

    # -- whose turn -------------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> list[int]:
        """Seats that may act now (several during simultaneous bidding); empty when over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[ActionData]:
        """Every action ``seat`` may take now (empty if it is not their turn)."""

    @abstractmethod
    def check(self, seat: int, action: ActionData) -> None:
        """Raise :class:`IllegalAction` with a player-readable reason, or return if legal."""

    @abstractmethod
    def apply(self, seat: int, action: ActionData) -> tuple[Engine, list[Event]]:
        """Check then do ``action``; returns the new state and its events.

        The new state may be ``self`` changed in place (every engine here is: copying a state per
        move would cost every move and every replayed one), so the state before a move is gone once
        ``apply`` returns: a caller that may have to drop the move (the store refused it) rebuilds
        the state before it from the log it kept (:meth:`replay`), never from the object it held."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    # -- what each seat may see -------------------------------------------------------------
    @abstractmethod
    def final_standings(self) -> list[dict[str, Any]]:
        """Per seat, in seat order, once the game is over: ``seat``, ``place`` (1 is first; equal
        players share one), ``total`` (None for a game that keeps no score) and ``is_loser``, as
        the bot stores its results: what a replayed game is checked against."""

    def result_lines(self, names: Sequence[str]) -> list[str]:
        """The result of a finished game, a line a place, for ``python -m games.replay``."""
        rows = sorted(self.final_standings(), key=lambda r: (r["place"], r["seat"]))
        return [
            f"{r['place']}. {names[r['seat']]}" + (f" {r['total']}" if r["total"] is not None else "") for r in rows
        ]

    @overload
    def view(self, seat: int) -> SeatT: ...
    @overload
    def view(self, seat: None) -> PublicT: ...
    @abstractmethod
    def view(self, seat: int | None) -> PublicT | SeatT:
        """Everything ``seat`` may see (``None``: the public view); never another hidden card.
        Each game returns its own TypedDicts extending :class:`BaseView`."""

    # -- the deals (stored so that anyone can check the shuffle after the game) -----------------
    @property
    def deal_number(self) -> int:
        """The deal being played, 1 for the first; a game of one deal stays at 1."""
        return 1

    def dealt_deck(self) -> Sequence[Card] | None:
        """The whole deck of the current deal in the order it was dealt (the first card dealt
        first), or None if this game does not keep it."""
        return None

    def pack(self) -> Sequence[Card] | None:
        """The cards the current deal's deck is a shuffle of, in the order the generator
        shuffles them (the shuffle file names it, so a checker needs no rules), or None."""
        return None

    def last_deal_hands(self) -> dict[int, list[Card]] | None:
        """Every card each seat held in the last finished deal (shown to spectators once a deal
        is over), or None before the first deal ends or in a game of one deal."""
        return None

    # -- storage ----------------------------------------------------------------------------
    @property
    @abstractmethod
    def log(self) -> Sequence[tuple[int, ActionData]]:
        """Every accepted action in order: with the rules, seats and seed, the whole game."""

    @property
    def action_count(self) -> int:
        """``len(log)``: the number a game's stored moves follow. The bot asks it on every move
        and timer; an engine that builds its log on demand answers it without doing so."""
        return len(self.log)

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Stable, versioned JSON form (includes ``"version"``)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Engine: ...
