"""Seed 003's variations, each as an option, on stacked decks."""

from __future__ import annotations

import pytest

from games.common.engine import IllegalAction
from games.shithead.rules import make_rules
from locales import said
from tests.games.shithead.scenario import flip, kinds, pickup, play, public, stacked, to_last_face_down

UP0 = ["3C", "KD", "QD"]  # seat 0 starts (the first face-up 3)


def legal_cards(game, seat: int) -> list[list[str]]:
    return [a["cards"] for a in game.legal_actions(seat) if a["type"] == "play"]


# -- sevens -------------------------------------------------------------------------------------


def test_seven_lower_or_equal_next() -> None:
    game = stacked(make_rules(seven="lower"), up={0: UP0}, hands={0: ["7C", "4D", "5D"], 1: ["9S", "5S", "10S"]})
    play(game, 0, "7C")
    with pytest.raises(IllegalAction, match=r"After a 7 you must play a 7 or lower \(or a 2 or 10\)\."):
        game.check(1, {"type": "play", "cards": ["9S"]})
    assert sorted(legal_cards(game, 1)) == [["10S"], ["5S"]]
    assert game.view(1)["playable_ranks"] == ["3", "4", "5", "6", "7", "10", "2"]
    play(game, 1, "5S")


def test_seven_glass_is_played_on_anything_and_seen_through() -> None:
    game = stacked(
        make_rules(seven="glass"),
        up={0: UP0},
        hands={0: ["AC", "4D", "5D"], 1: ["7S", "5S", "6S"], 2: ["KH", "AH", "4H"]},
    )
    play(game, 0, "AC")
    play(game, 1, "7S")  # a 7 on an ace
    view = game.view(2)
    assert view["pile_top"] == "7S" and view["to_beat"] == "AC"
    with pytest.raises(IllegalAction, match="A king does not beat the ace under the 7."):
        game.check(2, {"type": "play", "cards": ["KH"]})
    play(game, 2, "AH")


def test_a_glass_seven_on_the_empty_table_counts_as_seven() -> None:
    game = stacked(make_rules(seven="glass"), up={0: UP0}, hands={0: ["7C", "4D", "5D"], 1: ["6S", "8S", "5S"]})
    play(game, 0, "7C")
    assert game.view(1)["to_beat"] == "7C"
    assert legal_cards(game, 1) == [["8S"]]


# -- eights ---------------------------------------------------------------------------------------


def test_eight_reverses_goes_on_anything_and_is_transparent() -> None:
    game = stacked(
        make_rules(eight="reverse"),
        seats=4,
        up={0: UP0},
        hands={0: ["9C", "4D", "JD"], 1: ["8S", "5S", "6S"]},
    )
    play(game, 0, "9C")
    events = play(game, 1, "8S")
    assert public(events, "reversed") == [{"seat": 1, "direction": -1}]
    assert game.to_act() == [0]  # the direction changed: back to the 9's player
    view = game.view(0)
    assert view["to_beat"] == "9C" and view["direction"] == -1
    with pytest.raises(IllegalAction, match="A 4 does not beat the 9 under the 8."):
        game.check(0, {"type": "play", "cards": ["4D"]})
    play(game, 0, "JD")
    assert game.to_act() == [3]


def test_eight_on_a_seven_sends_the_seven_back_to_its_player() -> None:
    """Gultnieks: "If an eight is played on a seven, it will be the person who played the seven
    who has to play a lower or equal card"."""
    game = stacked(make_rules("gultnieks"), seats=3, up={0: UP0}, hands={0: ["7C", "9D", "5D"], 1: ["8S", "5S", "6S"]})
    play(game, 0, "7C")
    play(game, 1, "8S")
    assert game.to_act() == [0]
    with pytest.raises(IllegalAction, match="After a 7 you must play a 7 or lower"):
        game.check(0, {"type": "play", "cards": ["9D"]})
    play(game, 0, "5D")


def test_an_eight_on_the_empty_table_lets_anything_follow() -> None:
    game = stacked(make_rules(eight="reverse"), up={0: UP0}, hands={0: ["8C", "4D", "5D"]})
    play(game, 0, "8C")
    assert said(game.view(None)["need"]) == "Any card." and game.view(None)["to_beat"] is None


def test_guarducci_eight_wants_lower_next_and_stops_a_ten() -> None:
    game = stacked(make_rules(eight="lower"), up={0: UP0}, hands={0: ["8C", "4D", "5D"], 1: ["9S", "10S", "5S"]})
    play(game, 0, "8C")
    with pytest.raises(IllegalAction, match="After an 8 you must play an 8 or lower."):
        game.check(1, {"type": "play", "cards": ["10S"]})
    assert legal_cards(game, 1) == [["5S"]]


# -- jokers ---------------------------------------------------------------------------------------


def test_joker_reverses_and_you_must_beat_your_own_play() -> None:
    game = stacked(
        make_rules("six-players"),
        seats=4,
        up={0: UP0},
        hands={0: ["9C", "4D", "JD"], 1: ["X", "5S", "X#1"]},
    )
    play(game, 0, "9C")
    with pytest.raises(IllegalAction, match="Jokers cannot be played with other cards."):
        game.check(1, {"type": "play", "cards": ["X", "5S"]})
    assert ["X", "X#1"] in legal_cards(game, 1)
    play(game, 1, "X")
    assert game.to_act() == [0] and game.view(0)["to_beat"] == "9C"
    with pytest.raises(IllegalAction, match="A 4 does not beat the 9 under the Joker."):
        game.check(0, {"type": "play", "cards": ["4D"]})


@pytest.mark.parametrize(
    ("joker_rule", "answers"), [("skip-glass", [["5D"]]), ("skip-7", []), ("skip-2", [["3S"], ["4D"], ["5D"]])]
)
def test_guarducci_joker_skips_the_next_player(joker_rule: str, answers: list[list[str]]) -> None:
    game = stacked(
        make_rules(jokers=2, joker_rule=joker_rule),
        seats=3,
        up={0: UP0},
        hands={0: ["5C", "4D", "5D"], 1: ["X", "5S", "6S"]},
        stock=["3S"],
    )
    play(game, 0, "5C")
    events = play(game, 1, "X")
    assert public(events, "skipped") == [{"seat": 1, "skipped": [2]}]
    assert game.to_act() == [0]
    assert legal_cards(game, 0) == answers  # glass: beat the 5; as a 7; as a 2: anything


def test_joker_skip_with_two_players_lets_the_joker_player_play_anything() -> None:
    game = stacked(
        make_rules(jokers=2, joker_rule="skip-glass"),
        seats=2,
        up={0: UP0},
        hands={0: ["AC", "4D", "5D"], 1: ["X", "5S", "6S"]},
    )
    play(game, 0, "AC")
    play(game, 1, "X")
    assert game.to_act() == [1] and said(game.view(1)["need"]) == "Any card."
    play(game, 1, "5S")


# -- runs -----------------------------------------------------------------------------------------


def test_a_run_in_one_suit_each_card_legal_in_turn() -> None:
    game = stacked(
        make_rules(runs=True, hand_size=4),
        up={0: UP0},
        hands={0: ["4C", "5D", "2H", "2D"], 1: ["5H", "6H", "7H", "9S"]},
        stock=["JC", "8H", "9H", "JS"],
    )
    play(game, 0, "4C")
    assert ["5H", "6H", "7H"] in legal_cards(game, 1) and ["5H", "6H"] in legal_cards(game, 1)
    with pytest.raises(IllegalAction, match="a run of consecutive cards in one suit"):
        game.check(1, {"type": "play", "cards": ["5H", "7H"]})
    events = play(game, 1, "5H", "6H", "7H")
    assert public(events, "played")[0]["cards"] == ["5H", "6H", "7H"]
    assert game.view(2)["pile_top"] == "7H" and game.view(1)["hand"] == ["8H", "9H", "9S", "JS"]


def test_a_run_reaching_ten_burns_and_stops_there() -> None:
    game = stacked(
        make_rules(runs=True, hand_size=4),
        up={0: UP0},
        hands={0: ["8C", "9C", "10C", "JC"]},
    )
    assert ["8C", "9C", "10C"] in legal_cards(game, 0)
    assert ["8C", "9C", "10C", "JC"] not in legal_cards(game, 0)
    with pytest.raises(IllegalAction, match="The pile burns before the end of that run"):
        game.check(0, {"type": "play", "cards": ["8C", "9C", "10C", "JC"]})
    events = play(game, 0, "8C", "9C", "10C")
    assert public(events, "burnt")[0]["count"] == 3 and game.to_act() == [0]


def test_a_run_breaks_on_an_illegal_card() -> None:
    game = stacked(make_rules(runs=True, seven="lower"), up={0: UP0}, hands={0: ["6C", "7C", "8C"]})
    assert ["6C", "7C"] in legal_cards(game, 0) and ["6C", "7C", "8C"] not in legal_cards(game, 0)
    with pytest.raises(IllegalAction, match="The run breaks at 8♣"):
        game.check(0, {"type": "play", "cards": ["6C", "7C", "8C"]})


# -- after a pick-up ------------------------------------------------------------------------------


@pytest.mark.parametrize(("after", "leader"), [("next", 0), ("previous", 1)])
def test_after_a_pick_up(after: str, leader: int) -> None:
    game = stacked(
        make_rules(after_pickup=after),
        seats=3,
        up={0: UP0},
        hands={0: ["KC", "4D", "5D"], 1: ["AS", "5S", "6S"], 2: ["4H", "5H", "6H"]},
    )
    play(game, 0, "KC")
    play(game, 1, "AS")
    pickup(game, 2)
    assert game.to_act() == [leader]


# -- the deal -------------------------------------------------------------------------------------


def test_choosing_three_of_six_face_up() -> None:
    rules = make_rules(deal="choose")
    game = stacked(rules, seats=2, dealer=1, hands={0: ["3C", "4C", "5C", "AC", "KC", "2C"]})
    view = game.view(0)
    assert view["phase"] == "swap" and len(view["hand"]) == 6 and view["seats"][0]["face_up"] == []
    assert len(view["legal"]) == 20 and {a["type"] for a in view["legal"]} == {"choose_up"}
    with pytest.raises(IllegalAction, match="Choose the 3 cards"):
        game.check(0, {"type": "ready"})
    with pytest.raises(IllegalAction, match="exactly 3"):
        game.check(0, {"type": "choose_up", "cards": ["AC", "KC"]})
    _, events = game.apply(0, {"type": "choose_up", "cards": ["AC", "KC", "2C"]})
    assert public(events, "chose_up") == [{"seat": 0, "cards": ["AC", "KC", "2C"]}]
    assert game.to_act() == [1] and game.view(0)["hand"] == ["3C", "4C", "5C"]
    assert game.view(None)["seats"][0]["face_up"] == ["AC", "KC", "2C"]
    game.apply(1, game.legal_actions(1)[0])
    assert game.view(None)["phase"] == "play"


def test_hands_of_four_and_four_table_cards() -> None:
    game = stacked(make_rules(table_cards=4, hand_size=4), seats=2, up={0: ["3C", "4C", "5C", "6C"]})
    view = game.view(0)
    assert len(view["hand"]) == 4 and view["seats"][1]["face_down"] == 4 and len(view["seats"][1]["face_up"]) == 4
    assert view["stock"] == 52 - 24


def test_several_packs_tell_copies_apart_and_a_bare_code_takes_any_copy() -> None:
    rules = make_rules(decks=2)
    game = stacked(rules, seats=2, dealer=1, up={0: UP0}, hands={0: ["5S", "5S#1", "4D"], 1: ["5H", "5H#1", "6D"]})
    assert ["5S", "5S#1"] in legal_cards(game, 0)
    assert ["5S#1"] not in legal_cards(game, 0)  # the same face is listed once
    play(game, 0, "5S", "5S")  # both copies by their bare code
    events = play(game, 1, "5H#1", "5H")
    assert public(events, "burnt")[0]["reason"] == "four"


def test_play_for_a_winner_stops_at_the_first_player_out() -> None:
    game = to_last_face_down("AH", goal="winner")
    events = flip(game, 0, 2)
    assert kinds(events)[-2:] == ["player_out", "game_over"]
    assert game.is_over and game.results() == {"order": [0], "loser": None, "winner": 0, "next_dealer": 0}
