"""bench/bid_calibration.py pairs each searched bid's playout make rate with the seat that bid it,
and says whether that seat made it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import bench.bid_calibration as calibration
from games.ohhell.ai import players
from games.ohhell.ai.infostate import BID, PLAY


def test_each_searched_bid_is_paired_with_its_seat_and_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_play_hand(deal: int, *args: object, ours: tuple[int, ...], capture: list, **kwargs: object) -> dict:
        assert ours == (1, 3)
        # seat 3 bids first (the dealer is 2), then seat 1, whose only bid is forced: not searched
        capture += [
            SimpleNamespace(seat=3, phase=BID, legal_bids=(0, 1, 2)),
            SimpleNamespace(seat=1, phase=BID, legal_bids=(2,)),
        ]
        capture.append(SimpleNamespace(seat=3, phase=PLAY, legal_bids=()))
        assert players.TRACE is not None
        players.TRACE.append({"cands": [0, 1, 2], "made": [0.9, 0.6, 0.2], "pick": 1})
        return {"bids": [0, 2, 0, 1], "returns": [10.0, 2.0, 1.0, 11.0]}

    monkeypatch.setattr(calibration, "play_hand", fake_play_hand)
    assert calibration.traced_play((4, 1, 7)) == [(1, 0.6, True)]
    assert players.TRACE is None  # left as found: the bot's decisions trace nothing
