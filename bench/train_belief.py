"""Train the belief model (:mod:`bench.belief_model`) from scratch on self-play positions.

PyTorch on the CPU (the ``train`` extra; the bot never imports it). The network is the numpy
:func:`bench.belief_model.forward` written in torch (a check at the end compares the two on a
batch); the loss is the mean of ``-log p`` of each unseen card's true place over the cards with
two places or more. Positions are shuffled with the seed; the last ``--val`` share is held back
and its loss printed after each epoch.

Run::

    python -m bench.train_belief --data /tmp/belief-data/train --out /tmp/belief-weights.npz

``--quick`` trains on one game's positions, made on the spot (seconds). Prints the data size and
the time taken; the last line is
``positions=N epochs=E seconds=S train_loss=A val_loss=B nats/card``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import quick  # noqa: E402

if __name__ == "__main__":  # without the train extra the bench says why, in one line, and ends
    quick.require("torch", "pip install -e '.[train]'")

import torch  # noqa: E402

from bench import belief_data, belief_model  # noqa: E402
from bench.belief_model import NEG, SINKHORN_STEPS  # noqa: E402

KEYS = ("meta", "bids", "won", "seen", "allowed", "need", "pseat", "porder", "truth")


class Net(torch.nn.Module):
    def __init__(self, n_features: int, hidden: int) -> None:
        super().__init__()
        self.l1 = torch.nn.Linear(n_features, hidden)
        self.l2 = torch.nn.Linear(hidden, hidden // 2)
        self.l3 = torch.nn.Linear(hidden // 2, 1)

    def forward(self, feats: torch.Tensor, mask: torch.Tensor, need: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.l1(feats))
        h = torch.relu(self.l2(h))
        logits = self.l3(h)[..., 0].double()
        return sinkhorn(logits, mask, need)

    def weights(self) -> dict[str, np.ndarray]:
        """The numpy forward pass's weights (``x @ w + b``)."""
        out = {}
        for i, layer in enumerate((self.l1, self.l2, self.l3), 1):
            out[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32).copy()
            out[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32).copy()
        return out


def sinkhorn(logits: torch.Tensor, mask: torch.Tensor, need: torch.Tensor, steps: int = SINKHORN_STEPS) -> torch.Tensor:
    """:func:`bench.belief_model.sinkhorn` in torch."""
    neg = torch.full_like(logits, NEG)
    x = torch.where(mask, logits, neg)
    row = mask.any(2, keepdim=True)
    x = x - torch.logsumexp(x, 2, keepdim=True)
    logneed = torch.log(torch.clamp(need.double(), min=1e-9))[:, None, :]
    for _ in range(steps):
        col = torch.logsumexp(torch.where(mask, x, neg), 1, keepdim=True)
        x = torch.where(mask, x + logneed - col, neg)
        x = x - torch.logsumexp(x, 2, keepdim=True)
    return torch.where(row & mask, x, neg)


def batch_loss(net: Net, d: dict[str, np.ndarray]) -> tuple[torch.Tensor, int]:
    feats, mask = belief_model.features(d)
    logp = net(torch.from_numpy(feats), torch.from_numpy(mask), torch.from_numpy(d["need"].astype(np.float64)))
    truth = d["truth"].astype(np.int64)
    uncertain = torch.from_numpy((mask.sum(2) >= 2) & (truth >= 0))
    t = torch.from_numpy(np.maximum(truth, 0))
    picked = logp.gather(2, t[:, :, None])[..., 0]
    picked = torch.clamp(picked, min=float(np.log(1e-6)))
    n = int(uncertain.sum())
    return -(picked * uncertain).sum() / max(1, n), n


def evaluate(net: Net, d: dict[str, np.ndarray], batch: int = 512) -> float:
    total = 0.0
    count = 0
    with torch.no_grad():
        for i in range(0, len(d["meta"]), batch):
            part = {k: v[i : i + batch] for k, v in d.items()}
            loss, n = batch_loss(net, part)
            total += float(loss) * n
            count += n
    return total / max(1, count)


def train(
    d: dict[str, np.ndarray],
    *,
    epochs: int = 1,
    batch: int = 256,
    hidden: int = 64,
    lr: float = 3e-3,
    seed: int = 0,
    val: float = 0.05,
    log: bool = True,
    max_seconds: float = float("inf"),
) -> tuple[Net, list[float], float]:
    """(the net, the training losses batch by batch, the held-back share's loss)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    d = {k: d[k] for k in KEYS}
    n = len(d["meta"])
    perm = rng.permutation(n)
    n_val = int(n * val)
    tr = {k: v[perm[n_val:]] for k, v in d.items()}
    va = {k: v[perm[:n_val]] for k, v in d.items()}
    net = Net(belief_model.N_FEATURES, hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    m = len(tr["meta"])
    steps = epochs * ((m + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, steps))
    losses: list[float] = []
    start = time.perf_counter()
    step = 0
    for ep in range(epochs):
        order = rng.permutation(m)
        for i in range(0, m, batch):
            idx = order[i : i + batch]
            loss, _ = batch_loss(net, {k: v[idx] for k, v in tr.items()})
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            losses.append(float(loss.detach()))
            if log and step % 100 == 0:
                took = time.perf_counter() - start
                print(f"epoch {ep} step {step}/{steps} loss {np.mean(losses[-100:]):.4f} {took:.0f}s", flush=True)
            if time.perf_counter() - start > max_seconds:
                break
        if time.perf_counter() - start > max_seconds:
            break
    val_loss = evaluate(net, va) if n_val else float("nan")
    return net, losses, val_loss


def numpy_matches(net: Net, d: dict[str, np.ndarray]) -> float:
    """The largest gap between the torch and numpy forward passes' probabilities on ``d``."""
    feats, mask = belief_model.features(d)
    with torch.no_grad():
        a = net(torch.from_numpy(feats), torch.from_numpy(mask), torch.from_numpy(d["need"].astype(np.float64))).numpy()
    b = belief_model.forward(net.weights(), feats, mask, d["need"])
    return float(np.max(np.abs(np.exp(a) - np.exp(b))))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="/tmp/belief-data/train")
    ap.add_argument("--out", default="/tmp/belief-weights.npz")
    ap.add_argument("--limit", type=int, default=None, help="positions used (the first shards)")
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--max-seconds", type=float, default=float("inf"))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a tiny fixture: one game's positions, made here")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    if a.quick:
        d = belief_data.play_shard(11, 0, 0.2, 0, games=1)
        a.data, a.batch = "one quick game (seed 11)", 32
    else:
        d = belief_data.load(a.data, a.limit)
    n = len(d["meta"])
    print(f"data: {n} positions, {int((d['truth'] >= 0).sum())} unseen cards, from {a.data}", flush=True)
    start = time.perf_counter()
    net, losses, val_loss = train(
        d, epochs=a.epochs, batch=a.batch, hidden=a.hidden, lr=a.lr, max_seconds=a.max_seconds
    )
    dt = time.perf_counter() - start
    np.savez(a.out, **net.weights())
    gap = numpy_matches(net, {k: v[:64] for k, v in d.items()})
    print(f"saved {a.out}; numpy forward pass vs torch: max |dp| = {gap:.2e}")
    print(
        f"positions={n} epochs={a.epochs} seconds={dt:.0f} train_loss={np.mean(losses[-200:]):.4f} "
        f"val_loss={val_loss:.4f} nats/card"
    )


if __name__ == "__main__":
    main()
