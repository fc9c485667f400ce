"""Each seed's own worked examples, played through the engine API with stacked decks."""

from __future__ import annotations

import random

import pytest

from games.common.engine import IllegalAction
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules

ADAM, BONNIE, CHAZ, DANIEL, ELLIE, FRED = range(6)


def play(game: OhHell, seat: int, card: str, **extra: str) -> list:
    _, events = game.apply(seat, {"type": "play", "card": card, **extra})
    return events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


# ---------------------------------------------------------------------------------------------
# seed 000: the sample round


def sample_round_game() -> OhHell:
    """Six players, 9 cards (the 63-card pack: 6 x 9 does not fit in 52), A♣ turned up → no
    trumps. Fred deals, so Adam leads. The tricks fall 1,1,1,0,3,3 and Chaz revokes in trick 1
    (a diamond on a spade lead while holding spades), shown up when he plays a spade in trick 2."""
    rules = make_rules("oh-shit", deck="pack63", half_game=True)
    hands = {
        ADAM: ["AS", "2S", "6H", "10H", "4D", "9D", "3C", "7C", "12H"],
        BONNIE: ["3S", "KS", "2H", "11H", "5D", "10D", "4C", "8C", "13H"],
        CHAZ: ["2D", "7S", "AH", "7H", "6D", "11D", "5C", "9C", "JS"],
        DANIEL: ["4S", "8S", "3H", "8H", "7D", "12D", "6C", "10C", "QS"],
        ELLIE: ["5S", "9S", "4H", "KH", "AD", "KD", "2C", "11C", "12C"],
        FRED: ["6S", "10S", "5H", "9H", "3D", "8D", "KC", "QC", "QD"],
    }
    deck = OhHell.stack_deck(rules, 6, FRED, hands, turnup="AC")
    return OhHell.from_decks(rules, 6, [deck], first_dealer=FRED)


SAMPLE_TRICKS = [  # (leader's card first, in seat order from the leader)
    (ADAM, ["AS", "3S", "2D", "4S", "5S", "6S"]),
    (ADAM, ["2S", "KS", "7S", "8S", "9S", "10S"]),
    (BONNIE, ["2H", "AH", "3H", "4H", "5H", "6H"]),
    (CHAZ, ["7H", "8H", "KH", "9H", "10H", "11H"]),
    (ELLIE, ["AD", "3D", "4D", "5D", "6D", "7D"]),
    (ELLIE, ["KD", "8D", "9D", "10D", "11D", "12D"]),
    (ELLIE, ["2C", "KC", "3C", "4C", "5C", "6C"]),
    (FRED, ["QC", "7C", "8C", "9C", "10C", "11C"]),
    (FRED, ["QD", "12H", "13H", "JS", "QS", "12C"]),
]


def test_000_sample_round_scores_and_revoke() -> None:
    game = sample_round_game()
    v = game.view(None)
    assert v["trump"] is None and v["turnup"] == "AC" and v["hand_size"] == 9
    assert v["dealer"] == FRED and v["leader"] == ADAM
    for seat, bid in zip(range(6), [3, 0, 2, 0, 3, 2], strict=True):
        _, ev = game.apply(seat, {"type": "bid", "bid": bid})
        # simultaneous: nobody's bid shows until all are in
        if seat < FRED:
            assert kinds(ev) == ["bid_placed"] and "bid" not in ev[0].data
            assert all(b is None for b in game.view(DANIEL)["bids"])
    assert kinds(ev) == ["bid_placed", "bids_revealed"]
    assert ev[1].data["bids"] == [3, 0, 2, 0, 3, 2]

    winners = [ADAM, BONNIE, CHAZ, ELLIE, ELLIE, ELLIE, FRED, FRED, FRED]
    all_events = []
    for trick_no, ((leader, cards), winner) in enumerate(zip(SAMPLE_TRICKS, winners, strict=True), 1):
        seat = leader
        for card in cards:
            assert game.to_act() == [seat]
            all_events += play(game, seat, card)
            seat = (seat + 1) % 6
            if trick_no == 1:  # the revoke is not public yet; Chaz sees his own
                assert game.view(None)["revokes"] == []
                assert game.view(ADAM)["revokes"] == []
                if seat > CHAZ:
                    assert game.view(CHAZ)["revokes"] == [{"seat": CHAZ, "suit": "S", "trick": 1}]
        won = [e for e in all_events if e.kind == "trick_won"][-1]
        assert won.data["seat"] == winner, trick_no
        if trick_no == 2:
            revoke_events = [e for e in all_events if e.kind == "revoke"]
            assert [e.data for e in revoke_events] == [{"seat": CHAZ, "suit": "S", "trick": 1}]
            assert revoke_events[0].seat is None  # public
    scored = [e for e in all_events if e.kind == "deal_scored"][0]
    assert scored.data["tricks"] == [1, 1, 1, 0, 3, 3]
    assert scored.data["scores"] == [-2, 1, -5, 5, 13, 3]
    assert scored.data["revoked"] == [CHAZ]
    assert game.totals == [-2, 1, -5, 5, 13, 3]
    stats = game.stats()
    assert [s["revokes"] for s in stats] == [0, 0, 1, 0, 0, 0]
    assert [s["exact"] for s in stats] == [0, 0, 0, 1, 1, 0]
    assert [s["exact_winning"] for s in stats] == [0, 0, 0, 0, 1, 0]
    assert [s["made_or_exceeded"] for s in stats] == [0, 1, 0, 1, 1, 1]
    assert [s["tricks"] for s in stats] == [1, 1, 1, 0, 3, 3]


def test_000_revoke_is_any_card_in_penalize_mode_but_proper_excludes_it() -> None:
    game = sample_round_game()
    for seat, bid in enumerate([3, 0, 2, 0, 3, 2]):
        game.apply(seat, {"type": "bid", "bid": bid})
    play(game, ADAM, "AS")
    play(game, BONNIE, "3S")
    v = game.view(CHAZ)
    assert {a["card"] for a in v["legal"]} == set(game.hand(CHAZ))
    assert {a["card"] for a in v["proper"]} == {"7S", "JS"}
    assert {game.id_to_action(a)["card"] for a in game.fast_legal()} == {"7S", "JS"}


# ---------------------------------------------------------------------------------------------
# seed 000: the joker walk-through (8♦ K♦ 6♣ joker in a no-trump deal)


def joker_game() -> OhHell:
    """Three players, 4 cards, no trumps. Seat 2 deals, so seat 0 leads every trick (it wins
    them all with 9♦, A♦, Q♦, 10♦); seat 1 holds 8♦ K♦ 6♣ and the joker."""
    rules = make_rules("oh-shit", joker=True, revokes="prevent", trump="fixed:NT", sequence="fixed", fixed_hands="4")
    hands = {0: ["9D", "AD", "QD", "10D"], 1: ["8D", "KD", "6C", "X"], 2: ["2S", "3S", "4S", "5S"]}
    deck = OhHell.stack_deck(rules, 3, 2, hands)
    game = OhHell.from_decks(rules, 3, [deck], first_dealer=2)
    for seat in range(3):
        game.apply(seat, {"type": "bid", "bid": 1})
    return game


def legal_cards(game: OhHell, seat: int) -> set[tuple[str, str | None]]:
    return {(a["card"], a.get("suit")) for a in game.legal_actions(seat)}


def test_000_joker_walkthrough() -> None:
    game = joker_game()
    assert game.view(None)["trump"] is None
    # 9♦ led: the joker may be played (as a diamond: none played yet) and would win
    play(game, 0, "9D")
    assert legal_cards(game, 1) == {("8D", None), ("KD", None), ("X", "D")}
    branch = game.clone()
    ev = play(branch, 1, "X")
    assert ev[0].data == {"seat": 1, "card": "X", "suit": "D", "trick": 1}
    play(branch, 2, "2S")
    assert branch.view(None)["last_trick"]["winner"] == 1
    # instead 8♦; then A♦ led: K♦ is forced; 6♣ or the joker would both be revokes
    play(game, 1, "8D")
    play(game, 2, "2S")
    play(game, 0, "AD")
    assert legal_cards(game, 1) == {("KD", None)}
    with pytest.raises(IllegalAction, match="You must follow diamonds."):
        game.check(1, {"type": "play", "card": "6C"})
    with pytest.raises(IllegalAction, match="The joker can't be played as diamonds"):
        game.check(1, {"type": "play", "card": "X"})
    play(game, 1, "KD")
    play(game, 2, "3S")
    # Q♦ led: the joker (out of other diamonds, never failed to follow them) or 6♣
    play(game, 0, "QD")
    assert legal_cards(game, 1) == {("6C", None), ("X", "D")}
    play(game, 1, "6C")
    play(game, 2, "4S")
    assert game.view(None)["last_trick"]["winner"] == 0
    # 10♦ led, last trick: the joker must be played and wins, though it no longer could be a diamond
    play(game, 0, "10D")
    assert legal_cards(game, 1) == {("X", "D")}
    ev = play(game, 1, "X")
    play(game, 2, "5S")
    assert game.history[-1]["tricks"] == [3, 1, 0]


def test_joker_lead_names_its_suit() -> None:
    rules = make_rules("oh-shit", joker=True, revokes="prevent", trump="fixed:NT", sequence="fixed", fixed_hands="3")
    hands = {0: ["X", "2H", "3C"], 1: ["AH", "KH", "4C"], 2: ["5S", "6S", "7S"]}
    deck = OhHell.stack_deck(rules, 3, 2, hands)
    game = OhHell.from_decks(rules, 3, [deck], first_dealer=2)
    for seat in range(3):
        game.apply(seat, {"type": "bid", "bid": 1})
    # hearts, clubs (in hand, none played yet) and the others are all nameable at the start
    assert {a.get("suit") for a in game.legal_actions(0) if a["card"] == "X"} == {"C", "D", "H", "S"}
    with pytest.raises(IllegalAction, match="Name the suit"):
        game.check(0, {"type": "play", "card": "X"})
    play(game, 0, "X", suit="H")
    assert game.view(None)["trick"] == [[0, "X", "H"]]
    assert legal_cards(game, 1) == {("AH", None), ("KH", None)}  # hearts must follow the joker
    play(game, 1, "AH")
    play(game, 2, "5S")
    assert game.view(None)["last_trick"]["winner"] == 0
    assert game.log[3] == (0, {"type": "play", "card": "X", "suit": "H"})


def test_joker_is_the_highest_trump_with_trumps() -> None:
    rules = make_rules("classic", joker=True, trump="fixed:S", sequence="fixed", fixed_hands="2")
    hands = {0: ["AS", "2H"], 1: ["X", "3H"], 2: ["KS", "4H"]}
    deck = OhHell.stack_deck(rules, 3, 0, hands)
    game = OhHell.from_decks(rules, 3, [deck], first_dealer=0)
    for seat in (1, 2, 0):
        game.apply(seat, {"type": "bid", "bid": 0 if seat != 0 else 1})
    play(game, 0, "AS")  # the dealer leads (classic)
    assert legal_cards(game, 1) == {("X", None)}  # the joker is a spade for following suit
    play(game, 1, "X")
    play(game, 2, "KS")
    assert game.view(None)["last_trick"]["winner"] == 1


# ---------------------------------------------------------------------------------------------
# seed 002: bowers


def test_002_bowers_order_and_left_bower_follows_trumps() -> None:
    rules = make_rules("bowers", sequence="fixed", fixed_hands="3")
    hands = {0: ["AS", "2C", "3H"], 1: ["JC", "5C", "7H"], 2: ["JS", "KC", "4D"]}
    deck = OhHell.stack_deck(rules, 3, 2, hands, turnup="2S")
    game = OhHell.from_decks(rules, 3, [deck], first_dealer=2)
    assert game.view(None)["trump"] == "S"
    assert game.hand(1) == ["JC", "7H", "5C"]  # the left bower sorts with the trumps (then ♥ ♣)
    for seat, bid in enumerate([1, 1, 0]):  # the dealer (seat 2) may not make it 3
        game.apply(seat, {"type": "bid", "bid": bid})
    play(game, 0, "AS")
    # J♣ is a spade: it must be played to a spade lead, and 5♣ may not
    assert legal_cards(game, 1) == {("JC", None)}
    with pytest.raises(IllegalAction, match="You must follow spades."):
        game.check(1, {"type": "play", "card": "5C"})
    play(game, 1, "JC")
    play(game, 2, "JS")
    assert game.view(None)["last_trick"]["winner"] == 2  # J♠ > J♣ > A♠
    # a club lead: J♣ is gone but K♣ and 5♣ follow; clubs without the bower
    play(game, 2, "KC")
    assert legal_cards(game, 0) == {("2C", None)}


def test_002_left_bower_beats_ace_of_trumps() -> None:
    rules = make_rules("bowers", sequence="fixed", fixed_hands="1")
    hands = {0: ["AS"], 1: ["JC"]}
    deck = OhHell.stack_deck(rules, 2, 1, hands, turnup="2S")
    game = OhHell.from_decks(rules, 2, [deck], first_dealer=1)
    game.apply(0, {"type": "bid", "bid": 1})
    game.apply(1, {"type": "bid", "bid": 1})
    play(game, 0, "AS")
    play(game, 1, "JC")
    assert game.history[0]["tricks"] == [0, 1]


def test_002_jack_of_clubs_is_not_a_club_with_spades_trumps() -> None:
    rules = make_rules("bowers", sequence="fixed", fixed_hands="2")
    hands = {0: ["AC", "2H"], 1: ["JC", "3H"]}
    deck = OhHell.stack_deck(rules, 2, 1, hands, turnup="2S")
    game = OhHell.from_decks(rules, 2, [deck], first_dealer=1)
    game.apply(0, {"type": "bid", "bid": 1})
    game.apply(1, {"type": "bid", "bid": 0})
    play(game, 0, "AC")
    assert legal_cards(game, 1) == {("JC", None), ("3H", None)}  # void in clubs
    play(game, 1, "JC")
    assert game.view(None)["last_trick"]["winner"] == 1  # and it trumps


# ---------------------------------------------------------------------------------------------
# seed 004: the hook


def test_004_hook_example() -> None:
    """Three players, five cards; the first bids 2, the second 1: the third may not bid 2."""
    rules = make_rules("spades", sequence="fixed", fixed_hands="5")
    game = OhHell.new(rules, 3, seed=4)
    dealer = game.view(None)["dealer"]
    first, second = (dealer + 1) % 3, (dealer + 2) % 3
    assert game.to_act() == [first]
    game.apply(first, {"type": "bid", "bid": 2})
    game.apply(second, {"type": "bid", "bid": 1})
    assert game.to_act() == [dealer]
    opts = game.bid_options(dealer)
    assert [o[0] for o in opts] == [0, 1, 2, 3, 4, 5]
    assert opts[2] == (2, False, "The dealer may not bid 2: the bids would total the 5 tricks.")
    assert all(ok for b, ok, _ in opts if b != 2)
    assert {"type": "bid", "bid": 2} not in game.legal_actions(dealer)
    assert game.view(dealer)["hook_forbidden"] == 2
    with pytest.raises(IllegalAction, match="^The dealer may not bid 2: the bids would total the 5 tricks.$"):
        game.apply(dealer, {"type": "bid", "bid": 2})
    game.apply(dealer, {"type": "bid", "bid": 3})
    assert game.view(None)["phase"] == "playing"
    assert game.view(None)["leader"] == first  # 004: the player on the dealer's left leads
    assert game.view(None)["trump"] == "S"


# ---------------------------------------------------------------------------------------------
# the number of deals, played through the engine


def play_random(game: OhHell, seed: int) -> None:
    game.playout(random.Random(seed))


def scheduled_deals(game: OhHell) -> int:
    return sum(1 for h in game.history if h["kind"] == "normal")


@pytest.mark.parametrize(
    ("preset", "overrides", "players", "deals", "first_sizes"),
    [
        ("classic", {}, 7, 13, [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]),  # 001
        ("classic", {}, 4, 19, [10, 9, 8]),  # 001: 3-5 players start at 10
        ("classic", {}, 6, 15, [8, 7, 6]),  # 001: 6 players start at 8
        ("oh-shit", {}, 4, 17, [1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1]),  # 000 full game
        ("oh-shit", {"half_game": True}, 5, 9, [9, 8, 7, 6, 5, 4, 3, 2, 1]),  # 000 half game
        ("oh-shit", {"deck": "pack63"}, 7, 17, [1, 2, 3]),  # 000: 63 cards for 7 players
        ("bowers", {}, 4, 19, [10, 9, 8]),  # 002
        ("bowers", {}, 5, 19, [10, 9, 8]),  # 002
        ("spades", {}, 4, 13, [13, 12, 11]),  # 004: 52 / 4
        ("spades", {}, 5, 10, [10, 9, 8]),  # 004: 52 / 5, 2 cards left over
    ],
)
def test_deal_counts(preset: str, overrides: dict, players: int, deals: int, first_sizes: list[int]) -> None:
    rules = make_rules(preset, **overrides)
    assert len(rules.hand_sizes(players)) == deals
    game = OhHell.new(rules, players, seed=deals)
    assert game.view(None)["deals"] == deals
    play_random(game, 1)
    assert game.is_over
    assert scheduled_deals(game) == deals
    sizes = [h["hand_size"] for h in game.history if h["kind"] == "normal"]
    assert sizes[: len(first_sizes)] == first_sizes
    assert sizes == rules.hand_sizes(players)


def test_000_joker_outside_its_conditions_is_a_revoke_in_penalize_mode() -> None:
    """Seed 000: "playing the joker while another diamond was still in the hand would ... lead to
    revoking". With revokes penalized the play is allowed, wins, and costs the deal."""
    rules = make_rules("oh-shit", joker=True, trump="fixed:NT", sequence="fixed", fixed_hands="4")
    hands = {0: ["9D", "AD", "QD", "10D"], 1: ["8D", "KD", "6C", "X"], 2: ["2S", "3S", "4S", "5S"]}
    game = OhHell.from_decks(rules, 3, [OhHell.stack_deck(rules, 3, 2, hands)], first_dealer=2)
    for seat in range(3):
        game.apply(seat, {"type": "bid", "bid": 1})
    for seat, card in ((0, "9D"), (1, "8D"), (2, "2S"), (0, "AD")):
        play(game, seat, card)
    assert ("X", "D") in legal_cards(game, 1) and ("6C", None) in legal_cards(game, 1)
    assert {(a["card"], a.get("suit")) for a in game.view(1)["proper"]} == {("KD", None)}
    play(game, 1, "X")
    assert game.view(1)["revokes"] == [{"seat": 1, "suit": "D", "trick": 2}]
    assert game.view(None)["revokes"] == []
    ev = play(game, 2, "3S")
    assert game.view(None)["last_trick"]["winner"] == 1  # the joker still wins
    play(game, 1, "KD")  # shows the revoke up
    assert game.view(None)["revokes"] == [{"seat": 1, "suit": "D", "trick": 2}]
    for seat, card in ((2, "4S"), (0, "QD"), (1, "6C"), (2, "5S"), (0, "10D")):
        ev = play(game, seat, card)
    scored = next(e for e in ev if e.kind == "deal_scored")
    # seat 1 wins tricks 2-4 (the joker, then K♦ and 6♣ on its own leads)
    assert scored.data["tricks"] == [1, 3, 0] and scored.data["revoked"] == [1]
    assert scored.data["scores"] == [11, -5, -1]  # over by two would be +3; the revoke makes it -5
    assert game.stats()[1]["revokes"] == 1
