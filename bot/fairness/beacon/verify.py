"""A drand round checked against a pinned chain key, with no I/O.

Min-sig BLS on BLS12-381 (drand's ``bls-unchained-g1-rfc9380``): the message is SHA-256 of the
round number as 8 big-endian bytes, hashed to G1 with the chain's DST; the signature is a
compressed G1 point; it is valid when e(signature, g2) = e(H(message), public key). The round's
randomness is SHA-256 of the signature's 48 bytes.

The library is ``pyblst`` (bindings to supranational's blst, the audited BLS code of the
Ethereum clients): a small wheel, 1-1.5 ms a check here, and its point decoding refuses a point
outside the prime-order subgroup. That subgroup check matters: a signature with a small-torsion
point added (a point of order 3 on y^2 = x^3 + 4, say) still passes the pairing equation (the
pairing of a torsion point with G2 is 1) but hashes to another randomness, so a verifier without
it would let whoever serves the round choose between decks. ``blspy`` speaks the min-pk scheme
(keys in G1) only; ``py_ecc`` is pure Python and takes seconds.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

import pyblst

from bot.fairness.beacon.chain import QUICKNET, Chain

#: the generator of G2, compressed (the standard one, as in the IETF BLS draft)
_G2_GENERATOR = bytes.fromhex(
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049"
    "334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051"
    "c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
)
SIGNATURE_BYTES = 48


@functools.lru_cache(maxsize=8)
def _g2(compressed: bytes) -> object:
    """A G2 point decoded (and subgroup-checked) once: the pinned key is the same every round."""
    return pyblst.BlstP2Element.uncompress(compressed)


class BeaconRefused(ValueError):
    """A round that does not check; its message is one sentence a player can read."""


@dataclass(frozen=True)
class Round:
    """A verified round: its number, signature and randomness (SHA-256 of the signature)."""

    number: int
    signature: bytes
    randomness: bytes


def message(number: int) -> bytes:
    """What the chain signs for round ``number``."""
    return hashlib.sha256(number.to_bytes(8, "big")).digest()


def randomness_of(signature: bytes) -> bytes:
    return hashlib.sha256(signature).digest()


def verify_round(number: int, signature: bytes | str, chain: Chain = QUICKNET, randomness: str | None = None) -> Round:
    """The round, if ``signature`` is the chain's signature of round ``number`` (and ``randomness``,
    where a relay sent one, is the signature's hash). Raises :class:`BeaconRefused` otherwise.
    CPU: about 1-1.5 ms."""
    if isinstance(signature, str):
        try:
            signature = bytes.fromhex(signature)
        except ValueError:
            raise BeaconRefused("The round's signature is not hexadecimal.") from None
    if not 1 <= number < 2**64:
        raise BeaconRefused(f"Round {number} is not a drand round number.")
    if len(signature) != SIGNATURE_BYTES:
        raise BeaconRefused(
            f"The round's signature is {len(signature)} bytes, not the {SIGNATURE_BYTES} of a compressed G1 point."
        )
    try:
        point = pyblst.BlstP1Element.uncompress(signature)
    except ValueError as error:
        if "NOT_IN_GROUP" in str(error):
            raise BeaconRefused(
                "The round's signature is on the curve but outside its prime-order subgroup "
                "(a small-torsion point was added to it)."
            ) from None
        raise BeaconRefused("The round's signature is not a point of the BLS12-381 curve.") from None
    key, generator = _g2(chain.public_key), _g2(_G2_GENERATOR)
    hashed = pyblst.BlstP1Element.hash_to_group(message(number), chain.dst)
    if not pyblst.final_verify(pyblst.miller_loop(point, generator), pyblst.miller_loop(hashed, key)):
        raise BeaconRefused(f"The signature is not the {chain.name} chain's signature of round {number}.")
    derived = randomness_of(signature)
    if randomness is not None and randomness.lower() != derived.hex():
        raise BeaconRefused("The randomness sent with the round is not the hash of its signature.")
    return Round(number, signature, derived)
