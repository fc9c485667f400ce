"""The option menu, presets, refusals with reasons, and the rules' JSON and words."""

from __future__ import annotations

from dataclasses import fields

import pytest

from games.common.engine import RulesError
from games.shithead.rules import OPTIONS, PRESET_HELP, PRESETS, Rules, make_rules, option_value


def test_the_default_is_pagats_main_description() -> None:
    rules = make_rules()
    assert rules == Rules() == PRESETS["pagat"]
    assert (rules.decks, rules.jokers, rules.table_cards, rules.hand_size) == (1, 0, 3, 3)
    assert rules.ten == "any"  # RULES.md: a ten on anything is the main rule
    assert rules.player_range() == (2, 5)


def test_every_option_is_a_rules_field_and_every_listed_value_is_accepted() -> None:
    assert [o.name for o in OPTIONS] == [f.name for f in fields(Rules)]
    for option in OPTIONS:
        assert option.help and option.values
        for value in option.values:
            try:
                rules = make_rules(**{option.name: value})
            except RulesError as error:  # only the joker counts beyond one pack's two
                assert option.name == "jokers" and int(value) > 2, error
                rules = make_rules(decks=3, **{option.name: value})
            assert option_value(rules, option.name) == value


def test_every_preset_is_valid_and_explained() -> None:
    assert "pagat" in PRESETS and set(PRESET_HELP) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert make_rules(name) == rules
        low, high = rules.player_range()
        assert low == 2 and high >= 3


def test_typed_and_string_values_both_work() -> None:
    assert make_rules(runs="on") == make_rules(runs=True) == make_rules(runs="true")
    assert make_rules(decks="2", jokers="4") == make_rules(decks=2, jokers=4)
    assert make_rules("guarducci", runs="off").runs is False


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"colour": "red"}, "There is no option 'colour'"),
        ({"seven": "blue"}, "seven cannot be 'blue': choose one of normal, lower, glass."),
        ({"decks": "9"}, "decks cannot be '9'"),
        ({"decks": "x"}, "decks cannot be 'x'"),
        ({"runs": "maybe"}, "runs cannot be 'maybe'"),
        ({"jokers": 3}, "3 jokers need 2 packs"),
    ],
)
def test_bad_options_are_refused_with_what_would_work(overrides: dict, message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_rules(**overrides)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="There is no preset 'uno': choose one of pagat"):
        make_rules("uno")


def test_six_players_need_jokers_or_a_second_pack() -> None:
    with pytest.raises(RulesError) as info:
        make_rules().check_players(6)
    text = str(info.value)
    assert "6 players need 54 cards" in text and "jokers=2" in text and "decks=2" in text
    make_rules(jokers=2).check_players(6)
    make_rules(decks=2).check_players(6)
    with pytest.raises(RulesError, match="at most 6 players"):
        make_rules(jokers=2).check_players(7)


def test_player_counts_follow_the_cards_dealt() -> None:
    assert make_rules(table_cards=4, hand_size=4).player_range() == (2, 4)
    assert make_rules("smeghead").player_range() == (2, 8)
    assert make_rules(decks=3, jokers=6).player_range() == (2, 10)  # the table's own limit
    with pytest.raises(RulesError, match="at least 2 players"):
        make_rules().check_players(1)
    with pytest.raises(RulesError, match="At most 10 players"):
        make_rules(decks=3).check_players(11)


def test_json_round_trip_and_description() -> None:
    for rules in PRESETS.values():
        assert Rules.from_json(rules.to_json()) == rules
    words = " ".join(make_rules("guarducci").describe())
    assert "glass" in words and "run" in words and "lower than 8" in words
    assert any("shithead" in line for line in make_rules().describe())
    assert any("first player to run out" in line for line in make_rules(goal="winner").describe())
    assert all(isinstance(line, str) and line for p in PRESETS.values() for line in p.describe())
