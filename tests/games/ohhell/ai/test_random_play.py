"""The random-play reading of a hand (games/ohhell/ai/random_play.py): what it sums, where it
applies, that it agrees with random play itself, and that the strong level weighs worlds by it
when set to."""

from __future__ import annotations

import random

import pytest

from games.common.cards import parse_card, suit_of
from games.ohhell.ai import StrongConfig, info_from_view
from games.ohhell.ai import random_play as rp
from games.ohhell.ai.estimate import Estimator
from games.ohhell.ai.random_play import RandomPlayReading, hand_features, reading_for
from games.ohhell.ai.sampling import Knowledge
from games.ohhell.ai.scoring import score_table
from games.ohhell.ai.sim import Sim
from games.ohhell.ai.table import DealTable
from games.ohhell.decks import build_deck

from .helpers import bid_weight_by_hand, last_bidder_view

DECK = build_deck("standard52", 4)


def _hand(t: DealTable, cards: str) -> int:
    return t.mask([parse_card(c) for c in cards.split()])


def test_the_reading_is_the_fitted_weights_summed_over_the_hands_features() -> None:
    """The per-suit sums the search looks up are the fit's features' weights, for any hand and
    trump (the fit script and the search count a hand the same way)."""
    rng = random.Random(4)
    for _ in range(300):
        trump = rng.randrange(4)
        t = DealTable.build(DECK, trump, False)
        cards = rng.sample(range(52), 11)
        dead = 1 << cards[0]
        hand = sum(1 << c for c in cards[1:])
        reading = reading_for(t, dead, 4, 10)
        assert reading is not None
        assert reading.tricks(hand) == pytest.approx(sum(reading.w[f] for f in hand_features(t, hand, dead)))


def _random_play_mean(t: DealTable, hand: int, turnup: int, playouts: int, rng: random.Random) -> float:
    """The tricks ``hand`` takes on average over ``playouts`` deals of the other cards to three
    more seats, every seat playing uniformly random legal cards."""
    scores = score_table("trick+10", 10)
    rest = [c for c in range(52) if not (hand | turnup) >> c & 1]
    won = 0
    for _ in range(playouts):
        rng.shuffle(rest)
        hands = [hand] + [sum(1 << c for c in rest[10 * i : 10 * i + 10]) for i in range(3)]
        sim = Sim(
            t, hands, [0] * 4, [0] * 4, rng.randrange(4), [], -1, -1, -1, 10, t.all_mask & ~turnup,
            [0] * 4, [0] * 4, scores, True,
        )  # fmt: skip
        sim.rollout(1.0, -1, [rng.random() for _ in range(80)])
        won += sim.won[0]
    return won / playouts


def test_the_reading_agrees_with_random_play() -> None:
    """Over 30 hands dealt as the tables were fitted (four seats of ten cards, the trump a
    turned-up card), the reading is within 0.1 trick on average of the tricks each hand takes
    over 400 deals of the other hands played out at random (the playouts' own error is about
    0.05), and it orders a strong, a middling and a weak hand as random play does."""
    rng = random.Random(11)
    errors = []
    for _ in range(30):
        turned = rng.choice(DECK)
        t = DealTable.build(DECK, suit_of(turned), False)
        turnup = 1 << t.index[turned]
        hand = sum(1 << c for c in rng.sample([c for c in range(52) if not turnup >> c & 1], 10))
        reading = reading_for(t, turnup, 4, 10)
        assert reading is not None
        errors.append(abs(reading.tricks(hand) - _random_play_mean(t, hand, turnup, 400, rng)))
    assert sum(errors) / len(errors) < 0.1
    t = DealTable.build(DECK, 3, False)  # spades trump, the two of spades turned up
    reading = reading_for(t, 1 << t.index[parse_card("2S")], 4, 10)
    assert reading is not None
    hands = ("AS KS QS AH KH AD KD AC 5C 3H", "JS 7S KH 9H 4H QD 8D 6C 5C 2C", "3S 7H 5H 4H 2H 6D 4D 3D 4C 3C")
    readings = [reading.tricks(_hand(t, cards)) for cards in hands]
    assert readings[0] > readings[1] > readings[2]


def test_only_deals_like_those_fitted_have_a_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """No trumps, a joker, bowers, another pack or a configuration without a fitted table: the
    closed form stays (None)."""
    assert reading_for(DealTable.build(DECK, None, False), 0, 4, 10) is None
    assert reading_for(DealTable.build(DECK, 1, True), 0, 4, 10) is None
    joker = build_deck("standard52+joker", 4)
    assert reading_for(DealTable.build(joker, 1, False), 0, 4, 10) is None
    assert reading_for(DealTable.build(DECK, 1, False), 0, 4, 10) is not None
    monkeypatch.setattr(rp, "_tables", lambda: {})
    assert reading_for(DealTable.build(DECK, 1, False), 0, 4, 10) is None


def test_the_strong_level_set_to_it_weighs_the_worlds_by_the_reading() -> None:
    """``StrongConfig(bid_random_play=True)`` gives the knowledge the reading, and each bid made
    then scores its likelihood around the reading plus ``bid_offset``; the bot's setting keeps
    the closed form."""
    info = info_from_view(last_bidder_view(10))
    plain = Knowledge.build(info)
    StrongConfig().fit(plain)
    assert isinstance(plain.estimator, Estimator)
    k = Knowledge.build(info)
    StrongConfig(bid_random_play=True, bid_stretch=1.0, bid_offset=-0.2).fit(k)
    assert isinstance(k.estimator, RandomPlayReading)
    assert k.expected_bid(3.0) == pytest.approx(2.8)
    sigma = 0.6
    for hands, _ in k.worlds(random.Random(8), 5, oversample=0):
        expected = bid_weight_by_hand(k, hands, sigma, lambda p, hand: k.estimator.tricks(hand) - 0.2)
        assert k.bid_weight(hands, sigma) == pytest.approx(expected, rel=1e-12)


def test_a_configuration_without_a_table_keeps_the_closed_form_when_set_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rp, "_tables", lambda: {})
    info = info_from_view(last_bidder_view(9))
    k = Knowledge.build(info)
    StrongConfig(bid_random_play=True).fit(k)
    assert isinstance(k.estimator, Estimator)
