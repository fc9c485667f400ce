"""The computer players' decisions, on an :class:`InfoState` only.

- ``random``: a uniformly random legal action (a baseline for the benchmarks and tests).
- ``quick``: the closed-form bid of :mod:`.estimate` and the playout policy of :class:`.Sim`
  applied to the seat's own hand: instant, and plays to its bid.
- ``strong``: determinized Monte-Carlo search. It samples worlds that fit what the table has
  shown (:mod:`.sampling`: voids, cards played, and the bids made, each opponent's bid modelled
  from its sampled hand), plays every option out in every world with the quick policy for all
  seats (the opponents now and then playing a random card instead, as real ones do), and
  takes the option with the best mean utility, the seat's deal score under the scoring in force
  less half the opponents' mean (the game is won on the difference, so spoiling an opponent's
  exact bid counts, but less than making its own: ``StrongConfig.opponent_weight``). A bid is
  searched the same way: each candidate bid is played out in every world, with the seats yet to
  bid bidding what their sampled hand is worth (the hook included), so the bid maximises the
  expected score of the scoring in force.

Every decision is a function of (info state, rng): deterministic for a seeded ``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.ohhell.play_rules import hook_forbidden_bid, legal_bids

from .estimate import estimate_tricks, nearest_bid
from .infostate import BID, InfoState
from .sampling import Knowledge
from .sim import Sim
from .solve import solve, utility

LEVELS = ("random", "quick", "strong")
#: set to a list to record each strong bid's candidates, utilities and playout make rates
TRACE: list[Any] | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """A bid (``card`` None) or a card to play (``suit``: the suit a no-trump joker is led as)."""

    bid: int | None = None
    card: int | None = None
    suit: int | None = None


@dataclass(frozen=True, slots=True)
class StrongConfig:
    #: simulated card plays a play decision may spend when ``budget_ref`` cards remain to be
    #: played in the deal (the time budget, counted in work rather than seconds so that a
    #: decision never depends on the machine's speed). Early decisions shape the whole deal and
    #: cost more per world, so the budget grows with a power of the cards left (up to
    #: ``budget_cap`` times ``budget``); the late ones are cheap (and most of them have a single
    #: sensible card).
    budget: int = 52000
    budget_ref: int = 24
    budget_power: float = 2.0
    budget_cap: float = 2.2
    #: the bid is one decision a deal and the one that matters most: it gets a larger budget
    bid_budget: int = 100000
    min_worlds: int = 8
    max_worlds: int = 400
    #: share of the opponents' mean deal score subtracted from ours (1: the difference itself,
    #: what wins a game and what bench/ai.py measures). Half: at 1 the search spent its own bids
    #: on spoiling without spoiling more. Against OpenSpiel's ISMCTS-1000, paired by deal with
    #: 1 (``python bench/ai.py --duplicate``): our level alone against three ISMCTS seats
    #: (``--seating 1v3``), seed 7's first 600 deals +0.51 against +0.21 a hand, a lead of
    #: +0.30 +- 0.28, and seed 8's first 400 +0.52 against +0.14, +0.39 +- 0.34, its bids made
    #: 69 % against 65-66 % while ISMCTS's stayed at 64-65 %; two against two, seed 7's 1,208
    #: deals +0.42 against +0.24, +0.18 +- 0.25; together +0.27 +- 0.16
    #: (``bench/logs/duplicate-seed7-1v3-oppw05.jsonl``, ``-seed8-1v3-oppw05``, ``-seed7-oppw05``).
    opponent_weight: float = 0.5
    #: how worlds are fitted to the bids made (see :meth:`Knowledge.worlds`): candidates drawn
    #: per world kept. 12 (82 distinct worlds of 100 against 73) read -0.08 +- 0.28 a hand against
    #: 4 alone against three ISMCTS seats, at a median of 103 ms a decision (``-1v3-os12.jsonl``)
    oversample: int = 4
    #: how an opponent's bid is modelled from its hand: a normal spread of ``bid_sigma`` (at 10
    #: cards; ``bid_sigma * (0.5 + 0.05 * cards)`` in general) around the closed-form estimate
    #: stretched by ``bid_stretch`` (see :meth:`Knowledge.expected_bid`). Fitted by likelihood
    #: on 1,000 bids of OpenSpiel's ISMCTS-1000: sigma 0.7, stretch 1.4; the former 1.4 and 1.0
    #: explained them 0.33 nats a bid worse.
    bid_sigma: float = 0.7
    bid_stretch: float = 1.4
    #: how far from the closed-form estimate a searched bid may be
    bid_span: int = 3
    #: how far to trust a playout that makes a zero bid. With opponents playing only the policy,
    #: ducking every trick looked easier than it is: against OpenSpiel's ISMCTS, zero bids made
    #: in 84% of their playouts were made in 57% of real deals (110 zero bids among 600 logged;
    #: other bids were made about as often as their playouts said, or more), hence 0.7. The
    #: opponents' random cards (``opponent_noise``) now take about a fifth of that optimism
    #: away themselves (zero bids' playout make rate 0.51 -> 0.42 over 60 deals), and with 0.7
    #: on top the strong level bid 0 in only 3.8% of 600 deals and made 96% of them: too timid.
    #: The rest of the zero bid's playout successes count as one-trick failures. Later, 39 zero
    #: bids were made in 64 % of deals where their playouts said 86 % (``bench/bid_calibration.py``);
    #: 0.73, which matches that, led this setting by +0.25 +- 0.36 a hand over 600 duplicate deals
    #: (``bench/logs/duplicate-seed7-zt73.jsonl``), and by +0.09 +- 0.26 over all 1,208 deals
    #: of that run: not a measurable gain, so 0.85 stays.
    zero_bid_trust: float = 0.85
    #: how often an opponent plays a random legal card in a playout instead of the policy's.
    #: Opponents are not the policy: in 2,318 plays with a real choice, OpenSpiel's ISMCTS-1000
    #: played the policy's card in 40% and one equivalent to it (touching, none live between) in
    #: 46%, where uniform play would in 35%; a mixture of the policy and uniform play explains
    #: them best with 84% uniform (``python bench/ai_opponents.py --hands 120``). A search that
    #: expects opponents to play as it would thinks ducking every trick, or squeezing a last
    #: trick out of them, easier than it is. Half, not the fitted share: a uniform mixture
    #: overstates the randomness of a player whose choices are close calls more often than
    #: blunders. In the play alone (the bid's at 0.5), 0.84 trailed the bot's setting by
    #: -0.14 +- 0.29 a hand over 600 deals alone against three (``-1v3-pn84.jsonl``).
    opponent_noise: float = 0.5
    #: policy-based inference from the cards played (:meth:`Knowledge.play_weight`): the uniform
    #: share of the model of an opponent's play that weights the worlds (0: plays not used). The
    #: fitted share against ISMCTS-1000 is 0.84 (above); a play then tells little on its own,
    #: but a deal's plays add up. ``python bench/ai.py --duplicate`` measures it on and off.
    play_noise: float = 0.84
    #: once the deal's remaining tricks make a tree of at most this many deals in the worst case
    #: (every seat free to play any of its cards: ``(k!) ** players`` with ``k`` tricks left), a
    #: play is searched by exact play of each sampled world's last tricks (:mod:`.solve`)
    #: instead of playouts, in ``exact_worlds`` worlds (1296: the last three tricks of four
    #: players). Off (0) by default: against OpenSpiel's ISMCTS the runs with it on made 57.5% of
    #: their bids (431 hands) against 66.8% without (1,254 hands). Every seat knowing every card
    #: in each world (strategy fusion) makes the options look alike when they are not.
    exact_tree: int = 0
    exact_worlds: int = 48
    #: the opponents' bid model reading the table (:meth:`Knowledge.expected_bid`): per trump
    #: held above the fair share, and per trick bid before the bidder above its fair share.
    #: ``python bench/bid_model.py`` over the five logs of seed 7 before its own (docs/measurements.md names
    #: them) fits them by likelihood on ISMCTS-1000's 19,896 bids there (trump lean 0.236, table lean -0.114, with
    #: stretch 1.084 and sigma 0.656: 0.900 nats a bid on the held-out deals against 0.986 for
    #: the model without them). Off: with them the bot led its own setting by only +0.14 +- 0.37
    #: a hand over 600 duplicate deals (``bench/logs/duplicate-seed7-bidmodel.jsonl``), and
    #: added to ``opponent_weight`` 0.5 they changed its lead by +0.01 +- 0.36 (``-oppw05-bidmodel``).
    bid_trump_lean: float = 0.0
    bid_table_lean: float = 0.0
    #: the share of a bid's playout failures (bids of one trick or more) that the strong level's
    #: own play is expected to make good, each worth the make's score over missing by one: the
    #: playouts play the policy, and the search makes its bids more often than they say (``python
    #: bench/bid_calibration.py``: over 800 bids, 58 % said, 63 % made; bids of 4, 46 % and 61 %).
    #: Off: at 0.15 it led the bot's setting by +0.09 +- 0.36 a hand over 600 duplicate deals
    #: (``bench/logs/duplicate-seed7-edge15.jsonl``), not a measurable gain. The share is about
    #: the same for bids of 1 to 4 (0.13-0.19), and at 0.16 our level alone against three trailed
    #: the bot's setting by -0.17 +- 0.28 a hand over 600 deals (``-1v3-edge16.jsonl``).
    bid_edge: float = 0.0
    #: read an opponent's hand as a search with random rollouts would (:mod:`.random_play`)
    #: where a table was fitted, with ``bid_offset`` tricks added to every expected bid. Off: it
    #: explains ISMCTS-1000's bids at 0.797 nats a bid against 0.982 (``python bench/bid_model.py
    #: ... --fitted-reading``: stretch 0.995, table lean -0.099, offset -0.202, sigma 0.603), but
    #: with those numbers it led the bot's setting by only +0.03 +- 0.28 a hand over 600 duplicate
    #: deals alone against three (``bench/logs/duplicate-seed7-1v3-rp.jsonl``).
    bid_random_play: bool = False
    bid_offset: float = 0.0
    #: the opponents' weight in the play of the deal's last ``late_tricks`` tricks (negative:
    #: ``opponent_weight`` throughout): was spiting at full weight wasted because the worlds are
    #: uncertain early, while late in a deal the unseen cards are few and the voids known? Off:
    #: full weight in the last four tricks trailed the bot's setting by -0.14 +- 0.28 a hand over
    #: 600 duplicate deals alone against three, ISMCTS's bids made unchanged (64.8 %), ours down
    #: from 69.0 to 67.6 % (``bench/logs/duplicate-seed7-1v3-late1.jsonl``).
    late_weight: float = -1.0
    late_tricks: int = 4
    #: how often an opponent plays a random legal card in the bid's playouts (negative:
    #: ``opponent_noise``). Why apart from the play's: where our level bid below ISMCTS's bid
    #: it took more tricks than it bid in 35 % of those seats (``bench/ai.py --summarise``'s
    #: seats below), as if ducking were easier than it is; opponents who play the policy take
    #: the tricks they want off our hands, near-random ones (84 % uniform, above) do not. Off:
    #: at 0.84 our level alone against three trailed the bot's setting by -0.20 +- 0.29 a hand
    #: over 600 deals (``bench/logs/duplicate-seed7-1v3-bn84.jsonl``): it bid above ISMCTS in
    #: 44 % of the seats (30 % before) and lost there what it saved below; at 0.25, -0.27 +- 0.28
    #: (``-1v3-bn25.jsonl``), below ISMCTS in 24 % of the seats and losing more there.
    bid_noise: float = -1.0

    def fit(self, k: Knowledge) -> None:
        """Give ``k`` this setting's models of the opponents' bids and plays."""
        k.stretch = self.bid_stretch
        k.trump_lean = self.bid_trump_lean
        k.table_lean = self.bid_table_lean
        k.bid_offset = self.bid_offset
        k.play_noise = self.play_noise
        if self.bid_random_play:
            k.use_random_play_reading()


DEFAULT_STRONG = StrongConfig()


def decide(info: InfoState, level: str, rng: random.Random, config: StrongConfig | None = None) -> Decision:
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; known: {', '.join(LEVELS)}")
    if info.phase == BID:
        bids = _legal_bids(info)
        if len(bids) == 1:
            return Decision(bid=bids[0])
        if level == "random":
            return Decision(bid=rng.choice(bids))
        knowledge = Knowledge.build(info)
        if level == "quick" and info.hand_known:
            return Decision(bid=quick_bid(info, knowledge, bids))
        cfg = config or DEFAULT_STRONG
        cfg.fit(knowledge)
        return Decision(bid=strong_bid(info, knowledge, bids, rng, cfg))
    plays = list(info.legal_plays)
    if not plays:
        raise ValueError("the view lists no legal play for this seat")
    if len(plays) == 1:
        card, suit = plays[0]
        return Decision(card=card, suit=suit)
    if level == "random":
        card, suit = rng.choice(plays)
        return Decision(card=card, suit=suit)
    knowledge = Knowledge.build(info)
    if level == "quick" and info.hand_known:
        card, suit = quick_play(info, knowledge)
    else:
        cfg = config or DEFAULT_STRONG
        cfg.fit(knowledge)
        card, suit = strong_play(info, knowledge, rng, cfg)
    return Decision(card=card, suit=suit)


def _legal_bids(info: InfoState) -> list[int]:
    return list(info.legal_bids) if info.legal_bids else list(range(info.hand_size + 1))


# -- quick -----------------------------------------------------------------------------------
def _own_estimate(info: InfoState, k: Knowledge) -> float:
    t = k.table
    hand = k.known[info.seat]
    unseen = t.all_mask & ~hand & ~k.dead
    for p, m in enumerate(k.known):
        if p != info.seat:
            unseen &= ~m
    return estimate_tricks(t, hand, unseen, info.players, info.hand_size)


def quick_bid(info: InfoState, k: Knowledge, bids: list[int]) -> int:
    return nearest_bid(_own_estimate(info, k), sorted(bids))


def _public_bids(info: InfoState) -> list[int]:
    return [0 if b is None else b for b in info.bids]


def _to_legal(info: InfoState, k: Knowledge, card_bit: int, suit: int) -> tuple[int, int | None]:
    """The engine's legal play matching the policy's choice (or the nearest sensible one)."""
    t = k.table
    card = t.cards[card_bit]
    named = None if suit < 0 else suit
    plays = list(info.legal_plays)
    if (card, named) in plays:
        return card, named
    same_card = [p for p in plays if p[0] == card]
    if same_card:
        return same_card[0]
    return plays[0]


def quick_play(info: InfoState, k: Knowledge) -> tuple[int, int | None]:
    sim = k.sim_for(k.known, _public_bids(info))
    sim.to_play = info.seat
    c, s = sim.choose(info.seat)
    return _to_legal(info, k, c, s)


# -- strong ----------------------------------------------------------------------------------
def _predicted_bids(
    info: InfoState, k: Knowledge, hands: list[int], my_bid: int, memo: dict[int, float] | None = None
) -> list[int]:
    """Every seat's bid in a world: the real ones where made, an estimate for seats yet to bid
    (``memo`` keeps each seat's estimate for the next candidate bid tried in the same world)."""
    hs = info.hand_size
    bids: list[int | None] = list(info.bids)
    bids[info.seat] = my_bid
    order = info.bid_order()
    for p in order:
        if bids[p] is not None:
            continue
        if memo is None:
            tricks = k.estimator.tricks(hands[p])
        else:
            cached = memo.get(p)
            if cached is None:
                cached = memo[p] = k.estimator.tricks(hands[p])
            tricks = cached
        est = k.expected_bid(tricks, *k.bid_context(p, hands[p], bids))
        allowed = list(range(hs + 1))
        if info.hook and not info.simultaneous and p == info.dealer:
            total = sum(b for q, b in enumerate(bids) if q != p and b is not None)
            allowed = legal_bids(hs, hook_forbidden_bid(hs, total)) or allowed
        bids[p] = nearest_bid(est, allowed)
    return [0 if b is None else b for b in bids]


def _halving(
    k: Knowledge,
    rng: random.Random,
    cfg: StrongConfig,
    budget: int,
    n_options: int,
    plays_each: int,
    run: Callable[[list[int], int, list[float] | None], float],
    rounds: int = 0,
    noise: float | None = None,
) -> list[float]:
    """Sequential halving over the options: each round plays every surviving option out in a
    fresh batch of worlds (the same worlds for all, so luck cancels between options) and keeps
    the better half; a clearly bad option stops costing rollouts after the first round.
    Returns each option's mean utility over the worlds it was tried in (-inf if never).
    ``noise``: the opponents' random share the playouts draw dice for (``opponent_noise``
    when None)."""
    rounds = rounds or max(1, (n_options - 1).bit_length())
    noise = cfg.opponent_noise if noise is None else noise
    sigma = cfg.bid_sigma * (0.5 + 0.05 * k.info.hand_size)
    n_dice = 2 * k.info.players * k.info.hand_size if noise else 0
    alive = list(range(n_options))
    sums = [0.0] * n_options
    weights = [0.0] * n_options
    for r in range(rounds):
        per_round = budget // rounds
        n_worlds = max(cfg.min_worlds, min(cfg.max_worlds, per_round // max(1, len(alive) * plays_each)))
        for hands, w in k.worlds(rng, n_worlds, oversample=cfg.oversample, sigma=sigma):
            dice = [rng.random() for _ in range(n_dice)] if n_dice else None
            for i in alive:
                sums[i] += w * run(hands, i, dice)
                weights[i] += w
        if r < rounds - 1:
            alive.sort(key=lambda i: -sums[i] / weights[i])
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
    return [sums[i] / weights[i] if weights[i] else float("-inf") for i in range(n_options)]


def strong_bid(info: InfoState, k: Knowledge, bids: list[int], rng: random.Random, cfg: StrongConfig) -> int:
    me = info.seat
    if info.hand_known:
        est = _own_estimate(info, k)
        cands = [b for b in bids if abs(b - est) <= cfg.bid_span]
        if len(cands) < 2:
            cands = sorted(bids, key=lambda b: (abs(b - est), b))[:3]
    else:
        est = None
        cands = bids
    leader = info.first_leader()
    weight = cfg.opponent_weight
    noise = cfg.opponent_noise if cfg.bid_noise < 0 else cfg.bid_noise

    made = [[0, 0] for _ in cands]  # playouts that made each bid, and playouts (for TRACE)
    last: list[Any] = [None, {}]  # the world last played in, and its later bidders' estimates

    def run(hands: list[int], i: int, dice: list[float] | None) -> float:
        if last[0] is not hands:
            last[0], last[1] = hands, {}
        sim = k.sim_for(hands, _predicted_bids(info, k, hands, cands[i], last[1]))
        sim.to_play = leader
        sim.rollout(noise, me, dice)
        made[i][0] += sim.won[me] == cands[i]
        made[i][1] += 1
        return utility(sim.scores(), me, weight)

    util = _halving(k, rng, cfg, cfg.bid_budget, len(cands), info.players * info.hand_size, run, noise=noise)
    if 0 in cands and cfg.zero_bid_trust < 1 and info.hand_size >= 1:
        i = cands.index(0)
        m, n = made[i]
        if n:
            tab = k.template.score_tab
            util[i] -= (1 - cfg.zero_bid_trust) * (m / n) * (tab[0][0] - tab[0][1])
    if cfg.bid_edge > 0:
        tab = k.template.score_tab
        for i, b in enumerate(cands):
            m, n = made[i]
            if b > 0 and n:
                util[i] += cfg.bid_edge * (1 - m / n) * (tab[b][b] - tab[b][b - 1])
    centre = est if est is not None else 0.0
    best = max(range(len(cands)), key=lambda i: (round(util[i], 9), -abs(cands[i] - centre), -cands[i]))
    if TRACE is not None:
        TRACE.append({"cands": cands, "util": util, "made": [m / n if n else None for m, n in made], "pick": best})
    return cands[best]


def _distinct_moves(info: InfoState, k: Knowledge) -> list[tuple[int, int]]:
    """Legal plays as (bit, named suit), keeping one of each run of touching cards (a 10 and a 9
    with nothing live between them win and lose the same tricks)."""
    t = k.table
    me = info.seat
    hand = k.known[me]
    in_trick = 0
    for play in info.current:
        in_trick |= 1 << t.index[play.card]
    blockers = (k.template.live & ~hand) | in_trick
    moves: list[tuple[int, int]] = []
    seen_bits: list[int] = []
    for card, suit in info.legal_plays:
        moves.append((t.index[card], -1 if suit is None else suit))
    moves.sort()
    out: list[tuple[int, int]] = []
    for bit, suit in moves:
        if out and suit < 0 and out[-1][1] < 0:
            prev = out[-1][0]
            if (
                t.esuit[prev] == t.esuit[bit]
                and not (t.joker_nt and bit == t.joker)
                and not (blockers & ((1 << bit) - (1 << (prev + 1))))
            ):
                continue
        out.append((bit, suit))
        seen_bits.append(bit)
    return out


def strong_play(info: InfoState, k: Knowledge, rng: random.Random, cfg: StrongConfig) -> tuple[int, int | None]:
    me = info.seat
    t = k.table
    moves = _distinct_moves(info, k)
    if len(moves) == 1:
        return _to_legal(info, k, *moves[0])
    remaining = info.tricks_left * info.players - len(info.current)
    bids = _public_bids(info)
    weight = cfg.opponent_weight
    if cfg.late_weight >= 0 and info.tricks_left <= cfg.late_tricks:
        weight = cfg.late_weight
    last: list[Any] = [None, None]  # the world last set up, and its simulator before our move

    exact = math.factorial(info.tricks_left) ** info.players <= cfg.exact_tree

    def run(hands: list[int], i: int, dice: list[float] | None) -> float:
        if last[0] is not hands:
            base = k.sim_for(hands, bids)
            base.to_play = me
            last[0], last[1] = hands, base
        sim: Sim = last[1].clone()
        sim.play(*moves[i])
        if exact:
            return utility(solve(sim, me, weight), me, weight)
        sim.rollout(cfg.opponent_noise, me, dice)
        return utility(sim.scores(), me, weight)

    if exact:
        # every world is worth its solve: no halving, one batch of worlds for all options
        util = _halving(k, rng, cfg, cfg.exact_worlds * len(moves), len(moves), 1, run, rounds=1)
    else:
        budget = int(cfg.budget * min(cfg.budget_cap, (remaining / cfg.budget_ref) ** cfg.budget_power))
        util = _halving(k, rng, cfg, budget, len(moves), remaining, run)
    # ties go to the quick policy's choice, then to the lower card
    if info.hand_known:
        qsim = k.sim_for(k.known, bids)
        qsim.to_play = me
        preferred = qsim.choose(me)
    else:
        preferred = (-1, -1)
    best = max(
        range(len(moves)),
        key=lambda i: (round(util[i], 9), moves[i] == preferred, -t.power[moves[i][0]], -moves[i][0]),
    )
    return _to_legal(info, k, *moves[best])


# -- what options are worth (the coach) --------------------------------------------------------
def option_values(
    info: InfoState, options: list[Decision], rng: random.Random, worlds: int, noise: float, weight: float = 0.0
) -> list[float]:
    """Each option's mean payoff for the deciding seat (:func:`utility` with ``weight``; 0: its
    own deal points), every option played out in the same ``worlds`` worlds sampled from the
    seat's own view (fitted to the bids and plays, as the strong level samples them) with the same
    random numbers, by the quick policy in every seat, the others taking a random legal card
    ``noise`` of the time. The coach weighs a decision by the difference between what the seat
    did and the quick computer's choice: with the same worlds and dice, only the choice differs."""
    k = Knowledge.build(info)
    cfg = DEFAULT_STRONG
    cfg.fit(k)
    me, t = info.seat, k.table
    sigma = cfg.bid_sigma * (0.5 + 0.05 * info.hand_size)
    n_dice = 2 * info.players * info.hand_size if noise else 0
    sums = [0.0] * len(options)
    total = 0.0
    for hands, w in k.worlds(rng, worlds, oversample=cfg.oversample, sigma=sigma):
        dice = [rng.random() for _ in range(n_dice)] if n_dice else None
        memo: dict[int, float] = {}
        for i, option in enumerate(options):
            if option.bid is not None:
                sim = k.sim_for(hands, _predicted_bids(info, k, hands, option.bid, memo))
                sim.to_play = info.first_leader()
            elif option.card is not None:
                sim = k.sim_for(hands, _public_bids(info))
                sim.to_play = me
                sim.play(t.index[option.card], -1 if option.suit is None else option.suit)
            else:
                raise ValueError("an option carries a bid or a card")
            sim.rollout(noise, me, dice)
            sums[i] += w * utility(sim.scores(), me, weight)
        total += w
    return [s / total for s in sums]
