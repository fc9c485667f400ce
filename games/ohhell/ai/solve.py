"""Exact play of a deal's last tricks in one sampled world (max-n search).

With a few tricks left a heuristic playout is the weakest link of the strong level's search: a
seat that needs exactly one of the last three tricks must pick the right one, and the policy
often does not. A world is a perfect-information deal, and its last tricks make a small tree, so
the search can play them out exactly instead: every seat plays the card that is best for itself
given how the others will answer (max-n), the searching seat by its own utility and every other
seat by its own deal score, an opponent indifferent between cards playing the one the playout
policy would (so it is neither kind nor spiteful to us).

Cards that touch (nothing live between them, in the hand or the trick) win and lose the same
tricks, so only one of each run is tried.
"""

from __future__ import annotations

from .sim import Sim


def utility(scores: list[int], me: int, weight: float) -> float:
    """The searching seat's payoff: its deal score less ``weight`` times the others' mean (the
    game is won on the difference)."""
    if weight == 0.0:
        return float(scores[me])
    return scores[me] - weight * (sum(scores) - scores[me]) / (len(scores) - 1)


def distinct(sim: Sim, p: int, legal: int) -> list[tuple[int, int]]:
    """(lowest card, mask of the run) for each run of touching cards in ``legal``."""
    t = sim.t
    blockers = sim.live & ~sim.hands[p]
    for c in sim.trick:
        blockers |= 1 << c
    out: list[tuple[int, int]] = []
    prev = -1
    m = legal
    jk = t.joker if t.joker_nt else -1
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        if (
            prev >= 0
            and c != jk
            and prev != jk
            and t.esuit[prev] == t.esuit[c]
            and not (blockers & ((1 << c) - (1 << (prev + 1))))
        ):
            out[-1] = (out[-1][0], out[-1][1] | 1 << c)
            prev = c
            continue
        out.append((c, 1 << c))
        prev = c
    return out


def solve(sim: Sim, me: int, weight: float) -> list[int]:
    """The deal scores when every seat plays the rest of ``sim`` (changed in place) perfectly."""
    if sim.tricks_left == 0:
        return sim.scores()
    p = sim.to_play
    legal = sim.legal(p)
    if legal & (legal - 1) == 0:
        c, s = sim.choose(p)
        sim.play(c, s)
        return solve(sim, me, weight)
    t = sim.t
    named = -1
    if not sim.trick and t.joker_nt and (legal >> t.joker) & 1:
        named = sim._name_joker(p)
    moves = distinct(sim, p, legal)
    if p == me:
        best: list[int] | None = None
        best_u = 0.0
        for c, _ in moves:
            branch = sim.clone()
            branch.play(c, named if c == t.joker else -1)
            v = solve(branch, me, weight)
            u = utility(v, me, weight)
            if best is None or u > best_u + 1e-9:
                best, best_u = v, u
        assert best is not None
        return best
    vals = []
    for c, run in moves:
        branch = sim.clone()
        branch.play(c, named if c == t.joker else -1)
        vals.append((solve(branch, me, weight), run))
    top = max(v[p] for v, _ in vals)
    tied = [(v, run) for v, run in vals if v[p] == top]
    if len(tied) == 1:
        return tied[0][0]
    pref = sim.choose(p)[0]
    for v, run in tied:
        if (run >> pref) & 1:
            return v
    return tied[0][0]
