"""Walk-throughs of seed 003's own statements on stacked decks (Pagat's main rules)."""

from __future__ import annotations

import random

import pytest

from games.common.engine import IllegalAction
from games.shithead.ai import SensiblePlayer
from games.shithead.game import Shithead
from games.shithead.rules import make_rules
from locales import said
from tests.games.shithead.scenario import (
    flip,
    kinds,
    pickup,
    play,
    public,
    six_player_table,
    stacked,
    to_last_face_down,
)

# -- "A ten may be played on any turn ... (or even if the pile is empty)" ----------------------


def test_ten_on_an_empty_pile_burns_and_the_same_player_goes_again() -> None:
    game = stacked(seats=3, up={0: ["3C", "KD", "QD"]}, hands={0: ["10C", "5D", "6D"]}, stock=["7C", "8C"])
    assert game.to_act() == [0] and game.first_player == 0
    events = play(game, 0, "10C")
    assert public(events, "burnt") == [{"seat": 0, "count": 1, "reason": "ten"}]
    drew = [e for e in events if e.kind == "drew"]
    assert [(e.seat, e.data) for e in drew] == [(None, {"seat": 0, "count": 1}), (0, {"seat": 0, "cards": ["7C"]})]
    assert game.to_act() == [0]
    view = game.view(0)
    assert view["pile"] == [] and view["burnt"] == 1 and view["hand"] == ["5D", "6D", "7C"]
    play(game, 0, "5D")
    assert game.to_act() == [1]


def test_ten_on_a_king_by_default_but_not_with_the_face_card_option() -> None:
    zones = {"up": {0: ["3C", "4D", "4H"]}, "hands": {0: ["KC", "5D", "6D"], 1: ["10D", "5S", "6S"]}}
    game = stacked(**zones)
    play(game, 0, "KC")
    events = play(game, 1, "10D")
    assert public(events, "burnt")[0]["count"] == 2 and game.to_act() == [1]

    strict = stacked(make_rules(ten="not-on-face"), **zones)
    play(strict, 0, "KC")
    with pytest.raises(IllegalAction, match="A 10 cannot go on a king."):
        strict.check(1, {"type": "play", "cards": ["10D"]})
    assert {"type": "play", "cards": ["10D"]} not in strict.legal_actions(1)


def test_a_card_too_low_is_refused_with_a_readable_reason() -> None:
    game = stacked(up={0: ["3C", "4D", "4H"]}, hands={0: ["QC", "5D", "6D"], 1: ["6S", "2S", "9S"]})
    play(game, 0, "QC")
    with pytest.raises(IllegalAction, match=r"^A 6 does not beat the queen on the pile\.$"):
        game.apply(1, {"type": "play", "cards": ["6S"]})
    with pytest.raises(IllegalAction, match="It is not your turn."):
        game.apply(2, {"type": "pickup"})
    play(game, 1, "2S")  # a 2 goes on anything
    assert said(game.view(None)["need"]) == "Any card."


# -- "If someone completes a set of four cards of the same rank on top of the discard pile" ---


def test_four_of_a_kind_across_two_players_burns_and_the_completer_goes_again() -> None:
    game = stacked(seats=3, up={0: ["3C", "KD", "QD"]}, hands={0: ["7C", "7D", "5D"], 1: ["7H", "7S", "9S"]})
    play(game, 0, "7C", "7D")
    events = play(game, 1, "7H", "7S")
    assert public(events, "burnt") == [{"seat": 1, "count": 4, "reason": "four"}]
    assert game.to_act() == [1] and game.view(None)["pile_size"] == 0
    play(game, 1, "9S")
    assert game.to_act() == [2]


def test_four_of_a_kind_played_at_once_burns() -> None:
    game = stacked(make_rules(hand_size=4), up={0: ["3C", "KD", "QD"]}, hands={0: ["8C", "8D", "8H", "8S"]})
    events = play(game, 0, "8C", "8D", "8H", "8S")
    assert public(events, "burnt")[0]["reason"] == "four" and game.to_act() == [0]
    assert len(game.view(0)["hand"]) == 4  # drew back up to four


def test_three_of_a_kind_and_a_fourth_by_another_player() -> None:
    game = stacked(seats=3, up={0: ["3C", "KD", "QD"]}, hands={0: ["6C", "6D", "6H"], 1: ["6S", "9D", "9H"]})
    play(game, 0, "6C", "6D", "6H")
    assert "burnt" in kinds(play(game, 1, "6S")) and game.to_act() == [1]


# -- the end game on a six-player table (two jokers, no stock) --------------------------------


def test_you_may_not_play_table_cards_while_you_hold_a_hand() -> None:
    game = six_player_table("6C")
    assert game.first_player == 0 and str(game.first_reason) == "the first face-up 3"
    with pytest.raises(IllegalAction, match="You must play from your hand first."):
        game.check(0, {"type": "play", "cards": ["3C"]})
    with pytest.raises(IllegalAction, match="flip"):
        game.check(0, {"type": "flip", "index": 0})


def test_a_pick_up_in_the_face_up_phase_adds_one_face_up_card() -> None:
    game = six_player_table("6C")
    play(game, 0, "9C", "9D", "9H")
    pickup(game, 1)
    play(game, 2, "4D")
    pickup(game, 3)
    play(game, 4, "5D")
    play(game, 5, "KS")
    assert game.zone(0) == "up" and game.to_act() == [0]
    legal = game.legal_actions(0)
    assert legal == [{"type": "pickup", "add": c} for c in ("3C", "3D", "3H")]
    with pytest.raises(IllegalAction, match="A 3 does not beat the king on the pile."):
        game.check(0, {"type": "play", "cards": ["3C"]})
    with pytest.raises(IllegalAction, match="add to the pile"):
        game.check(0, {"type": "pickup"})
    events = pickup(game, 0, add="3D")
    assert public(events, "picked_up") == [{"seat": 0, "count": 3, "cards": ["5D", "KS", "3D"], "added": "3D"}]
    view = game.view(0)
    assert view["hand"] == ["3D", "5D", "KS"] and view["seats"][0]["face_up"] == ["3C", "3H"]
    assert game.to_act() == [1] and view["pile"] == []


def test_the_leave_face_up_variation_only_takes_the_pile() -> None:
    game = six_player_table("6C", refusal="keep-up")
    play(game, 0, "9C", "9D", "9H")
    pickup(game, 1)
    play(game, 2, "4D")
    pickup(game, 3)
    play(game, 4, "5D")
    play(game, 5, "KS")
    assert game.legal_actions(0) == [{"type": "pickup"}]
    pickup(game, 0)
    view = game.view(0)
    assert view["hand"] == ["5D", "KS"] and view["seats"][0]["face_up"] == ["3C", "3D", "3H"]


def test_a_last_face_down_card_that_does_not_fit_is_picked_up_with_the_pile() -> None:
    game = to_last_face_down("6C")
    events = flip(game, 0, 2)
    assert public(events, "flipped") == [{"seat": 0, "index": 2, "card": "6C", "playable": False}]
    assert public(events, "picked_up")[0]["cards"] == ["7H", "KS", "6C"]
    assert "player_out" not in kinds(events)
    view = game.view(0)
    assert view["hand"] == ["6C", "7H", "KS"] and view["zone"] == "hand" and view["finished"] == []
    assert game.to_act() == [1]


def test_a_last_face_down_card_that_fits_takes_the_player_out() -> None:
    game = to_last_face_down("AH")
    events = flip(game, 0, 2)
    assert public(events, "player_out") == [{"seat": 0, "place": 1}]
    assert game.view(None)["finished"] == [0] and game.to_act() == [1]
    assert game.view(None)["seats"][0]["out"] is True


# -- "The first player is the person who receives the first 3 dealt face-up" -----------------

_UP_NO_THREES = {0: ["5C", "6C", "7C"], 1: ["5D", "6D", "7D"], 2: ["5H", "6H", "7H"], 3: ["5S", "6S", "7S"]}
_HANDS_NO_THREES = {0: ["8C", "9C", "JC"], 1: ["8D", "9D", "JD"], 2: ["8H", "9H", "JH"], 3: ["8S", "9S", "JS"]}


def test_first_player_is_the_first_face_up_three_in_deal_order() -> None:
    up = dict(_UP_NO_THREES)
    up[1] = ["5D", "3D", "7D"]  # second round of the face-up deal
    up[2] = ["3H", "6H", "7H"]  # first round: dealt before seat 1's
    hands = dict(_HANDS_NO_THREES)
    hands[0] = ["3C", "9C", "JC"]  # a 3 in hand does not count while one is face up
    game = stacked(seats=4, dealer=3, up=up, hands=hands)
    assert game.first_player == 2 and str(game.first_reason) == "the first face-up 3"
    assert game.to_act() == [2]


def test_first_player_then_a_three_in_hand_from_the_dealers_left() -> None:
    hands = dict(_HANDS_NO_THREES)
    hands[1] = ["8D", "3D", "JD"]
    hands[3] = ["8S", "9S", "3S"]
    game = stacked(seats=4, dealer=1, up=_UP_NO_THREES, hands=hands)  # order 2, 3, 0, 1
    assert game.first_player == 3 and str(game.first_reason) == "a 3 in hand"


def test_first_player_is_found_from_the_deal_not_the_swap() -> None:
    """003: "the person who receives the first 3 dealt face-up"; a 3 swapped face up is not dealt
    face up, so the 3 in seat 3's hand leads (it used to be seat 1's swapped 3)."""
    hands = dict(_HANDS_NO_THREES)
    hands[1] = ["8D", "3D", "JD"]
    hands[3] = ["8S", "9S", "3S"]
    game = stacked(seats=4, dealer=1, up=_UP_NO_THREES, hands=hands, ready=False)
    assert game.to_act() == [0, 1, 2, 3]
    _, events = game.apply(1, {"type": "swap", "hand": "3D", "up": "7D"})
    assert public(events, "swap") == [{"seat": 1, "to_up": "3D", "to_hand": "7D"}]
    for seat in (0, 1, 2):
        game.apply(seat, {"type": "ready"})
    assert game.to_act() == [3] and game.first_player is None
    with pytest.raises(IllegalAction, match="finish swapping"):
        game.check(3, {"type": "play", "cards": ["3S"]})
    _, events = game.apply(3, {"type": "ready"})
    assert [{**e, "reason": said(e["reason"])} for e in public(events, "first_player")] == [
        {"seat": 3, "reason": "a 3 in hand"}
    ]


def test_first_player_falls_back_to_fours() -> None:
    up = dict(_UP_NO_THREES)
    up[3] = ["5S", "6S", "4S"]
    hands = dict(_HANDS_NO_THREES)
    hands[0] = ["4C", "9C", "JC"]
    game = stacked(seats=4, dealer=3, up=up, hands=hands)
    assert game.first_player == 3 and str(game.first_reason) == "the first face-up 4"


# -- pick-ups and the stock -------------------------------------------------------------------


def test_a_pick_up_lets_the_next_player_start_a_new_pile() -> None:
    game = stacked(up={0: ["3C", "4D", "4H"]}, hands={0: ["AC", "5D", "6D"], 1: ["4S", "5S", "6S"]})
    play(game, 0, "AC")
    assert {"type": "pickup"} in game.legal_actions(1)
    assert [a for a in game.legal_actions(1) if a["type"] == "play"] == []
    events = pickup(game, 1)
    assert public(events, "picked_up")[0]["cards"] == ["AC"]
    assert game.to_act() == [2] and said(game.view(2)["need"]) == "Any card."
    with pytest.raises(IllegalAction, match="nothing to pick up"):
        game.check(2, {"type": "pickup"})


def test_drawing_stops_when_the_stock_is_empty() -> None:
    game = stacked(seats=5, up={0: ["3C", "4D", "4H"]}, hands={0: ["5C", "5D", "6D"]})
    assert game.view(None)["stock"] == 52 - 45
    play(game, 0, "5C", "5D")
    assert game.view(None)["stock"] == 5 and len(game.view(0)["hand"]) == 3


def test_the_last_player_holding_cards_is_the_shithead() -> None:
    game = Shithead.new(make_rules(), 3, seed=7)
    players = [SensiblePlayer(random.Random(i)) for i in range(3)]
    while not game.is_over:
        seat = game.to_act()[0]
        _, events = game.apply(seat, players[seat].choose(game.view(seat)))
    over = public(events, "game_over")[0]
    res = game.results()
    assert len(res["order"]) == 3 and sorted(res["order"]) == [0, 1, 2]
    assert over == {"order": res["order"], "loser": res["order"][-1], "winner": None}
    assert res["loser"] == res["order"][-1] and res["next_dealer"] == res["loser"]
    view = game.view(None)
    assert view["phase"] == "over" and view["loser"] == res["loser"] and game.to_act() == []
    with pytest.raises(IllegalAction, match="The game is over."):
        game.check(res["loser"], {"type": "pickup"})


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, "play", "That is not an action."),
        (0, {"type": "dance"}, "Unknown action 'dance'."),
        (0, {"type": "play", "cards": "5D"}, "Name the cards as a list."),
        (0, {"type": "play", "cards": ["ZZ"]}, "'ZZ' is not a card."),
        (0, {"type": "play", "cards": []}, "Choose at least one card to play."),
        (0, {"type": "play", "cards": ["7S"]}, "You have no 7♠ in your hand."),
        (0, {"type": "play", "cards": ["5D", "5D"]}, "You named 5♦ twice."),
        (0, {"type": "play", "cards": ["5D", "6D"]}, "Play cards of one rank only."),
        (0, {"type": "flip", "index": 0}, "You cannot flip yet: play from your hand first."),
        (0, {"type": "swap", "hand": "5D", "up": "KD"}, "Swapping is over."),
        (0, {"type": "pickup"}, "There is nothing to pick up: play any card."),
        (1, {"type": "pickup"}, "It is not your turn."),
        (9, {"type": "pickup"}, "You are not playing in this game."),
    ],
)
def test_refusals_are_sentences_and_change_nothing(seat, action, message) -> None:
    game = stacked(up={0: ["3C", "KD", "QD"]}, hands={0: ["5D", "6D", "AD"]})
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert str(info.value) == message
    assert game.to_json() == before


def test_swap_phase_refusals() -> None:
    game = stacked(up={0: ["3C", "KD", "QD"]}, hands={0: ["5D", "6D", "AD"]}, ready=False)
    with pytest.raises(IllegalAction, match="You have no 3♣ in your hand."):
        game.check(0, {"type": "swap", "hand": "3C", "up": "KD"})
    game.apply(0, {"type": "ready"})
    with pytest.raises(IllegalAction, match="You are already ready"):
        game.check(0, {"type": "swap", "hand": "5D", "up": "KD"})
    assert game.to_act() == [1, 2] and game.legal_actions(0) == []
    assert {"type": "swap", "hand": "5D", "up": "KD"} not in game.legal_actions(1)
    assert {"type": "ready"} in game.legal_actions(1)


@pytest.mark.parametrize("preset", ["pagat", "karma", "six-players"])
def test_pickups_count_every_picked_up_event_failed_flips_included(preset: str) -> None:
    """The result's pick-up figure: one per ``picked_up`` event a seat caused, as the stats show."""
    rng = random.Random(4)
    seats = 3 if preset != "six-players" else 6
    game = Shithead.new(make_rules(preset), seats, 21)
    counted = [0] * seats
    while not game.is_over:
        seat = game.to_act()[0]
        game, events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        for event in events:
            if event.kind == "picked_up":
                counted[event.data["seat"]] += 1
    assert game.pickups == counted and sum(counted) > 0
