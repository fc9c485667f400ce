"""Seed rules easy to miss (Oh Hell): the oh-shit preset's 63-card pack for 6-7 players (seed 000),
and a Devil's Bridge card that no public entry point of the engine lets its own seat learn."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.common.cards import card_code
from games.common.engine import GameError
from games.ohhell.decks import build_deck
from games.ohhell.game import BRIDGE_REFUSAL, OhHell
from games.ohhell.rules import Rules, make_rules
from games.ohhell.rules_text import describe
from games.ohhell.tables import BID, PLAY

# -- the 63-card pack --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [6, 7])
def test_oh_shit_six_or_seven_play_the_63_card_pack(players: int) -> None:
    rules = make_rules("oh-shit")
    assert rules.deck_for(players) == "pack63"
    sizes = rules.hand_sizes(players)
    assert sizes == [1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1]  # 000: seventeen deals
    assert make_rules("oh-shit", half_game=True).hand_sizes(players) == list(range(9, 0, -1))  # half game: nine
    game = OhHell.new(rules, players, 5)
    codes = {card_code(c) for c in game.setup.deck}
    assert len(codes) == 63 and {"11C", "12S", "13H", "13D", "X"} <= codes
    assert game.setup.has_joker
    assert "63-card" in " ".join(describe(rules, players))
    assert "6 or 7 players" in " ".join(describe(rules))  # the lobby's rules text says so


def test_oh_shit_three_to_five_keep_52_cards_and_a_host_may_choose() -> None:
    rules = make_rules("oh-shit")
    assert [rules.deck_for(n) for n in (3, 4, 5)] == ["standard52"] * 3
    assert OhHell.new(rules, 5, 1).setup.deck_size == 52
    assert make_rules("oh-shit", pack63_for_6_7="off").deck_for(6) == "standard52"
    assert make_rules("oh-shit", deck="standard52").deck_for(7) == "standard52"  # a named deck is kept
    assert make_rules("oh-shit", joker="on").deck_for(6) == "pack63"  # the pack has its own joker
    assert make_rules("classic").deck_for(6) == "standard52"


def test_stored_rules_from_before_the_option_keep_their_deck() -> None:
    """A game stored by an older version has no pack63_for_6_7: it replays on 52 cards."""
    old = make_rules("oh-shit").to_json()
    del old["pack63_for_6_7"]
    rules = Rules.from_json(old)
    assert rules.deck_for(6) == "standard52"
    game = OhHell.new(rules, 6, 3)
    rng = random.Random(3)
    while game.deal_no == 1:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    again = OhHell.from_json(game.to_json())
    assert again.log == game.log and again.setup.deck_size == 52


def test_a_seven_player_nine_card_deal_uses_every_card() -> None:
    game = OhHell.new(make_rules("oh-shit", half_game=True), 7, 2)
    assert game.deal.hand_size == 9
    dealt = sorted(c for s in range(7) for c in game.tricks.hand(s))
    assert dealt == sorted(build_deck("pack63", 7))


# -- Devil's Bridge ------------------------------------------------------------------------------

BRIDGE_RULES = [
    {"preset": "classic"},
    {"preset": "oh-shit", "joker": True},
    {"preset": "oh-shit", "joker": True, "trump": "fixed:NT"},  # a no-trump joker as the hidden card
    {"preset": "classic", "deck": "standard52+joker", "revokes": "penalize", "trump": "fixed:NT"},
]


def _outcome(call: Any) -> Any:
    try:
        return ("ok", call())
    except GameError as e:  # IllegalAction and RulesError alike
        return (type(e).__name__, str(e))


def _probes(game: OhHell, seat: int, names: list[str]) -> dict[str, Any]:
    """Everything ``seat`` can ask the engine, through each public entry point."""
    out: dict[str, Any] = {
        "view": game.view(seat),
        "public": game.view(None),
        "legal": game.legal_actions(seat),
        "proper": _outcome(lambda: game.proper_plays(seat)),
        "bids": game.bid_options(seat),
        "to_act": game.to_act(),
        "over": game.is_over,
        "log": game.log,
        "history": game.history,
        "stats": game.stats(),
        "seat": game.current_seat(),
    }
    actions: list[dict[str, Any]] = [{"type": "bid", "bid": b} for b in range(3)]
    for name in names:
        actions.append({"type": "play", "card": name})
        for suit in ("C", "H", "Z"):
            actions.append({"type": "play", "card": name, "suit": suit})
    for i, action in enumerate(actions):
        out[f"check{i}"] = _outcome(lambda a=action: game.check(seat, a))  # type: ignore[misc]
        out[f"id{i}"] = _outcome(lambda a=action: game.action_to_id(seat, a))  # type: ignore[misc]
        out[f"apply{i}"] = _outcome(lambda a=action: game.clone().apply(seat, a) and None)  # type: ignore[misc]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(BRIDGE_RULES),
    players=st.integers(3, 5),
    seat=st.integers(0, 4),
    shuffle_seed=st.integers(0, 10_000),
    swap_with=st.integers(0, 100),
)
def test_a_bridge_card_cannot_be_probed(
    variant: dict[str, Any], players: int, seat: int, shuffle_seed: int, swap_with: int
) -> None:
    """Two games that differ only in ``seat``'s hidden card answer ``seat`` identically through
    every public entry point, for every card named, until the card is played; and within one
    game every named card gets the same refusal."""
    seat %= players
    opts = dict(variant)
    rules = make_rules(opts.pop("preset"), devils_bridge=True, sequence="fixed", fixed_hands="1", **opts)
    deck = build_deck(rules.deck_for(players), players)
    random.Random(shuffle_seed).shuffle(deck)
    dealer = 0
    mine = (seat - dealer - 1) % players  # one card each from the dealer's left, then the turn-up
    other = players + 1 + swap_with % (len(deck) - players - 1)
    deck_b = deck[:]
    deck_b[mine], deck_b[other] = deck_b[other], deck_b[mine]
    games = [OhHell.from_decks(rules, players, [d], first_dealer=dealer) for d in (deck, deck_b)]
    assert games[0].tricks.hand(seat) != games[1].tricks.hand(seat)
    names = sorted({card_code(c) for c in deck}) + ["?", "ZZ", ""]
    played = False
    while not played:  # until the seat has played its card (a tie may deal again after)
        a, b = (_probes(g, seat, names) for g in games)
        assert a == b
        for g in games:
            if g.deal.devils_bridge and g.phase == PLAY and g.turn == seat:
                named = {_outcome(lambda c=c, g=g: g.check(seat, {"type": "play", "card": c})) for c in names[:-3]}  # type: ignore[misc]
                assert named == {("IllegalAction", BRIDGE_REFUSAL)}
        actor = games[0].to_act()[0]
        if games[0].phase == BID:  # bidding: the same bid in both games
            action: dict[str, Any] = games[0].legal_actions(actor)[0]
        else:
            action = {"type": "play", "card": "?"}
            played = actor == seat
        for g in games:
            g.apply(actor, action)


def test_the_bridge_card_is_played_blind_and_the_log_still_replays() -> None:
    rules = make_rules("oh-shit", joker=True, trump="fixed:NT", devils_bridge=True, sequence="fixed", fixed_hands="1")
    game = OhHell.from_decks(rules, 3, [OhHell.stack_deck(rules, 3, 0, {1: ["X"], 2: ["3C"], 0: ["4C"]})], 0)
    for seat in game.to_act():
        game.apply(seat, {"type": "bid", "bid": 0})
    assert game.proper_plays(1) == [{"type": "play", "card": "?"}] == game.legal_actions(1)
    with pytest.raises(GameError, match="hidden"):
        game.apply(1, {"type": "play", "card": "X"})
    with pytest.raises(GameError, match="hidden"):
        game.apply(1, {"type": "play", "card": "?", "suit": "H"})
    game.apply(1, {"type": "play", "card": "?"})
    game.apply(2, {"type": "play", "card": "?"})
    game.apply(0, {"type": "play", "card": "?"})
    assert game.record.deal_records  # the bridge deal is scored
    again = OhHell.from_json(game.to_json())  # the log names the cards; a replay accepts them
    assert again.log == game.log and again.totals == game.totals
