"""The deal generator is pinned to the byte: these vectors must hold on every Python version the
bot runs on, or stored games would stop rebuilding (and shuffles could not be checked)."""

from __future__ import annotations

import copy
import hashlib
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.rng import (
    _STRAIGHT_MAX,
    GENERATOR_VERSION,
    HMAC_VERSION,
    LEGACY_VERSION,
    VERSIONS,
    HmacRandom,
    XofRandom,
    copy_rng,
    make_rng,
)
from games.common.shuffle import shuffled

#: version 3, seed 2**62 - 1: randrange(6), a shuffle of range(52), random()
GOLDEN_V3 = (
    5,
    [
        29, 14, 21, 47, 6, 2, 32, 16, 43, 12, 50, 28, 0, 9, 15, 24, 3, 1, 36, 17, 39, 5, 33, 49, 27, 42,
        37, 10, 44, 30, 41, 38, 35, 22, 34, 7, 8, 48, 11, 51, 23, 20, 31, 26, 13, 25, 45, 46, 40, 19, 18, 4,
    ],
    0.5008714825397016,
)  # fmt: skip


def spec_shuffle(seed: int, n: int) -> list[int]:
    """Version 2: the module docstring's definition, written again from it with hashlib alone (no hmac)."""
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


def spec_v3_draws(seed: int) -> tuple[int, list[int], float, list[int]]:
    """Version 3 written again from the module's text with hashlib and math alone: a game's
    first three draws (a die of 6, a 52-card shuffle, a float) and a 5-item shuffle."""

    def stream(c: int, length: int) -> bytes:
        return hashlib.shake_256(b"cardtable/v3/" + seed.to_bytes(32, "big") + c.to_bytes(8, "big")).digest(length)

    def below(c: int, n: int) -> int:
        t = 0
        while True:
            w = int.from_bytes(stream(c, 8 * (t + 1))[8 * t :], "big")
            if w < 2**64 - 2**64 % n:
                return w % n
            t += 1

    def shuffle(c: int, m: int) -> list[int]:
        f = math.factorial(m)
        size = (f.bit_length() + 7) // 8 + 8
        t = 0
        while (v := int.from_bytes(stream(c, size * (t + 1))[size * t :], "big")) >= 2 ** (8 * size) - 2 ** (
            8 * size
        ) % f:
            t += 1
        r = v % f
        x = list(range(m))
        for i in range(m - 1, 0, -1):
            j = r % (i + 1)
            r //= i + 1
            x[i], x[j] = x[j], x[i]
        return x

    return below(0, 6), shuffle(1, 52), (int.from_bytes(stream(2, 8), "big") >> 11) / 2**53, shuffle(3, 5)


def test_version_three_is_the_default():
    assert GENERATOR_VERSION == 3
    assert VERSIONS == (1, 2, 3)
    assert isinstance(make_rng(1), XofRandom)
    assert isinstance(make_rng(1, HMAC_VERSION), HmacRandom)


def test_version_three_golden_draws():
    rng = make_rng(2**62 - 1)
    die = rng.randrange(6)
    x = list(range(52))
    rng.shuffle(x)
    assert (die, x, rng.random()) == GOLDEN_V3


@given(st.integers(0, 2**256 - 1))
def test_version_three_is_what_its_text_says(seed):
    rng = XofRandom(seed)
    die = rng.randrange(6)
    x = list(range(52))
    rng.shuffle(x)
    f = rng.random()
    y = list(range(5))
    rng.shuffle(y)
    assert (die, x, f, y) == spec_v3_draws(seed)


def spec_v3_first_shuffle(seed: int, n: int) -> list[int]:
    """Version 3's first draw as a shuffle of ``range(n)``, from the module's text (one chunk:
    a second one is needed with probability under 2**-64, and the assertion says so)."""
    f = math.factorial(n)
    size = (f.bit_length() + 7) // 8 + 8
    stream = hashlib.shake_256(b"cardtable/v3/" + seed.to_bytes(32, "big") + bytes(8)).digest(size)
    v = int.from_bytes(stream, "big")
    assert v < 2 ** (8 * size) - 2 ** (8 * size) % f
    r = v % f
    x = list(range(n))
    for i in range(n - 1, 0, -1):
        j = r % (i + 1)
        r //= i + 1
        x[i], x[j] = x[j], x[i]
    return x


@given(st.integers(0, 2**256 - 1), st.integers(0, 130))
def test_version_three_shuffles_every_length_as_its_text_says(seed, n):
    """Any pack size (the Australian pack's 104 cards among them): the shuffle's steps are
    written out per length, with ``r``'s digits taken a group of steps at a time, and the
    groups' ends depend on the length."""
    x = list(range(n))
    XofRandom(seed).shuffle(x)
    assert x == spec_v3_first_shuffle(seed, n)


def test_version_three_shuffles_a_long_list_as_its_text_says():
    """Past ``_STRAIGHT_MAX`` items the steps run as a loop, not written out: the same shuffle."""
    for seed in (0, 5, 2**255 + 3):
        for n in (_STRAIGHT_MAX, _STRAIGHT_MAX + 1, 600):
            x = list(range(n))
            XofRandom(seed).shuffle(x)
            assert x == spec_v3_first_shuffle(seed, n)


def test_version_three_every_ordering_of_three_is_equally_likely():
    counts: dict[tuple[int, ...], int] = {}
    rng = XofRandom(4)
    for _ in range(60_000):
        x = [0, 1, 2]
        rng.shuffle(x)
        counts[tuple(x)] = counts.get(tuple(x), 0) + 1
    assert len(counts) == 6 and all(9_500 < c < 10_500 for c in counts.values()), counts


def test_version_three_short_lists_and_huge_dice_still_use_one_draw_each():
    a, b = XofRandom(8), XofRandom(8)
    a.shuffle([])
    a.shuffle([1])
    b.random()
    b.random()
    assert a.random() == b.random()
    big = 2**63 + 1  # half the words are refused: some draws read past the first 64 bytes
    assert all(0 <= XofRandom(s).below(big) < big for s in range(200))


def test_golden_words():  # version 2
    rng = HmacRandom(1)
    assert [rng._word().to_bytes(8, "big").hex() for _ in range(5)] == [
        "1805902a8b2e9e5f",
        "c4a411cab692a8ff",
        "19a49947859700ef",
        "f9b018d753570f08",
        "d7db62bf266d3211",
    ]


def test_golden_shuffle_of_52():  # version 2
    x = list(range(52))
    make_rng(2**62 - 1, HMAC_VERSION).shuffle(x)
    assert x == [
        22, 1, 33, 51, 11, 47, 6, 4, 27, 36, 17, 25, 49, 8, 10, 46, 28, 3, 19, 31, 15, 14, 48, 13, 42, 16,
        5, 38, 32, 20, 37, 34, 2, 7, 23, 39, 40, 30, 24, 26, 9, 12, 35, 43, 41, 45, 21, 50, 44, 0, 18, 29,
    ]  # fmt: skip


def test_golden_dice_and_float():  # version 2
    rng = make_rng(0, HMAC_VERSION)
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
    for version in VERSIONS:
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
    assert shuffled(items, make_rng(3, HMAC_VERSION)) == spec_shuffle(3, 30)


def test_bad_seeds_and_versions_are_refused():
    with pytest.raises(ValueError):
        HmacRandom(-1)
    with pytest.raises(ValueError):
        HmacRandom(2**256)
    with pytest.raises(ValueError):
        XofRandom(2**256)
    with pytest.raises(ValueError, match="Unknown deal generator version"):
        make_rng(1, 4)


@pytest.mark.parametrize("version", [HMAC_VERSION, GENERATOR_VERSION])
def test_below_is_uniform_enough(version):
    rng = make_rng(12345, version)
    counts = [0] * 7
    for _ in range(70_000):
        counts[rng.randrange(7)] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts
