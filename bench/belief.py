"""Held-out log-loss of the belief model against today's world sampler, in nats per unseen card.

On positions never trained on (``bench/belief_data.py`` with ``--sampler-worlds``: a seed of
their own), each unseen card that has two places or more (a card forced into one place costs
every method nothing) is scored by ``-log p`` of its true place under:

- the sampler: today's world sampler drawn as the strong computer draws it, ``W`` worlds a
  position, its per-card marginals ``(count + eps) / (W + eps * K)`` over the ``K`` places the card
  may be (``--eps``, 0.5 by default: the figures at 0.1 and 1 are printed beside it, with the share
  of cards whose true place got no world at all, so the smoothing's weight in the figure shows);
  ``W`` worlds' marginals are noisy, which costs about ``c / W`` nats: the figure at half the
  worlds (counts thinned at random) extrapolates to the sampler's own marginals, printed beside;
- the model (:mod:`bench.belief_model`, weights from ``--weights``);
- two anchors: uniform over the card's places, and uniform scaled to each place's card count
  (the Sinkhorn steps on equal scores).

Run: ``python bench/belief.py --data /tmp/belief-data/held --weights bench/belief-weights.npz``;
``--quick`` plays one small game, samples 30 worlds for a few positions and scores the shipped
weights (or, absent, seeded random ones) in seconds. The last line is
``positions=N logloss sampler=X model=Y gain=G nats/card`` (gain: sampler less model).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import belief_data, belief_model  # noqa: E402

WEIGHTS = Path(__file__).resolve().parent / "belief-weights.npz"


def sampler_losses(d: dict[str, np.ndarray], mask: np.ndarray, eps: float) -> tuple[np.ndarray, float]:
    """(nats of each scored card under the sampler's smoothed marginals, share of those cards
    whose true place no world put them in)."""
    counts = d["sampler"].astype(np.float64)
    truth = d["truth"].astype(np.int64)
    places = mask | (counts > 0)
    uncertain = (mask.sum(2) >= 2) & (truth >= 0)
    b, c = np.nonzero(uncertain)
    t = truth[b, c]
    num = counts[b, c, t] + eps
    den = ((counts[b, c] + eps) * places[b, c]).sum(1)
    return -np.log(num / den), float(np.mean(counts[b, c, t] == 0))


def halved(d: dict[str, np.ndarray], seed: int = 0) -> dict[str, np.ndarray]:
    """``d`` with each card's world counts thinned to half the worlds (a multivariate
    hypergeometric draw: the counts half of the worlds, picked at random, would have given)."""
    rng = np.random.default_rng(seed)
    counts = d["sampler"].astype(np.int64)
    out = np.zeros_like(counts)
    b, c = np.nonzero(counts.sum(2))
    for i, j in zip(b, c, strict=True):
        row = counts[i, j]
        out[i, j] = rng.multivariate_hypergeometric(row, int(row.sum()) // 2)
    return {**d, "sampler": out}


def model_logp(w: dict[str, np.ndarray], d: dict[str, np.ndarray], batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    parts = []
    masks = []
    for i in range(0, len(d["meta"]), batch):
        part = {k: v[i : i + batch] for k, v in d.items()}
        feats, mask = belief_model.features(part)
        parts.append(belief_model.forward(w, feats, mask, part["need"]))
        masks.append(mask)
    return np.concatenate(parts), np.concatenate(masks)


def random_weights(seed: int = 0, hidden: int = 64) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    f = belief_model.N_FEATURES
    shapes = {"w1": (f, hidden), "b1": (hidden,), "w2": (hidden, hidden // 2), "b2": (hidden // 2,)}
    shapes |= {"w3": (hidden // 2, 1), "b3": (1,)}
    return {k: (rng.standard_normal(s) * 0.1).astype(np.float32) for k, s in shapes.items()}


def gain_interval(diff: np.ndarray, pos: np.ndarray, n_pos: int, draws: int = 2000) -> tuple[float, float]:
    """95% bootstrap interval of the mean gain a card, resampling whole positions (the cards of
    one position are not independent)."""
    sums = np.bincount(pos, diff, minlength=n_pos)
    counts = np.bincount(pos, minlength=n_pos).astype(np.float64)
    rng = np.random.default_rng(0)
    means = np.empty(draws)
    for i in range(0, draws, 50):  # in blocks: 100,000 positions a draw
        picks = rng.integers(0, n_pos, (min(50, draws - i), n_pos))
        means[i : i + len(picks)] = sums[picks].sum(1) / np.maximum(1.0, counts[picks].sum(1))
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def report(d: dict[str, np.ndarray], w: dict[str, np.ndarray], eps: float) -> str:
    logp, mask = model_logp(w, d)
    model, _ = belief_model.card_losses(logp, d["truth"], mask)
    zero = np.zeros(mask.shape)
    uni, _ = belief_model.card_losses(belief_model.sinkhorn(zero, mask, d["need"], steps=0), d["truth"], mask)
    uni_n, _ = belief_model.card_losses(belief_model.sinkhorn(zero, mask, d["need"]), d["truth"], mask)
    samp, zshare = sampler_losses(d, mask, eps)
    for e in (0.1, 1.0):
        other, _ = sampler_losses(d, mask, e)
        print(f"sampler eps={e}: {other.mean():.4f} nats/card")
    half, _ = sampler_losses(halved(d), mask, eps)
    # the marginals' sampling noise costs about c / W nats: two world counts extrapolate it away
    limit = 2 * samp.mean() - half.mean()
    print(
        f"sampler at half the worlds: {half.mean():.4f}; extrapolated to unlimited worlds: {limit:.4f} "
        f"(model's gain over it {limit - model.mean():+.4f}) nats/card"
    )
    worlds = int(d["sampler"][0].sum(1).max())
    print(
        f"{len(d['meta'])} positions, {len(model)} scored cards, {worlds} worlds a position; "
        f"true place in no world: {zshare:.4f} of cards"
    )
    print(f"uniform over places: {uni.mean():.4f}; uniform scaled to counts: {uni_n.mean():.4f} nats/card")
    for ph, name in ((0, "bidding"), (1, "play")):
        _, b = belief_model.card_losses(logp, d["truth"], mask)
        sel = d["meta"][b, 6] == ph
        if sel.any():
            print(f"  {name}: cards={int(sel.sum())} sampler={samp[sel].mean():.4f} model={model[sel].mean():.4f}")
    for n in range(3, 8):
        _, b = belief_model.card_losses(logp, d["truth"], mask)
        sel = d["meta"][b, 1] == n
        if sel.any():
            print(f"  {n} seats: cards={int(sel.sum())} sampler={samp[sel].mean():.4f} model={model[sel].mean():.4f}")
    _, pos = belief_model.card_losses(logp, d["truth"], mask)
    lo, hi = gain_interval(samp - model, pos, len(d["meta"]))
    print(f"gain 95% interval (positions resampled, 2,000 bootstrap draws): {lo:+.4f} .. {hi:+.4f} nats/card")
    s, m = float(samp.mean()), float(model.mean())
    return f"positions={len(d['meta'])} logloss sampler={s:.4f} model={m:.4f} gain={s - m:+.4f} nats/card"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="/tmp/belief-data/held")
    ap.add_argument("--weights", default=str(WEIGHTS))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--eps", type=float, default=0.5)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args(argv)
    if a.quick:
        d = belief_data.play_shard(99, 0, 0.05, 30, games=1)
    else:
        d = belief_data.load(a.data, a.limit)
    w = belief_model.load_weights(a.weights) if Path(a.weights).exists() else random_weights()
    print(report(d, w, a.eps))


if __name__ == "__main__":
    main()
