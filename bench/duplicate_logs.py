"""Reading the duplicate match's logs (``bench/ai.py --duplicate --log``, ``--summarise``).

Why a module of its own: the logs outlive the runs that wrote them (``bench/logs/``), and reading
them, pairing plays by deal, setting a 1v3 arm against the table without us seat for seat, is
a different job from playing the deals against OpenSpiel; ``bench/ai.py`` plays and logs,
this module reads. It needs neither OpenSpiel nor the engine.
"""

from __future__ import annotations

import math
import statistics


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    if not xs:
        return math.nan, math.nan
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


#: the seats our level holds in each play of a deal (``--seating``): two against two, each deal
#: twice with the sides swapped (the issue's duplicate), or one against three ISMCTS seats, each
#: deal four times with our level in each seat in turn, so that every other seat is an opponent
#: as at a real table (two against two, each of our seats counts the other among the opponents
#: its search plays against, and may spoil its bid)
SEATINGS = {"2v2": ((0, 2), (1, 3)), "1v3": ((0,), (1,), (2,), (3,))}
#: a reference in which ISMCTS takes our seats too: how the table fares without us (its bids made
#: in every seat, against which our opponents' bids made at a table with us show our spoiling)
ISMCTS_ARM = "ismcts"


def _row_seats(row: dict) -> tuple[int, ...]:
    """Our seats in a logged play (the 2v2 logs before ``ours`` was logged: 0 and 2, then 1 and 3)."""
    return tuple(row["ours"]) if "ours" in row else SEATINGS["2v2"][row["swap"]]


#: how a summary names a 1v3 play's arm, apart from the 2v2 plays of the same arm
ONE_V_THREE = " (1v3)"
#: (a deal played ..., a deal's ...) in the summary's words, by seating
SEATING_WORDS = {
    "2v2": ("twice (seats swapped)", "two plays, seats swapped"),
    "1v3": ("four times (our level in each seat)", "four plays, our level in each seat"),
}


def _arm_key(row: dict) -> str:
    """The arm a logged play counts for: a 1v3 play apart from the 2v2 plays of the same arm."""
    return row["arm"] + ONE_V_THREE if len(_row_seats(row)) == 1 else row["arm"]


def _base(arm: str) -> str:
    return arm.removesuffix(ONE_V_THREE)


def _seating(arm: str) -> str:
    return "1v3" if arm.endswith(ONE_V_THREE) else "2v2"


def seat_for_seat(rows: list[dict]) -> list[str]:
    """Each 1v3 arm's seat against ISMCTS in the same seat at the table without us (the
    ``ismcts`` arm's log of the same deals): our score there less ISMCTS's, apart for the seats
    where our level bid as ISMCTS did (what the play adds) and where it bid otherwise (what the
    other bid, and the play after it, add), those apart again for a bid above ISMCTS's and one
    below it (a forecast biased one way would show there); the intervals count the seats as independent, which
    the four seats of a deal are not quite. ``rows`` carry their arm keys (:func:`_arm_key`)."""
    table: dict[int, dict] = {}
    for r in rows:
        if _base(r["arm"]) == ISMCTS_ARM:
            table.setdefault(r["deal"], r)
    lines = []
    for arm in dict.fromkeys(r["arm"] for r in rows):
        if _seating(arm) != "1v3" or _base(arm) == ISMCTS_ARM:
            continue
        same: list[float] = []
        above: list[float] = []
        below: list[float] = []
        for r in rows:
            t = table.get(r["deal"])
            if r["arm"] != arm or t is None:
                continue
            (seat,) = _row_seats(r)
            gain = r["returns"][seat] - t["returns"][seat]
            ours, theirs = r["bids"][seat], t["bids"][seat]
            (same if ours == theirs else above if ours > theirs else below).append(gain)
        n = len(same) + len(above) + len(below)
        if not n:
            continue
        parts = []
        named = (("the same bid", same), ("another bid", above + below), ("above ISMCTS's", above), ("below", below))
        for name, xs in named:
            if len(xs) >= 2:
                m, e = mean_ci(xs)
                parts.append(f"{name} in {len(xs) / n:.0%} of them, {m:+.2f}±{e:.2f}")
        lines.append(f"{arm} seat for seat against ISMCTS in the same seat without us ({n} seats): " + "; ".join(parts))
    return lines


def duplicate_summary(rows: list[dict], sims: int, brief: bool = False) -> str:
    """The duplicate figures of logged plays (a deal counts once both its plays are in)."""
    rows = [{**r, "arm": _arm_key(r)} for r in rows]
    arms = list(dict.fromkeys(r["arm"] for r in rows))
    plays: dict[str, dict[int, dict[int, float]]] = {arm: {} for arm in arms}
    times: dict[str, list[float]] = {arm: [] for arm in arms}
    made: dict[str, list[float]] = {arm: [] for arm in arms}
    their_made: dict[str, list[float]] = {arm: [] for arm in arms}
    for row in rows:
        arm, swap, r, bids = row["arm"], row["swap"], row["returns"], row["bids"]
        ours = _row_seats(row)
        mine = statistics.fmean(r[s] for s in ours)
        theirs = statistics.fmean(r[s] for s in range(4) if s not in ours)
        plays[arm].setdefault(row["deal"], {})[swap] = mine - theirs
        times[arm].extend(row.get("times", []))
        made[arm].extend(float(r[s] == bids[s] + 10) for s in ours)
        their_made[arm].extend(float(r[s] == bids[s] + 10) for s in range(4) if s not in ours)
    needed = {arm: len(SEATINGS[_seating(arm)]) for arm in arms}
    per_deal = {
        arm: {d: statistics.fmean(v.values()) for d, v in plays[arm].items() if len(v) == needed[arm]} for arm in arms
    }
    for arm in arms:
        d, e = mean_ci(list(per_deal[arm].values()))
        if brief:
            print(f"    {arm}: {len(per_deal[arm])} deals diff={d:+.2f}±{e:.2f}", flush=True)
            continue
        if _base(arm) == ISMCTS_ARM:
            every = made[arm] + their_made[arm]
            print(f"{arm}: {len(per_deal[arm])} deals, ISMCTS in every seat: bids made {statistics.fmean(every):.3f}")
            continue
        ts = times[arm]
        played = SEATING_WORDS[_seating(arm)][0]
        timing = f" median ms={1000 * statistics.median(ts):.0f} p99 ms={1000 * pct(ts, 0.99):.0f}" if ts else ""
        print(
            f"duplicate, {arm}: {len(per_deal[arm])} deals played {played} against ISMCTS {sims} sims:"
            f" diff={d:+.2f}±{e:.2f} a hand; bids made {statistics.fmean(made[arm]):.3f}"
            f" (ISMCTS's {statistics.fmean(their_made[arm]):.3f});"
            f" our decisions {len(ts)}{timing}",
            flush=True,
        )
    for other in arms if not brief else ():
        # each arm against the inference arm of its seating (the 1v3 inference arm against the
        # 2v2 one: what the seating changes)
        one = _seating(other) == "1v3" and other != "inference" + ONE_V_THREE
        ref = "inference" + ONE_V_THREE if one else "inference"
        if other == "inference" or _base(other) == ISMCTS_ARM or ref not in per_deal:
            continue
        both = sorted(set(per_deal[ref]) & set(per_deal[other]))
        if len(both) < 2:
            continue
        gain, eg = mean_ci([per_deal[ref][d] - per_deal[other][d] for d in both])
        what = (
            f"inference gain{ONE_V_THREE if one else ''}"
            if _base(other) == "no inference"
            else f"{ref}'s lead over {other}"
        )
        print(f"{what} (paired by deal, {len(both)} deals): {gain:+.2f}±{eg:.2f} a hand", flush=True)
    for line in seat_for_seat(rows) if not brief else ():
        print(line, flush=True)
    main_arm = next((a for a in ("inference", "inference" + ONE_V_THREE) if a in arms), arms[0])
    full = [v for v in plays[main_arm].values() if len(v) == needed[main_arm]]
    if len(full) >= 3 and not brief and statistics.stdev([statistics.fmean(v.values()) for v in full]) > 0:
        # what the seat swap buys: a deal's two plays against two independent plays' spread
        single = statistics.stdev([x for v in full for x in v.values()])
        k = needed[main_arm]
        plays_are = SEATING_WORDS[_seating(main_arm)][1]
        paired = statistics.stdev([statistics.fmean(v.values()) for v in full])
        print(
            f"duplicate's gain ({main_arm}): a play's difference sd={single:.2f}, a deal's ({plays_are})"
            f" sd={paired:.2f} against {single / math.sqrt(k):.2f} for {k} independent plays:"
            f" independent plays would need x{single**2 / k / paired**2:.2f} as many for the same interval",
            flush=True,
        )
    d, e = mean_ci(list(per_deal[main_arm].values()))
    ts = times[main_arm] or [math.nan]
    return (
        f"diff={d:+.2f} ci_low={d - e:+.2f} median ms={1000 * statistics.median(ts):.0f}"
        f" p99 ms={1000 * pct(ts, 0.99):.0f} hands={len(per_deal[main_arm])}"
    )
