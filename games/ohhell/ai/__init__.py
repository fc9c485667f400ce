"""Computer players for Oh Hell.

The bot calls::

    action = choose_action(ai_view(game, seat), level, rng)   # level: "quick" or "strong"
    game.apply(seat, action)

or, the same in one call, ``computer_move(game, seat, level, rng)``.

``rng`` is the seat's own seeded ``random.Random``; the decision depends on nothing else, so a
replay with the same generator state makes the same move. The returned action is always one of
the view's legal actions (in penalize mode one that is not a revoke).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from games.compiled import load

# the playouts' simulator, compiled to C where the install could: loaded here, before any module
# of this package imports it, so that a compiled copy runs only when it is current
load("games.ohhell.ai.sim")

from games.ohhell.actions import OhHellAction  # noqa: E402
from games.ohhell.rules import Rules  # noqa: E402
from games.ohhell.views import OhHellSeatView  # noqa: E402

from .infostate import InfoState  # noqa: E402
from .players import LEVELS, Decision, StrongConfig, decide, option_values  # noqa: E402
from .view_adapter import action_for, ai_view, decision_for, info_from_view  # noqa: E402

if TYPE_CHECKING:
    from games.ohhell.game import OhHell


def choose_action(
    view: OhHellSeatView,
    level: str,
    rng: random.Random,
    *,
    rules: Rules | dict[str, Any] | None = None,
    config: StrongConfig | None = None,
) -> OhHellAction:
    """The engine action a computer of ``level`` takes from this seat's view.

    ``view`` should come from :func:`ai_view` (the engine's view plus the rules and this deal's
    plays); a bare ``game.view(seat)`` works if ``rules`` is given, but then the computer only
    knows the cards of the current trick."""
    options = view.get("proper") or view.get("legal")
    if not options:
        raise ValueError("it is not this seat's turn to act")
    if len(options) == 1:
        return options[0].copy()
    info = info_from_view(view, rules)
    return action_for(view, decide(info, level, rng, config))


def computer_move(game: OhHell, seat: int, level: str, rng: random.Random) -> OhHellAction:
    """The action the computer in ``seat`` takes now (reads only that seat's view and the
    public rules and plays, through :func:`ai_view`)."""
    return choose_action(ai_view(game, seat), level, rng)


def action_values(
    game: OhHell, seat: int, actions: list[OhHellAction], rng: random.Random, worlds: int, noise: float
) -> list[float]:
    """What each of ``actions`` (legal for ``seat`` now) is worth to the seat in deal points,
    judged from its own view only (:func:`.players.option_values`): the coach's measure of a
    decision, so a seat is never credited for a hidden card it could not know."""
    view = ai_view(game, seat)
    info = info_from_view(view)
    return option_values(info, [decision_for(action) for action in actions], rng, worlds, noise)


__all__ = [
    "LEVELS",
    "Decision",
    "InfoState",
    "StrongConfig",
    "action_values",
    "ai_view",
    "choose_action",
    "computer_move",
    "decide",
    "info_from_view",
]
