"""Games stored by the engine before it was split into one object a phase still load, store again
byte for byte, show the same views, and play on to the same events and results.

Why: a live game is its stored JSON (seed and log); the bot rebuilds every live game from it
after a restart, so a change in how the engine holds its state must not change what a stored
game becomes. ``tests/fixtures/ohhell-snapshots.json`` was made by the earlier engine
(``tests/fixtures/make_ohhell_snapshots.py``, whose seeded play this test repeats).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.ohhell.game import OhHell
from tests.fixtures.make_ohhell_snapshots import CASES, digest, play, views

SNAPSHOTS = json.loads((Path(__file__).parents[2] / "fixtures" / "ohhell-snapshots.json").read_text())


def test_the_fixture_holds_every_case_and_the_rarer_moves() -> None:
    assert len(SNAPSHOTS) == len(CASES)
    logs = [action for snap in SNAPSHOTS for _, action in snap["stored"]["log"]]
    assert any(a["type"] == "undo_accept" for a in logs) and any(a["type"] == "undo_refuse" for a in logs)
    assert any(a.get("card") == "X" for a in logs)  # a joker played


@pytest.mark.parametrize(
    ("case", "snap"), list(zip(CASES, SNAPSHOTS, strict=True)), ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in CASES]
)
def test_a_stored_game_loads_stores_and_plays_on_as_before(case: tuple[Any, ...], snap: dict[str, Any]) -> None:
    preset, options, n, seed, cut = case
    game = OhHell.from_json(snap["stored"])
    assert game.to_json() == snap["stored"]
    assert json.dumps(game.to_json()) == json.dumps(snap["stored"])  # the same keys in the same order
    assert views(game) == snap["views"]
    rng = random.Random(seed)
    again = OhHell.new(game.rules, n, seed)  # the same seeded choices up to the snapshot
    play(again, rng, cut)
    assert again.log == game.log
    events = play(game, rng, None)
    assert digest([events, views(game), game.final_standings(), game.stats(), game.to_json()]) == snap["played_on"]
