"""Games stored by an earlier version of the bot still rebuild exactly.

``tests/fixtures/games-v1.sqlite3`` was written at commit 1b967b8, before the deal generator of
``games/common/rng.py`` existed (``tests/fixtures/make_games_v1.py`` shows how): three live games
and two finished ones, dealt with ``random.Random(seed)``. Opening it migrates it; every game must
then read as generator version 1 and replay, from its seed and stored moves, to exactly the hands,
turn and log that version saw.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from db.sqlite import SqliteStore
from games.common.rng import GENERATOR_VERSION, HMAC_VERSION, LEGACY_VERSION
from games.ohhell.game import OhHell
from games.ohhell.rules import Rules as OhHellRules
from games.shithead.game import Shithead
from games.shithead.rules import Rules as ShitheadRules

FIXTURES = Path(__file__).parent.parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "games-v1.json").read_text())


@pytest.fixture
async def old_store(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "games-v1.sqlite3", path)
    store = SqliteStore(str(path))
    await store.open()
    yield store
    await store.close()


#: each stored kind's engine and how its stored rules are read
GAMES = {"ohhell": (OhHell, OhHellRules), "shithead": (Shithead, ShitheadRules)}


def rebuild(record):
    engine, rules = GAMES[record.kind]
    return engine.replay(
        rules.from_json(record.rules), len(record.seats), record.seed, record.actions, rng_version=record.rng_version
    )


@pytest.mark.parametrize("expected", EXPECTED, ids=[f"{g['kind']}-{g['preset']}-{g['moves']}" for g in EXPECTED])
async def test_a_game_stored_before_the_generator_replays_exactly(old_store, expected):
    record = await old_store.get_game(expected["id"])
    assert record.rng_version == LEGACY_VERSION
    assert len(record.actions) == expected["moves"]
    game = rebuild(record)
    assert game.is_over == expected["over"]
    assert game.to_act() == expected["to_act"]
    assert [game.view(s)["hand"] for s in range(expected["seats"])] == expected["hands"]
    assert [[s, a] for s, a in game.log] == expected["log"]


async def test_the_same_moves_on_the_new_generator_are_another_game(old_store):
    """The version matters: the first stored game dealt with version 2 has other hands."""
    expected = EXPECTED[0]
    record = await old_store.get_game(expected["id"])
    fresh = OhHell.new(
        OhHellRules.from_json(record.rules), len(record.seats), record.seed, rng_version=GENERATOR_VERSION
    )
    assert [fresh.view(s)["hand"] for s in range(expected["seats"])] != [
        OhHell.new(
            OhHellRules.from_json(record.rules), len(record.seats), record.seed, rng_version=LEGACY_VERSION
        ).view(s)["hand"]
        for s in range(expected["seats"])
    ]


async def test_live_games_are_listed_as_live(old_store):
    live = {r.id for r in await old_store.live_games()}
    assert live == {g["id"] for g in EXPECTED if not g["over"]}


#: games dealt with generator versions 2 and 3 (tests/fixtures/make_games_v2_v3.py)
LATER = json.loads((FIXTURES / "games-v2-v3.json").read_text())


@pytest.fixture
async def later_store(tmp_path):
    path = tmp_path / "later.sqlite3"
    shutil.copy(FIXTURES / "games-v2-v3.sqlite3", path)
    store = SqliteStore(str(path))
    await store.open()
    yield store
    await store.close()


@pytest.mark.parametrize(
    "expected", LATER, ids=[f"v{g['version']}-{g['kind']}-{g['preset']}-{g['moves']}" for g in LATER]
)
async def test_games_of_every_later_generator_replay_exactly(later_store, expected):
    """Version 2's games (stored by the code that dealt them) and version 3's rebuild from the
    version their row records, to the hands, turn and log they had."""
    record = await later_store.get_game(expected["id"])
    assert record.rng_version == expected["version"]
    assert len(record.actions) == expected["moves"]
    game = rebuild(record)
    assert game.is_over == expected["over"]
    assert game.to_act() == expected["to_act"]
    assert [game.view(s)["hand"] for s in range(expected["seats"])] == expected["hands"]
    assert [[s, a] for s, a in game.log] == expected["log"]


def test_both_later_versions_are_in_the_fixture():
    assert {g["version"] for g in LATER} == {HMAC_VERSION, GENERATOR_VERSION} == {2, 3}
