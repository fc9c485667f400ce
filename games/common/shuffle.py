"""The seeded shuffle, as a function that returns a new list.

The computer players deal thousands of imagined hands a second from a plain ``random.Random``:
for that generator (and for games dealt with generator version 1, which used it) the shuffle sorts
the items by one ``random()`` key per item, the same uniform distribution as Fisher-Yates (ties
have probability ~2**-53) about three times faster. Any other generator, the game's own
:class:`games.common.rng.XofRandom` (version 3) and :class:`games.common.rng.HmacRandom`
(version 2) among them, shuffles with its own documented Fisher-Yates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from games.common.rng import GameRng

T = TypeVar("T")


def shuffled(items: Sequence[T], rng: GameRng) -> list[T]:
    """A uniformly random permutation of ``items``, drawn only from ``rng``."""
    if isinstance(rng, random.Random):
        rnd = rng.random
        keys = [rnd() for _ in items]
        return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]
    out = list(items)
    rng.shuffle(out)
    return out
