"""bench/random_play_fit.py: the weights it writes are the reading the search loads, and they fit
the random playouts they were fitted on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import random_play_fit
from games.ohhell.ai import random_play
from games.ohhell.ai.random_play import FEATURES, hand_features, reading_for
from games.ohhell.ai.table import DealTable


def test_a_small_fit_writes_the_weights_the_search_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two configurations fitted (the one dealing every card left out: it has no turn-up), their
    weights one per feature, read back by :func:`reading_for` as the sums of the hands' features;
    a fit explains its playouts better than their mean does (R² above 0.3 for four seats of ten
    cards from 800 deals), and the last line gives the figures."""
    out = tmp_path / "weights.json"
    argv = ["random_play_fit.py", "--deals", "800", "--players", "4", "--hand-sizes", "10", "13", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    random_play_fit.main()
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("configurations=1 deals each=800 mean held-out R2=")
    r2 = float(lines[-1].rpartition("=")[2])
    assert r2 > 0.3
    doc = json.loads(out.read_text())
    assert list(doc["weights"]) == ["4x10"]  # 4 x 13 deals every card
    weights = doc["weights"]["4x10"]
    assert len(weights) == FEATURES
    monkeypatch.setattr(random_play, "WEIGHTS_FILE", out)
    random_play._tables.cache_clear()
    try:
        t = DealTable.build(random_play_fit.DECK, 2, False)
        reading = reading_for(t, 1, 4, 10)
        assert reading is not None and reading.w == weights
        rows, won = random_play_fit.deals(4, 10, 50, seed=3)
        hand = sum(1 << c for c in range(20, 30))
        assert reading.tricks(hand) == pytest.approx(sum(weights[f] for f in hand_features(t, hand, 1)))
        assert len(rows) == len(won) == 200 and all(0 <= w <= 10 for w in won)
    finally:
        random_play._tables.cache_clear()
