"""The card emoji set: one small picture per card face (and a back), uploaded as the
application's own emojis so that ♠ and ♣ read on any theme in text, select options and buttons.

This module is pure: the names, the pictures and the registry of uploaded ids. Uploading is
:mod:`bot.emojis`'s job (it talks to Discord); until it has run, or when Discord refused, every
card falls back to its text label (``A♠``), so nothing depends on emojis being there.

Emoji names name the card (``ct_AS``); they are only ever used where that card is shown anyway.
"""

from __future__ import annotations

import io
from functools import cache

import discord

from draw.cards import hand_lines, label
from draw.faces import FONT_FILES, emoji_face, suit_emoji_face
from draw.stored import kept
from games.common.cards import SUIT_LETTERS, card_code, every_face, is_joker, parse_card

PREFIX = "ct_"
#: the four-colour set (``four_colour on``): clubs green and diamonds blue, as on the pictures
FOUR = "ct4_"
#: a suit alone: ``suit:S`` (``ct_suitS``)
SUIT = "suit:"


def emoji_name(code: str, four: bool = False) -> str:
    """``AS`` → ``ct_AS``, ``10H`` → ``ct_10H``, ``X`` → ``ct_joker``, ``?`` → ``ct_back``,
    ``suit:S`` → ``ct_suitS``; copies (``AS#1``) share their face's emoji. ``four``: a club or a
    diamond from the four-colour set (``ct4_9C``)."""
    base = code.partition("#")[0]
    if base.startswith(SUIT):
        letter = base[len(SUIT) :]
        return (FOUR if four and letter in "CD" else PREFIX) + "suit" + letter
    if base == "?":
        return PREFIX + "back"
    card = parse_card(base)
    if is_joker(card):
        return PREFIX + "joker"
    text = card_code(card)
    return (FOUR if four and text[-1] in "CD" else PREFIX) + text


def all_codes() -> list[str]:
    """Every face any game shows (the 63-card pack holds the 52, the 500-pack ranks and the
    joker), and the back."""
    return [card_code(c) for c in every_face()] + ["?"]


def all_emojis() -> dict[str, tuple[str, bool]]:
    """Every emoji the bot uploads, by name: (the code it shows, four-colour): the faces, the four
    suits alone, and the four-colour clubs and diamonds."""
    out = {emoji_name(code): (code, False) for code in all_codes()}
    out |= {emoji_name(SUIT + s): (SUIT + s, False) for s in "CDHS"}
    for code in [*all_codes(), *(SUIT + s for s in "CD")]:
        name = emoji_name(code, True)
        if name.startswith(FOUR):
            out[name] = (code, True)
    return out


@cache
def emoji_png(code: str, four: bool = False) -> bytes:
    """The emoji's picture as uploaded: kept on disk between starts (:mod:`draw.stored`), since
    the local mode gives its page every one at each start and drawing them cost a second."""
    name = emoji_name(code, four) + ("_four" if four else "")
    return kept("emoji", name, lambda: _draw_emoji_png(code, four), FONT_FILES)


def _draw_emoji_png(code: str, four: bool) -> bytes:
    out = io.BytesIO()
    if code.startswith(SUIT):
        face = suit_emoji_face(SUIT_LETTERS.index(code[len(SUIT) :]), four)
    else:
        face = emoji_face(code, four)
    face.save(out, format="PNG", optimize=True)  # transparent corners: keep RGBA
    return out.getvalue()


class CardEmojis:
    """Uploaded card emojis by name; empty (text labels everywhere) until the uploader fills it."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def set(self, ids: dict[str, int]) -> None:
        self._ids = {name: i for name, i in ids.items() if name.startswith((PREFIX, FOUR))}

    def clear(self) -> None:
        self._ids = {}

    def __len__(self) -> int:
        return len(self._ids)

    def partial(self, code: str, four: bool = False) -> discord.PartialEmoji | None:
        """For a button's or a select option's ``emoji=``."""
        name = emoji_name(code, four)
        emoji_id = self._ids.get(name)
        return discord.PartialEmoji(name=name, id=emoji_id) if emoji_id is not None else None

    def markup(self, code: str, four: bool = False) -> str | None:
        name = emoji_name(code, four)
        emoji_id = self._ids.get(name)
        return f"<:{name}:{emoji_id}>" if emoji_id is not None else None

    def by_name(self, name: str) -> int | None:
        return self._ids.get(name)


#: the process's card emojis (one bot, one application); :mod:`bot.emojis` fills it at start-up
EMOJIS = CardEmojis()


def card_text(code: str) -> str:
    """A card in text: its emoji when uploaded, else its label (``A♠``)."""
    return EMOJIS.markup(code) or label(code)


def cards_text(codes: list[str], limit: int = 1024) -> str:
    """Cards in a line, as emojis while they fit in ``limit`` characters (an embed field's), else
    as labels (a Shithead hand after a big pick-up)."""
    text = " ".join(card_text(c) for c in codes)
    return text if len(text) <= limit else " ".join(label(c) for c in codes)


def hand_text(codes: list[str], trump: str | None = None) -> str:
    """A hand in text on one line, a suit at a time in the order given, trumps marked:
    ``♥ A 7 ← trumps · ♠ 9 6``. The ranks are text, each suit its symbol (an emoji once sent,
    :mod:`draw.readable`): a card emoji's rank is some 6 px tall at Discord's emoji size, and a
    line a suit pushed a phone's buttons down."""
    return " · ".join(hand_lines(codes, trump).split("\n"))
