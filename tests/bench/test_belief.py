"""bench/belief_data.py, belief_model.py, train_belief.py and belief.py: the positions' labels
agree with the engine's own deal, the sampler's counts with its worlds, training lowers the loss,
and the numpy forward pass is the trained network's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench import belief_data, belief_model

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shard() -> dict[str, np.ndarray]:
    return belief_data.play_shard(3, 0, 0.25, 0, games=2)


def test_every_unseen_card_is_labelled_with_its_true_place(shard: dict[str, np.ndarray]) -> None:
    """The engine's hands at each decision: every class holds exactly the unknown cards the seat
    counts for it (the stock its size), every label is a place the mask allows, and the acting
    seat's own cards are never labelled."""
    truth, need, seen = shard["truth"], shard["need"], shard["seen"]
    assert len(truth) > 50
    for i in range(len(truth)):
        labels = truth[i][truth[i] >= 0]
        counts = np.bincount(labels, minlength=8)
        assert (counts == need[i]).all(), i
        assert ((seen[i] == 0) == (truth[i] >= 0)).all()
        assert counts[shard["meta"][i, 2]] == 0
        b = np.flatnonzero(truth[i] >= 0)
        assert ((shard["allowed"][i, b] >> truth[i, b]) & 1).all()


def test_sampler_counts_are_the_worlds_places() -> None:
    d = belief_data.play_shard(4, 0, 0.1, 12, games=1)
    s = d["sampler"].astype(int)
    unseen = d["seen"] == 0
    assert (s.sum(2)[unseen] == 12).all()
    assert (s.sum(2)[~unseen] == 0).all()
    # each world places exactly each class's unknown cards
    assert (s.sum(1) == 12 * d["need"].astype(int)).all()


def test_the_generator_resumes_and_repeats(tmp_path: Path) -> None:
    n1, k1, made1 = belief_data.generate(tmp_path / "a", 5, 10, keep=0.05, games=1)
    first = belief_data.load(tmp_path / "a")
    n2, k2, made2 = belief_data.generate(tmp_path / "a", 5, 10, keep=0.05, games=1)
    assert (n1, k1) == (n2, k2) and made1 == n1 and made2 == 0
    belief_data.generate(tmp_path / "b", 5, 10, keep=0.05, games=1)
    again = belief_data.load(tmp_path / "b")
    for key in first:
        assert np.array_equal(first[key], again[key])


def test_sinkhorn_matches_each_place_to_its_count(shard: dict[str, np.ndarray]) -> None:
    feats, mask = belief_model.features(shard)
    assert feats.shape[-1] == belief_model.N_FEATURES
    assert np.isfinite(feats).all()
    logp = belief_model.sinkhorn(np.random.default_rng(0).standard_normal(mask.shape), mask, shard["need"], steps=30)
    p = np.where(mask, np.exp(logp), 0.0)
    rows = mask.any(2)
    assert np.allclose(p.sum(2)[rows], 1.0)
    assert np.allclose(p.sum(1), shard["need"], atol=1e-3)


def test_training_lowers_the_loss_and_numpy_is_the_network(shard: dict[str, np.ndarray]) -> None:
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    import torch

    from bench import train_belief

    torch.manual_seed(0)
    before = train_belief.evaluate(train_belief.Net(belief_model.N_FEATURES, 16), shard)
    net, losses, _ = train_belief.train(shard, epochs=10, batch=16, hidden=16, lr=2e-2, val=0.0, log=False)
    after = train_belief.evaluate(net, shard)
    assert len(losses) == 10 * ((len(shard["meta"]) + 15) // 16)
    assert after < before - 0.02, (before, after)
    assert train_belief.numpy_matches(net, {key: v[:16] for key, v in shard.items()}) < 1e-5  # float32 layers


def test_the_bench_prints_its_last_line() -> None:
    out = subprocess.run(
        [sys.executable, "bench/belief.py", "--quick"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    last = out.strip().splitlines()[-1]
    assert last.startswith("positions=") and " logloss sampler=" in last and last.endswith(" nats/card")
    fields = dict(part.split("=") for part in last.replace(" nats/card", "").replace("logloss ", "").split())
    assert int(fields["positions"]) > 0
    assert abs(float(fields["sampler"]) - float(fields["model"]) - float(fields["gain"])) < 2e-4


def test_half_the_worlds_is_a_thinning_of_the_counts() -> None:
    from bench.belief import halved, sampler_losses

    rng = np.random.default_rng(1)
    counts = np.zeros((3, 52, 8), np.uint16)
    counts[:, :10, :4] = rng.multinomial(40, [0.1, 0.2, 0.3, 0.4], size=(3, 10))
    d = {"sampler": counts, "truth": np.where(np.arange(52) < 10, 2, -1)[None].repeat(3, 0)}
    half = halved(d)["sampler"]
    assert (half.sum(2)[:, :10] == 20).all() and (half <= counts).all()
    mask = np.zeros((3, 52, 8), bool)
    mask[:, :10, :4] = True
    nats, _ = sampler_losses(d, mask, 0.5)
    c = counts[:, :10].astype(float)
    assert np.allclose(nats, (-np.log((c[..., 2] + 0.5) / (40 + 4 * 0.5))).ravel())


def test_the_trainer_and_generator_commands_run(tmp_path: Path) -> None:
    gen = subprocess.run(
        [sys.executable, "-m", "bench.belief_data", "--quick", "--out", str(tmp_path / "d"), "--seed", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert gen.strip().splitlines()[-1].startswith("positions=") and list((tmp_path / "d").glob("shard-2-*.npz"))
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    out = subprocess.run(
        [sys.executable, "-m", "bench.train_belief", "--quick", "--out", str(tmp_path / "w.npz")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip().splitlines()[-1].startswith("positions=") and "val_loss=" in out
    w = np.load(tmp_path / "w.npz")
    assert w["w1"].shape == (belief_model.N_FEATURES, 64)
