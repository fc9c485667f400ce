"""A hand's worth as a search with random rollouts reads it: the tricks the hand takes on average
when every seat plays uniformly random legal cards, the other hands dealt at random.

Why: the strong level weighs each sampled world by how well it explains the bids made
(:meth:`.sampling.Knowledge.bid_weight`), and that is only as sharp as its model of a bid. A
bidder whose search plays its rollouts at random (OpenSpiel's ISMCTS, whose evaluator is random
rollouts) bids close to this reading: over ISMCTS-1000's 4,832 bids in
``bench/logs/duplicate-seed7.jsonl`` the bid model around it explains them at 0.80 nats a bid held
out, against 0.98 around the closed-form :class:`.estimate.Estimator` (``python bench/bid_model.py
... --random-play 400``, which plays 400 random deals a hand). Playing deals at decision time is
far too dear for the thousands of hands a decision weighs, so this reading is an additive model
fitted offline on random deals (``python bench/random_play_fit.py``, which writes
``random_play.json`` beside this module): each card is worth a fitted amount by whether it is a
trump, how many unseen cards of its suit beat it, and how many cards of its suit the hand holds;
the hand's count of trumps and of void plain suits adds one more. It explains the same bids as well
as the 400 playouts a hand do.

A configuration (players, hand size) without a fitted table, or a deal without trumps, has no
reading (:func:`reading_for` returns None) and the closed form stays.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .table import LEFT_BOWER_POWER, DealTable

#: own suit lengths told apart (longer ones share the last)
LENGTHS = 8
#: the per-card features: trump or not, 0..12 unseen cards above it, its suit's length held
CARD_FEATURES = 2 * 13 * LENGTHS
#: all features: the cards', then (trumps held, void plain suits)
FEATURES = CARD_FEATURES + LENGTHS * 4
WEIGHTS_FILE = Path(__file__).with_name("random_play.json")


def card_feature(is_trump: bool, above: int, length: int) -> int:
    """The feature index of a card: a trump or not, ``above`` unseen cards of its suit beat it,
    and the hand holds ``length`` cards of its suit."""
    return ((13 if is_trump else 0) + min(above, 12)) * LENGTHS + min(length, LENGTHS - 1)


def shape_feature(trumps: int, voids: int) -> int:
    """The feature index of a hand's ``trumps`` held and ``voids`` void plain suits."""
    return CARD_FEATURES + min(trumps, LENGTHS - 1) * 4 + min(voids, 3)


def suit_features(t: DealTable, mine: int, dead: int) -> list[int]:
    """The feature indices of a hand's cards of one suit (``mine``, not empty), seen by their
    holder before the first lead: every card but its own and the ``dead`` ones is unseen. The
    fit and the search both count a hand through this."""
    unseen = t.all_mask & ~dead & ~mine  # beats[c] is c's own suit: the rest of the hand is moot
    length = mine.bit_count()
    out = []
    m = mine
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        out.append(card_feature(t.esuit[c] == t.trump, (t.beats[c] & unseen).bit_count(), length))
    return out


def hand_shape(t: DealTable, hand: int) -> int:
    """The shape feature of a hand: its trumps held and void plain suits."""
    voids = sum(1 for s in range(4) if s != t.trump and not hand & t.suit_mask[s])
    trumps = (hand & t.suit_mask[t.trump]).bit_count() if t.trump >= 0 else 0
    return shape_feature(trumps, voids)


def hand_features(t: DealTable, hand: int, dead: int) -> list[int]:
    """The feature indices a hand sets (a card's index once per card)."""
    out = [f for s in range(4) if hand & t.suit_mask[s] for f in suit_features(t, hand & t.suit_mask[s], dead)]
    out.append(hand_shape(t, hand))
    return out


@lru_cache(maxsize=1)
def _tables() -> dict[str, list[float]]:
    try:
        data = json.loads(WEIGHTS_FILE.read_text())
    except FileNotFoundError:
        return {}
    tables: dict[str, list[float]] = data["weights"]
    return tables


def table_key(players: int, hand_size: int) -> str:
    return f"{players}x{hand_size}"


class RandomPlayReading:
    """``tricks(hand)``: the reading of a hand of one deal (the same interface as
    :class:`.estimate.Estimator`, which it replaces in the bid model). A suit's part depends only
    on the cards held in it, so each is worked out once per deal and then looked up."""

    def __init__(self, table: DealTable, dead: int, weights: list[float]) -> None:
        self.t = table
        self.dead = dead
        self.w = weights
        self._parts: dict[int, float] = {}

    def tricks(self, hand: int) -> float:
        t = self.t
        w = self.w
        parts = self._parts
        total = 0.0
        for s in range(4):
            mine = hand & t.suit_mask[s]
            if mine:
                part = parts.get(mine)  # a suit's cards name their suit: the key needs no more
                if part is None:
                    part = parts[mine] = sum(w[f] for f in suit_features(t, mine, self.dead))
                total += part
        return total + w[hand_shape(t, hand)]


def reading_for(table: DealTable, dead: int, players: int, hand_size: int) -> RandomPlayReading | None:
    """The reading for a deal, or None where no table was fitted (or the deal has no trumps)."""
    if table.trump < 0 or table.joker >= 0 or table.n != 52 or max(table.power) >= LEFT_BOWER_POWER:
        return None  # no trumps, a joker, another pack, or bowers: not what the tables were fitted on
    weights = _tables().get(table_key(players, hand_size))
    if weights is None:
        return None
    return RandomPlayReading(table, dead, weights)
