"""Shithead's pictures: the table (the pile's top and everyone's face-up cards over their
face-down ones) and a player's own cards. Built from the same views as the text: the table from
the public view, which holds no hand and no face-down card. Each picture's alt text (what a
screen reader says for it) is made here from the same view: the table's pile, whose turn, each
seat's face-up cards and counts; a hand only on that hand's private picture."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

import discord
from PIL import Image

from draw.cards import card_words, cards_words
from draw.faces import CARD_H, CARD_W, card_back, card_face, font
from draw.images import (
    DIM,
    GOLD,
    INK,
    MARGIN,
    NAME_H,
    Spoken,
    canvas,
    encode,
    fan,
    hand_png,
    lay,
    row_width,
    short_name,
)
from draw.pictures import ImageFile, fit_alt, show_picture
from games.shithead.contracts import ShitheadView
from locales import N_, _, ngettext, translate

Name = Callable[[int], str]
TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
PILE_SHOWN = 6


def table_picture(view: ShitheadView, name: Name, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    seats: list[SeatPicture] = []
    for info in view["seats"]:
        seat = info["seat"]
        turn = view["phase"] == "play" and view["turn"] == seat
        seats.append((name(seat), tuple(info["face_up"]), info["face_down"], info["hand_size"], info["out"], turn))
    pile = tuple(view["pile"][-PILE_SHOWN:])
    data = table_png(pile, view["pile_size"], view["to_beat"], tuple(seats), four)
    return [show_picture(embed, TABLE_FILE, data, table_alt(view, name))]


def table_alt(view: ShitheadView, name: Name) -> str:
    """The table picture in words (:func:`table_picture`): the pile's top cards and the card to
    beat, then each seat: whose turn, face-up cards, how many face down and in hand. Only what
    the public view holds (no hand, no face-down card)."""
    pile = view["pile"][-PILE_SHOWN:]

    def said(name: Name, words: Callable[[str], str]) -> str:
        top = ", ".join(words(c) for c in pile)
        size = view["pile_size"]
        if pile:
            head = ngettext(
                "Pile: {n} card, the top {shown} (newest last): {top}.",
                "Pile: {n} cards, the top {shown} (newest last): {top}.",
                size,
                shown=len(pile),
                top=top,
            )
        else:
            head = ngettext("Pile: {n} card.", "Pile: {n} cards.", size)
        if view["to_beat"] is not None:
            beat = _("To beat: {card}.", card=words(view["to_beat"]))
        else:
            beat = _("Any card may be played.")
        parts = [head, beat]
        for info in view["seats"]:
            seat = info["seat"]
            if info["out"]:
                parts.append(_("{name}: out.", name=name(seat)))
                continue
            up = ", ".join(words(c) for c in info["face_up"]) or _("none")
            line = (
                N_("{name} (to play): face up {up}; {down} face down; {hand} in hand.")
                if view["phase"] == "play" and view["turn"] == seat
                else N_("{name}: face up {up}; {down} face down; {hand} in hand.")
            )
            parts.append(translate(line, name=name(seat), up=up, down=info["face_down"], hand=info["hand_size"]))
        return " ".join(parts)

    short = lambda seat: short_name(name(seat), 12)  # noqa: E731
    return fit_alt(said(name, card_words), said(short, card_words), said(short, _short_words))


def _counted(cards: Sequence[str]) -> str:
    """Alike cards once, with how many (``3 × 7 hearts``): a picked-up pile of several packs."""
    seen = Counter(_short_words(c) for c in cards)
    return ", ".join(f"{n} × {words}" if n > 1 else words for words, n in seen.items())


def _short_words(code: str) -> str:
    """A card in fewer words (``queen hearts``), for a table too full for the longer ones."""
    return card_words(code).replace(" of ", " ")


def hand_picture(view: ShitheadView, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    """The player's hand; once it is empty, the face-up cards they now play from."""
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    cards = view["hand"] or view["seats"][seat]["face_up"]
    if not cards:  # (the picture says "no cards": what is left is face down, played blind)
        return [show_picture(embed, HAND_FILE, hand_png((), four), _("Your hand: no cards left."))]
    if view["hand"]:
        alts = [
            ngettext("Your hand, {n} card: {cards}.", "Your hand, {n} cards: {cards}.", len(cards), cards=listed)
            for listed in (cards_words(cards), ", ".join(_short_words(c) for c in cards), _counted(cards))
        ]
    else:
        alts = [
            ngettext(
                "Your face-up cards (your hand is empty), {n} card: {cards}.",
                "Your face-up cards (your hand is empty), {n} cards: {cards}.",
                len(cards),
                cards=listed,
            )
            for listed in (cards_words(cards), ", ".join(_short_words(c) for c in cards), _counted(cards))
        ]
    alt = fit_alt(*alts)
    return [show_picture(embed, HAND_FILE, hand_png(tuple(cards), four), alt)]


#: one seat as the table shows it: name, face-up cards, face-down count, cards in hand, out, to play
SeatPicture = tuple[str, tuple[str, ...], int, int, bool, bool]


@Spoken
def table_png(
    language: str,
    pile: tuple[str, ...],
    pile_size: int,
    to_beat: str | None,
    seats: tuple[SeatPicture, ...],
    four_colour: bool = False,
) -> bytes:
    """The pile's top cards (newest on the right, the card to beat marked) above one row per seat:
    face-down cards as backs with the face-up cards laid on them, and the hand's size. Its words
    ("Pile", "out", "hand 5"...) are in ``language``, the one spoken where it is drawn
    (:class:`draw.images.Spoken` passes it and keeps each language's picture apart)."""
    pile_step = 24
    label_w = 120
    widest_seat = max((max(len(up), down) for _, up, down, *_ in seats), default=0)
    seat_cards_w = row_width(widest_seat, CARD_W + 4) if widest_seat else CARD_W
    width = max(label_w + seat_cards_w, label_w + row_width(max(len(pile), 1), pile_step)) + 2 * MARGIN
    seat_h = CARD_H // 2 + 12
    height = MARGIN + CARD_H + NAME_H + 8 + seat_h * len(seats) + MARGIN
    image, draw = canvas(width, height)
    big, small = font(15), font(12)
    draw.text((MARGIN, MARGIN + 4), _("Pile"), font=big, fill=INK)
    draw.text((MARGIN, MARGIN + 24), ngettext("{n} card", "{n} cards", pile_size), font=small, fill=DIM)
    x0 = MARGIN + label_w
    if pile:
        fan(image, pile, x0, MARGIN, four_colour, pile_step)
        top_x = x0 + pile_step * (len(pile) - 1)
        if to_beat is not None and to_beat != pile[-1]:
            note = _("see-through: beat the card below")
        elif to_beat is not None:
            note = _("to beat")
        else:
            note = _("any card")
        draw.text((top_x + CARD_W // 2, MARGIN + CARD_H + 3), note, font=small, fill=GOLD, anchor="mt")
    else:
        draw.rounded_rectangle([x0, MARGIN, x0 + CARD_W - 1, MARGIN + CARD_H - 1], radius=7, outline=DIM, width=2)
        draw.text((x0 + CARD_W // 2, MARGIN + CARD_H // 2), _("empty"), font=small, fill=DIM, anchor="mm")
    y = MARGIN + CARD_H + NAME_H + 8
    half = _top(None, seat_h - 6, four_colour)
    for name, up, down, hand, out, turn in seats:
        colour = GOLD if turn else (DIM if out else INK)
        draw.text((MARGIN, y + 4), ("▶ " if turn else "") + short_name(name, 13), font=big, fill=colour)
        draw.text((MARGIN, y + 24), _("out") if out else _("hand {n}", n=hand), font=small, fill=DIM)
        for i in range(max(down, len(up))):
            x = x0 + i * (CARD_W + 4)
            if i < down:
                lay(image, half, (x, y))
            if i < len(up):
                face = _top(up[i], seat_h - 12, four_colour)
                lay(image, face, (x + 3 if i < down else x, y + 6))
        y += seat_h
    return encode(image)


@lru_cache(maxsize=256)
def _top(code: str | None, height: int, four_colour: bool) -> Image.Image:
    """The top of a card (``None``: of a back): its index shows, the rest is under the next row."""
    face = card_back() if code is None else card_face(code, four_colour)
    return face.crop((0, 0, CARD_W, height))
