"""Shithead's pictures: the table (the pile's top and everyone's face-up cards over their
face-down ones) and a player's own cards. Built from the same views as the text: the table from
the public view, which holds no hand and no face-down card."""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.contract import ImageFile
from bot.render.images import SeatPicture, hand_png, shithead_png
from bot.render.pictures import show_picture
from games.shithead.contracts import ShitheadView

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
    data = shithead_png(pile, view["pile_size"], view["to_beat"], tuple(seats), four)
    return [show_picture(embed, TABLE_FILE, data)]


def hand_picture(view: ShitheadView, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    """The player's hand; once it is empty, the face-up cards they now play from."""
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    cards = view["hand"] or view["seats"][seat]["face_up"]
    return [show_picture(embed, HAND_FILE, hand_png(tuple(cards), four))]
