"""bench/ai.py's duplicate figures, read from logged plays: a run stopped part way and taken up
again with ``--first-deal`` must sum up as one run (``--summarise``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.duplicate_logs import duplicate_summary

ROOT = Path(__file__).resolve().parents[2]


def _play(deal: int, swap: int, ours: float, theirs: float, arm: str = "inference") -> dict:
    """A logged play where our two seats scored ``ours`` and ISMCTS's two ``theirs``."""
    seats = (0, 2) if swap == 0 else (1, 3)
    returns = [ours if s in seats else theirs for s in range(4)]
    return {"deal": deal, "arm": arm, "swap": swap, "returns": returns, "bids": [0] * 4, "times": [0.05, 0.2]}


def test_a_deal_counts_once_both_its_plays_are_in_and_is_their_mean() -> None:
    rows = [_play(0, 0, 12, 2), _play(0, 1, 1, 11), _play(1, 0, 10, 10), _play(1, 1, 14, 4), _play(2, 0, 30, 0)]
    line = duplicate_summary(rows, 1000)
    # deal 0: (+10 and -10) -> 0; deal 1: (0 and +10) -> +5; deal 2 has one play only
    assert line.startswith("diff=+2.50 ")
    assert line.endswith(" hands=2")
    assert "median ms=125" in line


def test_two_logs_read_as_one_run_give_the_figures_of_the_whole(tmp_path: Path) -> None:
    rows = [_play(d, s, 10 + d + 3 * s, 8 - s) for d in range(6) for s in (0, 1)]
    whole = duplicate_summary(rows, 1000)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(json.dumps(r) + "\n" for r in rows[:7]))
    second.write_text("".join(json.dumps(r) + "\n" for r in rows[7:]))
    out = subprocess.run(
        [sys.executable, "bench/ai.py", "--summarise", str(first), str(second)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[-1] == whole
    assert "a deal's (two plays, seats swapped) sd=" in out


def test_the_gain_of_inference_is_paired_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_play(d, s, 10, 5, "inference") for d in range(3) for s in (0, 1)]
    rows += [_play(d, s, 10, 9, "no inference") for d in range(2) for s in (0, 1)]
    duplicate_summary(rows, 1000)
    assert "inference gain (paired by deal, 2 deals): +4.00±0.00 a hand" in capsys.readouterr().out


def test_a_variant_arm_is_a_strong_config_and_is_paired_against_inference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench.ai import ARMS, add_variant

    name = add_variant("wider=opponent_noise:0.8,budget:1000")
    try:
        assert ARMS[name].opponent_noise == 0.8
        assert ARMS[name].budget == 1000 and isinstance(ARMS[name].budget, int)
        assert ARMS[name].play_noise == ARMS["inference"].play_noise
        with pytest.raises(ValueError, match="no field"):
            add_variant("other=no_such_field:1")
        with pytest.raises(ValueError, match="new name"):
            add_variant("wider=budget:5")
        rows = [_play(d, s, 10, 5, "inference") for d in range(3) for s in (0, 1)]
        rows += [_play(d, s, 10, 7, name) for d in range(3) for s in (0, 1)]
        duplicate_summary(rows, 1000)
        assert "inference's lead over wider (paired by deal, 3 deals): +2.00±0.00 a hand" in capsys.readouterr().out
    finally:
        ARMS.pop(name, None)


def test_decision_timing_times_every_arm_on_the_same_captured_positions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import itertools

    import bench.ai as bench_ai
    from games.ohhell.ai import StrongConfig, info_from_view
    from tests.games.ohhell.ai.helpers import views_along_a_game

    positions = [info_from_view(v) for v, _ in itertools.islice(views_along_a_game("classic", 4, 3), 6)]
    played: list[int] = []

    def fake_play_hand(deal: int, *args: object, capture: list, **kwargs: object) -> dict:
        played.append(deal)
        capture.extend(positions)
        return {}

    decided: list[tuple[int, int]] = []
    real_decide = bench_ai.decide

    def counting_decide(info, level, rng, config):  # type: ignore[no-untyped-def]
        decided.append((id(info), config.budget))
        return real_decide(info, level, rng, config)

    monkeypatch.setattr(bench_ai, "play_hand", fake_play_hand)
    monkeypatch.setattr(bench_ai, "decide", counting_decide)
    monkeypatch.setitem(bench_ai.ARMS, "small", StrongConfig(budget=800, bid_budget=800, min_worlds=4, max_worlds=8))
    monkeypatch.setitem(bench_ai.ARMS, "smaller", StrongConfig(budget=400, bid_budget=400, min_worlds=4, max_worlds=8))
    line = bench_ai.decision_timing(2, ("small", "smaller"), 2, 7)
    out = capsys.readouterr().out
    assert played == [0, 1]
    # two rounds of both arms over both deals' positions (each deal captured the same six here)
    assert len(decided) == 2 * 2 * 12
    assert [b for _, b in decided[:2]] == [800, 400]  # the arms alternate position by position
    assert "timing small: 12 decisions of 2 deals, best of 2 rounds:" in out
    assert line.startswith("timing smaller: 12 decisions of 2 deals, best of 2 rounds: total s=")


def test_the_perfect_information_arms_alone_see_every_hand_in_their_phases(monkeypatch: pytest.MonkeyPatch) -> None:
    import bench.ai as bench_ai

    seen: list[tuple[int, tuple[int, ...], frozenset[str]]] = []

    def fake_play_hand(
        deal: int, *args: object, ours: tuple[int, ...], perfect: frozenset[str], **kwargs: object
    ) -> dict:
        seen.append((deal, ours, perfect))
        return {"returns": [10.0, 0.0, 10.0, 0.0], "bids": [0] * 4, "times": [0.01]}

    monkeypatch.setattr(bench_ai, "play_hand", fake_play_hand)
    assert "perfect information" not in bench_ai.DEFAULT_ARMS  # a reference, never in the plain run
    arms = ("inference", "perfect information", "perfect bids", "perfect play")
    bench_ai.duplicate_match(1, 1000, 2.0, 7, 1, None, arms)
    nothing, both = frozenset(), frozenset({"bid", "play"})
    assert [(ours, phases) for _, ours, phases in seen] == [
        ((0, 2), nothing),
        ((1, 3), nothing),
        ((0, 2), both),
        ((1, 3), both),
        ((0, 2), frozenset({"bid"})),
        ((1, 3), frozenset({"bid"})),
        ((0, 2), frozenset({"play"})),
        ((1, 3), frozenset({"play"})),
    ]


def test_every_arm_plays_at_its_level_for_bids_and_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strong arms (inference, a variant) hand ``play_hand`` the pair ("strong", "strong"):
    they handed it the word "strong", which ``play_hand`` indexes by phase, so every run of the
    default arms stopped at its first decision with "unknown computer level 's'"."""
    import bench.ai as bench_ai

    levels: list[tuple[str, str]] = []

    def fake_play_hand(deal: int, *args: object, level: tuple[str, str], **kwargs: object) -> dict:
        levels.append(level)
        return {"returns": [10.0, 0.0, 10.0, 0.0], "bids": [0] * 4, "times": [0.01]}

    monkeypatch.setattr(bench_ai, "play_hand", fake_play_hand)
    monkeypatch.setitem(bench_ai.ARMS, "edge", bench_ai.StrongConfig(bid_edge=0.1))
    arms = ("inference", "no inference", "edge", "quick", "quick play")
    bench_ai.duplicate_match(1, 1000, 2.0, 7, 1, None, arms)  # one deal: each arm twice, in order
    strong, quick = ("strong", "strong"), ("quick", "quick")
    assert levels == [strong] * 6 + [quick] * 2 + [("strong", "quick")] * 2


def test_one_against_three_plays_each_deal_with_our_level_in_each_seat(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--seating 1v3``: our level alone in seat 0, 1, 2 then 3 of each deal (every other seat an
    opponent, as at a real table), each play logged with its seat; the ``ismcts`` reference arm
    hands every seat to ISMCTS."""
    import bench.ai as bench_ai

    seen: list[tuple[str, tuple[int, ...]]] = []

    def fake_play_hand(deal: int, *args: object, ours: tuple[int, ...], **kwargs: object) -> dict:
        seen.append((str(deal), ours))
        return {"returns": [11.0, 1.0, 2.0, 3.0], "bids": [1, 0, 0, 3], "times": [0.01]}

    monkeypatch.setattr(bench_ai, "play_hand", fake_play_hand)
    log = tmp_path / "one.jsonl"
    line = bench_ai.duplicate_match(1, 1000, 2.0, 7, 1, str(log), ("inference", "ismcts"), seating="1v3")
    assert seen == [("0", (0,)), ("0", (1,)), ("0", (2,)), ("0", (3,)), ("0", ()), ("0", ()), ("0", ()), ("0", ())]
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["ours"] for r in rows] == [[0], [1], [2], [3]] * 2
    # each play: our seat's score less the other three's mean, +9, -4.33, -3 and -1.67: the same
    # scores in every play sum to nothing over the four seats
    assert line.startswith("diff=+0.00 ") and line.endswith(" hands=1")


def test_the_summary_of_one_against_three_keeps_it_apart_from_two_against_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    one = [
        {"deal": 0, "arm": "inference", "swap": s, "ours": [s], "returns": [10, 0, 0, 2], "bids": [0, 0, 0, 0]}
        for s in range(4)
    ]
    table = [{**r, "arm": "ismcts"} for r in one]
    line = duplicate_summary([_play(0, 0, 10, 4), _play(0, 1, 6, 6), *one, *table], 1000)
    out = capsys.readouterr().out
    assert line.startswith("diff=+3.00 ") and line.endswith(" hands=1")  # the 2v2 arm, (6 + 0) / 2
    # 1v3: seat 0 scores 10 against (0, 0, 2): +9.33; seats 1, 2: 0 against 4: -4; seat 3: 2 against 3.33
    assert "duplicate, inference (1v3): 1 deals played four times (our level in each seat)" in out
    assert "diff=+0.00±" in out.split("inference (1v3)")[1].splitlines()[0]
    # a bid of 0 made where a seat scored 10 (no trick, the bonus): seat 0 of each play
    assert "ismcts (1v3): 1 deals, ISMCTS in every seat: bids made 0.250" in out


def test_a_one_against_three_variant_is_paired_against_the_inference_arm_of_its_seating(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def play(arm: str, seat: int, score: float) -> dict:
        returns = [score if s == seat else 1.0 for s in range(4)]
        return {"deal": 0, "arm": arm, "swap": seat, "ours": [seat], "returns": returns, "bids": [0] * 4}

    rows = [play(arm, s, score) for arm, score in (("inference", 4.0), ("edge", 2.0)) for s in range(4)]
    rows += [{**r, "deal": 1} for r in rows]
    duplicate_summary(rows, 1000)
    # inference: 4 against 1 in every play, +3; edge: 2 against 1, +1
    assert (
        "inference (1v3)'s lead over edge (1v3) (paired by deal, 2 deals): +2.00±0.00 a hand" in capsys.readouterr().out
    )


def test_a_one_against_three_arm_is_read_seat_for_seat_against_the_table_without_us(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With the ``ismcts`` arm's log of the same deals (logged two against two, ISMCTS in every
    seat), each of our seats is set against ISMCTS in that seat, apart where our level bid as
    ISMCTS did and where it bid otherwise, and that apart again above ISMCTS's bid and below."""
    table = [
        {"deal": d, "arm": "ismcts", "swap": w, "returns": [12, 3, 11, 2], "bids": [2, 1, 1, 0], "times": []}
        for d in range(2)
        for w in range(2)
    ]
    # deal 0: our level bids as ISMCTS in seats 0 and 1 (+1, +9), above it in seats 2 and 3 (-11, +0)
    # deal 1: below it in seats 0 and 1 (+2, +2), as ISMCTS in seats 2 and 3 (+2, +2)
    ours = [
        (0, 0, 13, 2),
        (0, 1, 12, 1),
        (0, 2, 0, 3),
        (0, 3, 2, 1),
        *((1, s, [14, 5, 13, 4][s], [1, 0, 1, 0][s]) for s in range(4)),
    ]
    rows = []
    for deal, seat, score, bid in ours:
        returns, bids = [9.0] * 4, [2, 1, 1, 0]
        returns[seat], bids[seat] = score, bid
        rows.append({"deal": deal, "arm": "inference", "swap": seat, "ours": [seat], "returns": returns, "bids": bids})
    duplicate_summary(rows + table, 1000)
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "seat for seat" in x)
    assert line.startswith("inference (1v3) seat for seat against ISMCTS in the same seat without us (8 seats): ")
    assert "the same bid in 50% of them, +3.50±" in line  # +1, +9, +2, +2
    assert "another bid in 50% of them, -1.75±" in line  # -11, +0, +2, +2
    assert "above ISMCTS's in 25% of them, -5.50±" in line  # -11, +0
    assert "below in 25% of them, +2.00±" in line  # +2, +2
