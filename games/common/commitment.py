"""The provable shuffle: how a game commits to its seed before the first card is dealt, and the
computer players' dice, which must know nothing of that seed.

When a game starts the bot draws the seed (see :mod:`games.common.rng`) and a *salt* of
``SALT_BYTES`` random bytes, and shows everyone the commitment::

    SHA-256( b"cardtable/commitment/v1" || version (1 byte) || seed (32 bytes, big-endian) || salt )

as 64 lower-case hex digits (``version`` is the deal generator's version, 2). When the game is
over the seed and the salt are revealed: anyone can recompute the hash, compare it with what the
table showed at the start, then recompute every deck from the seed. The salt is why the
commitment gives nothing away during the game: without it, the hash of a 62-bit seed could in
principle be searched seed by seed; with 256 unknown random bits it cannot. Once shown, the
commitment pins the seed (finding another seed and salt with the same hash would break SHA-256).

The computer players draw their own randomness from :func:`computer_seed`, an HMAC of the salt
(never of the seed), so nothing they compute depends on the deck order they must not see, and
knowing their dice (after the game) reveals nothing of the seed.
"""

from __future__ import annotations

import hashlib
import hmac

COMMIT_LABEL = b"cardtable/commitment/v1"
_COMPUTERS_LABEL = b"cardtable/computers/v1/"
SALT_BYTES = 32


def commitment(seed: int, salt: bytes, version: int) -> str:
    """The hex SHA-256 commitment to ``seed`` (see the module's text for the exact bytes)."""
    if not isinstance(seed, int) or not 0 <= seed < 2**256:
        raise ValueError("A seed is an integer from 0 to 2**256 - 1.")
    if len(salt) != SALT_BYTES:
        raise ValueError(f"A salt is {SALT_BYTES} bytes.")
    if not 0 <= version < 256:
        raise ValueError("A generator version is a number from 0 to 255.")
    data = COMMIT_LABEL + bytes([version]) + seed.to_bytes(32, "big") + salt
    return hashlib.sha256(data).hexdigest()


def matches(commitment_hex: str, seed: int, salt: bytes, version: int) -> bool:
    """Whether the revealed ``seed`` and ``salt`` are the ones ``commitment_hex`` was made from."""
    return hmac.compare_digest(commitment_hex.lower(), commitment(seed, salt, version))


def computer_seed(salt: bytes, seq: int) -> int:
    """A seed for a computer's move number ``seq`` (the action count): from the salt, never the seed."""
    digest = hmac.new(salt, _COMPUTERS_LABEL + seq.to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")
