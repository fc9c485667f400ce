"""Pictures of cards for messages: a hand, the trick in progress, Shithead's table, a score chart.

Pure functions from card codes and names to PNG bytes, so any message (the table, a private
panel, a DM) can carry them and tests can look at the pixels. The faces come from
:mod:`bot.render.faces` (each drawn once); a whole picture is cached by its content in a small
LRU, because the same table is drawn again when a message is edited for a reason that did not
change it (a notice, a timer, a retry). Pictures are palette PNGs at a low compression level: the
files stay small (about 10 kB) and encoding costs a few milliseconds.

File names never say what the picture shows (``hand.png``, never ``hand-AS-KD.png``): a name
is visible to whoever sees the message, a card in it would not be.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import faces
from bot.render.faces import CARD_H, CARD_W, card_back, card_face, font
from games.common.cards import card_code
from games.ohhell.decks import pack63

FELT = (28, 88, 56)
INK = (245, 245, 240)
DIM = (170, 200, 180)
GOLD = (250, 200, 60)
MARGIN = 10
#: how much of a card shows under the next one in a hand: its index (rank and pip) stays readable
HAND_STEP = 30
HAND_ROW = 13  # cards a row before a hand wraps (a 13-card Oh Hell hand is one row)
NAME_H = 18
CACHE = 64


def encode(image: Image.Image) -> bytes:
    """A palette PNG against one fixed palette (:func:`palette`): mapping to a known palette costs
    a tenth of finding one per picture, and the file is a third of a true-colour PNG's size."""
    out = io.BytesIO()
    indexed = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    indexed.save(out, format="PNG", compress_level=1)
    return out.getvalue()


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The colours every picture is drawn from, found once: every face on the felt, the text
    colours written on it (with their anti-aliased edges) and the chart's lines."""
    faces_w = (CARD_W + 2) * 16
    swatch, draw = _canvas(faces_w, (CARD_H + 2) * 5 + 120)
    codes = [card_code(c) for c in pack63()] + ["?"]
    for i, code in enumerate(codes):
        _lay(swatch, card_face(code), ((i % 16) * (CARD_W + 2), (i // 16) * (CARD_H + 2)))
    y = (CARD_H + 2) * 4 + 4
    for j, colour in enumerate((INK, DIM, GOLD, *PALETTE)):
        draw.text((4 + (j % 6) * 190, y + (j // 6) * 24), "Ann Bob 10 ▶ hand", font=font(15), fill=colour)
        draw.rectangle([faces_w - 20 - j * 12, y + 60, faces_w - 10 - j * 12, y + 70], fill=colour)
    return swatch.quantize(224, method=Image.Quantize.FASTOCTREE)


def _canvas(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGB felt: cards are laid on it with their own alpha as the mask (cheaper than
    compositing two RGBA images, and the PNG has no alpha to carry)."""
    image = Image.new("RGB", (w, h), FELT)
    return image, ImageDraw.Draw(image)


def _lay(image: Image.Image, card: Image.Image, xy: tuple[int, int]) -> None:
    image.paste(card, xy, card)


def _short(name: str, limit: int = 11) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _row_width(n: int, step: int = HAND_STEP) -> int:
    return CARD_W + step * (n - 1) if n else 0


def _fan(image: Image.Image, codes: Sequence[str], x: int, y: int, four_colour: bool, step: int = HAND_STEP) -> None:
    for i, code in enumerate(codes):
        _lay(image, card_face(code, four_colour), (x + i * step, y))


# -- a hand ---------------------------------------------------------------------------------------
@lru_cache(maxsize=CACHE)
def hand_png(codes: tuple[str, ...], four_colour: bool = False) -> bytes:
    """A hand as overlapping cards in the order given (engines sort hands), 13 to a row."""
    rows = [codes[i : i + HAND_ROW] for i in range(0, len(codes), HAND_ROW)] or [()]
    width = max(_row_width(len(r)) for r in rows) or CARD_W
    row_h = CARD_H // 2 + 8  # a second row covers the lower half of the first: the indices show
    height = CARD_H + row_h * (len(rows) - 1)
    image, draw = _canvas(width + 2 * MARGIN, height + 2 * MARGIN)
    if not codes:
        draw.text((MARGIN + 4, MARGIN + CARD_H // 2), "no cards", font=font(16), fill=DIM, anchor="lm")
    for r, row in enumerate(rows):
        _fan(image, row, MARGIN, MARGIN + r * row_h, four_colour)
    return encode(image)


# -- Oh Hell's trick --------------------------------------------------------------------------
@lru_cache(maxsize=CACHE)
def trick_png(
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
    image, draw = _canvas(width, height)
    small = font(12)
    if turnup:
        _lay(image, card_face(turnup, four_colour), (MARGIN, MARGIN))
        draw.text((MARGIN + CARD_W // 2, MARGIN + CARD_H + 3), "turn-up", font=small, fill=GOLD, anchor="mt")
    x = MARGIN + left
    for name, code in plays:
        _lay(image, card_face(code, four_colour), (x, MARGIN))
        draw.text((x + CARD_W // 2, MARGIN + CARD_H + 3), _short(name), font=small, fill=INK, anchor="mt")
        x += CARD_W + gap
    for name in waiting:
        draw.rounded_rectangle([x, MARGIN, x + CARD_W - 1, MARGIN + CARD_H - 1], radius=7, outline=DIM, width=2)
        draw.text((x + CARD_W // 2, MARGIN + CARD_H + 3), _short(name), font=small, fill=DIM, anchor="mt")
        x += CARD_W + gap
    if not slots and not turnup:
        draw.text((MARGIN + left + 4, MARGIN + CARD_H // 2), "no cards yet", font=font(14), fill=DIM, anchor="lm")
    return encode(image)


# -- Shithead's table ---------------------------------------------------------------------------
#: one seat as the table shows it: name, face-up cards, face-down count, cards in hand, out, to play
SeatPicture = tuple[str, tuple[str, ...], int, int, bool, bool]


@lru_cache(maxsize=CACHE)
def shithead_png(
    pile: tuple[str, ...],
    pile_size: int,
    to_beat: str | None,
    seats: tuple[SeatPicture, ...],
    four_colour: bool = False,
) -> bytes:
    """The pile's top cards (newest on the right, the card to beat marked) above one row per seat:
    face-down cards as backs with the face-up cards laid on them, and the hand's size."""
    pile_step = 24
    label_w = 120
    widest_seat = max((max(len(up), down) for _, up, down, *_ in seats), default=0)
    seat_cards_w = _row_width(widest_seat, CARD_W + 4) if widest_seat else CARD_W
    width = max(label_w + seat_cards_w, label_w + _row_width(max(len(pile), 1), pile_step)) + 2 * MARGIN
    seat_h = CARD_H // 2 + 12
    height = MARGIN + CARD_H + NAME_H + 8 + seat_h * len(seats) + MARGIN
    image, draw = _canvas(width, height)
    big, small = font(15), font(12)
    draw.text((MARGIN, MARGIN + 4), "Pile", font=big, fill=INK)
    draw.text((MARGIN, MARGIN + 24), f"{pile_size} card{'s' if pile_size != 1 else ''}", font=small, fill=DIM)
    x0 = MARGIN + label_w
    if pile:
        _fan(image, pile, x0, MARGIN, four_colour, pile_step)
        top_x = x0 + pile_step * (len(pile) - 1)
        if to_beat is not None and to_beat != pile[-1]:
            note = "see-through: beat the card below"
        elif to_beat is not None:
            note = "to beat"
        else:
            note = "any card"
        draw.text((top_x + CARD_W // 2, MARGIN + CARD_H + 3), note, font=small, fill=GOLD, anchor="mt")
    else:
        draw.rounded_rectangle([x0, MARGIN, x0 + CARD_W - 1, MARGIN + CARD_H - 1], radius=7, outline=DIM, width=2)
        draw.text((x0 + CARD_W // 2, MARGIN + CARD_H // 2), "empty", font=small, fill=DIM, anchor="mm")
    y = MARGIN + CARD_H + NAME_H + 8
    half = _top(None, seat_h - 6, four_colour)
    for name, up, down, hand, out, turn in seats:
        colour = GOLD if turn else (DIM if out else INK)
        draw.text((MARGIN, y + 4), ("▶ " if turn else "") + _short(name, 13), font=big, fill=colour)
        draw.text((MARGIN, y + 24), "out" if out else f"hand {hand}", font=small, fill=DIM)
        for i in range(max(down, len(up))):
            x = x0 + i * (CARD_W + 4)
            if i < down:
                _lay(image, half, (x, y))
            if i < len(up):
                face = _top(up[i], seat_h - 12, four_colour)
                _lay(image, face, (x + 3 if i < down else x, y + 6))
        y += seat_h
    return encode(image)


@lru_cache(maxsize=256)
def _top(code: str | None, height: int, four_colour: bool) -> Image.Image:
    """The top of a card (``None``: of a back): its index shows, the rest is under the next row."""
    face = card_back() if code is None else card_face(code, four_colour)
    return face.crop((0, 0, CARD_W, height))


# -- Oh Hell's running totals ---------------------------------------------------------------------
PALETTE = ((250, 200, 60), (120, 200, 255), (255, 120, 120), (150, 230, 140), (220, 150, 255), (255, 170, 90),
           (240, 240, 240), (110, 220, 210))  # fmt: skip


@lru_cache(maxsize=CACHE)
def scores_chart_png(names: tuple[str, ...], totals: tuple[tuple[int, ...], ...]) -> bytes:
    """Running totals after each deal (``totals[d][seat]``), one coloured line a player, a key."""
    width, height = 520, 260
    key_w = 130
    image, draw = _canvas(width, height)
    small = font(11)
    plot = (MARGIN + 34, MARGIN + 6, width - key_w - MARGIN, height - MARGIN - 20)
    series = [(0,) * len(names), *totals]
    values = [v for row in series for v in row] or [0]
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    x0, y0, x1, y1 = plot

    def at(deal: int, value: int) -> tuple[float, float]:
        x = x0 + (x1 - x0) * deal / max(len(series) - 1, 1)
        y = y1 - (y1 - y0) * (value - low) / (high - low)
        return x, y

    draw.rectangle(plot, outline=DIM)
    if low < 0 < high:
        draw.line([at(0, 0), (x1, at(0, 0)[1])], fill=DIM, width=1)
    for value in (low, high):
        draw.text((x0 - 4, at(0, value)[1]), str(value), font=small, fill=INK, anchor="rm")
    for deal in range(len(series)):
        if len(series) <= 20 or deal % 5 == 0:
            draw.text((at(deal, low)[0], y1 + 4), str(deal), font=small, fill=DIM, anchor="mt")
    for seat, name in enumerate(names):
        colour = PALETTE[seat % len(PALETTE)]
        points = [at(d, row[seat]) for d, row in enumerate(series)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        for x, y in points:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
        ky = MARGIN + 6 + seat * 18
        draw.rectangle([width - key_w, ky + 3, width - key_w + 10, ky + 13], fill=colour)
        final = series[-1][seat]
        draw.text((width - key_w + 16, ky), f"{_short(name, 12)} {final}", font=font(12), fill=INK)
    draw.text(((x0 + x1) / 2, height - 4), "deal", font=small, fill=DIM, anchor="mb")
    return encode(image)


def warm() -> None:
    """Draw every face and find the palette once (at start-up, in a thread): no picture a player
    waits for pays for them."""
    faces.warm()
    palette()
