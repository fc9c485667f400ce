"""The drand ``quicknet`` chain, pinned: its public key, genesis time and period are the chain's
published parameters, written here once, so that a relay can never hand the bot another chain's
key (the bot never asks a relay for ``/info``).

Round ``n`` is published at ``genesis + (n - 1) * period`` (Unix seconds); round 1 at genesis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Chain:
    """A drand chain's public parameters (those of an unchained min-sig chain: BLS12-381
    signatures in G1, the group's key in G2, hashed to the curve per RFC 9380)."""

    name: str
    #: the chain's hash: a relay's path names it
    hash: str
    #: the group's public key, a compressed G2 point (96 bytes)
    public_key: bytes
    genesis_time: int
    period: int
    #: the hash-to-curve domain separation tag of scheme ``bls-unchained-g1-rfc9380``
    dst: bytes = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"

    def round_time(self, number: int) -> int:
        """When round ``number`` is published (Unix seconds)."""
        if number < 1:
            raise ValueError("drand rounds start at 1")
        return self.genesis_time + (number - 1) * self.period

    def round_after(self, unix_time: float, lead: float) -> int:
        """The first round published at least ``lead`` seconds after ``unix_time``: a game names it
        so that the round cannot exist when its commitment is posted."""
        wanted = unix_time + lead
        if wanted <= self.genesis_time:
            return 1
        return math.ceil((wanted - self.genesis_time) / self.period) + 1


#: League of Entropy mainnet ``quicknet`` (scheme ``bls-unchained-g1-rfc9380``), as published
QUICKNET = Chain(
    name="quicknet",
    hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    public_key=bytes.fromhex(
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c"
        "8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb"
        "5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
    ),
    genesis_time=1692803367,
    period=3,
)
