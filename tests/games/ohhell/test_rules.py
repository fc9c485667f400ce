"""Rules: presets, overrides, validation messages, hand sequences, storage, descriptions."""

from __future__ import annotations

from dataclasses import fields

import pytest

from games.common.engine import RulesError
from games.ohhell.options import OPTIONS
from games.ohhell.presets import PRESETS
from games.ohhell.rules import Rules, make_rules
from games.ohhell.rules_text import describe


def test_presets_match_rules_md_table() -> None:
    c = make_rules("classic")
    assert (c.deck, c.sequence, c.peak, c.trump, c.bowers, c.bidding, c.hook) == (
        "standard52", "down-up", "auto", "turn-up", False, "sequential", True
    )  # fmt: skip
    assert (c.first_lead, c.scoring, c.ties, c.revokes, c.player_range()) == (
        "dealer", "e2", "extra-hand", "prevent", (3, 7)
    )  # fmt: skip
    o = make_rules("oh-shit")
    assert (o.sequence, o.peak, o.no_trump_turnup, o.bidding, o.hook, o.first_lead) == (
        "up-down", 9, True, "simultaneous", False, "left-of-dealer"
    )  # fmt: skip
    assert (o.scoring, o.revokes, o.ties, o.player_range()) == ("misere", "penalize", "misere-tiebreak", (3, 7))
    b = make_rules("bowers")
    assert (b.sequence, b.peak, b.bowers, b.hook, b.first_lead, b.scoring, b.player_range()) == (
        "down-up", 10, True, True, "left-of-dealer", "trick+10", (2, 5)
    )  # fmt: skip
    s = make_rules("spades")
    assert (s.sequence, s.peak, s.trump, s.trump_suit, s.hook, s.scoring, s.player_range()) == (
        "down", "max", "fixed", "S", True, "spades", (3, 8)
    )  # fmt: skip


def test_every_rules_field_is_an_option_or_internal() -> None:
    names = {f.name for f in fields(Rules)}
    assert names - set(OPTIONS) == {"preset", "max_tie_deals"}
    assert set(OPTIONS) - names == {"joker"}  # joker is a shorthand over deck
    for opt in OPTIONS.values():
        assert opt.help and opt.kind in ("choice", "bool", "int", "list")
        if opt.kind in ("choice", "bool"):
            assert opt.values
    for preset in PRESETS:
        assert set(PRESETS[preset]) <= names


def test_overrides_accept_strings_from_slash_commands() -> None:
    r = make_rules("classic", bowers="on", peak="8", hook="off", scoring="5+10", **{"first-lead": "left-of-dealer"})
    assert (r.bowers, r.peak, r.hook, r.scoring, r.first_lead) == (True, 8, False, "5+10", "left-of-dealer")
    assert make_rules("classic", trump="fixed:♥").trump_suit == "H"
    assert make_rules("classic", trump="rotate:S,H,nt").trump_rotation == ("S", "H", "NT")
    assert make_rules("classic", fixed_hands="3,2,1").sequence == "fixed"
    assert make_rules("classic", joker=True).deck == "standard52+joker"
    assert make_rules("oh-shit", joker="on", half_game="yes").hand_sizes(4) == list(range(9, 0, -1))


@pytest.mark.parametrize(
    ("preset", "overrides", "message"),
    [
        ("nope", {}, "Unknown preset 'nope'. Presets: classic, oh-shit, bowers, spades."),
        ("classic", {"colour": "red"}, "Unknown option 'colour'"),
        ("classic", {"bidding": "shouted"}, "bidding must be one of sequential, simultaneous"),
        ("classic", {"bidding": "simultaneous"}, "with bidding=simultaneous set hook=off"),
        ("classic", {"hook": "maybe"}, "hook must be on or off"),
        ("classic", {"peak": "lots"}, "peak must be a whole number"),
        ("classic", {"peak": 0}, "peak must be a number of cards"),
        ("classic", {"sequence": "fixed"}, "sequence=fixed needs its hand sizes: type /ohhell set fixed_hands"),
        ("classic", {"sequence": "up", "half_game": True}, "half_game halves an up-down or down-up game"),
        ("classic", {"deck": "pack63", "joker": False}, "always has its joker"),
        ("classic", {"deck": "australian", "joker": True}, "has no joker"),
        ("bowers", {"deck": "pack63"}, "seats 6–7 players but these rules allow 2–5"),
        ("classic", {"min_players": 6, "max_players": 4}, "is more than max_players"),
        ("classic", {"trump_suit": "stars"}, "not a suit"),
        ("classic", {"devils_bridge": True, "fixed_hands": "3,2"}, "add a 1 to fixed_hands"),
    ],
)
def test_impossible_rules_are_refused_with_a_reason(preset: str, overrides: dict, message: str) -> None:
    with pytest.raises(RulesError) as err:
        make_rules(preset, **overrides)
    assert message in str(err.value)


def test_hook_with_simultaneous_is_fine_once_hook_is_off() -> None:
    assert make_rules("classic", bidding="simultaneous", hook="off").bidding == "simultaneous"


def test_player_counts() -> None:
    classic = make_rules("classic")
    with pytest.raises(RulesError, match="set max_players=8 to allow 8"):
        classic.check_players(8)
    with pytest.raises(RulesError, match="Too many players for the deck: standard52 seats at most 8"):
        make_rules("classic", max_players=8).check_players(9)
    with pytest.raises(RulesError, match="at least 3"):
        classic.check_players(2)
    pack = make_rules("oh-shit", deck="pack63")
    assert pack.player_range() == (6, 7)
    with pytest.raises(RulesError, match="use deck=standard52"):
        pack.check_players(5)
    assert make_rules("classic", deck="australian").player_range() == (5, 6)
    assert make_rules("spades").player_range() == (3, 8)
    with pytest.raises(RulesError, match="needs 60 cards but the standard52 deck has 52"):
        make_rules("classic", fixed_hands="12").check_players(5)


def test_hand_sizes() -> None:
    assert make_rules("classic").hand_sizes(7) == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]
    assert make_rules("classic").hand_sizes(3)[0] == 10
    assert make_rules("classic", max_players=8).hand_sizes(8)[0] == 6
    # seed 000: seven players play the 63-card pack, 9 cards each at the peak (with 52 cards: 7)
    assert make_rules("oh-shit").hand_sizes(7)[:10] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 8]
    assert make_rules("oh-shit", deck="standard52").hand_sizes(7)[:9] == [1, 2, 3, 4, 5, 6, 7, 6, 5]  # 7 x 7 = 49
    assert len(make_rules("oh-shit", deck="pack63").hand_sizes(7)) == 17  # 63 / 7 = 9
    assert make_rules("spades").hand_sizes(3)[0] == 17
    assert make_rules("spades").hand_sizes(8)[0] == 6
    # 001: with the Australian pack "the first deal ... is 13" (65 / 5, 78 / 6)
    assert make_rules("classic", deck="australian").hand_sizes(5)[0] == 13
    assert make_rules("classic", deck="australian").hand_sizes(6)[0] == 13
    assert make_rules("classic", sequence="up", peak=3).hand_sizes(4) == [1, 2, 3]
    assert make_rules("bowers", half_game=True).hand_sizes(4) == list(range(10, 0, -1))


def test_devils_bridge_deal_is_the_last_one_card_deal() -> None:
    assert make_rules("oh-shit", devils_bridge=True).bridge_deal(4) == 16
    assert make_rules("classic", devils_bridge=True).bridge_deal(4) == 9
    assert make_rules("classic").bridge_deal(4) is None


@pytest.mark.parametrize("preset", list(PRESETS))
def test_json_round_trip_and_describe(preset: str) -> None:
    rules = make_rules(preset, trump="rotate:H,NT")
    data = rules.to_json()
    assert Rules.from_json(data) == rules
    import json

    assert Rules.from_json(json.loads(json.dumps(data))) == rules
    lines = describe(rules)
    assert lines[0].startswith(f"Preset: {preset}")
    assert any("hearts, no trumps" in line for line in lines)
    assert any("Hands for 4 players" in line for line in describe(make_rules(preset), 4))


def test_from_json_refuses_unknown_fields() -> None:
    with pytest.raises(RulesError, match="Unknown rule field"):
        Rules.from_json({**make_rules().to_json(), "wild": 1})


def test_with_options_layers_more_overrides() -> None:
    r = make_rules("spades").with_options(scoring="e2")
    assert (r.preset, r.scoring, r.trump) == ("spades", "e2", "fixed")
