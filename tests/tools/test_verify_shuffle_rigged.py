"""tools/verify_shuffle.py trusts nothing in the file but the seed, salt and commitment it checks
against each other. For a known seed the shuffle is a fixed permutation, so whoever knew the seed
could write a pack order that the seed's own shuffle turns into any deck they like, shift the
draws, or swap a card of the pack for another, and every deck would still be "its pack shuffled by
the seed". The script therefore derives each pack from the kind, rules and player count and the
order of draws from the kind, and refuses a file that says otherwise.

The rigged files here are built as a cheater would: from an honest file that the bot's own export
wrote (tests/tools/shuffle_files.py), made consistent again with the engine's own generator
(:func:`games.common.rng.make_rng`, not the script's), so that only what the script derives for
itself can catch them. The script's pack is held to the engine's for every rule that decides the
pack and every player count, so the two cannot drift apart silently."""

from __future__ import annotations

import contextlib
import copy
import io
import itertools
import json
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.fairness.shuffles import export
from games.common.cards import card_code
from games.common.engine import RulesError
from games.common.rng import VERSIONS, GameRng, make_rng
from games.common.shuffle import shuffled
from games.ohhell.decks import DECK_PLAYERS, DECKS
from games.ohhell.presets import PRESETS as OH_HELL_PRESETS
from games.ohhell.rules import make_rules as ohhell_rules
from games.shithead.rules import PRESETS as SHITHEAD_PRESETS
from games.shithead.rules import make_rules as shithead_rules
from tests.tools.shuffle_files import KINDS, load_script, played, run_script, user_file, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script()


# -- what a cheater does, with the engine's own generator --------------------------------------
def shuffle_as(rng: GameRng, items: list[Any], how: str) -> list[Any]:
    """One deal's shuffle as the engines make it (generator 1: Oh Hell's keys, Shithead's
    random.shuffle; the other generators their own shuffle)."""
    if how == "python":
        rng.shuffle(items)
        return items
    return shuffled(items, rng)


def redealt(data: dict[str, Any]) -> dict[str, Any]:
    """The file with every deck dealt again from its own (possibly rigged) packs and draws: a
    file in which each deck *is* its written pack shuffled by the seed in the written order."""
    rng = make_rng(data["seed"], data["generator"])
    for _ in range(data["draws_before_shuffle"]):
        rng.randrange(data["players"])
    for deal in data["deals"]:
        deal["deck"] = shuffle_as(rng, list(deal["pack"]), data["generator_1_shuffle"])
    return data


def pack_dealing(data: dict[str, Any], deal: int, deck: list[str]) -> list[str]:
    """The pack order that the seed's shuffle of deal ``deal`` (1, 2, ...) turns into ``deck``."""
    rng = make_rng(data["seed"], data["generator"])
    for _ in range(data["draws_before_shuffle"]):
        rng.randrange(data["players"])
    for _ in range(deal):
        places = shuffle_as(rng, list(range(len(deck))), data["generator_1_shuffle"])
    pack = [""] * len(deck)
    for k, place in enumerate(places):
        pack[place] = deck[k]  # the shuffle puts pack[places[k]] at deck[k]
    return pack


def verdict(script: ModuleType, data: Any) -> tuple[int, list[str]]:
    """The script's exit status and printed lines, run on ``data`` as a file (in this process)."""
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder), data)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = script.main(["verify_shuffle.py", str(path)])
    return status, out.getvalue().splitlines()


def refused(script: ModuleType, data: Any) -> str:
    """The sentence the script refuses ``data`` with (exit status 1, NOT VERIFIED)."""
    status, lines = verdict(script, data)
    assert status == 1 and lines and lines[-1].startswith("NOT VERIFIED"), lines
    return lines[-2] if lines[-1] == "NOT VERIFIED" else lines[-1]


def classic(players: int = 4, seed: int = 41, version: int = 3) -> dict[str, Any]:
    return user_file("ohhell", ohhell_rules("classic", fixed_hands="3,2", sequence="fixed"), players, seed, version)


# -- rigged files of each kind ---------------------------------------------------------------------
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("kind", ["ohhell", "shithead"])
def test_a_pack_reordered_to_deal_chosen_cards_is_refused(tmp_path, script, kind, version) -> None:
    honest = classic(version=version) if kind == "ohhell" else user_file("shithead", shithead_rules(), 4, 41, version)
    rigged = copy.deepcopy(honest)
    deck = rigged["deals"][0]["deck"]
    aces = [c for c in deck if c.startswith("A")]
    chosen = aces + [c for c in deck if c not in aces]  # every ace to the first seats dealt
    rigged["deals"][0]["pack"] = pack_dealing(rigged, 1, chosen)
    rigged["deals"][0]["deck"] = chosen
    assert redealt(copy.deepcopy(rigged)) == rigged  # the rigged deck IS its written pack shuffled
    assert sorted(rigged["deals"][0]["pack"]) == sorted(honest["deals"][0]["pack"]) and chosen != deck
    run = run_script(write(tmp_path, rigged))
    assert run.returncode == 1 and run.stdout.splitlines()[-2:] == [
        "FAIL: deal 1's pack is not in the one fixed order its rules give",
        "NOT VERIFIED",
    ], run.stdout


@pytest.mark.parametrize(
    ("kind", "field", "value", "sentence"),
    [
        ("ohhell", "draws_before_shuffle", 0, "Oh Hell draws 1 before its first shuffle, the file says 0"),
        ("ohhell", "draws_before_shuffle", 2, "Oh Hell draws 1 before its first shuffle, the file says 2"),
        ("shithead", "draws_before_shuffle", 1, "Shithead draws 0 before its first shuffle, the file says 1"),
        ("ohhell", "generator_1_shuffle", "python", 'Oh Hell\'s generator 1 shuffle is "keys", the file says "python"'),
        (
            "shithead",
            "generator_1_shuffle",
            "keys",
            'Shithead\'s generator 1 shuffle is "python", the file says "keys"',
        ),
    ],
)
def test_shifted_draws_are_refused(script, kind, field, value, sentence) -> None:
    """The decks are dealt again with the shifted draws, so that each is its pack shuffled in the
    order the file claims: only the order the game itself draws in can refuse it."""
    honest = classic(version=1) if kind == "ohhell" else user_file("shithead", shithead_rules(), 4, 41, 1)
    rigged = redealt({**copy.deepcopy(honest), field: value})
    assert [d["deck"] for d in rigged["deals"]] != [d["deck"] for d in honest["deals"]]
    assert refused(script, rigged) == f"FAIL: {sentence}"


def test_a_shithead_pack_with_a_card_twice_is_refused(script) -> None:
    """A♠ twice and no 2♣, dealt from the seed as any pack would be: the old script verified it."""
    rigged = copy.deepcopy(user_file("shithead", shithead_rules(), 4, 41))
    pack = rigged["deals"][0]["pack"]
    pack[pack.index("2C")] = "AS"
    redealt(rigged)
    assert rigged["deals"][0]["deck"].count("AS") == 2 and "2C" not in rigged["deals"][0]["deck"]
    assert refused(script, rigged) == "FAIL: deal 1's pack holds a card twice, so it is not a set of the game's cards"


@pytest.mark.parametrize(
    "change",
    [
        lambda p: p[:-1],  # a card short
        lambda p: [*p, "X"],  # a joker more
        lambda p: ["11C" if c == "2C" else c for c in p],  # a card of the 63-card pack
        lambda p: ["AS#1" if c == "AS" else c for c in p],  # a second pack's ace
    ],
    ids=["a card short", "a joker more", "an 11 of clubs", "a second pack's ace"],
)
def test_a_pack_that_is_not_the_games_cards_is_refused(script, change) -> None:
    rigged = copy.deepcopy(user_file("shithead", shithead_rules(), 4, 41))
    rigged["deals"][0]["pack"] = change(rigged["deals"][0]["pack"])
    assert refused(script, redealt(rigged)) == "FAIL: deal 1's pack is not the 52 cards its rules deal 4 players"


def test_a_file_relabelled_another_kind_is_refused(script) -> None:
    honest = classic()
    assert honest["deal_count"] == 2
    # the label alone: an Oh Hell file's rules name no Shithead pack
    assert refused(script, {**honest, "kind": "shithead"}).endswith(": its rule decks is not 1, 2 or 3.")
    # the label, Shithead's rules (the same 52 cards) and its draws, every deck dealt again
    shithead = {"decks": 1, "jokers": 0}
    rigged = {**copy.deepcopy(honest), "kind": "shithead", "rules": shithead, "draws_before_shuffle": 0}
    assert refused(script, redealt(rigged)) == "FAIL: a Shithead game has one deal, the file holds 2"
    # a kind the script does not know, however it is spelled
    for kind in ("highcard", "OhHell", "oh-hell", "Shithead "):
        sentence = refused(script, {**honest, "kind": kind})
        assert sentence.endswith(f": its kind {kind!r} is not a game this script knows (ohhell, shithead)."), sentence


@pytest.mark.parametrize(
    ("kind", "rules", "ending"),
    [
        ("ohhell", None, "it holds no rules, so its pack cannot be derived"),
        ("ohhell", [], "it holds no rules, so its pack cannot be derived"),
        ("ohhell", {}, "its rules name no Oh Hell deck this script knows"),
        ("ohhell", {"pack63_for_6_7": False}, "its rules name no Oh Hell deck this script knows"),
        ("ohhell", {"deck": "standard32"}, "its rules name no Oh Hell deck this script knows"),
        ("ohhell", {"deck": "standard52", "pack63_for_6_7": "on"}, "its rule pack63_for_6_7 is neither true nor false"),
        ("ohhell", {"deck": "pack63"}, "the pack63 deck does not seat 4 players"),
        ("ohhell", {"deck": "australian"}, "the australian deck does not seat 4 players"),
        ("shithead", {}, "its rule decks is not 1, 2 or 3"),
        ("shithead", {"decks": 1}, "its rule jokers is not 0 to two a pack"),
        ("shithead", {"decks": "1", "jokers": 0}, "its rule decks is not 1, 2 or 3"),
        ("shithead", {"decks": 1, "jokers": 3}, "its rule jokers is not 0 to two a pack"),
    ],
)  # fmt: skip
def test_rules_without_a_deck_or_that_it_does_not_know_are_refused(tmp_path, kind, rules, ending) -> None:
    honest = classic() if kind == "ohhell" else user_file("shithead", shithead_rules(), 4, 41)
    rigged = {**honest, "rules": rules} if rules is not None else {k: v for k, v in honest.items() if k != "rules"}
    path = write(tmp_path, rigged)
    run = run_script(path)
    assert run.returncode == 1 and run.stderr == "" and run.stdout == f"NOT VERIFIED: {path}: {ending}.\n", run.stdout


# -- honest files of every preset and player count -----------------------------------------------
def tables(presets: Any, make: Any) -> list[tuple[str, int]]:
    """Every preset at every player count its rules seat."""
    out = []
    for preset in presets:
        low, high = make(preset).player_range()
        out += [(preset, n) for n in range(low, high + 1)]
    return out


@pytest.mark.parametrize(("preset", "players"), tables(OH_HELL_PRESETS, ohhell_rules))
def test_every_oh_hell_preset_verifies_at_every_player_count(script, preset, players) -> None:
    data = user_file("ohhell", ohhell_rules(preset), players, 1000 + players, VERSIONS[players % 3])
    ok, lines = script.check(data)
    assert ok and lines[-1] == f"ok: all {data['deal_count']} of the game's {data['deal_count']} deals checked", lines


@pytest.mark.parametrize(("preset", "players"), tables(SHITHEAD_PRESETS, shithead_rules))
def test_every_shithead_preset_verifies_at_every_player_count(script, preset, players) -> None:
    data = user_file("shithead", shithead_rules(preset), players, 2000 + players, VERSIONS[players % 3])
    ok, lines = script.check(data)
    assert ok and lines[-1] == "ok: all 1 of the game's 1 deals checked", lines


def test_a_game_stored_before_the_63_card_switch_verifies_with_its_52_cards(script) -> None:
    """Stored rules from before ``pack63_for_6_7`` lack it, and the engine deals such a game of six
    52 cards: so does the script (the README says so)."""
    record, decks = played("ohhell", ohhell_rules("oh-shit", pack63_for_6_7="off"), 6, 3, 3)
    assert record.rules is not None
    del record.rules["pack63_for_6_7"]
    data = json.loads(json.dumps(export(KINDS["ohhell"], record, decks)))
    assert "pack63_for_6_7" not in data["rules"] and len(data["deals"][0]["pack"]) == 52
    ok, lines = script.check(data)
    assert ok and "the 52-card pack the rules deal 6 players" in lines[3], lines


# -- the script's packs are the engine's ----------------------------------------------------------
def engine_pack(kind: str, rules: dict[str, Any], players: int) -> list[str] | None:
    """The pack the engine deals this table from (card codes), or None where it refuses it."""
    game = KINDS[kind]
    try:
        engine = game.engine.new(game.rules_from_json(rules), players, 0)
    except (RulesError, TypeError, ValueError):
        return None
    return [card_code(c) for c in engine.pack() or ()]


def script_pack(script: ModuleType, kind: str, rules: Any, players: int) -> list[str] | None:
    try:
        pack: list[str] = script.derive_pack(kind, rules, players)
    except script.Bad:
        return None
    return pack


def test_the_scripts_oh_hell_packs_are_the_engines(script) -> None:
    """Every preset, deck, joker and 63-card switch, from 2 to 8 players: where the engine deals,
    the script derives its pack card for card, in its order; where the deck does not seat the
    table, the script refuses too."""
    compared, sizes = 0, set()
    for preset, deck, joker, pack63, players in itertools.product(
        OH_HELL_PRESETS, DECKS, ("on", "off"), ("on", "off"), range(2, 9)
    ):
        try:
            rules = ohhell_rules(preset, deck=deck, joker=joker, pack63_for_6_7=pack63).to_json()
        except RulesError:
            continue  # no such rule set (a joker-less 63-card pack, a preset the deck cannot seat)
        expected = engine_pack("ohhell", rules, players)
        if expected is not None:
            assert script_pack(script, "ohhell", rules, players) == expected, (preset, deck, joker, pack63, players)
            compared, sizes = compared + 1, sizes | {len(expected)}
        elif not DECK_PLAYERS[rules["deck"]][0] <= players <= DECK_PLAYERS[rules["deck"]][1]:
            assert script_pack(script, "ohhell", rules, players) is None, (preset, deck, players)
    assert sizes == {52, 53, 63, 65, 78} and compared >= 150, (sizes, compared)


def test_the_scripts_shithead_packs_are_the_engines(script) -> None:
    compared, sizes = 0, set()
    for preset, decks, jokers, players in itertools.product(SHITHEAD_PRESETS, (1, 2, 3), range(7), range(2, 11)):
        try:
            rules = shithead_rules(preset, decks=str(decks), jokers=str(jokers)).to_json()
        except RulesError:
            continue
        expected = engine_pack("shithead", rules, players)
        if expected is not None:
            assert script_pack(script, "shithead", rules, players) == expected, (preset, decks, jokers, players)
            compared, sizes = compared + 1, sizes | {len(expected)}
    assert sizes == {52 * d + j for d in (1, 2, 3) for j in range(2 * d + 1)} and compared >= 500, (sizes, compared)


def test_the_script_knows_exactly_the_projects_games(script) -> None:
    """A new game's files are refused until its pack is added to the script (by design: the script
    cannot ask the game's code), and this test names the game missing from it."""
    games = sorted(p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists() and p.name != "common")
    assert sorted(script.KINDS) == games


# -- any one change to an honest file ------------------------------------------------------------
HONEST: dict[str, dict[str, Any]] = {
    "Oh Hell classic, 4, generator 3": user_file("ohhell", ohhell_rules("classic"), 4, 5),
    "oh-shit at 6 (63 cards), generator 2": user_file("ohhell", ohhell_rules("oh-shit"), 6, 6, 2),
    "Australian at 5, generator 3": user_file("ohhell", ohhell_rules("classic", deck="australian"), 5, 7),
    "52 + joker at 3, generator 1": user_file("ohhell", ohhell_rules("classic", joker="on"), 3, 8, 1),
    "spades at 8, generator 3": user_file("ohhell", ohhell_rules("spades"), 8, 9),
    "Shithead six-players, 3, generator 1": user_file("shithead", shithead_rules("six-players"), 3, 10, 1),
    "smeghead at 4, generator 3": user_file("shithead", shithead_rules("smeghead"), 4, 11),
    "3 packs and 6 jokers at 7, generator 2": user_file("shithead", shithead_rules(decks="3", jokers="6"), 7, 12, 2),
}
#: every card code any game's pack holds, and a few that none does
CODES = sorted({c for data in HONEST.values() for c in data["deals"][0]["pack"]} | {"AS#3", "14S", "X#9", "", "as"})
PACK_RULES = {"ohhell": ("deck", "pack63_for_6_7"), "shithead": ("decks", "jokers")}
GONE = object()  # the rule taken out of the file


def test_the_honest_files_verify(script) -> None:
    for name, data in HONEST.items():
        assert verdict(script, data)[0] == 0, name


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_one_change_to_an_honest_file_is_not_verified(script, data) -> None:
    name = data.draw(st.sampled_from(sorted(HONEST)), label="file")
    honest = HONEST[name]
    changed = copy.deepcopy(honest)
    what = data.draw(st.sampled_from(["card", "pack entry", "offset", "kind", "rule"]), label="what")
    if what in ("card", "pack entry"):
        deal = changed["deals"][data.draw(st.integers(0, len(changed["deals"]) - 1), label="deal")]
        cards = deal["deck" if what == "card" else "pack"]
        k = data.draw(st.integers(0, len(cards) - 1), label="place")
        cards[k] = data.draw(st.sampled_from(CODES).filter(lambda c: c != cards[k]), label="new card")
    elif what == "offset":
        if data.draw(st.booleans(), label="draws"):
            old = changed["draws_before_shuffle"]
            changed["draws_before_shuffle"] = data.draw(st.integers(0, 16).filter(lambda n: n != old), label="draws")
        else:
            changed["generator_1_shuffle"] = {"keys": "python", "python": "keys"}[changed["generator_1_shuffle"]]
    elif what == "kind":
        kinds = st.sampled_from(["ohhell", "shithead", "highcard", "OHHELL"]) | st.text(max_size=40)
        changed["kind"] = data.draw(kinds.filter(lambda k: k != honest["kind"]), label="kind")
    else:
        key = data.draw(st.sampled_from(PACK_RULES[honest["kind"]]), label="rule")
        known = st.sampled_from([*DECKS, True, False, 0, 1, 2, 3, 4, 6, "2", "on"])
        value = data.draw(known | st.none() | st.integers() | st.text(max_size=12) | st.just(GONE), label="value")
        if value is GONE:
            del changed["rules"][key]
        else:
            changed["rules"][key] = value
        # a rule that decides the pack: the engine deals this table another pack, or none at all
        before = engine_pack(honest["kind"], honest["rules"], honest["players"])
        assume(engine_pack(honest["kind"], changed["rules"], honest["players"]) != before)
    status, lines = verdict(script, changed)
    assert status == 1 and lines[-1].startswith("NOT VERIFIED"), (what, lines)
