"""What a finished deal leaves behind, and what the game's results are made of.

Each scored deal leaves a :class:`DealRecord`; the history shown to the players, the per-seat
figures the bot stores, the tie-breaks and the final standings are all derived from those
records (with the running totals and the play-off scores), here, as plain functions.

Tie-breaks (``rules.ties``): with ``"extra-hand"`` only the total counts (ties are settled by
extra deals); otherwise seats with equal totals are separated by their exact contracts, their
exact winning (non-zero) contracts, their contracts made or exceeded, then by the scores of the
play-off deals in order (:func:`tie_keys`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, TypedDict

if TYPE_CHECKING:  # games/ runs on the standard library alone; only the type checker reads it
    from typing_extensions import ReadOnly

from games.ohhell.tables import suit_letter

#: the figures that break a tie, in order, as named in ``Standing["decided_by"]``
TIE_FIGURES = ("total", "exact contracts", "exact winning contracts", "contracts made or exceeded")

#: one trick as recorded: (leader, cards in playing order, the suit a no-trump joker was played
#: as or -1, winning seat). A plain tuple, not a NamedTuple: the fast path makes one a trick.
#: The cards are a tuple too, not the list the trick was built in: a tuple of ints (and then the
#: trick's tuple around it) drops out of the garbage collector's sight within its first passes,
#: where a list stays tracked for the game's life; with lists, the collector's passes over a game's
#: kept tricks took about 8 % of a random hand's time (``python bench/engine.py``).
PlayedTrick = tuple[int, tuple[int, ...], int, int]


@dataclass(slots=True)
class Revoke:
    """A failure to follow suit (``revokes="penalize"``): ``seat`` did not play ``suit`` in
    trick ``trick`` (1-based); ``public`` once the other players may know it."""

    seat: int
    suit: int
    trick: int
    public: bool = False


class DealLog(NamedTuple):
    """One deal of the action log: the seats in it in order, the bids in order (seat, bid), and
    its tricks (the last one may be unfinished while the deal is played)."""

    players: list[int]
    bids: list[tuple[int, int]]
    tricks: list[PlayedTrick]


class DealRecord(NamedTuple):
    """A scored deal. ``bids``, ``tricks`` and ``revoked`` are per seat (-1 / 0 / False for
    seats outside a play-off deal); ``scores`` per seat, None for seats outside it."""

    deal: int
    kind: str
    hand_size: int
    dealer: int
    trump: int
    bids: list[int]
    tricks: list[int]
    scores: list[int | None]
    revoked: list[bool]
    revokes: list[Revoke]


class HistoryEntry(TypedDict):
    """A scored deal as the view and the ``deal_scored`` event show it.

    Read-only (the type checker refuses a change, the lists included): a game builds each deal's
    entry once and every view after it shares it (:meth:`GameRecord.history_entries`)."""

    deal: ReadOnly[int]
    kind: ReadOnly[str]
    hand_size: ReadOnly[int]
    dealer: ReadOnly[int]
    trump: ReadOnly[str | None]
    bids: ReadOnly[Sequence[int | None]]
    tricks: ReadOnly[Sequence[int | None]]
    scores: ReadOnly[Sequence[int | None]]
    revoked: ReadOnly[Sequence[int]]


class Figures(TypedDict):
    """A seat's figures over the game's deals, play-offs excluded."""

    exact: int
    exact_winning: int
    made_or_exceeded: int
    revokes: int
    tricks: int
    deals: int


class SeatStats(Figures):
    """:class:`Figures` with the seat and its total: what the bot stores per player."""

    seat: int
    total: int


class Standing(TypedDict):
    """One seat's line of the final standings."""

    seat: int
    rank: int
    total: int
    exact: int
    exact_winning: int
    made_or_exceeded: int
    playoff: list[int]
    decided_by: str


def history_entry(record: DealRecord) -> HistoryEntry:
    # (built once a deal for the views, :meth:`GameRecord.history_entries`; each pass over a
    # record's lists is one zip or enumerate rather than an index a seat)
    scores = record.scores
    return {
        "deal": record.deal,
        "kind": record.kind,
        "hand_size": record.hand_size,
        "dealer": record.dealer,
        "trump": suit_letter(record.trump),
        "bids": [b if b >= 0 else None for b in record.bids],
        "tricks": [t if score is not None else None for t, score in zip(record.tricks, scores, strict=True)],
        "scores": scores[:],
        "revoked": [s for s, revoked in enumerate(record.revoked) if revoked],
    }


def figures(records: Sequence[DealRecord], seat_count: int) -> list[Figures]:
    """Per-seat figures over the game's deals, play-offs excluded."""
    figs: list[Figures] = [
        {"exact": 0, "exact_winning": 0, "made_or_exceeded": 0, "revokes": 0, "tricks": 0, "deals": 0}
        for _ in range(seat_count)
    ]
    for record in records:
        if record.kind == "playoff":
            continue
        for s in range(seat_count):
            if record.scores[s] is None:
                continue
            bid, won, fig = record.bids[s], record.tricks[s], figs[s]
            fig["deals"] += 1
            fig["tricks"] += won
            if bid == won:
                fig["exact"] += 1
                if bid:
                    fig["exact_winning"] += 1
            if won >= bid:
                fig["made_or_exceeded"] += 1
        for revoke in record.revokes:
            figs[revoke.seat]["revokes"] += 1
    return figs


def tie_keys(
    ties: str, totals: Sequence[int], records: Sequence[DealRecord], playoff_scores: Sequence[Sequence[int]]
) -> list[tuple[int, ...]]:
    """Each seat's ranking key, compared as tuples, higher first (see the module docstring)."""
    if ties == "extra-hand":
        return [(t,) for t in totals]
    figs = figures(records, len(totals))
    return [
        (totals[s], f["exact"], f["exact_winning"], f["made_or_exceeded"], *playoff_scores[s])
        for s, f in enumerate(figs)
    ]


def tied_groups(keys: Sequence[tuple[int, ...]]) -> list[list[int]]:
    """The groups of seats with equal keys, best group first (a play-off settles the first)."""
    by_key: dict[tuple[int, ...], list[int]] = {}
    for s, key in enumerate(keys):
        by_key.setdefault(key, []).append(s)
    return [g for k, g in sorted(by_key.items(), reverse=True) if len(g) > 1]


def standings(
    ties: str, totals: Sequence[int], records: Sequence[DealRecord], playoff_scores: Sequence[Sequence[int]]
) -> list[Standing]:
    """Seats best first: seat, rank (shared only when truly unbroken), total, the tie-breaker
    figures (exact, exact_winning, made_or_exceeded, playoff: the play-off deal scores) and
    decided_by (what separated the seat from an equal total: "total" when no one shared
    it, else the figure's name, e.g. "exact contracts" or "play-off 1"; "unbroken" when
    nothing did)."""
    all_keys = tie_keys(ties, totals, records, playoff_scores)
    figs = figures(records, len(totals))
    order = sorted(range(len(totals)), key=lambda s: (all_keys[s], -s), reverse=True)
    keys = [all_keys[s] for s in order]
    out: list[Standing] = []
    for i, s in enumerate(order):
        rank = out[-1]["rank"] if i and keys[i] == keys[i - 1] else i + 1
        neighbours = [j for j in (i - 1, i + 1) if 0 <= j < len(order) and keys[j][0] == keys[i][0]]
        if not neighbours:
            decided = "total"
        elif any(keys[j] == keys[i] for j in neighbours):
            decided = "unbroken"
        else:
            j = neighbours[0]
            idx = next(k for k in range(min(len(keys[i]), len(keys[j]))) if keys[i][k] != keys[j][k])
            decided = TIE_FIGURES[idx] if idx < 4 else f"play-off {idx - 3}"
        out.append(
            {
                "seat": s,
                "rank": rank,
                "total": totals[s],
                "exact": figs[s]["exact"],
                "exact_winning": figs[s]["exact_winning"],
                "made_or_exceeded": figs[s]["made_or_exceeded"],
                "playoff": list(playoff_scores[s]),
                "decided_by": decided,
            }
        )
    return out


def stats(totals: Sequence[int], records: Sequence[DealRecord]) -> list[SeatStats]:
    """Per-seat figures for the bot to store: exact, exact_winning, made_or_exceeded,
    revokes, tricks, deals (play-off deals are not counted) and total."""
    return [{"seat": s, **f, "total": totals[s]} for s, f in enumerate(figures(records, len(totals)))]
