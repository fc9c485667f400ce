"""How many tricks a hand is worth, by a closed formula: the quick level's bid, and the strong
level's model of what an opponent holding a sampled hand would have bid.

Each card counts the chance that no opponent holds a card of its suit above it
(``(1 - fill) ** above``, where ``fill`` is the share of the cards we cannot see that opponents
hold), times, for a plain card, the chance that the suit has not been ruffed by the round it is
played in. Long trumps add the small trumps that outlast the opponents'. The formula is crude
but fast, monotone in card strength, and right at both ends (one card among many players, ten
cards among four).
"""

from __future__ import annotations

import math
from bisect import bisect_left

from .table import DealTable

ALPHA = None


def _alpha(hand_size: int) -> float:
    """How much of the threat of a higher card is real: with long hands the higher card often
    falls on another trick first (fitted on playouts: 1 card 1.0, 5 cards 0.7, 10 cards 0.37)."""
    if ALPHA is not None:
        return ALPHA
    return max(0.3, 1.0 - 0.07 * (hand_size - 1))


def _poisson_below(mean: float, j: int) -> float:
    """P(X < j) for X ~ Poisson(mean): a given opponent has fewer than ``j`` cards of a suit."""
    term = math.exp(-mean)
    total = 0.0
    for k in range(j):
        total += term
        term *= mean / (k + 1)
    return min(1.0, total)


class Estimator:
    """:func:`estimate_tricks` for many hands of one deal seen from outside (the unseen cards are
    everything but the hand, the ``excluded`` cards and the dead ones): the per-card tables are
    built once, so the strong level can score thousands of sampled hands a decision."""

    def __init__(self, table: DealTable, excluded: int, players: int, hand_size: int) -> None:
        self.t = table
        self.base = table.all_mask & ~excluded
        self.players = players
        self.hand_size = hand_size
        self.opponents = max(1, players - 1)
        n_base = self.base.bit_count()
        n_unseen = max(0, n_base - hand_size)
        self.fill = 1.0 if n_unseen == 0 else min(1.0, (players - 1) * hand_size / n_unseen)
        keep = 1.0 - self.fill * _alpha(hand_size)
        self.keep_pow = [keep**a for a in range(table.n + 2)]
        self.higher = [(table.beats[c] & self.base).bit_count() for c in range(table.n)]
        self.suit_base = [(self.base & m).bit_count() for m in table.suit_mask]
        self._survive: dict[tuple[int, int, int], float] = {}
        self._parts: dict[int, tuple[float, float]] = {}

    def survive(self, my_trumps: int, suit_unseen: int, j: int) -> float:
        key = (my_trumps, suit_unseen, j)
        v = self._survive.get(key)
        if v is None:
            t = self.t
            if t.trump >= 0:
                opp_trumps = (self.suit_base[t.trump] - my_trumps) * self.fill / self.opponents
                has_trump = 1.0 - math.exp(-opp_trumps)
            else:
                has_trump = 0.0
            void = _poisson_below(suit_unseen * self.fill / self.opponents, j)
            v = self._survive[key] = (1.0 - void * has_trump) ** self.opponents
        return v

    def tricks(self, hand: int) -> float:
        """The estimate, summed suit by suit: a suit's worth depends only on the cards held in it
        (and, for a plain suit, how many trumps back it), so each is worked out once per deal and
        the search, which scores thousands of sampled hands a decision, mostly looks them up."""
        t = self.t
        sm = t.suit_mask
        trump = t.trump
        parts = self._parts
        total = 1.0 if t.joker_nt and (hand >> t.joker) & 1 else 0.0
        my_trumps = (hand & sm[trump]).bit_count() if trump >= 0 else 0
        ruffs = 0.0
        for s in range(4):
            mine = hand & sm[s]
            key = mine | my_trumps << 64 | s << 72
            part = parts.get(key)
            if part is None:
                part = parts[key] = self._suit_part(s, mine, my_trumps)
            total += part[0]
            ruffs += part[1]
        if my_trumps:
            total += min(ruffs * self.fill, (my_trumps - 1) * 0.6)
        return min(float(self.hand_size), total)

    def _suit_part(self, s: int, mine: int, my_trumps: int) -> tuple[float, float]:
        """(tricks the cards of suit ``s`` are worth, ruffing chances the suit's shortness adds)."""
        kp = self.keep_pow
        higher = self.higher
        if s == self.t.trump:
            if not mine:
                return 0.0, 0.0
            sure = 0.0
            j = 0
            while mine:
                c = mine.bit_length() - 1
                sure += kp[max(0, higher[c] - j)]
                j += 1
                mine ^= 1 << c
            opp_trumps = (self.suit_base[s] - my_trumps) * self.fill / self.opponents
            longest = opp_trumps + math.sqrt(opp_trumps) if opp_trumps > 0 else 0.0
            return sure + 0.5 * max(0.0, my_trumps - longest - sure), 0.0
        length = mine.bit_count()
        ruff = (0.5 if not length else 0.2) if length <= 1 else 0.0
        suit_unseen = self.suit_base[s] - length
        worth = 0.0
        j = 0
        while mine:
            c = mine.bit_length() - 1
            mine ^= 1 << c
            top = kp[max(0, higher[c] - j)]
            j += 1
            if top < 0.02:
                break
            worth += top * self.survive(my_trumps, suit_unseen, j)
        return worth, ruff


def estimate_tricks(table: DealTable, hand: int, unseen: int, players: int, hand_size: int) -> float:
    """Expected tricks of ``hand`` (a bitmask) when ``unseen`` are the cards the holder cannot see
    (the opponents' hands plus the undealt stock)."""
    excluded = table.all_mask & ~unseen & ~hand
    return Estimator(table, excluded, players, hand_size).tricks(hand)


def nearest_bid(estimate: float, allowed: list[int]) -> int:
    """The allowed bid closest to ``estimate`` (ties to the lower bid: missing low is cheaper
    to repair by ducking than missing high). ``allowed`` in rising order, as the rules list
    bids: the nearest is one of the two around the estimate (the search asks this of every
    later bidder in every world it plays a bid in)."""
    i = bisect_left(allowed, estimate)
    return min(allowed[max(0, i - 1) : i + 1], key=lambda b: (abs(b - estimate), b))
