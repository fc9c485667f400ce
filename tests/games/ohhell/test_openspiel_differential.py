"""Our Oh Hell engine held to OpenSpiel's ``oh_hell``, deal for deal, on the rules both share.

OpenSpiel's game (open_spiel/games/oh_hell/oh_hell.cc) is one deal: a chance node picks the
number of tricks (1 to (52 - 1) // players, unless ``num_tricks_fixed``), one picks the dealer,
then one a card deals the hands (player 0 always takes the first card, whatever the dealer) and
turns up the trump card; bids go round from the dealer's left, the dealer (the last bidder) may
not bid so that the bids total the tricks, the dealer's left leads, follow suit if you can, and
with ``off_bid_penalty=False, points_per_trick=1`` a seat scores 1 a trick and 10 more for an
exact bid. Its other parameters have no counterpart here: ``num_suits``/``num_cards_per_suit``
other than 4/13 are decks we do not have, ``points_per_trick`` other than 1 and
``off_bid_penalty=True`` (a miss costs ``points_per_trick`` a trick off, an exact bid scores the
tricks plus 10) are scorings none of ours equals (:data:`SHARED_SCORING` is the only one, checked
below against every bid and trick count).

The shared option set (:data:`SHARED`): a 52-card pack without joker, the turn-up for trumps
(never no trumps), no bowers, sequential bids with the hook, the dealer's left leads, revokes
prevented, ``trick+10``, one deal of the size OpenSpiel's chance drew (``sequence=fixed``).

For each seeded deal OpenSpiel deals (its own chance outcomes, drawn uniformly from a seeded
generator); our game is given that very deal card for card (each seat's hand and the turn-up,
named through OpenSpiel's own card strings, the dealer the same seat), and both play the same
actions, drawn uniformly from OpenSpiel's legal ones: at every step the same seat must act with
the same legal bids or cards, and at the end every seat's bid, tricks and score must match.
Our side is the computer players' fast API (``fast_legal``/``fast_apply``); one deal in
:data:`CHECKED_EVERY` is also played through the bot's checked API (``legal_actions``/``apply``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.common.cards import Card, card_code, parse_card
from games.ohhell.game import OhHell
from games.ohhell.rules import Rules, make_rules
from games.ohhell.scoring import SCORERS
from games.ohhell.tables import BID

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel is not installed (pip install open_spiel, part of the test extra where its wheel installs)",
)

DEALS = 10_000
PLAYERS = range(3, 8)  # OpenSpiel's oh_hell seats 3 to 7
CHECKED_EVERY = 20
NUM_CARDS = 52
#: our options that make OpenSpiel's oh_hell (with its default parameters) one deal of ours
SHARED: dict[str, str | bool] = {
    "deck": "standard52",
    "pack63_for_6_7": False,
    "trump": "turn-up",
    "no_trump_turnup": False,
    "bowers": False,
    "bidding": "sequential",
    "hook": True,
    "first_lead": "left-of-dealer",
    "revokes": "prevent",
    "scoring": "trick+10",
    "sequence": "fixed",
}
SHARED_SCORING = "trick+10"
#: OpenSpiel's parameters for that rule set: its defaults, players and the trick count aside
OPENSPIEL_PARAMS = {"num_suits": 4, "num_cards_per_suit": 13, "off_bid_penalty": False, "points_per_trick": 1}


def our_card(name: str) -> Card:
    """OpenSpiel's card string (suit then rank, ``T`` for ten: ``ST``, ``HA``) as our card."""
    suit, rank = name[0], name[1:]
    return parse_card(("10" if rank == "T" else rank) + suit)


@pytest.fixture(scope="module")
def cards() -> tuple[dict[int, Card], dict[Card, int]]:
    """OpenSpiel's card actions and ours, both ways, named by OpenSpiel's own strings."""
    state = pyspiel.load_game("oh_hell", {"players": 3}).new_initial_state()
    state.apply_action(1)  # one trick
    state.apply_action(0)  # dealer: player 0; the next chance nodes deal cards
    to_ours = {a: our_card(state.action_to_string(a)) for a in range(NUM_CARDS)}
    assert sorted(card_code(c) for c in to_ours.values()) == sorted(
        card_code(c) for c in OhHell.new(make_rules("classic"), 4, 1).pack()
    )
    return to_ours, {c: a for a, c in to_ours.items()}


def test_openspiel_parameters_are_the_shared_set() -> None:
    """The game we compare with is OpenSpiel's default oh_hell (only players and tricks set), and
    of our scorings exactly ``trick+10`` is OpenSpiel's scoring, with and without its penalty."""
    game = pyspiel.load_game("oh_hell", {"players": 4})
    params = game.get_parameters()
    assert {k: params[k] for k in OPENSPIEL_PARAMS} == OPENSPIEL_PARAMS
    assert params["num_tricks_fixed"] == -1  # drawn by chance, every deal
    state = game.new_initial_state()
    while state.is_chance_node():  # every chance node uniform over its legal actions
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == state.legal_actions()
        assert max(p for _, p in outcomes) - min(p for _, p in outcomes) < 1e-12
        state.apply_action(outcomes[-1][0])

    def openspiel_score(bid: int, tricks: int, penalty: bool, per_trick: int) -> int:
        if penalty:
            return per_trick * tricks + 10 if tricks == bid else -per_trick * abs(tricks - bid)
        return per_trick * tricks + (10 if tricks == bid else 0)

    pairs = [(b, t) for b in range(14) for t in range(14)]
    matches = {
        (name, penalty, per_trick)
        for name, scorer in SCORERS.items()
        for penalty in (False, True)
        for per_trick in range(1, 11)
        if all(scorer(b, t) == openspiel_score(b, t, penalty, per_trick) for b, t in pairs)
    }
    assert matches == {(SHARED_SCORING, False, 1)}


def _rules_for(cache: dict[int, Rules], hand_size: int) -> Rules:
    rules = cache.get(hand_size)
    if rules is None:
        rules = cache[hand_size] = make_rules("classic", **SHARED, fixed_hands=str(hand_size))
    return rules


def _play_checked(game: OhHell, seat: int, os_action: int, to_ours: dict[int, Card]) -> None:
    """OpenSpiel's action through the bot's checked API."""
    action: dict[str, Any]
    if os_action >= NUM_CARDS:
        action = {"type": "bid", "bid": os_action - NUM_CARDS}
    else:
        action = {"type": "play", "card": card_code(to_ours[os_action])}
    game.apply(seat, action)


def _checked_legal(game: OhHell, seat: int, from_ours: dict[Card, int]) -> list[int]:
    out = []
    for a in game.legal_actions(seat):
        out.append(a["bid"] + NUM_CARDS if a["type"] == "bid" else from_ours[parse_card(a["card"])])
    return sorted(out)


def play_deal(
    seed: int,
    players: int,
    games: dict[int, Any],
    rules_cache: dict[int, Rules],
    to_ours: dict[int, Card],
    from_ours: dict[Card, int],
    checked: bool,
) -> int:
    """One deal, OpenSpiel's chance first, then both engines step for step; returns the steps."""
    rng = random.Random(seed)
    choice: Callable[[list[int]], int] = rng.choice
    state = games[players].new_initial_state()
    while state.is_chance_node():  # uniform outcomes: a chance node's legal actions are its outcomes
        state.apply_action(choice(state.legal_actions()))
    history = state.history()
    tricks, dealer = history[0], history[1]
    dealt = history[2 : 2 + players * tricks]
    turnup = to_ours[history[2 + players * tricks]]
    hands = {s: [to_ours[a] for i, a in enumerate(dealt) if i % players == s] for s in range(players)}
    rules = _rules_for(rules_cache, tricks)
    deck = OhHell.stack_deck(rules, players, dealer, hands, turnup)
    game = OhHell.from_decks(rules, players, [deck], dealer)
    twin = OhHell.from_decks(rules, players, [deck], dealer) if checked else None
    where = f"deal seed {seed}, {players} players, {tricks} tricks, dealer {dealer}"
    for s in range(players):  # the same hands, card for card
        assert sorted(game.hand(s)) == sorted(card_code(c) for c in hands[s]), where
    legal = game.fast_legal()
    steps = 0
    while not state.is_terminal():
        seat = state.current_player()
        assert game.current_seat() == seat, f"{where}, step {steps}: seat"
        os_legal = state.legal_actions()
        ours = sorted(b + NUM_CARDS for b in legal) if game.phase == BID else sorted(from_ours[c] for c in legal)
        assert ours == os_legal, f"{where}, step {steps}, seat {seat}: legal actions"
        assert not game.record.deal_records, f"{where}, step {steps}: our deal ended early"
        action = choice(os_legal)
        if twin is not None:
            assert _checked_legal(twin, seat, from_ours) == os_legal, f"{where}, step {steps}: checked API"
            _play_checked(twin, seat, action, to_ours)
        state.apply_action(action)
        legal = game.fast_apply(action - NUM_CARDS if action >= NUM_CARDS else to_ours[action])
        steps += 1
    returns = [int(r) for r in state.returns()]
    for ours_game in (game, twin) if twin is not None else (game,):
        assert ours_game.record.deal_records, f"{where}: OpenSpiel's deal ended, ours did not"
        record = ours_game.record.deal_records[0]
        assert record.scores == returns, f"{where}: scores"
        assert record.hand_size == tricks and record.dealer == dealer, where
    return steps


def test_same_legal_actions_and_scores_as_openspiel(
    cards: tuple[dict[int, Card], dict[Card, int]],
) -> None:
    to_ours, from_ours = cards
    games = {n: pyspiel.load_game("oh_hell", {"players": n}) for n in PLAYERS}
    caches: dict[int, dict[int, Rules]] = {n: {} for n in PLAYERS}
    steps = 0
    for deal in range(DEALS):
        players = PLAYERS[deal % len(PLAYERS)]
        steps += play_deal(deal, players, games, caches[players], to_ours, from_ours, deal % CHECKED_EVERY == 0)
    # every table size met every trick count OpenSpiel can draw for it
    for n in PLAYERS:
        assert sorted(caches[n]) == list(range(1, (NUM_CARDS - 1) // n + 1)), n
    assert steps > DEALS * 10
