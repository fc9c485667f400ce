"""Pictures of cards for messages: a hand, the trick in progress, a score chart, and the pieces a
game's own picture is laid out with (a felt, a fan of cards, names that fit).

Pure functions from card codes and names to PNG bytes, so any message (the table, a private
panel, a DM) can carry them and tests can look at the pixels. The faces come from
:mod:`draw.faces` (each drawn once); a whole picture is cached by its content in a small
LRU, because the same table is drawn again when a message is edited for a reason that did not
change it (a notice, a timer, a retry). Pictures are palette PNGs at a low compression level: the
files stay small (about 10 kB) and encoding costs a few milliseconds.

The few words drawn into a picture ("no cards", a score sheet's headings) are in the language
being spoken where the picture is made, and the cache keeps each language's picture apart
(:class:`Spoken`).

File names never say what the picture shows (``hand.png``, never ``hand-AS-KD.png``): a name
is visible to whoever sees the message, a card in it would not be.
"""

from __future__ import annotations

import hashlib
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Concatenate, Generic, ParamSpec, TypeVar, cast

from PIL import Image, ImageDraw

from draw import faces
from draw.faces import CARD_H, CARD_W, card_face, font
from games.common.cards import card_code, every_face
from locales import _, current

P = ParamSpec("P")
R = TypeVar("R")

FELT = (28, 88, 56)
INK = (245, 245, 240)
DIM = (170, 200, 180)
GOLD = (250, 200, 60)
MARGIN = 10
#: how much of a card shows under the next one in a hand: its index (rank and pip) stays readable
HAND_STEP = 30
HAND_ROW = 13  # cards a row before a hand wraps (a 13-card hand is one row)
NAME_H = 18
CACHE = 64


class Spoken(Generic[P, R]):
    """A cached picture that may hold words: called as the picture's own function, it draws (or
    finds) the picture in the language spoken now, the language a key of the cache."""

    def __init__(self, drawn: Callable[Concatenate[str, P], R]) -> None:
        self.cache = lru_cache(maxsize=CACHE)(drawn)
        #: the same cache, called with the picture's own arguments (their types, not Hashable)
        self.drawn = cast("Callable[Concatenate[str, P], R]", self.cache)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.drawn(current(), *args, **kwargs)

    def cache_clear(self) -> None:
        self.cache.cache_clear()

    def cache_info(self) -> object:
        return self.cache.cache_info()


def encode(image: Image.Image) -> bytes:
    """A palette PNG against one fixed palette (:func:`palette`): mapping to a known palette costs
    a tenth of finding one per picture, and the file is a third of a true-colour PNG's size."""
    out = io.BytesIO()
    indexed = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    indexed.save(out, format="PNG", compress_level=1)
    data = out.getvalue()
    _note_drawn(data)
    return data


#: how many of the newest pictures :func:`drawn_here` knows
DRAWN_KEPT = 256
_drawn: OrderedDict[str, None] = OrderedDict()
_drawn_lock = threading.Lock()  # pictures are drawn in worker threads too


def _note_drawn(data: bytes) -> None:
    digest = hashlib.sha256(data).hexdigest()
    with _drawn_lock:
        _drawn[digest] = None
        _drawn.move_to_end(digest)
        while len(_drawn) > DRAWN_KEPT:
            _drawn.popitem(last=False)


def drawn_here(digest: str) -> bool:
    """Whether the picture of this SHA-256 (hex) is one of the newest :data:`DRAWN_KEPT` this
    process drew (:func:`encode`): a page showing the bot's own pictures (the local mode) may
    trust such a file as drawn rather than decode it again to check it."""
    with _drawn_lock:
        return digest in _drawn


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The colours every picture is drawn from, found once: every face on the felt, the text
    colours written on it (with their anti-aliased edges) and the chart's lines."""
    faces_w = (CARD_W + 2) * 16
    swatch, draw = canvas(faces_w, (CARD_H + 2) * 5 + 120)
    codes = [card_code(c) for c in every_face()] + ["?"]
    for i, code in enumerate(codes):
        lay(swatch, card_face(code), ((i % 16) * (CARD_W + 2), (i // 16) * (CARD_H + 2)))
    y = (CARD_H + 2) * 4 + 4
    for j, colour in enumerate((INK, DIM, GOLD, *PALETTE)):
        draw.text((4 + (j % 6) * 190, y + (j // 6) * 24), "Ann Bob 10 ▶ hand", font=font(15), fill=colour)
        draw.rectangle([faces_w - 20 - j * 12, y + 60, faces_w - 10 - j * 12, y + 70], fill=colour)
    return swatch.quantize(224, method=Image.Quantize.FASTOCTREE)


def canvas(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGB felt: cards are laid on it with their own alpha as the mask (cheaper than
    compositing two RGBA images, and the PNG has no alpha to carry)."""
    image = Image.new("RGB", (w, h), FELT)
    return image, ImageDraw.Draw(image)


def lay(image: Image.Image, card: Image.Image, xy: tuple[int, int]) -> None:
    image.paste(card, xy, card)


def short_name(name: str, limit: int = 11) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def fit_names(names: Sequence[str], width: float, size: int = 12) -> tuple[str, ...]:
    """Each name as short as it must be to fit ``width`` px in the bold ``size`` px font, and no
    two alike: "Computer 1 (strong)" and "Computer 2 (strong)" become "Computer 1" and
    "Computer 2", or "Compu…1" and "Compu…2" where even that is too wide (a plain cut would
    make both "Compute…")."""
    face = font(size)

    def fits(text: str) -> bool:
        return face.getlength(text) <= width

    bases = [re.sub(r"\s*\([^)]*\)$", "", n) or n for n in names]
    if len(set(bases)) < len(set(names)):
        bases = list(names)  # the bracket is what tells them apart
    # a mark before a name (the trick's winner, "★ ") is not part of what tells names apart
    cores = [b.removeprefix("★ ") for b in bases]
    out: list[str] = []
    for i, base in enumerate(bases):
        others = [b for j, b in enumerate(cores) if j != i and b != cores[i]]
        label = base if fits(base) else ""
        if not label:
            tail = next((base[-k:] for k in range(1, len(base)) if not any(o.endswith(base[-k:]) for o in others)), "")
            for h in range(len(base) - 1, 0, -1):
                head = base[:h].rstrip()
                plain = head + "…"
                if not any(o.startswith(base[:h].removeprefix("★ ")) for o in others) and fits(plain):
                    label = plain
                    break
                tailed = plain + tail.strip()
                if tail and h + len(tail) < len(base) and fits(tailed):
                    label = tailed
                    break
            label = label or base[:1] + "…"
        out.append(label)
    for i, label in enumerate(out):  # the last resort: a seat number
        if out.count(label) > 1:
            out[i] = f"{label[: max(1, len(label) - 2)]}{i + 1}"
    return tuple(out)


def row_width(n: int, step: int = HAND_STEP) -> int:
    return CARD_W + step * (n - 1) if n else 0


def fan(image: Image.Image, codes: Sequence[str], x: int, y: int, four_colour: bool, step: int = HAND_STEP) -> None:
    for i, code in enumerate(codes):
        lay(image, card_face(code, four_colour), (x + i * step, y))


# -- a hand ---------------------------------------------------------------------------------------
@Spoken
def hand_png(language: str, codes: tuple[str, ...], four_colour: bool = False) -> bytes:
    """A hand as overlapping cards in the order given (engines sort hands), 13 to a row."""
    rows = [codes[i : i + HAND_ROW] for i in range(0, len(codes), HAND_ROW)] or [()]
    width = max(row_width(len(r)) for r in rows) or CARD_W
    row_h = CARD_H // 2 + 8  # a second row covers the lower half of the first: the indices show
    height = CARD_H + row_h * (len(rows) - 1)
    image, draw = canvas(width + 2 * MARGIN, height + 2 * MARGIN)
    if not codes:
        draw.text((MARGIN + 4, MARGIN + CARD_H // 2), _("no cards"), font=font(16), fill=DIM, anchor="lm")
    for r, row in enumerate(rows):
        fan(image, row, MARGIN, MARGIN + r * row_h, four_colour)
    return encode(image)


# -- a trick -----------------------------------------------------------------------------------
@Spoken
def trick_png(
    language: str,
    plays: tuple[tuple[str, str], ...],
    waiting: tuple[str, ...] = (),
    turnup: str | None = None,
    four_colour: bool = False,
) -> bytes:
    """The trick in progress: each ``(name, card)`` played so far in order, then an empty slot for
    each name still ``waiting``; the turned-up card (the trump) sits apart on the left."""
    gap = 8
    slots = len(plays) + len(waiting)
    left = (CARD_W + 3 * gap) if turnup else 0
    width = left + max(slots, 1) * (CARD_W + gap) - gap + 2 * MARGIN
    height = CARD_H + NAME_H + 2 * MARGIN
    image, draw = canvas(width, height)
    small = font(12)
    if turnup:
        lay(image, card_face(turnup, four_colour), (MARGIN, MARGIN))
        draw.text((MARGIN + CARD_W // 2, MARGIN + CARD_H + 3), _("turn-up"), font=small, fill=GOLD, anchor="mt")
    x = MARGIN + left
    # each name within its card's width, no two alike ("Computer 1…" and "Computer 2…" ran together)
    labels = fit_names([name for name, _ in plays] + list(waiting), CARD_W + gap - 4)
    for (name, code), shown in zip(plays, labels, strict=False):
        lay(image, card_face(code, four_colour), (x, MARGIN))
        colour = GOLD if name.startswith("★") else INK
        draw.text((x + CARD_W // 2, MARGIN + CARD_H + 3), shown, font=small, fill=colour, anchor="mt")
        x += CARD_W + gap
    for shown in labels[len(plays) :]:
        draw.rounded_rectangle([x, MARGIN, x + CARD_W - 1, MARGIN + CARD_H - 1], radius=7, outline=DIM, width=2)
        draw.text((x + CARD_W // 2, MARGIN + CARD_H + 3), shown, font=small, fill=DIM, anchor="mt")
        x += CARD_W + gap
    if not slots and not turnup:
        draw.text((MARGIN + left + 4, MARGIN + CARD_H // 2), _("no cards yet"), font=font(14), fill=DIM, anchor="lm")
    return encode(image)


# -- running totals ------------------------------------------------------------------------------
PALETTE = ((250, 200, 60), (120, 200, 255), (255, 120, 120), (150, 230, 140), (220, 150, 255), (255, 170, 90),
           (240, 240, 240), (110, 220, 210))  # fmt: skip


#: a picture players read on a phone: no wider than this
PHONE_W = 800
ROW_H = 18


@Spoken
def scores_chart_png(
    language: str, names: tuple[str, ...], totals: tuple[tuple[int, ...], ...], width: int = 520
) -> bytes:
    """Running totals after each deal (``totals[d][seat]``), one coloured line a player, a key."""
    image = _chart(names, totals, width)
    return encode(image)


def _chart(names: tuple[str, ...], totals: tuple[tuple[int, ...], ...], width: int) -> Image.Image:
    """The chart, its key under the plot in as many columns as fit (a key at the side was cut off
    at the right); players with the same totals draw their lines side by side, not one under the
    other."""
    columns = max(1, min(len(names), (width - 2 * MARGIN) // 150))
    key_rows = -(-len(names) // columns)
    plot_h = 200
    height = MARGIN + plot_h + 36 + key_rows * ROW_H + MARGIN
    image, draw = canvas(width, height)
    small = font(11)
    plot = (MARGIN + 34, MARGIN + 6, width - MARGIN, MARGIN + plot_h)
    series = [(0,) * len(names), *totals]
    values = [v for row in series for v in row] or [0]
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    x0, y0, x1, y1 = plot

    def at(deal: int, value: int, shift: float = 0.0) -> tuple[float, float]:
        x = x0 + (x1 - x0) * deal / max(len(series) - 1, 1)
        y = y1 - (y1 - y0) * (value - low) / (high - low)
        return x, y + shift

    draw.rectangle(plot, outline=DIM)
    if low < 0 < high:
        draw.line([at(0, 0), (x1, at(0, 0)[1])], fill=DIM, width=1)
    for value in (low, high):
        draw.text((x0 - 4, at(0, value)[1]), str(value), font=small, fill=INK, anchor="rm")
    for deal in range(len(series)):
        if len(series) <= 20 or deal % 5 == 0:
            draw.text((at(deal, low)[0], y1 + 4), str(deal), font=small, fill=DIM, anchor="mt")
    labels = fit_names(names, width // columns - 60)
    key_w = (width - 2 * MARGIN) // columns
    for seat in range(len(names)):
        colour = PALETTE[seat % len(PALETTE)]
        shift = (seat - (len(names) - 1) / 2) * 3  # equal lines lie side by side
        points = [at(d, row[seat], shift) for d, row in enumerate(series)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for x, y in points:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
        kx = MARGIN + (seat % columns) * key_w
        ky = y1 + 36 + (seat // columns) * ROW_H
        draw.rectangle([kx, ky + 3, kx + 10, ky + 13], fill=colour)
        draw.text((kx + 16, ky), f"{labels[seat]} {series[-1][seat]}", font=font(12), fill=INK)
    draw.text(((x0 + x1) / 2, y1 + 18), _("deal"), font=small, fill=DIM, anchor="mt")
    return image


#: one deal of the sheet: its number, its hand size (None: not known), and per seat (bid, won,
#: change) or None for a seat out of that deal (a play-off)
SheetRow = tuple[int, int | None, tuple[tuple[int | None, int | None, int] | None, ...]]


@Spoken
def scoresheet_png(
    language: str, names: tuple[str, ...], rows: tuple[SheetRow, ...], totals: tuple[tuple[int, ...], ...]
) -> bytes:
    """The score sheet as players read it on a phone (at most :data:`PHONE_W` px wide): a row a
    deal (each player's bid/won and the change), the totals, and under it the chart."""
    with_cards = any(hand is not None for _, hand, _ in rows)
    lead = 44 + (44 if with_cards else 0)  # the deal (and cards) columns; no empty one
    col = max(64, min(110, (PHONE_W - 2 * MARGIN - lead) // max(len(names), 1)))
    width = min(PHONE_W, 2 * MARGIN + lead + col * len(names))
    header = fit_names(names, col - 6)
    body = MARGIN + ROW_H * (len(rows) + 3) + 6
    chart = _chart(names, totals, max(width, 360))
    width = max(width, chart.width)
    image, draw = canvas(width, body + chart.height)
    small, bold = font(11), font(12)
    draw.text((MARGIN, MARGIN), _("deal"), font=small, fill=DIM)
    if with_cards:
        draw.text((MARGIN + 44, MARGIN), _("cards"), font=small, fill=DIM)
    for seat, name in enumerate(header):
        draw.text((MARGIN + lead + col * seat + col - 6, MARGIN), name, font=bold, fill=INK, anchor="ra")
    y = MARGIN + ROW_H + 2
    draw.line([(MARGIN, y - 2), (width - MARGIN, y - 2)], fill=DIM)
    for deal, hand, cells in rows:
        draw.text((MARGIN, y), str(deal), font=small, fill=INK)
        if with_cards and hand is not None:
            draw.text((MARGIN + 44, y), str(hand), font=small, fill=DIM)
        for seat, cell in enumerate(cells):
            right = MARGIN + lead + col * seat + col - 6
            if cell is None:
                draw.text((right, y), "·", font=small, fill=DIM, anchor="ra")
                continue
            bid, won, change = cell
            colour = PALETTE[3] if change > 0 else PALETTE[2] if change < 0 else DIM
            draw.text((right, y), f"{change:+d}", font=small, fill=colour, anchor="ra")
            made = f"{'-' if bid is None else bid}/{'-' if won is None else won}"
            draw.text((right - 36, y), made, font=small, fill=INK, anchor="ra")
        y += ROW_H
    draw.line([(MARGIN, y + 1), (width - MARGIN, y + 1)], fill=DIM)
    y += 4
    draw.text((MARGIN, y), _("total"), font=bold, fill=INK)
    last = totals[-1] if totals else (0,) * len(names)
    for seat, total in enumerate(last):
        draw.text((MARGIN + lead + col * seat + col - 6, y), str(total), font=bold, fill=GOLD, anchor="ra")
    image.paste(chart, (0, body))
    return encode(image)


def warm() -> None:
    """Draw every face and find the palette once (at start-up, in a thread): no picture a player
    waits for pays for them."""
    faces.warm()
    palette()
