"""The dice of every game: one documented, versioned, deterministic generator for every random
choice an engine makes (the first dealer, every shuffle).

Why not :mod:`random`: a stored game is its rules, its seed and its moves, and a restarted bot
rebuilds it by dealing again from the seed. Python promises that ``random.Random(seed).random()``
repeats across versions, but not ``shuffle``, ``randrange`` or ``choice``, whose algorithms have
changed before; an upgrade that changed one draw would stop every live game from rebuilding. This
generator is specified below to the byte, so anyone can recompute a game's decks with a page of
standard-library code, on any Python.

Version 3 (``GENERATOR_VERSION``), SHAKE-256, one hash call a draw:

- ``key`` is the seed as 32 bytes, big-endian (seeds are integers in ``[0, 2**256)``).
- Every draw (a ``below``, a ``random`` or a ``shuffle``) is numbered ``c = 0, 1, 2, ...`` in the
  order made and reads its own stream from the start:
  ``SHAKE-256(b"cardtable/v3/" + key + c.to_bytes(8, "big"))`` (an extendable output: as many
  bytes as the draw needs). A *word* is 8 bytes of it read as a big-endian unsigned integer.
- ``below(n)`` (``n >= 1``) reads the stream's words in turn until one is below
  ``2**64 - 2**64 % n`` and returns it modulo ``n``.
- ``random()`` is the stream's first word's top 53 bits divided by ``2**53``.
- ``shuffle(x)``, ``m = len(x)``: ``F = m!`` (factorial) and ``L = (F.bit_length() + 7) // 8 + 8``
  bytes (52 cards: 37). Read the stream ``L`` bytes at a time, each as a big-endian integer, until
  one, ``v``, is below ``2**(8 * L) - 2**(8 * L) % F`` (so ``v % F`` is uniform over ``[0, F)``;
  a second chunk is needed with probability under ``2**-64``); ``r = v % F``. Then Fisher-Yates
  from the end with ``r``'s mixed-radix digits: for ``i`` from ``m - 1`` down to ``1``,
  ``j = r % (i + 1)``, ``r = r // (i + 1)``, swap ``x[i]`` and ``x[j]``. A list of fewer than two
  items is left alone, but the call still uses its draw number.

Why version 3: version 2 drew 51 words (and made a fresh HMAC every 32 bytes) for one 52-card
shuffle, about 45 to 120 microseconds; version 3 makes one hash call and 51 small divisions, about
4.5 (``python bench/engine.py`` prints the figure; how the code gets there: ``_shuffle_steps``,
and the steps compiled to C where the install could: :mod:`games.common.shuffle_loops`).

Version 2, HMAC-SHA-256 in counter mode (games stored from version 2 until version 3):

- ``key`` as above.
- Block ``i`` (``i = 0, 1, 2, ...``) is ``HMAC-SHA-256(key, b"cardtable/v2/" + i.to_bytes(8, "big"))``;
  the stream is the blocks' bytes one after the other (one stream for the whole game).
- A *word* is the stream's next 8 bytes read as a big-endian unsigned integer.
- ``below(n)`` (``n >= 1``) draws words until one is below ``2**64 - 2**64 % n`` and returns it
  modulo ``n`` (rejection, so every value is exactly equally likely).
- ``shuffle(x)`` is Fisher-Yates from the end: for ``i`` from ``len(x) - 1`` down to ``1``,
  ``j = below(i + 1)``, swap ``x[i]`` and ``x[j]``.
- ``random()`` is the next word's top 53 bits divided by ``2**53``.

An engine draws in a fixed order (Oh Hell: the first dealer, then each deal's shuffle; Shithead:
the shuffle, then the dealer), so the seed fixes every deal of the game and nothing else does.

Version 1 is ``random.Random(seed)``, which dealt every game stored before version 2 existed. A
stored game records the version it was dealt with (``games.rng_version``) and is always rebuilt
with that one.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import math
import random
from collections.abc import Callable, MutableSequence
from typing import TYPE_CHECKING, Any, Protocol

from games.compiled import compiled, load

if TYPE_CHECKING:
    from games.common import shuffle_loops
else:  # the compiled copy where it is current (games.compiled)
    shuffle_loops = load("games.common.shuffle_loops")

#: what new games are dealt with
GENERATOR_VERSION = 3
#: HMAC-SHA-256 in counter mode: games stored from version 2 until version 3
HMAC_VERSION = 2
#: ``random.Random(seed)``: games stored before version 2
LEGACY_VERSION = 1
VERSIONS = (LEGACY_VERSION, HMAC_VERSION, GENERATOR_VERSION)

_LABEL = b"cardtable/v2/"
_XOF_LABEL = b"cardtable/v3/"
_WORD = 2**64


class GameRng(Protocol):
    """What an engine may ask of its dice (both versions provide it)."""

    def random(self) -> float: ...
    def randrange(self, n: int, /) -> int: ...
    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


class HmacRandom:
    """Version 2 of the generator (see the module's text for the exact definition)."""

    __slots__ = ("_key", "_block", "_buffer", "_pos")
    version = HMAC_VERSION

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or not 0 <= seed < 2**256:
            raise ValueError("A seed is an integer from 0 to 2**256 - 1.")
        self._key = seed.to_bytes(32, "big")
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def _word(self) -> int:
        if self._pos + 8 > len(self._buffer):
            digest = hmac.new(self._key, _LABEL + self._block.to_bytes(8, "big"), hashlib.sha256).digest()
            self._buffer, self._pos, self._block = digest, 0, self._block + 1
        word = int.from_bytes(self._buffer[self._pos : self._pos + 8], "big")
        self._pos += 8
        return word

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _WORD - _WORD % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def randrange(self, n: int, /) -> int:
        return self.below(n)

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def random(self) -> float:
        return (self._word() >> 11) / 2**53

    def getstate(self) -> tuple[bytes, int, bytes, int]:
        """Where the stream stands (equal states draw the same from here on)."""
        return self._key, self._block, self._buffer, self._pos

    def setstate(self, state: tuple[bytes, int, bytes, int]) -> None:
        self._key, self._block, self._buffer, self._pos = state

    def __copy__(self) -> HmacRandom:
        twin = HmacRandom.__new__(HmacRandom)
        twin._key, twin._block, twin._buffer, twin._pos = self._key, self._block, self._buffer, self._pos
        return twin


#: one CPython int digit (30 bits): arithmetic on ints below it takes the interpreter's fast paths
_ONE_DIGIT = 2**30
#: the longest list whose Fisher-Yates steps are written out as one function (see _shuffle_steps)
_STRAIGHT_MAX = 256

#: ``steps(x, r)``: the Fisher-Yates swaps of ``x`` taken from ``r``'s mixed-radix digits
ShuffleSteps = Callable[[MutableSequence[Any], int], None]


def _step_groups(m: int) -> list[tuple[int, list[int]]]:
    """The steps' ``i`` from ``m - 1`` down to 1, in groups: ``(the product of the group's
    radices i + 1, the group's i)``, each product under ``_ONE_DIGIT``.

    Why groups: ``r``'s mixed-radix digits (``j = r % k; r //= k`` for ``k = m, m - 1, ...``)
    taken directly cost 51 divisions of a 225-bit integer for 52 cards, each making a new big
    integer. ``r = c + P * r'`` with ``P`` the product of a group's radices, and ``c``'s digits
    are the group's digits of ``r``: one division of ``r`` by ``P`` a group, then the digits
    from ``c``, a one-digit integer (the same digits, about 0.5 µs less a 52-card shuffle)."""
    groups: list[tuple[int, list[int]]] = []
    product = 1
    steps: list[int] = []
    for i in range(m - 1, 0, -1):
        if product * (i + 1) >= _ONE_DIGIT:
            groups.append((product, steps))
            product, steps = 1, []
        steps.append(i)
        product *= i + 1
    if steps:
        groups.append((product, steps))
    return groups


def _shuffle_steps(m: int) -> ShuffleSteps:
    """The Fisher-Yates steps for a list of ``m`` items as one function, written out step by
    step for up to ``_STRAIGHT_MAX`` items (a loop over the groups for longer lists).

    Why written out: a loop over the 51 steps of a 52-card shuffle pays, every step, for the
    loop itself (the next step, its ``i`` and ``i + 1`` unpacked and stored) on top of the two
    divisions and the swap; the same steps as straight-line code with ``i`` and ``i + 1`` as
    constants take about a quarter less (``python bench/engine.py`` prints µs per shuffle).
    The source is plain (``r, c = divmod(r, P)`` a group, then ``j = c % k; c //= k;
    x[i], x[j] = x[j], x[i]`` a step), only integers go into it, and it is kept as the
    function's ``__doc__``. ``tests/games/common/test_rng.py`` checks every length from 0 to
    130, and a longer one, against the module's text."""
    groups = _step_groups(m)
    if m > _STRAIGHT_MAX:

        def steps(x: MutableSequence[Any], r: int) -> None:
            for product, group in groups:
                r, c = divmod(r, product)
                for i in group:
                    j = c % (i + 1)
                    c //= i + 1
                    x[i], x[j] = x[j], x[i]

        return steps
    lines = ["def steps(x, r):"]
    for product, group in groups:
        lines.append(f"    r, c = divmod(r, {product})")
        lines += [f"    j = c % {i + 1}; c //= {i + 1}; x[{i}], x[j] = x[j], x[{i}]" for i in group]
    lines.append("    return None")
    source = "\n".join(lines)
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<shuffle steps, {m} items>", "exec"), namespace)  # only integers in the source
    function: ShuffleSteps = namespace["steps"]
    function.__doc__ = source
    return function


#: ``(m!, L, the rejection limit, the steps, the steps' groups)`` for a list of ``m`` items
ShufflePlan = tuple[int, int, int, ShuffleSteps, list[tuple[int, list[int]]]]


def _shuffle_plan(m: int) -> ShufflePlan:
    """For a list of ``m`` items: ``(m!, L, the rejection limit, the steps, their groups)``."""
    factorial = math.factorial(m)
    size = (factorial.bit_length() + 7) // 8 + 8
    limit = 2 ** (8 * size) - 2 ** (8 * size) % factorial
    return factorial, size, limit, _shuffle_steps(m), _step_groups(m)


#: shuffle plans by list length (a game shuffles one or two lengths thousands of times)
_PLANS: dict[int, ShufflePlan] = {}
#: the steps as one compiled loop (games.common.shuffle_loops) when its compiled copy is current,
#: else None: the written-out steps are then the faster way in Python
_FISHER_YATES = shuffle_loops.fisher_yates if compiled(shuffle_loops) else None


class XofRandom:
    """Version 3 of the generator (see the module's text for the exact definition): each draw
    is one SHAKE-256 call, and a whole shuffle is one integer below ``m!`` read from it."""

    __slots__ = ("_prefix", "_draw")
    version = GENERATOR_VERSION

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or not 0 <= seed < 2**256:
            raise ValueError("A seed is an integer from 0 to 2**256 - 1.")
        self._prefix = _XOF_LABEL + seed.to_bytes(32, "big")
        self._draw = 0

    def _stream(self, length: int) -> bytes:
        """The first ``length`` bytes of the next draw's stream."""
        draw = self._draw
        self._draw = draw + 1
        return hashlib.shake_256(self._prefix + draw.to_bytes(8, "big")).digest(length)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _WORD - _WORD % n
        stream = self._stream(64)
        pos = 0
        while True:
            if pos + 8 > len(stream):  # eight words refused (only for n near 2**64): read further
                self._draw -= 1
                stream = self._stream(2 * len(stream))
            word = int.from_bytes(stream[pos : pos + 8], "big")
            if word < limit:
                return word % n
            pos += 8

    def randrange(self, n: int, /) -> int:
        return self.below(n)

    def random(self) -> float:
        return (int.from_bytes(self._stream(8), "big") >> 11) / 2**53

    def shuffle(self, x: MutableSequence[Any], /) -> None:
        m = len(x)
        plan = _PLANS.get(m)
        if plan is None:
            plan = _PLANS[m] = _shuffle_plan(m)
        factorial, size, limit, steps, groups = plan
        stream = self._stream(size)
        v = int.from_bytes(stream, "big")
        chunk = 0
        while v >= limit:  # probability under 2**-64 a shuffle
            chunk += 1
            self._draw -= 1
            stream = self._stream(size * (chunk + 1))
            v = int.from_bytes(stream[size * chunk :], "big")
        if _FISHER_YATES is not None and type(x) is list:
            _FISHER_YATES(x, v % factorial, groups)
        else:
            steps(x, v % factorial)

    def getstate(self) -> tuple[bytes, int]:
        """Where the stream stands (equal states draw the same from here on)."""
        return self._prefix, self._draw

    def setstate(self, state: tuple[bytes, int]) -> None:
        self._prefix, self._draw = state

    def __copy__(self) -> XofRandom:
        twin = XofRandom.__new__(XofRandom)
        twin._prefix, twin._draw = self._prefix, self._draw
        return twin


def make_rng(seed: int, version: int = GENERATOR_VERSION) -> GameRng:
    """The one way an engine gets its dice: the game's seed, dealt with ``version``."""
    if version == GENERATOR_VERSION:
        return XofRandom(seed)
    if version == HMAC_VERSION:
        return HmacRandom(seed)
    if version == LEGACY_VERSION:
        return random.Random(seed)
    raise ValueError(f"Unknown deal generator version {version!r} (this code knows {VERSIONS}).")


def copy_rng(rng: GameRng) -> GameRng:
    """An independent generator that will draw exactly what ``rng`` would draw next."""
    return copy.copy(rng)
