"""tools/verify_shuffle.py, the players' own check: standard library only (it must not import the
project), an independent re-implementation of every generator version that deals exactly the
decks the engines deal, for every pack; it rejects a file whose seed, salt, decks or deal count
were changed, and ends any damaged or oversized file with one sentence and exit status 1, in
bounded time and memory. What it derives itself rather than read from the file (each deal's pack,
the game's order of draws) and the rigged files it refuses: test_verify_shuffle_rigged.py.

The files are the ones ``/ohhell verify`` and ``/shithead verify`` attach (:func:`bot.fairness.shuffles.export`
over a played game's record: tests/tools/shuffle_files.py); the script runs as a player runs it, in
its own process."""

from __future__ import annotations

import ast
import copy
import hashlib
import sys
from types import ModuleType
from typing import Any

import pytest

from bot.fairness.shuffles import EXPORT_FORMAT
from games.common.commitment import COMMIT_LABEL
from games.common.rng import VERSIONS
from games.ohhell.rules import make_rules as ohhell_rules
from games.shithead.rules import make_rules as shithead_rules
from tests.games.common.test_commitment import OHHELL_FIRST_DECK, OHHELL_V3_FIRST_DECK, SEED
from tests.tools.shuffle_files import KINDS, SCRIPT, load_script, run_script, user_file, write

SHORT = {"fixed_hands": "2,1,3", "sequence": "fixed"}


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script()


def test_the_script_uses_the_standard_library_only() -> None:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    # and pyblst, optional: the drand round's signature check (tests/tools/test_verify_shuffle_beacon.py
    # runs the script without it: everything else is still checked with the standard library)
    assert imported <= set(sys.stdlib_module_names) | {"pyblst"}, imported
    # a few pages a player can read (the drand beacon's check took it from about 340 lines to 425)
    assert len(SCRIPT.read_text(encoding="utf-8").splitlines()) < 450


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    ("preset", "deck", "players"),
    [
        ("classic", "standard52", 4),
        ("classic", "standard52+joker", 3),
        ("classic", "pack63", 6),
        ("classic", "australian", 5),
        ("classic", "australian", 6),
        ("oh-shit", None, 6),  # pack63_for_6_7: the 63-card pack though the deck rule says 52
        ("oh-shit", None, 7),
    ],
)
def test_the_script_deals_what_oh_hell_dealt(script, preset, deck, players, version) -> None:
    rules = ohhell_rules(preset, **SHORT, **({"deck": deck} if deck else {}))
    for seed in (0, 2**62 - 1):
        data = user_file("ohhell", rules, players, seed, version)
        assert data["format"] == EXPORT_FORMAT and data["deal_count"] == len(data["deals"]) >= 3
        ok, lines = script.check(data)
        assert ok, lines


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("decks", "jokers", "players"), [(1, 0, 2), (2, 2, 5), (3, 1, 7)])
def test_the_script_deals_what_shithead_dealt(script, decks, jokers, players, version) -> None:
    rules = shithead_rules("pagat", decks=str(decks), jokers=str(jokers))
    data = user_file("shithead", rules, players, 99, version)
    assert data["deal_count"] == 1
    ok, lines = script.check(data)
    assert ok, lines


def test_the_script_pins_the_fixed_vectors(script) -> None:
    for generator, expected in ((script.V2, OHHELL_FIRST_DECK), (script.V3, OHHELL_V3_FIRST_DECK)):
        rng = generator(SEED)
        rng.below(4)
        pack = [r + s for s in "CDHS" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()]
        assert rng.shuffle(pack) == expected


def test_an_honest_oh_shit_game_of_seven_verifies_and_says_what_was_checked(tmp_path) -> None:
    data = user_file("ohhell", ohhell_rules("oh-shit", **SHORT), 7, 123)
    run = run_script(write(tmp_path, data))
    assert run.returncode == 0 and run.stderr == "", run.stdout + run.stderr
    lines = run.stdout.splitlines()
    deals = data["deal_count"]  # 3, and more where a tie for first place added extra deals
    assert deals >= 3 and len(data["deals"]) == deals
    assert lines[0] == f"game #7: ohhell, 7 players, generator 3, {deals} deals"
    assert "32-byte salt" in lines[1] and data["commitment"] in lines[1]
    assert lines[2] == "ok: the seed's draws are Oh Hell's: the first dealer, then one shuffle a deal"
    assert lines[3] == "ok: every pack is the 63-card pack the rules deal 7 players, in its fixed order"
    assert [line.split(":")[0] for line in lines[4:7]] == ["ok", "ok", "ok"] and "63 cards" in lines[4]
    assert lines[-2:] == [f"ok: all {deals} of the game's {deals} deals checked", "VERIFIED"]


def test_a_file_without_its_last_deal_is_refused(tmp_path) -> None:
    data = user_file("ohhell", ohhell_rules("classic", **SHORT), 4, 5)
    deals = data["deal_count"]
    data["deals"].pop()
    run = run_script(write(tmp_path, data))
    assert run.returncode == 1 and f"FAIL: the game had {deals} deals, the file holds {deals - 1}" in run.stdout, (
        run.stdout
    )
    assert run.stdout.splitlines()[-1] == "NOT VERIFIED"


def test_a_commitment_made_with_an_empty_or_short_salt_is_refused(tmp_path) -> None:
    data = user_file("ohhell", ohhell_rules("classic", **SHORT), 4, 5)
    for salt in (b"", b"\x01" * 16):
        digest = hashlib.sha256(COMMIT_LABEL + bytes([3]) + (5).to_bytes(32, "big") + salt).hexdigest()
        run = run_script(write(tmp_path, {**data, "salt": salt.hex(), "commitment": digest}))
        assert run.returncode == 1 and run.stdout.startswith("NOT VERIFIED") and "salt" in run.stdout, run.stdout


def test_the_script_rejects_any_change(script) -> None:
    good = user_file("ohhell", ohhell_rules("classic", fixed_hands="3,2", sequence="fixed"), 4, 1234)
    assert script.check(good)[0]

    swapped = copy.deepcopy(good)
    swapped["deals"][1]["deck"][0], swapped["deals"][1]["deck"][5] = (
        swapped["deals"][1]["deck"][5],
        swapped["deals"][1]["deck"][0],
    )
    ok, lines = script.check(swapped)
    assert not ok and lines[-1].startswith("FAIL: deal 2")
    repacked = copy.deepcopy(good)
    repacked["deals"][0]["pack"].reverse()
    assert not script.check(repacked)[0]

    for key, value in (("seed", 1235), ("salt", "00" * 32), ("commitment", "0" * 64), ("generator", 2)):
        ok, lines = script.check({**good, key: value})
        assert not ok and "commitment" in lines[-1], (key, lines)
    ok, lines = script.check({**good, "deal_count": 3})
    assert not ok and "the game had 3 deals, the file holds 2" in lines[-1]
    # the game's order of draws is the game's, not the file's: a file that leaves out the first
    # dealer's draw is refused before a deck is dealt
    ok, lines = script.check({**good, "draws_before_shuffle": 0})
    assert not ok and lines[-1] == "FAIL: Oh Hell draws 1 before its first shuffle, the file says 0", lines


@pytest.mark.parametrize(("kind", "other"), [("ohhell", "python"), ("shithead", "keys")])
def test_generator_1s_shuffle_is_the_games_and_the_file_must_agree(script, kind, other) -> None:
    rules = ohhell_rules("classic", **SHORT) if kind == "ohhell" else shithead_rules("pagat")
    data = user_file(kind, rules, 4, 77, version=1)
    assert data["generator_1_shuffle"] == KINDS[kind].engine.LEGACY_SHUFFLE != other
    assert script.check(data)[0]
    ok, lines = script.check({**data, "generator_1_shuffle": other})
    name = {"ohhell": "Oh Hell", "shithead": "Shithead"}[kind]
    assert not ok and lines[-1].startswith(f"FAIL: {name}'s generator 1 shuffle is "), lines


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


GOOD = user_file("ohhell", ohhell_rules("classic", fixed_hands="1", sequence="fixed"), 3, 8)
FIRST = GOOD["deals"][0]
#: damaged files a player could be handed: each must end in one sentence and exit status 1
MALFORMED: dict[str, Any] = {
    "empty file": b"",
    "not JSON": b"hello",
    "not UTF-8": b"\xff\xfe\x00garbage",
    "a JSON list": [1, 2, 3],
    "an old format": {**GOOD, "format": "cardtable-shuffle/1"},
    "format 2 (no draws)": {**GOOD, "format": "cardtable-shuffle/2"},
    "no draws before the shuffle": {k: v for k, v in GOOD.items() if k != "draws_before_shuffle"},
    "a million draws": {**GOOD, "draws_before_shuffle": 10**6},
    "an unknown generator 1 shuffle": {**GOOD, "generator_1_shuffle": "riffle"},
    "a kind of a million letters": {**GOOD, "kind": "x" * 10**6},
    "no seed": {k: v for k, v in GOOD.items() if k != "seed"},
    "seed as text": {**GOOD, "seed": "12"},
    "negative seed": {**GOOD, "seed": -1},
    "seed of 300 bits": {**GOOD, "seed": 2**300},
    "seed of 5000 digits": b'{"format": "cardtable-shuffle/3", "seed": ' + b"9" * 5000 + b"}",
    "salt not hex": {**GOOD, "salt": "zz" * 32},
    "generator 4": {**GOOD, "generator": 4},
    "players 0": {**GOOD, "players": 0},
    "players a million": {**GOOD, "players": 10**6},
    "deals not a list": {**GOOD, "deals": {"1": []}},
    "a deal without a deck": {**GOOD, "deals": [{"deal": 1, "pack": FIRST["pack"]}]},
    "a deck of numbers": {**GOOD, "deals": [{**FIRST, "deck": list(range(52))}]},
    "deal_count a million": {**GOOD, "deal_count": 10**6},
    "a million deals": b'{"format": "cardtable-shuffle/3", "deals": [' + b"{}," * 10**6 + b"{}]}",
    "a pack of a million cards": {**GOOD, "deals": [{**FIRST, "pack": ["2C"] * 10**6}]},
    "JSON nested 100,000 deep": _nested(100_000),
    "a 20 MB file": b'{"pad": "' + b"x" * 20_000_000 + b'"}',
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_damaged_file_ends_in_one_sentence(tmp_path, name) -> None:
    run = run_script(write(tmp_path, MALFORMED[name]))
    assert run.returncode == 1, (name, run.stdout, run.stderr)
    assert run.stderr == "" and "Traceback" not in run.stdout, run.stderr
    assert len(run.stdout.splitlines()) == 1 and run.stdout.startswith("NOT VERIFIED: "), run.stdout
    assert len(run.stdout) < 300


def test_rules_claiming_a_million_packs_are_refused_in_one_sentence(tmp_path) -> None:
    """The script builds the pack from the rules, so rules claiming a million packs (on an Oh Hell
    file relabelled Shithead) must end in one sentence, not in building a million packs."""
    data = {**GOOD, "kind": "shithead", "rules": {"decks": 10**6, "jokers": 0}}
    run = run_script(write(tmp_path, data))
    assert run.returncode == 1 and run.stderr == "", run.stdout + run.stderr
    assert run.stdout == f"NOT VERIFIED: {tmp_path / 'shuffle-ohhell-7.json'}: its rule decks is not 1, 2 or 3.\n"


def test_a_format_2_file_is_told_to_be_downloaded_again(tmp_path) -> None:
    run = run_script(write(tmp_path, {**GOOD, "format": "cardtable-shuffle/2"}))
    assert run.returncode == 1 and "download it again" in run.stdout, run.stdout


def test_a_missing_file_ends_in_one_sentence(tmp_path) -> None:
    run = run_script(tmp_path / "nowhere.json")
    assert run.returncode == 1 and run.stdout.startswith("NOT VERIFIED: cannot read") and run.stderr == ""
