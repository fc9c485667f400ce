"""Card faces the project draws itself: no downloaded artwork, no font with suit glyphs.

Suit pips are polygons and circles (so a spade and a club differ in outline, not only in a glyph a
font may lack), ranks are text in DejaVu Sans Bold when Debian has it and Pillow's own bundled
font otherwise. Each face is drawn once, four times too large and scaled down (anti-aliasing for
free), then kept: a game draws the same few dozen faces over and over.

Black suits are drawn in near-black on a white card with a dark frame, so they read on Discord's
dark and light themes alike; the ``four_colour`` faces paint clubs green and diamonds blue.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from draw.stored import kept
from games.common.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    RANK_LABELS,
    SPADES,
    card_code,
    every_face,
    is_joker,
    parse_card,
    rank_of,
    suit_of,
)

#: a card's size in the composite pictures (pixels); about a poker card's 5:7
CARD_W, CARD_H = 72, 100
#: the size of an emoji's square picture (Discord shows them at 22-48 px; 128 is its own maximum)
EMOJI_SIZE = 128
SUPERSAMPLE = 4

WHITE = (255, 255, 255, 255)
FRAME = (60, 60, 60, 255)
RED = (208, 20, 44, 255)
BLACK = (20, 20, 24, 255)
GREEN = (0, 100, 40, 255)
BLUE = (20, 70, 200, 255)
BACK_BLUE = (36, 64, 140, 255)
BACK_LINE = (120, 150, 220, 255)
JOKER_GOLD = (196, 140, 0, 255)

_FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)
_CONDENSED_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf", *_FONT_PATHS)
#: the fonts a face may be drawn with: a picture kept on disk (draw.stored) is kept for these
FONT_FILES = tuple(sorted({*_FONT_PATHS, *_CONDENSED_PATHS}))

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Colour = tuple[int, ...]


class KeptMasks(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the bitmap of each text it has rendered.

    A table picture is drawn again after every move with the same names, counts and notes, and
    FreeType rendering them again was about a third of its time (``bench/render_cards.py``: a new
    Shithead table picture 4.1 ms at the median before, 2.5 ms after). Pillow draws a text by asking the
    font for its bitmap (``getmask2``) and stamping the fill through it, reading the bitmap only,
    so a kept bitmap draws the same pixels; colour-font bitmaps (mode ``RGBA``), which Pillow
    changes in place, are never kept."""

    #: texts kept a font before its store is emptied: a table's names, counts and notes are a few
    #: dozen, and a bitmap of one is a few kilobytes, so a busy bot keeps a few megabytes a size
    LIMIT = 1024

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size)
        self._masks: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}
        self._lengths: dict[str | bytes, float] = {}

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        """The width of ``text``, kept like its bitmap: fitting a name to a card tries it cut at
        each length in turn, for every name of every picture (seven 32-character names: a few
        hundred measurements a trick, most of a trick picture's time), and the names are the
        same all game."""
        if mode or direction or features or language:
            return super().getlength(text, mode, direction, features, language)
        lengths = self._lengths
        hit = lengths.get(text)
        if hit is None:
            if len(lengths) >= 4 * self.LIMIT:
                lengths.clear()
            hit = lengths[text] = super().getlength(text)
        return hit

    def getmask2(  # Pillow's signature: its ImageDraw passes these by position
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        render = super().getmask2
        if mode == "RGBA" or args:
            return render(text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs)
        key = (text, mode, direction, features and tuple(features), language, stroke_width, anchor, ink, start)
        if kwargs:
            key += tuple(sorted(kwargs.items()))
        masks = self._masks
        hit = masks.get(key)
        if hit is None:
            if len(masks) >= self.LIMIT:
                masks.clear()
            hit = masks[key] = render(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, **kwargs
            )
        return hit


@lru_cache(maxsize=64)
def font(size: int, condensed: bool = False) -> Font:
    """A bold sans font of ``size`` px: DejaVu if installed, else Pillow's bundled one."""
    for path in _CONDENSED_PATHS if condensed else _FONT_PATHS:
        if Path(path).exists():
            return KeptMasks(path, size)
    return ImageFont.load_default(size=size)


def suit_colour(suit: int, four_colour: bool = False) -> tuple[int, int, int, int]:
    if four_colour:
        return {CLUBS: GREEN, DIAMONDS: BLUE, HEARTS: RED, SPADES: BLACK}[suit]
    return RED if suit in (DIAMONDS, HEARTS) else BLACK


# -- pips ---------------------------------------------------------------------------------------
def draw_pip(draw: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, size: float, fill: Colour) -> None:
    """A suit sign of height ``size`` centred on ``(cx, cy)``, built from shapes alone.

    The spade is a pointed heart upside down on a flared stem; the club is three round lobes on
    the same stem: at any size the spade has a point on top and the club a round top, so the two
    black suits never look alike."""
    s = size / 2
    if suit == DIAMONDS:
        draw.polygon([(cx, cy - s), (cx + 0.72 * s, cy), (cx, cy + s), (cx - 0.72 * s, cy)], fill=fill)
    elif suit == HEARTS:
        _heart(draw, cx, cy, s, fill, upside_down=False)
    elif suit == SPADES:
        _heart(draw, cx, cy - 0.12 * s, s * 0.88, fill, upside_down=True)
        _stem(draw, cx, cy, s, fill)
    elif suit == CLUBS:
        r = 0.36 * s
        for dx, dy in ((0.0, -0.50), (-0.44, 0.10), (0.44, 0.10)):
            x, y = cx + dx * s, cy + dy * s
            draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)
        draw.polygon([(cx, cy - 0.3 * s), (cx - 0.3 * s, cy + 0.15 * s), (cx + 0.3 * s, cy + 0.15 * s)], fill=fill)
        _stem(draw, cx, cy, s, fill)


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Colour, upside_down: bool) -> None:
    """Two lobes and a point; ``upside_down`` turns it into a spade's blade (point on top)."""
    sign = -1 if upside_down else 1
    r = 0.5 * s
    lobe_y = cy - sign * 0.42 * s
    for dx in (-0.46, 0.46):
        x = cx + dx * s
        draw.ellipse([x - r, lobe_y - r, x + r, lobe_y + r], fill=fill)
    tip = (cx, cy + sign * 0.95 * s)
    # the lobes' outer tangents meet at the tip: a polygon from each lobe's side down to the point
    side = 0.96 * s
    draw.polygon([(cx - side, lobe_y + sign * 0.12 * s), (cx + side, lobe_y + sign * 0.12 * s), tip], fill=fill)
    draw.polygon([(cx - 0.4 * s, lobe_y), (cx + 0.4 * s, lobe_y), (cx, lobe_y - sign * 0.2 * s)], fill=fill)


def _stem(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: Colour) -> None:
    draw.polygon([(cx, cy + 0.1 * s), (cx - 0.38 * s, cy + s), (cx + 0.38 * s, cy + s)], fill=fill)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


# -- whole faces ----------------------------------------------------------------------------------
def _blank(w: int, h: int, k: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([k, k, w * k - k - 1, h * k - k - 1], radius=7 * k, fill=WHITE, outline=FRAME, width=k)
    return image, draw


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour) -> None:
    condensed = len(text) > 1
    draw.text(xy, text, font=font(size, condensed), fill=fill, anchor="mt")


def rank_text(code: str) -> str:
    return RANK_LABELS[rank_of(parse_card(code))]


@cache
def card_face(code: str, four_colour: bool = False) -> Image.Image:
    """The face of ``code`` (``"QH"``, ``"11D"``, ``"X"``; ``"?"``: a card's back), RGBA at
    :data:`CARD_W` × :data:`CARD_H`. Copies (``"AS#1"``) look like their first copy."""
    base = code.partition("#")[0]
    if base == "?":
        return card_back()
    # kept on disk between starts (draw.stored): drawing the pack was a third of a second of each
    name = base + ("_four" if four_colour else "")
    data = kept("face", name, lambda: _draw_card_face(base, four_colour).tobytes(), FONT_FILES)
    return Image.frombytes("RGBA", (CARD_W, CARD_H), data)


def _draw_card_face(base: str, four_colour: bool) -> Image.Image:
    k = SUPERSAMPLE
    w, h = CARD_W, CARD_H
    image, draw = _blank(w, h, k)
    card = parse_card(base)
    if is_joker(card):
        _star(draw, w * k / 2, h * k / 2 - 4 * k, 22 * k, JOKER_GOLD)
        _text(draw, (w * k / 2, h * k - 26 * k), "JOKER", 14 * k, BLACK)
        _text(draw, (13 * k, 6 * k), "J", 16 * k, JOKER_GOLD)
    else:
        suit = suit_of(card)
        colour = suit_colour(suit, four_colour)
        rank = RANK_LABELS[rank_of(card)]
        # the index top left stays readable where cards overlap in a hand; the big pip fills the rest
        _text(draw, (14 * k, 5 * k), rank, 20 * k, colour)
        draw_pip(draw, suit, 14 * k, 35 * k, 14 * k, colour)
        draw_pip(draw, suit, (w / 2 + 7) * k, (h / 2 + 14) * k, 40 * k, colour)
    return image.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1)
def card_back() -> Image.Image:
    k = SUPERSAMPLE
    w, h = CARD_W, CARD_H
    image, draw = _blank(w, h, k)
    draw.rounded_rectangle([5 * k, 5 * k, (w - 5) * k, (h - 5) * k], radius=5 * k, fill=BACK_BLUE)
    for x in range(-h, w, 8):
        draw.line([(x * k + 5 * k, 5 * k), ((x + h) * k, (h - 5) * k)], fill=BACK_LINE, width=k)
    # the lines overran the inner frame: redraw the white margin over them
    draw.rounded_rectangle([k, k, w * k - k - 1, h * k - k - 1], radius=7 * k, outline=WHITE, width=4 * k)
    draw.rounded_rectangle([k, k, w * k - k - 1, h * k - k - 1], radius=7 * k, outline=FRAME, width=k)
    return image.resize((w, h), Image.Resampling.LANCZOS)


@cache
def emoji_face(code: str, four_colour: bool = False) -> Image.Image:
    """A card as an emoji: rank over a big pip, large enough to read at 22 px (a button's size)."""
    k = 2
    size = EMOJI_SIZE
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    x0, x1 = 18 * k, (size - 18) * k
    draw.rounded_rectangle([x0, 2 * k, x1, (size - 2) * k], radius=14 * k, fill=WHITE, outline=FRAME, width=3 * k)
    cx = size * k / 2
    base = code.partition("#")[0]
    if base == "?":
        draw.rounded_rectangle([x0 + 8 * k, 10 * k, x1 - 8 * k, (size - 10) * k], radius=8 * k, fill=BACK_BLUE)
    elif is_joker(parse_card(base)):
        _star(draw, cx, 52 * k, 36 * k, JOKER_GOLD)
        _text(draw, (cx, 88 * k), "JKR", 30 * k, BLACK)
    else:
        card = parse_card(base)
        suit = suit_of(card)
        colour = suit_colour(suit, four_colour)
        rank = RANK_LABELS[rank_of(card)]
        # the pip as big as the card allows: at 22 px a spade's point and a club's lobes still show
        _text(draw, (cx, 4 * k), rank, (46 if len(rank) == 1 else 40) * k, colour)
        draw_pip(draw, suit, cx, 88 * k, 62 * k, colour)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@cache
def suit_emoji_face(suit: int, four_colour: bool = False) -> Image.Image:
    """A suit alone as an emoji (trumps, a revoke's suit): its pip on the white card face, so a
    spade or a club reads on a dark theme as on a light one."""
    k = 2
    size = EMOJI_SIZE
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    x0, x1 = 14 * k, (size - 14) * k
    draw.rounded_rectangle([x0, 6 * k, x1, (size - 6) * k], radius=18 * k, fill=WHITE, outline=FRAME, width=3 * k)
    draw_pip(draw, suit, size * k / 2, size * k / 2, 76 * k, suit_colour(suit, four_colour))
    return image.resize((size, size), Image.Resampling.LANCZOS)


def warm() -> None:
    """Draw every face once (at start-up, in a thread): no picture a player waits for pays for it."""
    for card in every_face():
        card_face(card_code(card), False)  # as the pictures call it: lru_cache keys on the arguments given
    card_back()
