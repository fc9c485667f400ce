"""The engine's API: turns and error messages, views, options the presets don't show, ties,
storage and cloning."""

from __future__ import annotations

import json
import random

import pytest

from games.common.engine import GameError, IllegalAction, RulesError
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from tests.fixtures.make_ohhell_snapshots import play as play_seeded
from tests.games.ohhell.test_game_properties import ALL_RULES


def bid(game: OhHell, seat: int, n: int) -> list:
    return game.apply(seat, {"type": "bid", "bid": n})[1]


def play(game: OhHell, seat: int, card: str, **extra: str) -> list:
    return game.apply(seat, {"type": "play", "card": card, **extra})[1]


def stacked(rules, n: int, dealer: int, hands: dict, turnup: str | None = None, more: list | None = None) -> OhHell:
    decks = [OhHell.stack_deck(rules, n, dealer, hands, turnup=turnup)] + (more or [])
    return OhHell.from_decks(rules, n, decks, first_dealer=dealer)


def test_rules_are_checked_before_dealing() -> None:
    with pytest.raises(RulesError, match="Too many players"):
        OhHell.new(make_rules("classic"), 8, 1)
    with pytest.raises(RulesError, match="must hold exactly the 52 cards"):
        OhHell.from_decks(make_rules("classic"), 4, [list(range(52))], first_dealer=0)
    with pytest.raises(RulesError, match="first_dealer must be a seat from 0 to 3"):
        OhHell.from_decks(make_rules("classic"), 4, [], first_dealer=4)


def test_turns_and_messages() -> None:
    rules = make_rules("classic", sequence="fixed", fixed_hands="2,2")
    hands = {0: ["AS", "2H"], 1: ["KS", "3H"], 2: ["QS", "4D"]}
    game = stacked(rules, 3, 0, hands, turnup="5C")
    assert game.to_act() == [1]  # the dealer's left bids first
    with pytest.raises(IllegalAction, match="^It is not your turn.$"):
        bid(game, 2, 0)
    with pytest.raises(IllegalAction, match="^Bid between 0 and 2.$"):
        bid(game, 1, 3)
    with pytest.raises(IllegalAction, match="Bid first"):
        play(game, 1, "KS")
    with pytest.raises(IllegalAction, match="Unknown action"):
        game.apply(1, {"type": "pass"})
    with pytest.raises(IllegalAction, match="no such seat"):
        bid(game, 7, 0)
    assert [e.kind for e in bid(game, 1, 1)] == ["bid"]
    bid(game, 2, 0)
    assert game.legal_actions(0) == [{"type": "bid", "bid": 0}, {"type": "bid", "bid": 2}]
    ev = bid(game, 0, 2)
    assert [e.kind for e in ev] == ["bid", "bids_revealed"]
    assert ev[1].data == {"bids": [2, 1, 0], "total": 3, "tricks": 2}
    with pytest.raises(IllegalAction, match="The bidding is over"):
        bid(game, 1, 0)
    assert game.to_act() == [0]  # classic: the dealer leads
    with pytest.raises(IllegalAction, match="^It is not your turn.$"):
        play(game, 1, "KS")
    with pytest.raises(IllegalAction, match="^You don't have that card.$"):
        play(game, 0, "KS")
    with pytest.raises(IllegalAction, match="is not a card"):
        play(game, 0, "ZZ")
    with pytest.raises(IllegalAction, match="Only a joker"):
        play(game, 0, "AS", suit="H")
    play(game, 0, "2H")
    with pytest.raises(IllegalAction, match="^You must follow hearts.$"):
        play(game, 1, "KS")
    ev = play(game, 1, "3H")
    assert ev[0].data == {"seat": 1, "card": "3H", "suit": None, "trick": 1}
    ev = play(game, 2, "QS")  # void: anything goes
    assert [e.kind for e in ev] == ["card_played", "trick_won"]
    assert ev[1].data["seat"] == 1 and ev[1].data["cards"] == [[0, "2H", None], [1, "3H", None], [2, "QS", None]]
    v = game.view(None)
    assert v["last_trick"] == {"cards": [[0, "2H", None], [1, "3H", None], [2, "QS", None]], "winner": 1, "deal": 1}
    assert v["leader"] == 1 and v["to_act"] == [1] and v["tricks"] == [0, 1, 0] and v["trick"] == []


def test_single_trick_message_is_singular() -> None:
    rules = make_rules("classic", sequence="fixed", fixed_hands="1")
    game = OhHell.new(rules, 3, 5)
    d = game.view(None)["dealer"]
    bid(game, (d + 1) % 3, 0)
    bid(game, (d + 2) % 3, 0)
    with pytest.raises(IllegalAction, match="^The dealer may not bid 1: the bids would total the 1 trick.$"):
        bid(game, d, 1)


def test_simultaneous_bids_are_secret_until_all_are_in() -> None:
    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="3")
    game = OhHell.new(rules, 4, 11)
    assert sorted(game.to_act()) == [0, 1, 2, 3]
    ev = bid(game, 2, 3)
    assert [(e.kind, e.data) for e in ev] == [("bid_placed", {"seat": 2})]
    # a secret bid may be changed until the last bid is in (games.ohhell.takeback)
    assert [(e.kind, e.data) for e in bid(game, 2, 1)] == [("bid_placed", {"seat": 2, "changed": True})]
    bid(game, 2, 3)
    for seat in (None, 0, 1, 2, 3):
        v = game.view(seat)
        assert v["bids"] == [None] * 4 and v["has_bid"] == [False, False, True, False]
        assert v["bid_total"] == 0
    assert game.view(2)["my_bid"] == 3 and game.view(1)["my_bid"] is None
    assert game.view(2)["legal"] == [] and game.view(2)["bid_options"] == []
    assert len(game.view(1)["bid_options"]) == 4
    assert 2 not in game.to_act()
    bid(game, 0, 0)
    bid(game, 3, 0)
    ev = bid(game, 1, 0)  # the bids may total the tricks: no hook with secret bids
    assert ev[-1].kind == "bids_revealed" and ev[-1].data["bids"] == [0, 0, 3, 0]
    assert game.view(0)["bids"] == [0, 0, 3, 0]


def test_views_hold_only_what_the_seat_may_see() -> None:
    rules = make_rules("classic", sequence="fixed", fixed_hands="13")
    game = OhHell.new(rules, 4, 3)
    public = game.view(None)
    assert "hand" not in public and "legal" not in public
    # 4 x 13 empties the pack: the trump is the dealer's own last card, shown to all
    assert public["turnup_is_dealers"] and public["turnup"] in game.hand(public["dealer"])
    assert public["trump"] == public["turnup"][-1]
    v = game.view(1)
    assert len(v["hand"]) == 13 and sorted(v["hand"]) == sorted(game.hand(1))
    trumps = [c for c in v["hand"] if c.endswith(public["trump"])]
    assert v["hand"][: len(trumps)] == trumps  # trumps first
    json.dumps(v)
    json.dumps(public)


def test_hand_dealt_events_are_private() -> None:
    game = OhHell.new(make_rules("classic"), 4, 9)
    kinds = [(e.kind, e.seat) for e in game.start_events]
    assert kinds[0] == ("deal_started", None)
    assert sorted(s for k, s in kinds if k == "hand_dealt") == [0, 1, 2, 3]
    assert game.start_events[0].data["hand_size"] == 10 and game.start_events[0].data["deals"] == 19


def test_australian_duplicate_played_later_wins() -> None:
    rules = make_rules("classic", deck="australian", trump="fixed:NT", sequence="fixed", fixed_hands="1")
    hands = {0: ["5H"], 1: ["2C"], 2: ["2C#1"], 3: ["3D"], 4: ["4S"]}
    game = stacked(rules, 5, 0, hands)
    for seat in (1, 2, 3, 4, 0):
        bid(game, seat, 0)
    # the dealer leads 5♥; nobody follows: 5♥ wins
    for seat, card in ((0, "5H"), (1, "2C"), (2, "2C#1"), (3, "3D"), (4, "4S")):
        play(game, seat, card)
    assert game.history[0]["tricks"] == [1, 0, 0, 0, 0]
    hands = {1: ["2C"], 2: ["2C#1"], 3: ["3D"], 4: ["4S"], 0: ["5H"]}
    rules2 = make_rules("classic", deck="australian", trump="fixed:NT", sequence="fixed", fixed_hands="1",
                        first_lead="left-of-dealer")  # fmt: skip
    game = stacked(rules2, 5, 0, hands)
    for seat in (1, 2, 3, 4, 0):
        bid(game, seat, 0)
    for seat, card in ((1, "2C"), (2, "2C#1"), (3, "3D"), (4, "4S"), (0, "5H")):
        play(game, seat, card)
    assert game.history[0]["tricks"] == [0, 0, 1, 0, 0]  # the second 2♣ beats the first


def test_rotating_trumps_include_no_trumps() -> None:
    rules = make_rules("classic", trump="rotate:H,NT", sequence="fixed", fixed_hands="1,1,1")
    game = OhHell.new(rules, 3, 2)
    seen = []
    while not game.is_over:
        if not seen or seen[-1][0] != game.deal_no:
            seen.append((game.deal_no, game.view(None)["trump"], game.view(None)["turnup"]))
        game.fast_apply(game.fast_legal()[0])
    assert [t for _, t, _ in seen[:3]] == ["H", None, "H"]
    assert all(u is None for _, _, u in seen)


def test_no_trump_turnup_ace() -> None:
    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="1")
    game = stacked(rules, 3, 0, {1: ["2C"], 2: ["3C"], 0: ["4C"]}, turnup="AH")
    assert game.view(None)["trump"] is None and game.view(None)["turnup"] == "AH"
    game = stacked(make_rules("classic", sequence="fixed", fixed_hands="1"), 3, 0,
                   {1: ["2C"], 2: ["3C"], 0: ["4C"]}, turnup="AH")  # fmt: skip
    assert game.view(None)["trump"] == "H"  # classic keeps the ace's suit


def test_devils_bridge() -> None:
    rules = make_rules("classic", devils_bridge=True, sequence="fixed", fixed_hands="2,1")
    game = OhHell.new(rules, 3, 8)
    assert not game.view(0)["devils_bridge"]
    rng = random.Random(1)
    events = []
    while game.deal_no == 1:
        seat = game.to_act()[0]
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))[1]
    dealt = {e.seat: e.data for e in events if e.kind == "hand_dealt"}
    assert set(dealt) == {0, 1, 2}
    for seat in range(3):
        v = game.view(seat)
        assert v["devils_bridge"] and v["hand_hidden"] and v["hand"] == []
        assert v["others_cards"][seat] is None
        assert [v["others_cards"][o] for o in range(3) if o != seat] == [game.hand(o) for o in range(3) if o != seat]
        assert dealt[seat]["cards"] == [] and dealt[seat]["others"][seat] is None
    while not game.is_over:
        seat = game.to_act()[0]
        acts = game.legal_actions(seat)
        if game.view(None)["phase"] == "playing":
            assert acts == [{"type": "play", "card": "?"}]
            card = game.hand(seat)[0]
            ev = game.apply(seat, acts[0])[1]
            assert ev[0].data["card"] == card
            assert (seat, {"type": "play", "card": card}) in game.log
        else:
            game.apply(seat, acts[0])
    assert OhHell.from_json(game.to_json()).view(None) == game.view(None)


def test_devils_bridge_view_never_shows_own_card() -> None:
    rules = make_rules("classic", devils_bridge=True, sequence="fixed", fixed_hands="1")
    game = OhHell.new(rules, 4, 21)
    for seat in range(4):
        own = game.hand(seat)[0]
        v = game.view(seat)
        text = json.dumps({k: v[k] for k in v if k not in ("turnup",)})
        assert f'"{own}"' not in text


def test_extra_hand_until_one_leader() -> None:
    rules = make_rules("classic", sequence="fixed", fixed_hands="1")
    deal2 = OhHell.stack_deck(rules, 3, 1, {1: ["AS"], 2: ["2H"], 0: ["3D"]}, turnup="4C")
    game = stacked(rules, 3, 0, {0: ["AS"], 1: ["2H"], 2: ["3D"]}, turnup="4C", more=[deal2])
    for seat in (1, 2, 0):
        bid(game, seat, 0)
    play(game, 0, "AS")
    play(game, 1, "2H")
    ev = play(game, 2, "3D")
    assert game.totals == [-10, 10, 10]
    assert [e.kind for e in ev][-6:] == ["deal_scored", "extra_deal", "deal_started"] + ["hand_dealt"] * 3
    assert next(e for e in ev if e.kind == "extra_deal").data["leaders"] == [1, 2]
    v = game.view(None)
    assert (v["deal"], v["deals"], v["deal_kind"], v["extra_deals"], v["dealer"]) == (2, 1, "extra", 1, 1)
    for seat in (2, 0, 1):
        bid(game, seat, 0)
    play(game, 1, "AS")
    play(game, 2, "2H")
    ev = play(game, 0, "3D")
    assert game.is_over and game.totals == [0, 0, 20]
    standings = ev[-1].data["standings"]
    assert ev[-1].kind == "game_over"
    assert [(s["seat"], s["rank"], s["decided_by"]) for s in standings] == [(2, 1, "total"), (0, 2, "unbroken"),
                                                                            (1, 2, "unbroken")]  # fmt: skip
    assert game.stats()[2]["deals"] == 2


def test_misere_tiebreak_then_playoff() -> None:
    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="1")
    game = stacked(rules, 3, 0, {1: ["AS"], 2: ["2H"], 0: ["3D"]}, turnup="4C")
    for seat in range(3):
        bid(game, seat, 0)
    play(game, 1, "AS")
    play(game, 2, "2H")
    ev = play(game, 0, "3D")
    assert game.totals == [5, 1, 5]
    started = next(e for e in ev if e.kind == "playoff_started")
    assert started.data == {"seats": [0, 2], "total": 5, "hand_size": 5}
    v = game.view(None)
    assert v["deal_kind"] == "playoff" and v["players"] == [0, 2] and v["dealer"] == 2 and v["hand_size"] == 5
    assert game.legal_actions(1) == [] and 1 not in game.to_act()
    with pytest.raises(IllegalAction, match="not in this play-off"):
        bid(game, 1, 0)
    game.playout(random.Random(3))
    assert game.is_over and game.totals == [5, 1, 5]  # play-offs don't count in the totals
    standings = game.standings()
    top = standings[:2]
    assert {s["seat"] for s in top} == {0, 2}
    assert standings[2]["seat"] == 1 and standings[2]["rank"] == 3
    if top[0]["rank"] == 1 and top[1]["rank"] == 2:
        assert top[0]["decided_by"].startswith("play-off") and top[0]["playoff"] > top[1]["playoff"]
    assert all(h["kind"] == "playoff" for h in game.history[1:])
    assert game.stats()[0]["deals"] == 1  # play-offs are not counted in the figures


def test_tiebreak_by_exact_contracts_before_playoff() -> None:
    rules = make_rules("oh-shit", sequence="fixed", fixed_hands="2")
    # seat 1 bids 1, takes 1 (11); seat 2 bids 0, takes 0 (5); seat 0 bids 0, takes 1 (1)
    game = stacked(rules, 3, 0, {1: ["AS", "2C"], 2: ["2H", "3H"], 0: ["KS", "AC"]}, turnup="4D")
    for seat, b in ((0, 0), (1, 1), (2, 0)):
        bid(game, seat, b)
    for seat, card in ((1, "AS"), (2, "2H"), (0, "KS"), (1, "2C"), (2, "3H"), (0, "AC")):
        play(game, seat, card)
    assert game.totals == [1, 11, 5] and game.is_over
    assert [s["decided_by"] for s in game.standings()] == ["total"] * 3


def test_json_round_trip_mid_game_and_versions() -> None:
    game = OhHell.new(make_rules("bowers"), 4, 77)
    rng = random.Random(2)
    for _ in range(60):
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    data = json.loads(json.dumps(game.to_json()))
    assert data["version"] == 1 and data["game"] == "ohhell"
    again = OhHell.from_json(data)
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == game.view(seat)
    with pytest.raises(GameError, match="version"):
        OhHell.from_json({**data, "version": 99})


def test_clone_is_independent() -> None:
    game = OhHell.new(make_rules("classic"), 4, 5)
    twin = game.clone()
    twin.playout(random.Random(1), deal_only=True)
    assert game.deal_no == 1 and twin.deal_no == 2
    assert game.view(None)["phase"] == "bidding" and len(game.hand(0)) == 10
    # an exact twin deals the same next hand; a clone given its own generator need not
    a, b = game.clone(), game.clone()
    a.playout(random.Random(4), deal_only=True)
    b.playout(random.Random(4), deal_only=True)
    assert a.hand(0) == b.hand(0)


def test_action_ids_round_trip() -> None:
    game = OhHell.new(make_rules("classic"), 4, 5)
    while not game.is_over:
        seat = game.current_seat()
        for a in game.fast_legal():
            action = game.id_to_action(a)
            assert game.action_to_id(seat, action) == a
            assert action in game.legal_actions(seat)
        game.fast_apply(game.fast_legal()[-1])


def test_history_entries_are_built_once_and_follow_each_clone() -> None:
    """Every view after a deal shares that deal's history entry (built once, read-only: the type
    checker refuses a change), and the history is always each record's entry, in a clone too."""
    from games.ohhell.results import history_entry

    game = OhHell.new(make_rules("classic"), 4, 7)
    game.playout(random.Random(3), deal_only=True)
    game.playout(random.Random(4), deal_only=True)
    first = game.view(None)["history"]
    assert first == [history_entry(r) for r in game.record.deal_records] and len(first) == 2
    assert all(a is b for a, b in zip(first, game.view(2)["history"], strict=True))
    assert first is not game.view(2)["history"]  # each view's list is its own
    # two clones play different third deals: each history is its own records', the first two shared
    a, b = game.clone(), game.clone()
    a.playout(random.Random(5), deal_only=True)
    b.playout(random.Random(6), deal_only=True)
    for g in (a, b):
        history = g.view(1)["history"]
        assert history == [history_entry(r) for r in g.record.deal_records] and len(history) == 3
        assert history[0] is first[0] and history[1] is first[1]
    assert a.view(None)["history"][2] != b.view(None)["history"][2]
    assert game.view(None)["history"] == first
    # the same entries through the engine's own property, the replay and the saved game
    assert game.history == first
    again = OhHell.from_json(game.to_json())
    assert again.view(None)["history"] == first


def test_a_clone_played_on_leaves_the_game_as_it_was() -> None:
    """A clone shares what never changes once made (the deal as dealt, the bidding once over, the
    bookkeeping of a deal that needs none) and copies the rest: a clone taken in any phase and
    played on (take-backs and bid changes, then a playout to the game's end) leaves the game's
    views and log as they were, under every rule set."""
    for rules, n in ALL_RULES:
        game = OhHell.new(rules, n, 3)
        rng = random.Random(3)
        while not game.is_over:
            before = (game.log, [game.view(s) for s in (None, *range(n))])
            twin = game.clone(random.Random(5))
            play_seeded(twin, random.Random(6), 12)
            twin.playout(random.Random(7))
            assert twin.is_over
            assert (game.log, [game.view(s) for s in (None, *range(n))]) == before
            play_seeded(game, rng, 97)
