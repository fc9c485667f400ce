"""bot.fairness.beacon.verify against real quicknet rounds (tests/fixtures/drand_quicknet.json, copied from
shared/drand: the chain's published parameters and three public rounds, checked there with four
libraries) and against every way a round can be wrong, each refused in one sentence.

The torsion case is built here from the curve itself, not from the library: G1 is the r-order
subgroup of E(Fp): y^2 = x^3 + 4, whose cofactor h = 0x396c8c005555e1568c00aaab0000aaab has the
factor 3, and (0, 2) is a point of order 3 (x = 0 is an inflection point of y^2 = x^3 + b). Adding
it to a valid signature gives a point of the curve, off the subgroup, that still satisfies the
pairing equation (the pairing of an order-3 point with the order-r G2 is 1, as gcd(3, r) = 1) and
hashes to another randomness."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.fairness.beacon.verify import BeaconRefused, verify_round

FIXTURES: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[3] / "fixtures" / "drand_quicknet.json").read_text(encoding="utf-8")
)
ROUNDS: list[dict[str, Any]] = FIXTURES["rounds"]
P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
H = 0x396C8C005555E1568C00AAAB0000AAAB

Point = tuple[int, int] | None  # None: the point at infinity


def decompress(data: bytes) -> tuple[int, int]:
    """A compressed G1 point (ZCash encoding) as affine coordinates, by the curve equation."""
    assert data[0] & 0x80 and not data[0] & 0x40
    x = int.from_bytes(bytes([data[0] & 0x1F]) + data[1:], "big")
    rhs = (x**3 + 4) % P
    y = pow(rhs, (P + 1) // 4, P)  # p = 3 mod 4
    assert y * y % P == rhs
    if (y > (P - 1) // 2) != bool(data[0] & 0x20):
        y = P - y
    return x, y


def compress(point: tuple[int, int]) -> bytes:
    x, y = point
    out = bytearray(x.to_bytes(48, "big"))
    out[0] |= 0x80 | (0x20 if y > (P - 1) // 2 else 0)
    return bytes(out)


def add(a: Point, b: Point) -> Point:
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2 and (y1 + y2) % P == 0:
        return None
    if a == b:
        slope = 3 * x1 * x1 * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return x3, (slope * (x1 - x3) - y1) % P


def times(k: int, point: Point) -> Point:
    result: Point = None
    while k:
        if k & 1:
            result = add(result, point)
        point, k = add(point, point), k >> 1
    return result


def test_the_pinned_chain_is_the_published_one() -> None:
    chain = FIXTURES["chain"]
    assert QUICKNET.public_key.hex() == chain["public_key"]
    assert (QUICKNET.hash, QUICKNET.genesis_time, QUICKNET.period) == (
        chain["hash"],
        chain["genesis_time"],
        chain["period"],
    )
    assert QUICKNET.dst.decode() == chain["dst"]


@pytest.mark.parametrize("fixture", ROUNDS, ids=lambda r: str(r["round"]))
def test_real_rounds_verify_and_give_their_randomness(fixture: dict[str, Any]) -> None:
    checked = verify_round(fixture["round"], fixture["signature"], randomness=fixture["randomness"])
    assert checked.randomness.hex() == fixture["randomness"]
    assert checked.number == fixture["round"]


def refusal(number: int, signature: bytes | str, chain: Chain = QUICKNET, randomness: str | None = None) -> str:
    with pytest.raises(BeaconRefused) as caught:
        verify_round(number, signature, chain, randomness)
    text = str(caught.value)
    assert text.endswith(".") and text.count(". ") == 0, text  # one sentence
    return text


def test_a_signature_for_another_round_is_refused() -> None:
    first = ROUNDS[0]
    assert "not the quicknet chain's signature of round 1001" in refusal(first["round"] + 1, first["signature"])
    assert "round 657413" in refusal(657413, first["signature"])


def test_a_flipped_bit_is_refused() -> None:
    signature = bytearray(bytes.fromhex(ROUNDS[1]["signature"]))
    for bit in (7 * 8 + 3, 47 * 8, 20 * 8 + 6):
        flipped = bytearray(signature)
        flipped[bit // 8] ^= 1 << (bit % 8)
        text = refusal(ROUNDS[1]["round"], bytes(flipped))
        # a flipped bit gives either another point (the pairing fails) or no point at all
        assert "signature" in text


def test_the_other_chains_key_is_refused() -> None:
    other = FIXTURES["other_chain_for_negative_tests"]
    chain = Chain("quicknet-t", other["hash"], bytes.fromhex(other["public_key"]), other["genesis_time"], 3)
    for fixture in ROUNDS:
        assert "not the quicknet-t chain's signature" in refusal(fixture["round"], fixture["signature"], chain)


def test_a_signature_with_a_torsion_point_added_is_refused_by_the_subgroup_check() -> None:
    fixture = ROUNDS[2]
    signature = decompress(bytes.fromhex(fixture["signature"]))
    torsion = (0, 2)
    # the point is on the curve, of order 3, which divides the cofactor and not r: outside G1
    assert (2 * 2 - 0**3 - 4) % P == 0 and times(3, torsion) is None and times(R, torsion) is not None
    assert H % 3 == 0 and R % 3 != 0
    tweaked_point = add(signature, torsion)
    assert tweaked_point is not None
    x, y = tweaked_point
    assert (y * y - x**3 - 4) % P == 0  # on the curve
    assert times(R, signature) is None and times(R, tweaked_point) is not None  # the real one is in G1, this one not
    tweaked = compress(tweaked_point)
    # what a dealer would gain: another randomness from a signature that still pairs
    assert hashlib.sha256(tweaked).hexdigest() != fixture["randomness"]
    text = refusal(fixture["round"], tweaked)
    assert "outside its prime-order subgroup" in text


def test_malformed_signatures_are_refused() -> None:
    number = ROUNDS[0]["round"]
    good = bytes.fromhex(ROUNDS[0]["signature"])
    assert "not hexadecimal" in refusal(number, "zz" * 48)
    assert "47 bytes" in refusal(number, good[:-1])
    assert "96 bytes" in refusal(number, good + good)
    # no compression flag; the infinity flag with bits set; an x with no point above it
    assert "not a point" in refusal(number, bytes([good[0] & 0x7F]) + good[1:])
    assert "not a point" in refusal(number, bytes([0xC0]) + good[1:])
    x = 1
    while pow((x**3 + 4) % P, (P - 1) // 2, P) == 1:
        x += 1
    assert "not a point" in refusal(number, bytes([0x80 | x >> 376]) + (x % 2**376).to_bytes(47, "big"))
    assert "not a drand round" in refusal(0, good)


def test_randomness_that_is_not_the_signatures_hash_is_refused() -> None:
    fixture = ROUNDS[0]
    assert "not the hash of its signature" in refusal(fixture["round"], fixture["signature"], randomness="00" * 32)


def test_round_times_follow_genesis_and_period() -> None:
    assert QUICKNET.round_time(1) == QUICKNET.genesis_time
    assert QUICKNET.round_time(1000) == QUICKNET.genesis_time + 999 * 3
    # a round named 5 s after a message at t is the first published at t + 5 or later
    for offset in (0.0, 0.4, 1.0, 2.9, 3.0):
        t = QUICKNET.genesis_time + 3000 + offset
        named = QUICKNET.round_after(t, 5)
        assert QUICKNET.round_time(named) >= t + 5 > QUICKNET.round_time(named - 1)
