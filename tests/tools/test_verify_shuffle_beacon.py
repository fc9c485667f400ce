"""tools/verify_shuffle.py on games bound to a drand round, run as a player runs it (its own
process, isolated mode): a bound game's file verifies offline (the commitment, the real quicknet
round 1000's signature against the pinned key, the commitment's message time before the round
was due, every deck from the seed and the round); a labelled game's file verifies from its seed
alone and says so; every forged beacon is refused in one sentence; without the BLS library the
script still checks the commit-reveal part and every deck with the standard library and says
what it could not check (exit status 3)."""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.fairness.beacon.binding import LABEL, Binding, deal_seed
from bot.fairness.beacon.chain import QUICKNET
from bot.fairness.shuffles import export
from games.common.commitment import commitment
from games.ohhell.rules import make_rules
from tests.bot.fairness.beacon.fake_relay import ROUNDS
from tests.bot.fairness.beacon.test_verify import add, compress, decompress
from tests.tools.shuffle_files import KINDS, SALT, SCRIPT, played, run_script, write

SEED = 123456789
ROUND = 1000
DISCORD_EPOCH_MS = 1420070400000


def snowflake_at(unix: float) -> int:
    return (int(unix * 1000) - DISCORD_EPOCH_MS) << 22


def bound_file(*, posted_before: float = 2.0, bound: bool = True) -> dict[str, Any]:
    """An Oh Hell game (classic, 4 players) whose commitment was posted ``posted_before`` seconds
    before round 1000 was due, dealt from the seed and the round (or, not ``bound``, labelled and
    dealt from the seed alone), exported as /ohhell verify exports it."""
    signature = ROUNDS[ROUND]["signature"] if bound else None
    note = None if bound else f"No drand relay gave round {ROUND} in time."
    binding = Binding(ROUND, signature, note)
    record, decks = played("ohhell", make_rules("classic"), 4, deal_seed(SEED, binding), 3)
    record = dataclasses.replace(
        record,
        seed=SEED,
        commitment=commitment(SEED, SALT, 3),
        beacon_round=ROUND,
        beacon_signature=signature,
        beacon_note=note,
        beacon_message_id=snowflake_at(QUICKNET.round_time(ROUND) - posted_before),
    )
    data: dict[str, Any] = json.loads(json.dumps(export(KINDS["ohhell"], record, decks)))
    return data


@pytest.fixture(scope="module")
def honest() -> dict[str, Any]:
    return bound_file()


def verdict(tmp_path: Path, data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return run_script(write(tmp_path, data))


def test_a_bound_game_verifies_offline_with_its_round(tmp_path, honest):
    done = verdict(tmp_path, honest)
    assert done.returncode == 0, done.stdout
    out = done.stdout
    assert f"came before quicknet round {ROUND}" in out
    assert f"round {ROUND}'s signature checks against the pinned quicknet key" in out
    assert ROUNDS[ROUND]["randomness"] in out and out.strip().endswith("VERIFIED")
    assert honest["beacon"]["round"] == ROUND and honest["seed"] == SEED


def test_a_labelled_game_verifies_from_its_seed_and_says_it_had_no_beacon(tmp_path):
    data = bound_file(bound=False)
    done = verdict(tmp_path, data)
    assert done.returncode == 0, done.stdout
    assert "commit–reveal only (no beacon)" in done.stdout and data["beacon"]["label"] == LABEL


def refused(tmp_path, data) -> str:
    done = verdict(tmp_path, data)
    assert done.returncode == 1, done.stdout
    last = done.stdout.strip().splitlines()
    assert last[-1] == "NOT VERIFIED" or last[-1].startswith("NOT VERIFIED:"), done.stdout
    return done.stdout


def with_beacon(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    forged = copy.deepcopy(data)
    forged["beacon"].update(changes)
    return forged


def test_every_forged_beacon_is_refused_in_one_sentence(tmp_path, honest):
    signature = bytes.fromhex(ROUNDS[ROUND]["signature"])
    flipped = bytearray(signature)
    flipped[10] ^= 4
    torsion = compress(add(decompress(signature), (0, 2)))  # plus a point of order 3: still pairs
    cases = {
        "another round's signature": with_beacon(honest, signature=ROUNDS[657413]["signature"]),
        "a flipped bit": with_beacon(honest, signature=flipped.hex()),
        "a torsion point added": with_beacon(honest, signature=torsion.hex()),
        "another round named": with_beacon(honest, round=ROUND + 1),
        "another chain": with_beacon(honest, chain_hash="cc" * 32),
        "posted after the round": with_beacon(honest, message_id=snowflake_at(QUICKNET.round_time(ROUND) + 0.5)),
        "no message": with_beacon(honest, message_id=None),
        "the beacon stripped": {**honest, "beacon": None},
        "labelled after the fact": with_beacon(honest, signature=None, note="nothing came"),
        "not hex": with_beacon(honest, signature="zz" * 48),
    }
    seen: dict[str, str] = {}
    for name, forged in cases.items():
        out = refused(tmp_path, forged)
        reasons = [line for line in out.splitlines() if line.startswith(("FAIL: ", "NOT VERIFIED: "))]
        assert len(reasons) == 1 and reasons[0].count(". ") == 0, (name, out)
        seen[name] = reasons[0]
    assert "outside" not in seen["a torsion point added"]  # the script's own words: refused, not explained
    assert seen["another round's signature"].endswith(f"not the quicknet chain's signature of round {ROUND}")
    assert seen["a torsion point added"].endswith(f"not the quicknet chain's signature of round {ROUND}")
    assert "after round 1000 was due" in seen["posted after the round"]
    assert (
        seen["the beacon stripped"]
        == seen["labelled after the fact"]
        == ("FAIL: deal 1: the deck is not its pack shuffled by the seed")
    )


def test_without_the_bls_library_the_rest_is_checked_and_the_signature_is_said_unchecked(tmp_path, honest):
    """pyblst hidden from the script: the commitment, the message time and every deck are still
    checked with the standard library; the script says the signature was not, and exits 3; a
    changed deck still fails."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "pyblst.py").write_text("raise ImportError('hidden for the test')\n")
    runner = f"import sys; sys.path.insert(0, {str(blocker)!r}); import runpy; sys.argv = sys.argv[1:]; " + (
        "runpy.run_path(sys.argv[0], run_name='__main__')"
    )

    def run(data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        path = write(tmp_path, data)
        return subprocess.run(
            [sys.executable, "-I", "-c", runner, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=120
        )

    done = run(honest)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"NOT CHECKED: round {ROUND}'s signature (pyblst is not installed)" in done.stdout
    assert "ok: the seed and its 32-byte salt hash to the commitment" in done.stdout
    assert f"came before quicknet round {ROUND}" in done.stdout and "all " in done.stdout
    changed = copy.deepcopy(honest)
    deck = changed["deals"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    failed = run(changed)
    assert failed.returncode == 1 and "FAIL: deal 1" in failed.stdout
