"""Oh Hell's score sheet: every deal as a row (each player's bid/won and the change), the totals
under it, and a chart of the running totals, during a game (from the engine's history) and after
it (from the stored deal scores). What ``/ohhell scores`` and the final standings show."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.seam.contract import Rendered
from cogs.ohhell.pictures import CHART_FILE, totals_alt
from db.records import DealScore
from draw.budget import DESCRIPTION, Budget, fit_lines, shorten
from draw.common import COLOR
from draw.images import scoresheet_png
from draw.pictures import ImageFile, show_picture
from games.ohhell.results import HistoryEntry
from locales import _, ngettext


@dataclass(frozen=True, slots=True)
class DealRow:
    deal: int
    hand_size: int | None
    #: per seat: (bid, won, change), ``None`` for a seat out of this deal (a play-off)
    cells: tuple[tuple[int | None, int | None, int] | None, ...]


def rows_from_history(history: Sequence[HistoryEntry], seats: int) -> list[DealRow]:
    return [
        DealRow(
            entry["deal"],
            entry["hand_size"],
            tuple(
                None if entry["scores"][s] is None else (entry["bids"][s], entry["tricks"][s], entry["scores"][s] or 0)
                for s in range(seats)
            ),
        )
        for entry in history
    ]


def rows_from_store(scores: Sequence[DealScore], seats: int) -> list[DealRow]:
    by_deal: dict[int, list[tuple[int | None, int | None, int] | None]] = {}
    for score in scores:
        cells = by_deal.setdefault(score.deal, [None] * seats)
        if 0 <= score.seat < seats:
            cells[score.seat] = (score.bid, score.tricks, score.delta)
    return [DealRow(deal, None, tuple(cells)) for deal, cells in sorted(by_deal.items())]


def running_totals(rows: Sequence[DealRow], seats: int) -> list[list[int]]:
    totals, out = [0] * seats, []
    for row in rows:
        totals = [t + (c[2] if c is not None else 0) for t, c in zip(totals, row.cells, strict=True)]
        out.append(list(totals))
    return out


def _cell(cell: tuple[int | None, int | None, int] | None) -> str:
    if cell is None:
        return "·"
    bid, won, change = cell
    return f"{'-' if bid is None else bid}/{'-' if won is None else won} {change:+d}"


def sheet_text(names: Sequence[str], rows: Sequence[DealRow], room: int = DESCRIPTION) -> str:
    """The sheet in words, a line a deal that wraps on a phone (a fixed-width table was cut off
    at the right there), within ``room`` characters: the newest deals if all do not fit (the
    picture shows every deal, as a table)."""
    clean = [n.replace("*", "").replace("`", "'") for n in names]
    lines = []
    for row in rows:
        cards = " (" + ngettext("{n} card", "{n} cards", row.hand_size) + ")" if row.hand_size is not None else ""
        cells = " · ".join(f"{n} {_cell(c)}" for n, c in zip(clean, row.cells, strict=True))
        lines.append(f"**{row.deal}**{cards}: {cells}")
    totals = running_totals(rows, len(names))[-1] if rows else [0] * len(names)
    footer = _("**Total**: {totals}", totals=" · ".join(f"{n} **{t}**" for n, t in zip(clean, totals, strict=True)))
    if not lines:
        return shorten(footer, room)
    # the newest deals that fit with the totals, the oldest left out (said at the top)
    text, _shown = fit_lines(
        lines,
        room - len(footer) - 1,
        lambda left: ngettext("(the first {n} deal left out)", "(the first {n} deals left out)", left),
        last=True,
    )
    return f"{text}\n{footer}" if text else shorten(footer, room)


def scoresheet(title: str, names: Sequence[str], rows: Sequence[DealRow], note: str | None = None) -> Rendered:
    """The score sheet as a message: the deals in words and, once a deal is scored, the sheet
    drawn as a table (at most a phone's width) with the chart of running totals under it. The
    note (the places) and the footer are measured first; the deals get the room left."""
    budget = Budget()
    embed = budget.embed(title=title, color=COLOR)
    budget.footer(embed, _("each cell: bid/won and the change · the chart: running totals after each deal"))
    lead = [note] if note else []
    room = min(DESCRIPTION, budget.left) - sum(len(x) + 1 for x in lead)
    budget.describe(embed, [*lead, sheet_text(names, rows, room)])
    files: list[ImageFile] = []
    if rows:
        running = running_totals(rows, len(names))
        data = scoresheet_png(
            tuple(names),
            tuple((r.deal, r.hand_size, r.cells) for r in rows),
            tuple(tuple(t) for t in running),
        )
        # (the deals themselves are in words in the embed above the picture)
        what = _("Score sheet, each deal's bid, tricks won and change, and a chart of the running totals")
        alt = totals_alt(what, names, running)
        files = [show_picture(embed, CHART_FILE, data, alt)]
    return Rendered(content=None, embeds=[embed], view=None, files=files)
