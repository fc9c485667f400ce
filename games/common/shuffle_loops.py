"""Version 3's Fisher-Yates steps as one loop: compiled to C where the install could
(:mod:`games.compiled`), the shuffle's steps then cost about a third of the written-out Python.

Why a module of its own: mypyc compiles it alone, from this unchanged source; it imports
nothing of the generator. :class:`games.common.rng.XofRandom` calls :func:`fisher_yates` only
when the compiled copy is current, and otherwise runs its own written-out steps (faster than this
loop as plain Python); both are the module text's shuffle (``tests/games/test_compiled.py``).
"""

from __future__ import annotations

from typing import Any


def fisher_yates(x: list[Any], r: int, groups: list[tuple[int, list[int]]]) -> None:
    """Fisher-Yates from the end on ``x`` with ``r``'s mixed-radix digits (see
    :mod:`games.common.rng`, version 3): ``groups`` are ``rng._step_groups(len(x))``, each a
    product of radices below one CPython digit and the steps' ``i``, so ``r`` (a big integer) is
    divided once a group and each step's digit comes from a small one."""
    for product, group in groups:
        r, c = divmod(r, product)
        for i in group:
            k = i + 1
            j = c % k
            c //= k
            x[i], x[j] = x[j], x[i]
