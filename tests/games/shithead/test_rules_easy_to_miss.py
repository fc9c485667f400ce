"""Seed rules easy to miss (Shithead, seed 003): two jokers with two players, the flush person, the
first player from the deal, the choosing deal's order, and rules checked however they are built."""

from __future__ import annotations

import dataclasses

import pytest

from games.common.cards import parse_card
from games.common.engine import IllegalAction, RulesError
from games.shithead.game import Shithead
from games.shithead.rules import PRESETS, Rules, make_rules
from locales import said
from tests.games.shithead.scenario import play, public, stacked

UP0 = ["3C", "KD", "QD"]


def test_two_jokers_at_once_with_two_players_do_not_give_the_opponent_a_free_play() -> None:
    """Guarducci: with two players "the player of the joker immediately plays another card"."""
    game = stacked(
        make_rules(jokers=2, joker_rule="skip-glass"),
        seats=2,
        up={0: UP0},
        hands={0: ["AC", "4D", "5D"], 1: ["X", "X#1", "6S"]},
    )
    play(game, 0, "AC")
    events = play(game, 1, "X", "X#1")
    assert game.to_act() == [1] and said(game.view(1)["need"]) == "Any card."
    assert public(events, "skipped") == [{"seat": 1, "skipped": [0]}]
    assert public(events, "turn") == [{"seat": 1}]
    play(game, 1, "6S")
    assert game.to_act() == [0]


def test_smeghead_names_the_flush_person_once() -> None:
    rules = make_rules("smeghead")
    assert rules.flush and "flush" in " ".join(rules.describe())
    game = stacked(
        rules,
        seats=2,
        up={0: ["3C", "KD", "QD", "JD"]},
        hands={0: ["10C", "4D", "5D", "6D"], 1: ["10S", "5S", "6S", "7S"]},
    )
    assert game.view(None)["flush"] is None
    play(game, 0, "4D")
    events = play(game, 1, "10S")
    assert public(events, "flush") == [{"seat": 1}]
    assert game.view(0)["flush"] == 1
    assert any("flush" in said(r["text"]) for r in game.view(None)["recent"])
    play(game, 1, "5S")
    events = play(game, 0, "10C")  # a later burn names nobody new
    assert public(events, "flush") == [] and game.view(None)["flush"] == 1


def test_no_flush_person_without_the_option() -> None:
    game = stacked("pagat", seats=2, up={0: UP0}, hands={0: ["10C", "4D", "5D"]})
    events = play(game, 0, "10C")
    assert public(events, "flush") == [] and game.view(None)["flush"] is None


def test_the_first_player_is_who_was_dealt_the_first_face_up_three_before_any_swap() -> None:
    """Seat 1 is dealt 3D face up in the second row; seat 0 swaps 3S into the first row: seat 1 leads."""
    rules = make_rules()
    game = stacked(
        rules,
        seats=3,
        dealer=2,
        up={0: ["KC", "QC", "JC"], 1: ["KH", "3D", "JH"], 2: ["KS", "QS", "JS"]},
        hands={0: ["3S", "4S", "5S"], 1: ["6D", "7D", "8D"], 2: ["6C", "7C", "8C"]},
        ready=False,
    )
    game.apply(0, {"type": "swap", "hand": "3S", "up": "KC"})
    assert game.view(None)["seats"][0]["face_up"][0] == "3S"
    for seat in range(3):
        _, events = game.apply(seat, {"type": "ready"})
    assert [{**e, "reason": said(e["reason"])} for e in public(events, "first_player")] == [
        {"seat": 1, "reason": "the first face-up 3"}
    ]


def test_the_choosing_deal_first_player_does_not_depend_on_the_listing_order() -> None:
    rules = make_rules(deal="choose")
    hands = {0: ["KC", "QC", "3S", "4S", "5S", "6S"], 1: ["3D", "KH", "QH", "4H", "5H", "6H"]}
    firsts = set()
    for order0, order1 in ((["KC", "QC", "3S"], ["3D", "KH", "QH"]), (["3S", "KC", "QC"], ["KH", "QH", "3D"])):
        game = stacked(rules, seats=2, dealer=1, hands=hands)
        game.apply(0, {"type": "choose_up", "cards": order0})
        game.apply(1, {"type": "choose_up", "cards": order1})
        firsts.add(game.first_player)
    assert firsts == {0}  # seat 0 is first from the dealer's left, whatever the slots


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Rules(table_cards=0, hand_size=0), "table_cards"),
        (lambda: Rules(seven="banana"), "seven"),
        (lambda: Rules(runs="yes"), "runs"),  # type: ignore[arg-type]
        (lambda: Rules(jokers=7), "jokers"),
        (lambda: Rules(jokers=4), "jokers need 2 packs"),
        (lambda: dataclasses.replace(PRESETS["pagat"], eight="sideways"), "eight"),
        (lambda: Rules.from_json({**Rules().to_json(), "goal": "draw"}), "goal"),
        (lambda: Shithead.new(Rules(decks=1, jokers=3), 2, 1), "jokers"),
    ],
)
def test_rules_are_checked_however_they_are_built(build, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RulesError, match=message):
        build()


def test_stored_rules_without_the_new_option_still_load() -> None:
    old = make_rules("smeghead").to_json()
    del old["flush"]
    assert Rules.from_json(old).flush is False


# -- Karma's stacking (Sean Daly, seed 003) ---------------------------------------------------------


def test_karma_stacks_equal_face_up_cards_and_refills_the_hand_as_in_the_seed_example() -> None:
    """003: visible A, K, K, J, J, 9; the kings and jacks stacked, the 9 kept; draws J, 6, J, 6."""
    rules = make_rules("karma")
    assert rules.stacking and "played together" in " ".join(rules.describe())
    game = stacked(
        rules,
        seats=2,
        dealer=1,
        up={0: ["AC", "KD", "JD"]},
        hands={0: ["KS", "JS", "9H"], 1: ["3C", "4C", "5C"]},
        stock=["JH", "6S", "JC", "6D", "8C"],
        ready=False,
    )
    assert {"type": "stack", "card": "KS"} in game.legal_actions(0)
    assert not any(a["type"] == "stack" and a["card"] == "9H" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="only go on face-up cards of its rank"):
        game.check(0, {"type": "stack", "card": "9H"})
    for card in ("KS", "JS", "JH", "JC"):  # the drawn jacks go on the jacks too
        _, events = game.apply(0, {"type": "stack", "card": card})
        assert public(events, "stacked") == [{"seat": 0, "card": card}]
    assert sorted(game.hand[0]) == sorted(parse_card(c) for c in ("9H", "6S", "6D"))
    assert sorted(game.view(1)["seats"][0]["face_up"]) == sorted(["AC", "KD", "KS", "JD", "JS", "JH", "JC"])
    assert game.view(None)["stock"] == 52 - 18 - 4  # four draws, one a stack
    # in the endgame a stack goes down as one group
    game.apply(0, {"type": "ready"})
    game.apply(1, {"type": "ready"})
    game.hand[0].clear()
    game.stock.clear()
    game.turn = 0
    plays = [a["cards"] for a in game.legal_actions(0) if a["type"] == "play"]
    assert any(sorted(p) == ["JC", "JD", "JH", "JS"] for p in plays)
    assert all(len(p) == {"A": 1, "K": 2, "J": 4}[p[0][0]] for p in plays)
    with pytest.raises(IllegalAction, match="played together: play all 2 of your face-up Ks"):
        game.check(0, {"type": "play", "cards": ["KD"]})
    game.apply(0, {"type": "play", "cards": ["KD", "KS"]})


def test_stacking_is_refused_without_karma_and_with_the_choosing_deal() -> None:
    game = stacked("pagat", seats=2, up={0: ["AC", "KD", "JD"]}, hands={0: ["KS", "JS", "9H"]}, ready=False)
    assert not any(a["type"] == "stack" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="Karma"):
        game.check(0, {"type": "stack", "card": "KS"})
    with pytest.raises(RulesError, match="deal=swap"):
        make_rules("karma", deal="choose")
