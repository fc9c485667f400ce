"""Deals of the unseen cards that agree with everything the table has shown.

The strong level plays each of its options out in many *worlds*: complete deals in which the
seat's own knowledge is true (its hand, the cards played and by whom, the turned-up card, a
dealer's shown card, a Devil's Bridge deal's visible hands) and the rest of the pack is shared
at random. A seat that failed to follow a suit holds none of it (unless, with revokes penalized,
it later played that suit after all: then it revoked and the inference is dropped). Worlds are
then weighted by how well each opponent's sampled hand explains the bid it made, and resampled,
so that a 4 bid makes a strong hand likelier than a weak one.

With ``play_noise`` set, the cards the opponents played count as well (policy-based inference):
each play of a seat whose hand is not known is replayed in the world on the public table as it
was then, and the cheap playout policy (:meth:`Sim.choose`) names the card that seat would have
played with its sampled hand. The play's likelihood is that of a mixture: the policy's card (or
one equivalent to it: same suit, no live card of another hand between) with ``1 - play_noise``,
a uniformly random legal card with ``play_noise``. A seat that ducked under a live ace is then
less likely to hold the king it would have won with. The policy decides from the seat's own hand
and the public table only, so each seat's factor depends on its own sampled hand: it is worked
out once per distinct hand and decision.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from games.ohhell.play_rules import hook_forbidden_bid, legal_bids

from .estimate import Estimator
from .infostate import InfoState
from .random_play import RandomPlayReading, reading_for
from .scoring import overtricks_pay, score_table
from .sim import Sim
from .table import DealTable, bits


@dataclass(slots=True)
class Knowledge:
    """What the seat knows, as masks over the deal's :class:`DealTable`."""

    info: InfoState
    table: DealTable
    known: list[int]  # cards known to be in each seat's hand now
    need: list[int]  # unknown cards each seat still holds
    allowed: list[int]  # cards each seat may hold (voids removed)
    unseen: int  # cards the seat cannot place: the unknown cards of every hand plus the stock
    played_by: list[int]  # cards each seat has played this deal
    dead: int
    template: Sim  # the deal's public state, hands still empty
    #: an opponent's view of its own whole hand at bidding time (the closed form, or the
    #: random-play reading: :meth:`use_random_play_reading`)
    estimator: Estimator | RandomPlayReading
    #: how an opponent's bid follows the estimate of its hand (see :meth:`expected_bid`)
    stretch: float = 1.0
    #: how much more an opponent bids a trump it holds above its fair share of the trumps, and
    #: a trick bid before it above the fair share of the bids before it (see :meth:`expected_bid`)
    trump_lean: float = 0.0
    table_lean: float = 0.0
    #: tricks added to every expected bid
    bid_offset: float = 0.0
    #: (seat, quantized estimate, sigma) -> the likelihood of the bid that seat made
    likelihoods: dict[tuple[int, int, float], float] = field(default_factory=dict)
    #: the uniform share of the opponents' play model (0: the plays are not used; see the module)
    play_noise: float = 0.0
    #: each opponent's plays as (the public table just before, the card's bit, the seat's cards
    #: still to be played from the public record then), built on first use
    _plays: dict[int, list[tuple[Sim, int, int]]] | None = None
    #: (seat, sampled hand) -> the likelihood of that seat's plays
    _play_memo: dict[tuple[int, int], float] = field(default_factory=dict)
    #: seat -> the tricks bid before it over those bidders' fair share (:meth:`bid_context`), the
    #: same for every world a decision weighs, built on first use
    _table_context: dict[int, float] | None = None
    #: the seats a sample fills, most constrained first, with their allowed cards and counts
    #: ([]: no voids to honour), built on first use
    _order: list[tuple[int, int, int]] | None = None

    @classmethod
    def build(cls, info: InfoState, table: DealTable | None = None) -> Knowledge:
        t, estimator = _deal_tools(info, table)
        n = info.players
        known = [0] * n
        if info.hand_known:
            known[info.seat] = t.mask(info.hand)
        for seat, cards in info.others_known.items():
            known[seat] |= t.mask(cards)
        played_by = [0] * n
        for _, play in info.all_plays():
            played_by[play.seat] |= 1 << t.index[play.card]
        played = 0
        for m in played_by:
            played |= m
        for seat, cards in info.shown.items():
            known[seat] |= t.mask(cards) & ~played
        dead = t.mask(info.dead)
        holding = [info.hand_size - m.bit_count() for m in played_by]
        need = [max(0, holding[p] - known[p].bit_count()) for p in range(n)]
        known_all = 0
        for m in known:
            known_all |= m
        unseen = t.all_mask & ~played & ~dead & ~known_all

        template = _public_sim(info, t, played_by, dead)
        voids = _voids(info, t)
        allowed = []
        for p in range(n):
            forbid = 0
            for s in range(5):
                if (voids[p] >> s) & 1:
                    forbid |= t.suit_mask[s]
            allowed.append(unseen & ~forbid)
        return cls(info, t, known, need, allowed, unseen, played_by, dead, template, estimator)

    def use_random_play_reading(self) -> bool:
        """Read the opponents' hands as a random-rollout search would (:mod:`.random_play`)
        where a table was fitted for this deal; whether it was."""
        info = self.info
        key = _deal_key(info)
        if key not in _READINGS:
            if len(_READINGS) >= 16:
                _READINGS.clear()
            _READINGS[key] = reading_for(self.table, self.table.mask(info.dead), info.players, info.hand_size)
        reading = _READINGS[key]
        if reading is None:
            return False
        self.estimator = reading
        return True

    # -- worlds -------------------------------------------------------------------------------
    def sample_hands(self, rng: random.Random) -> list[int]:
        """One world's hands; voids are relaxed only if no deal can honour them."""
        for relax in (False, True):
            for _ in range(12 if not relax else 1):
                hands = self._try_sample(rng, relax)
                if hands is not None:
                    return hands
        raise AssertionError("no deal fits the seat's own knowledge")  # pragma: no cover

    def _try_sample(self, rng: random.Random, relax: bool) -> list[int] | None:
        order = self._order
        if order is None:
            # worked out once per decision: the seats to fill, most constrained first (None:
            # no voids to honour)
            n = len(self.need)
            if all(self.allowed[p] == self.unseen for p in range(n) if self.need[p]):
                order = self._order = []
            else:
                seats = [p for p in range(n) if self.need[p] > 0]
                seats.sort(key=lambda p: (self.allowed[p].bit_count() - self.need[p], p))
                order = self._order = [(p, self.allowed[p], self.need[p]) for p in seats]
        if relax or not order:
            # no voids to honour: one random draw cut into the hands
            pool = _bit_list(self.unseen)
            total = sum(self.need)
            if total > len(pool):
                return None
            picks = _pick(rng, pool, total)
            hands = self.known[:]
            i = 0
            for p, k in enumerate(self.need):
                if k:
                    hands[p] |= sum([_BIT[c] for c in picks[i : i + k]])
                    i += k
            return hands
        hands = self.known[:]
        remaining = self.unseen
        for p, allowed, k in order:
            pool = bits(allowed & remaining)
            if len(pool) < k:
                return None
            pick = pool if len(pool) == k else _pick(rng, pool, k)
            m = sum([_BIT[c] for c in pick])
            hands[p] |= m
            remaining &= ~m
        return hands

    def expected_bid(self, est: float, trumps_over: float = 0.0, bid_before_over: float = 0.0) -> float:
        """The bid an opponent is expected to make with a hand the estimator gives ``est``
        tricks: the estimate stretched by ``stretch`` away from the fair share of the tricks.
        OpenSpiel's ISMCTS, a strong bidder, bids about ``1.4 * est - 1`` with 10 cards among
        4 (fitted on 1,000 of its bids): strong hands are worth more than the closed form
        says, weak ones less. With the leans set, the model also reads the table: a bidder holds
        ``trumps_over`` trumps more than its fair share and sees ``bid_before_over`` tricks bid
        before it beyond those bidders' fair share (:meth:`bid_context`); bidders bid long trumps
        up and bid down after a greedy table (fitted on ISMCTS's bids: ``bench/bid_model.py``)."""
        share = self.info.hand_size / self.info.players
        lean = self.trump_lean * trumps_over + self.table_lean * bid_before_over + self.bid_offset
        if self.stretch == 1.0:
            return est + lean
        return share + self.stretch * (est - share) + lean

    def bid_context(self, seat: int, hand: int, bids: list[int | None] | tuple[int | None, ...]) -> tuple[float, float]:
        """(trumps held over the fair share, tricks bid before ``seat`` over those bidders' fair
        share) for :meth:`expected_bid`; (0, 0) when the leans are off, so that the plain model
        costs nothing more. ``bids``: the bids made (or predicted) so far, by seat."""
        if not self.trump_lean and not self.table_lean:
            return 0.0, 0.0
        info, t = self.info, self.table
        trumps_over = 0.0
        if self.trump_lean and t.trump_mask:
            trumps_over = (hand & t.trump_mask).bit_count() - info.hand_size * t.trump_mask.bit_count() / t.n
        if not self.table_lean:
            return trumps_over, 0.0
        before = 0
        total = 0
        for q in info.bid_order():
            if q == seat:
                break
            b = bids[q]
            if b is not None:
                before += 1
                total += b
        return trumps_over, total - before * info.hand_size / info.players

    def bid_weight(self, hands: list[int], sigma: float) -> float:
        """How well the sampled hands explain the bids already made (1 when nothing to explain)."""
        info = self.info
        weight = 1.0
        tricks = self.estimator.tricks
        memo = self.likelihoods
        table = self._table_context
        if table is None:  # the bids before each bidder: the same for every world
            table = self._table_context = {p: self.bid_context(p, 0, info.bids)[1] for p in range(info.players)}
        trump_lean, trump_mask = self.trump_lean, self.table.trump_mask
        fair_trumps = info.hand_size * trump_mask.bit_count() / self.table.n
        for p, bid in enumerate(info.bids):
            if bid is None or p == info.seat or p in info.others_known:
                continue
            # the estimate to 1/32 of a trick (a twentieth of the bid model's spread): thousands
            # of sampled hands share a few hundred values, and the likelihood is a sum of
            # exponentials over every allowed bid
            whole = hands[p] | self.played_by[p]
            trumps_over = (whole & trump_mask).bit_count() - fair_trumps if trump_lean and trump_mask else 0.0
            q = int(self.expected_bid(tricks(whole), trumps_over, table[p]) * 32)
            key = (p, q, sigma)
            lik = memo.get(key)
            if lik is None:
                lik = memo[key] = bid_likelihood(bid, q / 32, _allowed_bids(info, p), sigma)
            weight *= lik
        return weight

    def _observed_plays(self) -> dict[int, list[tuple[Sim, int, int]]]:
        """Every play of a seat whose hand is not known, with the public table before it."""
        if self._plays is not None:
            return self._plays
        info, t = self.info, self.table
        sim = self.template.clone()
        sim.hands = self.played_by[:]
        sim.bids = [0 if b is None else b for b in info.bids]
        sim.won = [0] * info.players
        sim.trick, sim.led, sim.win, sim.win_seat = [], -1, -1, -1
        sim.tricks_left = info.hand_size
        sim.live = t.all_mask & ~self.dead
        sim.played_suits = [0] * info.players
        sim.failed = [0] * info.players
        plays: dict[int, list[tuple[Sim, int, int]]] = {}
        for _, play in info.all_plays():
            p = play.seat
            bit = t.index[play.card]
            if p != info.seat and p not in info.others_known:
                plays.setdefault(p, []).append((sim.clone(), bit, sim.hands[p]))
            sim.to_play = p
            sim.play(bit, -1 if play.suit is None else play.suit)
        self._plays = plays
        return plays

    def play_weight(self, hands: list[int]) -> float:
        """How well the sampled hands explain the cards the opponents played (1 when
        ``play_noise`` is 0 or nothing was played)."""
        eps = self.play_noise
        if eps <= 0:
            return 1.0
        weight = 1.0
        memo = self._play_memo
        esuit = self.table.esuit
        for p, plays in self._observed_plays().items():
            h = hands[p]
            f = memo.get((p, h))
            if f is None:
                f = 1.0
                for sim, bit, public in plays:
                    sim.hands[p] = public | h
                    legal = sim.legal(p)
                    n = legal.bit_count()
                    if n > 1:
                        c = sim.choose(p)[0]
                        same = c == bit
                        if not same and esuit[c] == esuit[bit]:
                            lo, hi = (c, bit) if c < bit else (bit, c)
                            between = (1 << hi) - (1 << (lo + 1))
                            same = not (between & sim.live & ~sim.hands[p])
                        f *= (1.0 - eps) + eps / n if same else eps / n
                    sim.hands[p] = public
                memo[(p, h)] = f
            weight *= f
        return weight

    def worlds(
        self, rng: random.Random, count: int, *, oversample: int = 3, sigma: float | None = None
    ) -> list[tuple[list[int], float]]:
        """``count`` worlds with weights summing to 1, so that later decisions see hands that fit
        the auction: with ``oversample`` 1 each world is weighted by how well it explains the bids
        (importance weights); with more, that many times as many candidates are drawn, weighted,
        and resampled systematically (a world drawn twice is merged); with 0 the bids are
        ignored."""
        info = self.info
        any_bid = any(b is not None and p != info.seat and p not in info.others_known for p, b in enumerate(info.bids))
        if sigma is None:
            sigma = 0.7 + 0.07 * info.hand_size
        if not any_bid or oversample <= 0:
            return [(self.sample_hands(rng), 1.0 / count) for _ in range(count)]
        if oversample == 1:
            hands = [self.sample_hands(rng) for _ in range(count)]
            weights = [self.bid_weight(h, sigma) * self.play_weight(h) for h in hands]
            total = sum(weights)
            if total <= 0:
                return [(h, 1.0 / count) for h in hands]
            return [(h, w / total) for h, w in zip(hands, weights, strict=True)]
        cands = [self.sample_hands(rng) for _ in range(count * oversample)]
        weights = [self.bid_weight(h, sigma) for h in cands]
        if self.play_noise > 0 and self._observed_plays() and sum(weights) > 0:
            # two stages (sequential importance resampling): the bids pick twice as many worlds
            # as wanted, then the plays weigh those (a world picked k times counts k times): the
            # plays' likelihood, the dearer one, is worked out for half the candidates or fewer
            first = _systematic(weights, 2 * count, rng)
            cands = [cands[i] for i in first]
            weights = [k * self.play_weight(h) for h, k in zip(cands, first.values(), strict=True)]
        total = sum(weights)
        if total <= 0:
            return [(h, 1.0 / len(cands)) for h in cands[:count]]
        picked = _systematic(weights, count, rng)
        return [(cands[i], k / count) for i, k in picked.items()]

    def sim_for(self, hands: list[int], bids: list[int]) -> Sim:
        s = self.template.clone()
        s.hands = hands[:]
        s.bids = bids
        return s


def _systematic(weights: list[float], count: int, rng: random.Random) -> dict[int, int]:
    """Systematic resampling: ``count`` picks among the indices, in proportion to ``weights``
    (positive total), as {index: times picked} in index order."""
    step = sum(weights) / count
    pos = rng.random() * step
    acc = 0.0
    picked: dict[int, int] = {}
    i = 0
    last = len(weights) - 1
    for _ in range(count):
        while acc + weights[i] < pos and i < last:
            acc += weights[i]
            i += 1
        picked[i] = picked.get(i, 0) + 1
        pos += step
    return picked


_DEAL_TOOLS: dict[tuple[Any, ...], tuple[DealTable, Estimator]] = {}
#: each deal's random-play reading (None: none fitted), kept across its decisions as the tools are
_READINGS: dict[tuple[Any, ...], RandomPlayReading | None] = {}


def _deal_key(info: InfoState) -> tuple[Any, ...]:
    """What a deal's tools and reading depend on: one key for both caches."""
    return (tuple(info.deck), info.trump, info.bowers, tuple(info.dead), info.players, info.hand_size)


def _deal_tools(info: InfoState, table: DealTable | None) -> tuple[DealTable, Estimator]:
    """The deal's table and its bid estimator, kept across a deal's decisions: the estimator's
    per-suit values, worked out once, serve every later decision of the same deal."""
    key = _deal_key(info)
    tools = _DEAL_TOOLS.get(key)
    if tools is None or (table is not None and tools[0] is not table):
        if len(_DEAL_TOOLS) >= 16:
            _DEAL_TOOLS.clear()
        t = table or DealTable.build(info.deck, info.trump, info.bowers)
        tools = _DEAL_TOOLS[key] = (t, Estimator(t, t.mask(info.dead), info.players, info.hand_size))
    return tools


_BIT = [1 << i for i in range(128)]
_BIT_LISTS: dict[int, list[int]] = {}


def _pick(rng: random.Random, pool: list[int], k: int) -> list[int]:
    """``k`` distinct items of ``pool`` drawn uniformly (a partial Fisher-Yates shuffle): what
    ``rng.sample`` does, at half its cost, since a world's deal is drawn tens of thousands of
    times a decision."""
    a = pool[:]
    n = len(a)
    rand = rng.random
    for i in range(k):
        j = i + int(rand() * (n - i))
        a[i], a[j] = a[j], a[i]
    return a[:k]


def _bit_list(mask: int) -> list[int]:
    out = _BIT_LISTS.get(mask)
    if out is None:
        if len(_BIT_LISTS) > 64:
            _BIT_LISTS.clear()
        out = _BIT_LISTS[mask] = bits(mask)
    return out


def bid_likelihood(bid: int, est: float, allowed: list[int], sigma: float) -> float:
    inv = 1.0 / (2.0 * sigma * sigma)
    total = 0.0
    mine = 0.0
    for b in allowed:
        g = math.exp(-((b - est) ** 2) * inv)
        total += g
        if b == bid:
            mine = g
    if total <= 0:
        return 1.0
    return max(mine / total, 1e-6)


def _allowed_bids(info: InfoState, seat: int) -> list[int]:
    bids = list(range(info.hand_size + 1))
    if info.hook and not info.simultaneous and seat == info.dealer:
        others = sum(b for p, b in enumerate(info.bids) if p != seat and b is not None)
        bids = legal_bids(info.hand_size, hook_forbidden_bid(info.hand_size, others)) or bids
    return bids


def _voids(info: InfoState, t: DealTable) -> list[int]:
    """Effective suits each seat has shown it lacks (bit s set: void in suit s)."""
    voids = [0] * info.players
    penalize = info.revokes == "penalize"
    tricks = [tr.plays for tr in info.tricks]
    if info.current:
        tricks.append(info.current)
    for plays in tricks:
        if not plays:
            continue
        led = _played_suit(t, plays[0].card, plays[0].suit)
        for k, play in enumerate(plays):
            i = t.index[play.card]
            if t.joker_nt and i == t.joker:
                continue
            es = t.esuit[i]
            if penalize:
                # holding a suit it had shown out of means that seat revoked: the void was false
                voids[play.seat] &= ~(1 << es)
            if k and es != led:
                voids[play.seat] |= 1 << led
    return voids


def _played_suit(t: DealTable, card: int, named: int | None) -> int:
    i = t.index[card]
    if t.joker_nt and i == t.joker:
        return named if named is not None else 0
    return t.esuit[i]


def _public_sim(info: InfoState, t: DealTable, played_by: list[int], dead: int) -> Sim:
    """Replay the deal's public plays on an empty-handed :class:`Sim` to get the trick state."""
    n = info.players
    hs = info.hand_size
    sim = Sim(
        t,
        hands=played_by[:],
        bids=[0] * n,
        won=[0] * n,
        to_play=info.first_leader(),
        trick=[],
        led=-1,
        win=-1,
        win_seat=-1,
        tricks_left=hs,
        live=t.all_mask & ~dead,
        played_suits=[0] * n,
        failed=[0] * n,
        score_tab=score_table(info.scoring, hs),
        over_good=overtricks_pay(info.scoring),
    )
    for trick in info.tricks:
        sim.to_play = trick.leader
        for play in trick.plays:
            sim.to_play = play.seat
            sim.play(t.index[play.card], -1 if play.suit is None else play.suit)
    if info.current:
        for play in info.current:
            sim.to_play = play.seat
            sim.play(t.index[play.card], -1 if play.suit is None else play.suit)
        sim.to_play = (info.current[-1].seat + 1) % n
    elif info.leader is not None:
        sim.to_play = info.leader
    sim.won = list(info.won)
    sim.hands = [0] * n
    return sim
