"""Honest shuffle files, made as the bot makes them, for the tests of tools/verify_shuffle.py: a
game played to its end by the real engine, stored as the store keeps it (record and decks), then
exported by :func:`bot.fairness.shuffles.export`, the function ``/<game> verify`` attaches the file from
(and the script itself, loaded as a module or run as a player runs it)."""

from __future__ import annotations

import functools
import importlib.util
import json
import random
import resource
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.fairness.shuffles import dealt, export
from bot.seam.contract import AnyKind
from cogs.ohhell.kind import OhHellKind
from cogs.shithead.kind import ShitheadKind
from db.records import DealtDeck, GameRecord, SeatRecord
from games.common.commitment import commitment
from games.common.engine import Engine
from games.shithead.ai import choose_action

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "verify_shuffle.py"
SALT = bytes(range(32))
KINDS: dict[str, AnyKind] = {"ohhell": OhHellKind(None), "shithead": ShitheadKind(None)}
#: a bound on a test game, so that a game that never ends fails instead of filling the memory
MOST_MOVES = 5000


@functools.cache
def load_script() -> ModuleType:
    """The script as a module (its functions called in this process)."""
    spec = importlib.util.spec_from_file_location("verify_shuffle", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _limit_memory() -> None:  # the script's process may not use more than 1 GiB
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_script(path: Path) -> subprocess.CompletedProcess[str]:
    """The script as a player runs it: isolated mode, from the file's folder, memory capped."""
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)],
        capture_output=True,
        text=True,
        cwd=path.parent,
        timeout=120,
        preexec_fn=_limit_memory,
    )


def played(kind: str, rules: Any, players: int, seed: int, version: int) -> tuple[GameRecord, list[DealtDeck]]:
    """A finished game as the store holds it: record and decks. Oh Hell takes the first legal
    action each time; Shithead the sensible computer's (with a generator of its own), since
    always taking the first legal action may pick up the pile for ever and never end."""
    engine: Engine = KINDS[kind].engine.new(rules, players, seed, rng_version=version)
    decks = {1: dealt(engine)}
    log = []
    rng = random.Random(seed)
    while not engine.is_over:
        assert len(log) < MOST_MOVES, f"the {kind} game did not end in {MOST_MOVES} moves"
        seat = engine.to_act()[0]
        if kind == "shithead":
            action = choose_action(engine.view(seat), rng)
        else:
            action = engine.legal_actions(seat)[0]
        engine, _ = engine.apply(seat, action)
        log.append((seat, dict(action)))
        deck = dealt(engine)
        assert deck is not None
        decks.setdefault(deck.deal, deck)
    record = GameRecord(
        7, kind, 1, 2, 3, "finished", "p", {}, rules.to_json(), seed, None, None, rng_version=version,
        commitment=commitment(seed, SALT, version), salt=SALT.hex(), actions=log,
        seats=[SeatRecord(i, None, f"c{i}", "quick") for i in range(players)],
    )  # fmt: skip
    return record, [d for d in decks.values() if d is not None]


def user_file(kind: str, rules: Any, players: int, seed: int, version: int = 3) -> dict[str, Any]:
    """What /<kind> verify attaches for that game (through JSON, as the player receives it)."""
    record, decks = played(kind, rules, players, seed, version)
    data: dict[str, Any] = json.loads(json.dumps(export(KINDS[kind], record, decks)))
    return data


def write(tmp_path: Path, data: Any, name: str = "shuffle-ohhell-7.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return path
