"""tools/verify_shuffle.py, the players' own check: standard library only (it must not import the
project), and an independent re-implementation that deals exactly the decks the engines deal, for
every pack, and rejects a file whose seed, salt or decks were changed."""

from __future__ import annotations

import ast
import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bot.fairness import EXPORT_FORMAT, dealt, export
from db.store import DealtDeck, GameRecord, SeatRecord
from games.common.commitment import commitment
from games.common.engine import Engine
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules as ohhell_rules
from games.shithead.game import Shithead
from games.shithead.rules import make_rules as shithead_rules
from tests.games.common.test_commitment import OHHELL_FIRST_DECK, SEED

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "verify_shuffle.py"
SALT = bytes(range(32))


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_shuffle", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_uses_the_standard_library_only() -> None:
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= set(sys.stdlib_module_names), imported
    assert len(SCRIPT.read_text(encoding="utf-8").splitlines()) < 130  # about a page


def _played(engine: Engine) -> list[DealtDeck]:
    """Play ``engine`` to the end with its first legal action, noting each deal's deck."""
    decks = {1: dealt(engine)}
    while not engine.is_over:
        seat = engine.to_act()[0]
        engine, _ = engine.apply(seat, engine.legal_actions(seat)[0])
        deck = dealt(engine)
        assert deck is not None
        decks.setdefault(deck.deal, deck)
    return [d for d in decks.values() if d is not None]


def _export(kind: str, rules: dict, players: int, seed: int, decks: list[DealtDeck]) -> dict:
    record = GameRecord(
        1, kind, 1, 2, 3, "finished", "p", {}, rules, seed, None, None, rng_version=2,
        commitment=commitment(seed, SALT, 2), salt=SALT.hex(),
        seats=[SeatRecord(i, None, f"c{i}", "quick") for i in range(players)],
    )  # fmt: skip
    return export(record, decks)


@pytest.mark.parametrize(
    ("deck", "players"),
    [("standard52", 4), ("standard52+joker", 3), ("pack63", 6), ("australian", 5), ("australian", 6)],
)
def test_the_script_deals_what_oh_hell_dealt(script: ModuleType, deck: str, players: int) -> None:
    rules = ohhell_rules("classic", deck=deck, fixed_hands="2,1,3", sequence="fixed")
    for seed in (0, 7, 2**62 - 1):
        decks = _played(OhHell.new(rules, players, seed))
        assert len(decks) >= 3
        ok, lines = script.check(_export("ohhell", rules.to_json(), players, seed, decks))
        assert ok, lines


@pytest.mark.parametrize(("decks", "jokers", "players"), [(1, 0, 2), (2, 2, 5), (3, 1, 7)])
def test_the_script_deals_what_shithead_dealt(script: ModuleType, decks: int, jokers: int, players: int) -> None:
    rules = shithead_rules("pagat", decks=str(decks), jokers=str(jokers))
    for seed in (1, 99):
        game = Shithead.new(rules, players, seed)
        ok, lines = script.check(_export("shithead", rules.to_json(), players, seed, [dealt(game)]))  # type: ignore[list-item]
        assert ok, lines


def test_the_script_pins_the_fixed_vector(script: ModuleType) -> None:
    assert script.decks_from_seed("ohhell", {"deck": "standard52"}, 4, SEED, 1) == [OHHELL_FIRST_DECK]


def test_the_script_rejects_any_change(script: ModuleType) -> None:
    rules = ohhell_rules("classic", fixed_hands="3,2", sequence="fixed")
    good = _export("ohhell", rules.to_json(), 4, 1234, _played(OhHell.new(rules, 4, 1234)))
    assert good["format"] == EXPORT_FORMAT and script.check(good)[0]

    swapped = copy.deepcopy(good)
    swapped["deals"][1][0], swapped["deals"][1][5] = swapped["deals"][1][5], swapped["deals"][1][0]
    ok, lines = script.check(swapped)
    assert not ok and lines[-1].startswith("FAIL: deal 2")

    for key, value in (("seed", 1235), ("salt", "00" * 32), ("commitment", "0" * 64)):
        changed = {**good, key: value}
        ok, lines = script.check(changed)
        assert not ok and "commitment" in lines[-1], (key, lines)

    assert not script.check({**good, "deals": []})[0]
    assert not script.check({**good, "generator": 1})[0]
