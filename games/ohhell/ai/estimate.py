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

from .table import DealTable, bits


def _poisson_below(mean: float, j: int) -> float:
    """P(X < j) for X ~ Poisson(mean): a given opponent has fewer than ``j`` cards of a suit."""
    term = math.exp(-mean)
    total = 0.0
    for k in range(j):
        total += term
        term *= mean / (k + 1)
    return min(1.0, total)


def estimate_tricks(table: DealTable, hand: int, unseen: int, players: int, hand_size: int) -> float:
    """Expected tricks of ``hand`` (a bitmask) when ``unseen`` are the cards the holder cannot see
    (the opponents' hands plus the undealt stock)."""
    n_unseen = unseen.bit_count()
    if n_unseen == 0:
        fill = 1.0
    else:
        fill = min(1.0, (players - 1) * hand_size / n_unseen)
    keep = 1.0 - fill
    opponents = max(1, players - 1)
    trump = table.trump
    sm = table.suit_mask
    beats = table.beats
    total = 0.0
    if table.joker_nt and (hand >> table.joker) & 1:
        total += 1.0
    # chance that a given opponent still holds a trump (to ruff with)
    if trump >= 0:
        opp_trumps = (unseen & sm[trump]).bit_count() * fill / opponents
        has_trump = 1.0 - math.exp(-opp_trumps)
    else:
        opp_trumps = 0.0
        has_trump = 0.0
    for s in range(4):
        mine = hand & sm[s]
        if not mine:
            continue
        cards = bits(mine)[::-1]  # highest first
        if s == trump:
            sure = 0.0
            for c in cards:
                above = (unseen & beats[c]).bit_count()
                sure += keep**above
            # small trumps that outlast the opponents' trumps
            longest = opp_trumps + math.sqrt(opp_trumps) if opp_trumps > 0 else 0.0
            extra = max(0.0, len(cards) - longest - sure)
            total += sure + 0.5 * extra
            continue
        per_opp = (unseen & sm[s]).bit_count() * fill / opponents
        for j, c in enumerate(cards, start=1):
            above = (unseen & beats[c]).bit_count()
            top = keep**above
            if top < 0.02:
                continue
            void = _poisson_below(per_opp, j)
            survive = (1.0 - void * has_trump) ** opponents
            total += top * survive
    # ruffing chances: short side suits with trumps to spare
    if trump >= 0:
        my_trumps = (hand & sm[trump]).bit_count()
        if my_trumps:
            ruffs = 0.0
            for s in range(4):
                if s == trump:
                    continue
                length = (hand & sm[s]).bit_count()
                if length <= 1:
                    ruffs += (1 - length) * 0.5 + 0.2 * length
            total += min(ruffs * fill, max(0.0, my_trumps - 1) * 0.6)
    return min(float(hand_size), total)


def nearest_bid(estimate: float, allowed: list[int]) -> int:
    """The allowed bid closest to ``estimate`` (ties to the lower bid: missing low is cheaper
    to repair by ducking than missing high)."""
    return min(allowed, key=lambda b: (abs(b - estimate), b))
