"""The deal generator is pinned to the byte: these vectors must hold on every Python version the
bot runs on, or stored games would stop rebuilding (and shuffles could not be checked)."""

from __future__ import annotations

import copy
import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.rng import GENERATOR_VERSION, LEGACY_VERSION, HmacRandom, copy_rng, make_rng
from games.common.shuffle import shuffled


def spec_shuffle(seed: int, n: int) -> list[int]:
    """The module docstring's definition, written again from it with hashlib alone (no hmac)."""
    key = seed.to_bytes(32, "big").ljust(64, b"\0")
    inner, outer = bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)
    stream = b""
    block = 0

    def word() -> int:
        nonlocal stream, block
        if len(stream) < 8:
            msg = b"cardtable/v2/" + block.to_bytes(8, "big")
            stream += hashlib.sha256(outer + hashlib.sha256(inner + msg).digest()).digest()
            block += 1
        w, stream = int.from_bytes(stream[:8], "big"), stream[8:]
        return w

    def below(k: int) -> int:
        limit = 2**64 - 2**64 % k
        while (w := word()) >= limit:
            pass
        return w % k

    x = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(i + 1)
        x[i], x[j] = x[j], x[i]
    return x


def test_version_two_is_the_default():
    assert GENERATOR_VERSION == 2
    assert isinstance(make_rng(1), HmacRandom)


def test_golden_words():
    rng = HmacRandom(1)
    assert [rng._word().to_bytes(8, "big").hex() for _ in range(5)] == [
        "1805902a8b2e9e5f",
        "c4a411cab692a8ff",
        "19a49947859700ef",
        "f9b018d753570f08",
        "d7db62bf266d3211",
    ]


def test_golden_shuffle_of_52():
    x = list(range(52))
    make_rng(2**62 - 1).shuffle(x)
    assert x == [
        22, 1, 33, 51, 11, 47, 6, 4, 27, 36, 17, 25, 49, 8, 10, 46, 28, 3, 19, 31, 15, 14, 48, 13, 42, 16,
        5, 38, 32, 20, 37, 34, 2, 7, 23, 39, 40, 30, 24, 26, 9, 12, 35, 43, 41, 45, 21, 50, 44, 0, 18, 29,
    ]  # fmt: skip


def test_golden_dice_and_float():
    rng = make_rng(0)
    assert [rng.randrange(6) for _ in range(20)] == [5, 1, 4, 4, 1, 5, 1, 5, 4, 0, 1, 3, 5, 2, 0, 3, 4, 3, 3, 4]
    assert rng.random() == 0.17434480462583024


@given(st.integers(0, 2**256 - 1), st.integers(1, 70))
def test_the_written_specification_gives_the_same_shuffles(seed, n):
    x = list(range(n))
    HmacRandom(seed).shuffle(x)
    assert x == spec_shuffle(seed, n)


def test_legacy_version_is_random_random():
    rng = make_rng(77, LEGACY_VERSION)
    assert type(rng) is random.Random
    assert rng.random() == random.Random(77).random()


def test_copies_draw_what_the_original_would():
    for version in (LEGACY_VERSION, GENERATOR_VERSION):
        rng = make_rng(9, version)
        rng.random()
        twin = copy_rng(rng)
        assert [twin.randrange(1000) for _ in range(10)] == [rng.randrange(1000) for _ in range(10)]
        assert copy.copy(rng) is not rng


def test_shuffled_keeps_the_legacy_key_sort_for_random_random():
    items = list(range(30))
    rng = random.Random(3)
    ref = random.Random(3)
    ref_keys = [ref.random() for _ in items]
    assert shuffled(items, rng) == sorted(items, key=ref_keys.__getitem__)
    assert shuffled(items, make_rng(3)) == spec_shuffle(3, 30)


def test_bad_seeds_and_versions_are_refused():
    with pytest.raises(ValueError):
        HmacRandom(-1)
    with pytest.raises(ValueError):
        HmacRandom(2**256)
    with pytest.raises(ValueError, match="Unknown deal generator version"):
        make_rng(1, 3)


def test_below_is_uniform_enough():
    rng = make_rng(12345)
    counts = [0] * 7
    for _ in range(70_000):
        counts[rng.randrange(7)] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts
