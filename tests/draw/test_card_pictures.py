"""The card pictures, looked at as pixels: sizes, every card different, black suits that read on
both Discord themes and cannot be confused with each other."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops

from draw import faces, images
from draw.emojis import all_codes, emoji_name, emoji_png
from games.common.cards import card_code, every_face

DISCORD_DARK = (49, 51, 56)
DISCORD_LIGHT = (255, 255, 255)
ALL_FACES = [card_code(c) for c in every_face()]


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def luminance(rgb: tuple[int, ...]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio (1 to 21; 4.5 is what body text needs)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_mask(image: Image.Image, threshold: int = 110) -> Image.Image:
    """Pixels dark enough to be a black suit's ink."""
    return image.convert("L").point(lambda v: 255 if v < threshold else 0)


def differing(a: Image.Image, b: Image.Image) -> float:
    """Of the pixels inked in either mask, the share inked in only one (0: same shape, 1: disjoint)."""
    either = sum(1 for v in ImageChops.lighter(a, b).get_flattened_data() if v > 127)
    diff = sum(1 for v in ImageChops.difference(a, b).get_flattened_data() if v > 127)
    return diff / max(either, 1)


def test_every_face_has_the_card_size_and_differs_from_every_other():
    seen: dict[bytes, str] = {}
    for code in [*ALL_FACES, "?"]:
        face = faces.card_face(code)
        assert face.size == (faces.CARD_W, faces.CARD_H)
        key = face.tobytes()
        assert key not in seen, f"{code} looks like {seen.get(key)}"
        seen[key] = code
    assert faces.card_face("AS#1").tobytes() == faces.card_face("AS").tobytes()  # a copy looks the same


@pytest.mark.parametrize("four_colour", [False, True])
def test_black_suits_read_on_the_card_and_the_card_on_both_themes(four_colour):
    for code in ("AS", "AC", "10S", "10C"):
        suit = faces.suit_colour(0 if code.endswith("C") else 3, four_colour)
        assert contrast(suit, faces.WHITE) >= 7, (code, suit)
    # the card's white body against the dark theme, its frame against the light theme
    assert contrast(faces.WHITE, DISCORD_DARK) >= 7
    assert contrast(faces.FRAME, DISCORD_LIGHT) >= 4.5
    # the pips really are drawn in the ink: the centre of a big black pip is ink-dark
    for code in ("AS", "AC"):
        face = faces.card_face(code, four_colour).convert("RGB")
        centre = face.getpixel((faces.CARD_W // 2 + 7, faces.CARD_H // 2 + 14))
        assert contrast(centre, faces.WHITE[:3]) >= 7, (code, centre)


@pytest.mark.parametrize("size", [faces.CARD_H, 44, 22])
def test_spades_and_clubs_differ_in_shape_even_small(size):
    """At a card's size and at an emoji's smallest (22 px on a button), the ink of ♠ and ♣ of the
    same rank differs in a clear share of its pixels (not a glyph that shrinks to a blob), though
    the rank printed on both is the same ink."""
    for rank in ("A", "7", "K", "12"):
        if size == faces.CARD_H:
            spade, club = faces.card_face(rank + "S"), faces.card_face(rank + "C")
        else:
            spade = _png(emoji_png(rank + "S")).resize((size, size), Image.Resampling.LANCZOS)
            club = _png(emoji_png(rank + "C")).resize((size, size), Image.Resampling.LANCZOS)
        # the pip alone: the big one of a card (its lower middle), the lower half of an emoji
        w, h = spade.size
        box = (w // 4, h * 2 // 5, w, h) if size == faces.CARD_H else (0, h // 2, w, h)
        share = differing(ink_mask(spade.convert("RGB").crop(box)), ink_mask(club.convert("RGB").crop(box)))
        # measured: 0.20 on a card, about 0.10 on an emoji at 44 and 22 px (a glyph shrunk to a
        # blob would give under 0.03)
        assert share > (0.15 if size == faces.CARD_H else 0.07), (rank, size, share)


def test_hand_picture_size_grows_with_the_hand_and_wraps():
    one = _png(images.hand_png(("AS",)))
    thirteen = _png(images.hand_png(tuple(ALL_FACES[:13])))
    thirty = _png(images.hand_png(tuple(ALL_FACES[:30])))
    assert one.size == (faces.CARD_W + 2 * images.MARGIN, faces.CARD_H + 2 * images.MARGIN)
    assert thirteen.width == faces.CARD_W + 12 * images.HAND_STEP + 2 * images.MARGIN
    assert thirteen.height == one.height
    assert thirty.width == thirteen.width and thirty.height > thirteen.height  # three rows
    assert _png(images.hand_png(())).size[0] > 0


def test_different_hands_give_different_pictures():
    pictures = {images.hand_png(pair) for pair in itertools.permutations(("AS", "AC", "QH"), 2)}
    assert len(pictures) == 6
    a = _png(images.hand_png(("AS", "KD")))
    b = _png(images.hand_png(("AC", "KD")))
    assert ImageChops.difference(a, b).getbbox() is not None


def test_trick_picture_has_a_place_per_player_and_shows_the_cards():
    two = _png(images.trick_png((("ann", "QH"), ("bob", "KH"))))
    three = _png(images.trick_png((("ann", "QH"), ("bob", "KH")), ("cat",)))
    other = _png(images.trick_png((("ann", "QH"), ("bob", "KS"))))
    assert three.width > two.width and three.height == two.height
    assert ImageChops.difference(two, other).getbbox() is not None
    with_turnup = _png(images.trick_png((("ann", "QH"),), (), "5S"))
    assert with_turnup.width > _png(images.trick_png((("ann", "QH"),))).width


def test_scores_chart_draws_every_player():
    chart = _png(images.scores_chart_png(("ann", "bob"), ((10, 0), (11, 12))))
    colours = {c for _, c in chart.getcolors(1 << 16)}
    close = [any(sum(abs(a - b) for a, b in zip(c, p, strict=True)) < 40 for c in colours) for p in images.PALETTE[:2]]
    assert all(close)


def test_pictures_are_cached_by_content():
    images.hand_png.cache_clear()
    first = images.hand_png(("AS", "KD"))
    assert images.hand_png(("AS", "KD")) is first
    assert images.hand_png.cache_info().hits == 1


def test_emoji_set_names_and_sizes():
    codes = all_codes()
    names = [emoji_name(c) for c in codes]
    assert len(set(names)) == len(codes) == 64
    assert all(2 <= len(n) <= 32 and n.replace("_", "").isalnum() for n in names)
    for code in ("AS", "13H", "X", "?"):
        data = emoji_png(code)
        assert len(data) < 256 * 1024  # Discord's limit for an emoji
        assert Image.open(io.BytesIO(data)).size == (faces.EMOJI_SIZE, faces.EMOJI_SIZE)


def test_rendered_carries_fresh_files_for_sends_and_edits():
    """A discord.File is used up by the request that sends it: each call gives new ones. An edit
    with ``files=None`` leaves the message's attachments alone; a list (even empty) replaces them."""
    from bot.seam.contract import Rendered
    from draw.pictures import ImageFile

    picture = ImageFile("table.png", images.hand_png(("AS",)), "ace of spades")
    rendered = Rendered(content="x", files=[picture])
    first, second = rendered.send_kwargs()["files"][0], rendered.send_kwargs()["files"][0]
    assert first is not second and first.filename == "table.png" and first.fp.read() == picture.data
    assert [f.filename for f in rendered.kwargs()["attachments"]] == ["table.png"]
    assert "attachments" not in Rendered(content="lobby").kwargs()
    assert Rendered(content="closed", files=[]).kwargs()["attachments"] == []
    assert "files" not in Rendered(content="closed", files=[]).send_kwargs()


def test_kept_text_bitmaps_draw_the_same_pixels_as_pillows_own_font(monkeypatch):
    """A picture drawn with the fonts that keep their text bitmaps equals, pixel for pixel, the
    one Pillow's own font draws; drawing it again renders no text anew."""
    from cogs.shithead.pictures import table_png

    seats = (
        ("ann", ("AS", "10H"), 3, 4, False, True),
        ("Computer 1 (strong)", (), 0, 0, True, False),
        ("bob", ("2C",), 2, 11, False, False),
    )

    def draw_all() -> list[bytes]:
        images.trick_png.cache_clear()
        images.scores_chart_png.cache_clear()
        table_png.cache_clear()
        return [
            table_png(("3D", "3S", "9C"), 14, "9C", seats),
            table_png((), 0, None, seats),
            images.trick_png((("ann", "QH"), ("bob", "2S")), ("eve",), "5H"),
            images.scores_chart_png(("ann", "bob"), ((0, 0), (12, 3), (15, 23))),
        ]

    faces.font.cache_clear()
    kept = draw_all()
    assert all(isinstance(faces.font(size), faces.KeptMasks) for size in (11, 12, 15))
    rendered = []
    original = faces.ImageFont.FreeTypeFont.getmask2

    def counting(self, *args, **kwargs):
        rendered.append(args[0])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(faces.ImageFont.FreeTypeFont, "getmask2", counting)
    assert draw_all() == kept
    assert rendered == []  # every text's bitmap was kept from the first drawing

    faces.font.cache_clear()
    monkeypatch.setattr(faces, "KeptMasks", lambda path, size: faces.ImageFont.truetype(path, size))
    assert draw_all() == kept  # Pillow's own font, rendering every text
    assert rendered  # it did render them
    faces.font.cache_clear()


def _drawn_words(monkeypatch: pytest.MonkeyPatch, draw: object) -> list[str]:
    """Every text ``draw()`` writes into its pictures (what Pillow's ``ImageDraw.text`` is given)."""
    from PIL import ImageDraw

    written: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):  # type: ignore[no-untyped-def]
        written.append(str(words))
        return original(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    draw()  # type: ignore[operator]
    monkeypatch.undo()
    return written


def test_the_words_drawn_into_every_picture_are_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A German table's pictures say "Stapel", "raus", "Runde" in German: the words
    Pillow draws come from the catalogue, and each language's picture is cached apart (the
    English one drawn first is not handed to the German reader)."""
    import locales
    from cogs.shithead.pictures import table_png
    from locales import catalogue

    catalogue.install()
    seats = (("ann", ("AS",), 3, 4, False, True), ("bob", (), 0, 0, True, False))
    sheet_rows = ((1, 5, ((1, 1, 11), (2, 0, -2))),)

    def draw_all() -> list[bytes]:
        return [
            table_png(("3D", "9C"), 14, "9C", seats),
            table_png(("3D", "8S"), 2, "3D", seats),
            table_png((), 0, None, seats),
            table_png(("8S",), 1, None, seats),
            images.trick_png((("ann", "QH"),), ("bob",), "5H"),
            images.hand_png(()),
            images.scoresheet_png(("ann", "bob"), sheet_rows, ((11, -2),)),
        ]

    english_words = _drawn_words(monkeypatch, draw_all)
    with locales.speaking("en"):
        english = draw_all()
    with locales.speaking("de"):
        german_words = _drawn_words(monkeypatch, draw_all)
        german = draw_all()
    assert {"Pile", "14 cards", "hand 4", "out", "to beat", "empty", "turn-up", "no cards", "deal", "total"} <= set(
        english_words
    )
    expected = {
        "Stapel",
        "14 Karten",
        "2 Karten",
        "Hand 4",
        "raus",
        "zu schlagen",
        "durchsichtig: die Karte darunter schlagen",
        "leer",
        "jede Karte",
        "aufgedeckt",
        "Runde",
        "Gesamt",
    }
    assert expected <= set(german_words), set(german_words)
    english_only = {"Pile", "out", "to beat", "empty", "turn-up", "no cards", "deal", "total", "any card"}
    assert not english_only & set(german_words), english_only & set(german_words)
    assert all(e != g for e, g in zip(english, german, strict=True))
    with locales.speaking("en"):
        assert draw_all() == english  # each language's picture kept apart, not overwritten
