"""Oh Hell's pictures: the trick on the table, a player's hand, the running totals.

Built from the same engine views as the text (the public view for the table), so a picture can
show no more than the message it sits on."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from draw.images import hand_png, scores_chart_png, trick_png
from draw.pictures import ImageFile, show_picture
from games.ohhell.views import OhHellSeatView, OhHellView

Name = Callable[[int], str]
TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
CHART_FILE = "scores.png"


def trick_picture(view: OhHellView, name: Name, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    """While cards are played: the trick so far and an empty place for each player still to play
    (in playing order); between tricks, the trick just finished, its winner marked, until the next
    card is led (a player sees the trick they just played); while bidding, the turned-up card
    alone (if there is one)."""
    turnup = view["turnup"]
    finished = finished_trick(view)
    if finished is not None:
        return [show_picture(embed, TABLE_FILE, trick_png(_marked(finished, name), (), turnup, four))]
    if view["phase"] == "playing":
        plays = tuple((name(seat), code) for seat, code, _named in view["trick"])
        played = {seat for seat, _code, _named in view["trick"]}
        order = list(view["players"])
        start = order.index(view["leader"]) if view["leader"] in order else 0
        waiting = tuple(name(s) for s in order[start:] + order[:start] if s not in played)
        return [show_picture(embed, TABLE_FILE, trick_png(plays, waiting, turnup, four))]
    if view["phase"] == "bidding" and turnup is not None:
        return [show_picture(embed, TABLE_FILE, trick_png((), (), turnup, four))]
    return []


def finished_trick(view: OhHellView) -> Mapping[str, Any] | None:
    """The trick this deal just finished, while the next has no card yet (else None)."""
    last = view["last_trick"]
    if view["phase"] != "playing" or view["trick"] or last is None or last["deal"] != view["deal"]:
        return None
    return last


def _marked(last: Mapping[str, Any], name: Name) -> tuple[tuple[str, str], ...]:
    winner = last["winner"]
    return tuple((f"★ {name(seat)}" if seat == winner else name(seat), code) for seat, code, _named in last["cards"])


def last_trick_picture(
    last: Mapping[str, Any] | None, name: Name, embed: discord.Embed, four: bool = False
) -> list[ImageFile]:
    """A deal's closing message: its last trick, the winner's name marked."""
    if last is None:
        return []
    return [show_picture(embed, TABLE_FILE, trick_png(_marked(last, name), (), None, four))]


def hand_picture(view: OhHellSeatView, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    if view["hand_hidden"]:
        return []  # Devil's Bridge: the player may not see their own card
    return [show_picture(embed, HAND_FILE, hand_png(tuple(view["hand"]), four))]


def chart_picture(names: Sequence[str], running: Sequence[Sequence[int]], embed: discord.Embed) -> list[ImageFile]:
    """Running totals after each deal; nothing before the first deal is scored."""
    if not running:
        return []
    data = scores_chart_png(tuple(names), tuple(tuple(row) for row in running))
    return [show_picture(embed, CHART_FILE, data)]
