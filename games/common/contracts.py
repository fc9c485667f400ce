"""The words both games use for what passes between an engine and its readers (the bot's
renderers, the computer players, the tests), so that one word means one thing everywhere.

Vocabulary, the same in every game:

- ``seat``: a seat number, ``0 .. seat_count - 1``; seats never move during a game.
- ``seat_count``: how many seats the game has (an ``int``, never a list).
- ``viewer``: the seat a view was made for, ``None`` for the public view.
- ``seats``: a list with one entry per seat (a game's per-seat public facts), never a count.
- ``to_act``: the seats that may act now (several during simultaneous bidding).
- ``hand``: the viewer's own cards, as card codes (``"QH"``); only in a seat's view.
- ``legal``: the actions the viewer may take now; only in a seat's view.
- ``phase``: the game's phase name.
- ``rules``: the rules in force, as their JSON form.

An action is a JSON object with a ``"type"`` key (each game types its own, e.g.
``{"type": "bid", "bid": 2}``); what an engine *receives* is untrusted data (from a button, a
stored log, a test), so :meth:`games.common.engine.Engine.check` takes any mapping and says in
words what is wrong with it.
"""

from __future__ import annotations

from typing import Any, TypedDict


class BaseView(TypedDict):
    """The keys every game's view has (each game's view type extends this one)."""

    game: str
    phase: str
    viewer: int | None
    seat_count: int
    to_act: list[int]
    rules: dict[str, Any]
