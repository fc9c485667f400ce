"""The dice of every game: one documented, versioned, deterministic generator for every random
choice an engine makes (the first dealer, every shuffle).

Why not :mod:`random`: a stored game is its rules, its seed and its moves, and a restarted bot
rebuilds it by dealing again from the seed. Python promises that ``random.Random(seed).random()``
repeats across versions, but not ``shuffle``, ``randrange`` or ``choice``, whose algorithms have
changed before; an upgrade that changed one draw would stop every live game from rebuilding. This
generator is specified below to the byte, so anyone can recompute a game's decks with a page of
standard-library code, on any Python.

Version 2 (``GENERATOR_VERSION``), HMAC-SHA-256 in counter mode:

- ``key`` is the seed as 32 bytes, big-endian (seeds are integers in ``[0, 2**256)``).
- Block ``i`` (``i = 0, 1, 2, ...``) is ``HMAC-SHA-256(key, b"cardtable/v2/" + i.to_bytes(8, "big"))``;
  the stream is the blocks' bytes one after the other.
- A *word* is the stream's next 8 bytes read as a big-endian unsigned integer.
- ``below(n)`` (``n >= 1``) draws words until one is below ``2**64 - 2**64 % n`` and returns it
  modulo ``n`` (rejection, so every value is exactly equally likely).
- ``shuffle(x)`` is Fisher-Yates from the end: for ``i`` from ``len(x) - 1`` down to ``1``,
  ``j = below(i + 1)``, swap ``x[i]`` and ``x[j]``.
- ``random()`` is the next word's top 53 bits divided by ``2**53``.

An engine draws in a fixed order (Oh Hell: the first dealer, then each deal's shuffle; Shithead:
the shuffle, then the dealer), so the seed fixes every deal of the game and nothing else does.

Version 1 is ``random.Random(seed)``, which dealt every game stored before version 2 existed. A
stored game records the version it was dealt with and is always rebuilt with that one.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import random
from collections.abc import MutableSequence
from typing import Any, Protocol

#: what new games are dealt with
GENERATOR_VERSION = 2
#: ``random.Random(seed)``: games stored before version 2
LEGACY_VERSION = 1
VERSIONS = (LEGACY_VERSION, GENERATOR_VERSION)

_LABEL = b"cardtable/v2/"
_WORD = 2**64


class GameRng(Protocol):
    """What an engine may ask of its dice (both versions provide it)."""

    def random(self) -> float: ...
    def randrange(self, n: int, /) -> int: ...
    def shuffle(self, x: MutableSequence[Any], /) -> None: ...


class HmacRandom:
    """Version 2 of the generator (see the module's text for the exact definition)."""

    __slots__ = ("_key", "_block", "_buffer", "_pos")
    version = GENERATOR_VERSION

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


def make_rng(seed: int, version: int = GENERATOR_VERSION) -> GameRng:
    """The one way an engine gets its dice: the game's seed, dealt with ``version``."""
    if version == GENERATOR_VERSION:
        return HmacRandom(seed)
    if version == LEGACY_VERSION:
        return random.Random(seed)
    raise ValueError(f"Unknown deal generator version {version!r} (this code knows {VERSIONS}).")


def copy_rng(rng: GameRng) -> GameRng:
    """An independent generator that will draw exactly what ``rng`` would draw next."""
    return copy.copy(rng)
