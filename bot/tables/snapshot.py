"""One state of a game as the bot shows it: each view built at most once per move.

After a move the bot shows the new state in many places: the table message, each open panel (does
it need a redraw? the redraw itself), the decision digest its buttons carry, the spectators' view,
the check of the next press. Each asks the engine for the public view or a seat's view, and building
one walks the whole game. A :class:`Snapshot` of one state builds each view the first time it is
asked for and hands the same one to every later asker, so a move costs at most one public view and
one view per seat, however many places show it.

A snapshot belongs to one engine object at one ``action_count``: the next move changes the count (an
engine may apply moves in place), so :func:`snapshot` drops the old state's snapshot and starts an
empty one; the move pipeline also drops it at once (:func:`forget`). Snapshots are held weakly, so a
table's engine replaced by a rebuild takes its snapshot with it.

Secrecy is unchanged: :meth:`Snapshot.view` hands a seat's view only to the code that asks for that
seat, exactly as ``engine.view(seat)`` would (the doors of :mod:`bot.tables.secrecy` stand in front of
both); the snapshot only saves building it again. A view from here is shared by every asker of this
move: read it, never change it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, cast, overload

from games.common.contracts import BaseView
from games.common.engine import Engine

#: a game's public view and seat view (its engine's own TypedDicts: ``Engine[PublicT, SeatT]``)
PublicT = TypeVar("PublicT", bound=BaseView)
SeatT = TypeVar("SeatT", bound=BaseView)


class Snapshot(Generic[PublicT, SeatT]):
    """The views (decision digests and message key) of one engine's state, each built once, when first asked."""

    __slots__ = ("engine", "count", "_public", "_views", "_digests", "_message_key", "built", "__weakref__")

    def __init__(self, engine: Engine[PublicT, SeatT]) -> None:
        self.engine = engine
        self.count = engine.action_count
        self._public: PublicT | None = None
        self._views: dict[int, SeatT] = {}
        self._digests: dict[int, str] = {}
        self._message_key: tuple[Hashable] | None = None
        #: views built for this state (for the tests: at most 1 + seats)
        self.built = 0

    @overload
    def view(self, viewer: None) -> PublicT: ...
    @overload
    def view(self, viewer: int) -> SeatT: ...
    def view(self, viewer: int | None) -> PublicT | SeatT:
        """``engine.view(viewer)`` of this state: the public view for ``None``, else that seat's."""
        if viewer is None:
            if self._public is None:
                self._public = self.engine.view(None)
                self.built += 1
            return self._public
        found = self._views.get(viewer)
        if found is None:
            found = self._views[viewer] = self.engine.view(viewer)
            self.built += 1
        return found

    def digest(self, seat: int, make: Callable[[], str]) -> str:
        """``seat``'s decision digest in this state, made by ``make()`` the first time."""
        found = self._digests.get(seat)
        if found is None:
            found = self._digests[seat] = make()
        return found

    def message_key(self, make: Callable[[], Hashable]) -> Hashable:
        """The game's message key in this state, made by ``make()`` the first time: the move
        pipeline asks for it before a move and the presenter for it after it, so the state after one
        move (its key asked by the presenter) is asked again as the state before the next."""
        if self._message_key is None:
            self._message_key = (make(),)
        return self._message_key[0]


_snapshots: weakref.WeakKeyDictionary[Engine, Snapshot[BaseView, BaseView]] = weakref.WeakKeyDictionary()


def snapshot(engine: Engine[PublicT, SeatT]) -> Snapshot[PublicT, SeatT]:
    """The snapshot of ``engine``'s current state (a fresh one after each move)."""
    found = _snapshots.get(engine)
    if found is None or found.count != engine.action_count:
        made = Snapshot(engine)
        _snapshots[engine] = cast(Snapshot[BaseView, BaseView], made)
        return made
    # the snapshot kept under ``engine`` was made from ``engine`` itself, so its views are the ones
    # ``engine.view`` gives (the cache holds every game's, hence the wider type it is kept under)
    return cast(Snapshot[PublicT, SeatT], found)


@overload
def view(engine: Engine[PublicT, SeatT], viewer: None) -> PublicT: ...
@overload
def view(engine: Engine[PublicT, SeatT], viewer: int) -> SeatT: ...
def view(engine: Engine[PublicT, SeatT], viewer: int | None) -> PublicT | SeatT:
    """``engine.view(viewer)``, built at most once per state (see :class:`Snapshot`)."""
    return snapshot(engine).view(viewer)


def forget(engine: Engine) -> None:
    """``engine`` changed (a move was applied): its old state's views must never be shown again."""
    _snapshots.pop(engine, None)
