"""``python -m games.replay FILE`` as a player runs it on a file they were handed: a true history
checks; a tampered, damaged or oversized one ends in one sentence and exit status 1, never a
traceback, in bounded time and memory."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.games.test_replay_and_analysis import _game, _history

ROOT = Path(__file__).resolve().parents[2]
RULES, GAME = _game(3)
GOOD = _history(RULES, GAME, 3)
ACTIONS = GOOD["actions"]


def _limit_memory() -> None:  # at most 1 GiB for the checker
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def replay(tmp_path: Path, data: Any) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "history.json"
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return subprocess.run(
        [sys.executable, "-m", "games.replay", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=120, preexec_fn=_limit_memory,
    )  # fmt: skip


def test_a_true_history_replays(tmp_path) -> None:
    run = replay(tmp_path, GOOD)
    assert run.returncode == 0 and run.stdout.splitlines()[-1].startswith("OK"), run.stdout + run.stderr


TAMPERED: dict[str, Any] = {
    "empty file": b"",
    "not JSON": b"{nope",
    "not UTF-8": b"\xff\xfe\x00",
    "a JSON list": [GOOD],
    "a JSON number": 7,
    "another format": {**GOOD, "format": "other"},
    "no seats": {k: v for k, v in GOOD.items() if k != "seats"},
    "seats a number": {**GOOD, "seats": 3},
    "seed as words": {**GOOD, "seed": "three"},
    "negative seed": {**GOOD, "seed": -5},
    "seed of 5000 digits": json.dumps({**GOOD, "seed": 0}).replace('"seed": 0', '"seed": ' + "9" * 5000).encode(),
    "generator 9": {**GOOD, "rng_version": 9},
    "unknown game": {**GOOD, "game": "chess"},
    "rules a list": {**GOOD, "rules": [1]},
    "an action without its seat": {**GOOD, "actions": [{"action": ACTIONS[0]["action"]}, *ACTIONS[1:]]},
    "an action a string": {**GOOD, "actions": ["bid 3", *ACTIONS[1:]]},
    "an illegal move": {**GOOD, "actions": [{"seat": 0, "action": {"type": "bid", "bid": 99}}, *ACTIONS[1:]]},
    "a seat out of range": {**GOOD, "actions": [{"seat": 40, "action": ACTIONS[0]["action"]}, *ACTIONS[1:]]},
    "results not a list": {**GOOD, "results": 5},
    "a million actions": {**GOOD, "actions": [ACTIONS[0]] * 1_000_000},
    "JSON nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "a 20 MB file": b'{"pad": "' + b"x" * 20_000_000 + b'"}',
}


@pytest.mark.parametrize("name", list(TAMPERED))
def test_a_tampered_or_damaged_history_ends_in_one_sentence(tmp_path, name) -> None:
    run = replay(tmp_path, TAMPERED[name])
    assert run.returncode == 1, (name, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-2000:]
    lines = (run.stdout + run.stderr).strip().splitlines()
    assert len(lines) == 1 or lines[-1].startswith("MISMATCH"), lines
    assert len(lines[0]) < 400


def test_a_missing_file_ends_in_one_sentence(tmp_path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "games.replay", str(tmp_path / "none.json")], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 1 and run.stderr.startswith("cannot replay") and "Traceback" not in run.stderr
