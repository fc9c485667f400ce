"""How a table's seats are written: each seat's name, its mention, and which seats people play.

A renderer names seats many times in one message (a line per player, a trick's cards, whose turn
it is). :class:`Faces` holds those facts as plain data, made once per message from the seats as
stored (anything with a ``name``, a ``user_id`` and an ``ai_level``: the store's ``SeatRecord``
fits), so drawing reads tuples instead of asking the runtime's live table again for each name.
The runtime's ``LiveTable.mention`` writes a mention with :func:`mention` too: one rule."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


class Seated(Protocol):
    """One seat as stored, as far as drawing reads it."""

    @property
    def name(self) -> str: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def ai_level(self) -> str | None: ...


def mention(seat: Seated) -> str:
    """A person's ping (``<@id>``); a computer (or a seat a computer stands in for) in bold, so
    that nobody is pinged for a computer's turn."""
    if seat.user_id is None or seat.ai_level is not None:
        return f"**{seat.name}**"
    return f"<@{seat.user_id}>"


@dataclass(frozen=True, slots=True)
class Faces:
    """Each seat's name and mention by seat number, and the seats people play now (a computer
    plays the others: its own seats and those it stands in for)."""

    names: tuple[str, ...]
    mentions: tuple[str, ...]
    people: frozenset[int]

    @classmethod
    def of(cls, seats: Iterable[Seated]) -> Faces:
        """The faces of ``seats`` in seat order (the stored list, seat ``i`` at index ``i``)."""
        listed = list(seats)
        return cls(
            names=tuple(s.name for s in listed),
            mentions=tuple(mention(s) for s in listed),
            people=frozenset(i for i, s in enumerate(listed) if s.ai_level is None),
        )

    def name(self, seat: int) -> str:
        return self.names[seat]

    def mention(self, seat: int) -> str:
        return self.mentions[seat]

    def computer(self, seat: int) -> bool:
        """A computer plays ``seat`` (its own, or standing in for its player)."""
        return seat not in self.people
