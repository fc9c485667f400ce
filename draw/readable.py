"""♠ and ♣ as people can read them: the text characters are dark grey on Discord's
dark theme, so everything a game sends is rewritten once, on its way out, wherever a card or a
suit is named.

Where Discord draws markdown (a message's content, an embed's description and field values) a
card (``9♠``) becomes its card emoji and a suit alone its suit emoji, from the four-colour set when
the table chose it. Where it takes plain text only (a button's or an option's label, a title, a
field's name, a footer, a placeholder) ♠ and ♣ become words (``9 of spades``); an option that
already shows the card's emoji drops the card from its label, and a button that names one card
shows its suit's emoji and its rank as text (a card emoji's own rank is some 6 px tall at
Discord's emoji size, too small to read). Until the emojis are
uploaded (or when Discord refused them) text keeps its symbols: nothing depends on emojis."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord

from draw.budget import CONTENT, DESCRIPTION, FIELD_VALUE, TOTAL
from draw.emojis import EMOJIS, FOUR, PREFIX, SUIT, emoji_name
from draw.looks import four_colour
from locales import N_, _, translate

CARD = re.compile(r"(?<![\w:<])(10|11|12|13|[2-9JQKA])([♣♦♥♠])")
SUIT_CHAR = re.compile(r"[♣♦♥♠]")
LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
#: the suits whose signs are hard to read, in words (marked for the catalogue: said in the reader's language)
WORD = {"♣": N_("clubs"), "♠": N_("spades")}
#: how long each kind of text may be (a rewritten text that would pass it keeps its symbols)
LIMITS = {"content": CONTENT, "description": DESCRIPTION, "value": FIELD_VALUE}
#: what one embed may hold in all (Discord refuses a message whose embed is longer)
EMBED_LIMIT = TOTAL


def markdown(text: str | None, four: bool, limit: int = 4096) -> str | None:
    """Cards and suits as emojis where they are uploaded."""
    if not text or not len(EMOJIS) or not SUIT_CHAR.search(text):
        return text

    def card(match: re.Match[str]) -> str:
        return EMOJIS.markup(match[1] + LETTER[match[2]], four) or match[0]

    def suit(match: re.Match[str]) -> str:
        return EMOJIS.markup(SUIT + LETTER[match[0]], four) or match[0]

    out = SUIT_CHAR.sub(suit, CARD.sub(card, text))
    return out if len(out) <= limit else plain(text, limit)


def plain(text: str | None, limit: int | None = None) -> str | None:
    """♠ and ♣ as words where only plain text shows (``9♠`` → ``9 of spades``, ``♣`` → ``clubs``);
    the text as it was if the words would pass ``limit`` (a message Discord refuses shows nothing)."""
    if not text or ("♠" not in text and "♣" not in text) or not len(EMOJIS):
        return text
    out = CARD.sub(
        lambda m: _("{rank} of {suit}", rank=m[1], suit=translate(WORD[m[2]])) if m[2] in WORD else m[0], text
    )
    out = SUIT_CHAR.sub(lambda m: translate(WORD[m[0]]) if m[0] in WORD else m[0], out)
    return out if limit is None or len(out) <= limit else text


def _embed(embed: discord.Embed, four: bool) -> None:
    embed.title = plain(embed.title, 256)
    before = (embed.description, [f.value for f in embed.fields])
    embed.description = markdown(embed.description, four, LIMITS["description"])
    for i, f in enumerate(embed.fields):
        embed.set_field_at(
            i,
            name=plain(f.name, 256) or "",
            value=markdown(f.value, four, LIMITS["value"]) or "",
            inline=bool(f.inline),
        )
    if len(embed) > EMBED_LIMIT:  # emojis cost some 30 characters each: words then, within the limit
        embed.description = plain(before[0], LIMITS["description"])
        for i, (f, value) in enumerate(zip(embed.fields, before[1], strict=True)):
            embed.set_field_at(i, name=f.name or "", value=plain(value, LIMITS["value"]) or "", inline=bool(f.inline))
    if len(embed) > EMBED_LIMIT:  # even words are too long (a huge pick-up): the symbols, as they were
        embed.description = before[0]
        for i, (f, value) in enumerate(zip(embed.fields, before[1], strict=True)):
            embed.set_field_at(i, name=f.name or "", value=value or "", inline=bool(f.inline))
    if embed.footer.text:
        embed.set_footer(text=plain(embed.footer.text, 2048), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=plain(embed.author.name, 256) or "", url=embed.author.url, icon_url=embed.author.icon_url)


def _four_emoji(emoji: Any, four: bool) -> Any:
    """A card emoji from the two-colour set, swapped for its four-colour twin when chosen."""
    if not four or not isinstance(emoji, discord.PartialEmoji) or not (emoji.name or "").startswith(PREFIX):
        return emoji
    code = emoji.name[len(PREFIX) :]
    code = SUIT + code[4:] if code.startswith("suit") else code
    if code in ("back", "joker"):
        return emoji
    name = emoji_name(code, True)
    emoji_id = EMOJIS.by_name(name) if name.startswith(FOUR) else None
    return discord.PartialEmoji(name=name, id=emoji_id) if emoji_id is not None else emoji


def _label(text: str | None, emoji: Any) -> str | None:
    """A label beside the card's own emoji does not name the card again."""
    if text and isinstance(emoji, discord.PartialEmoji) and (emoji.name or "").startswith((PREFIX, FOUR)):
        stripped = CARD.sub("", text, count=1).strip() if CARD.fullmatch(text.strip()) else None
        if stripped == "":
            return None
    return plain(text, 80)


def _rank_beside_suit(button: discord.ui.Button[Any]) -> None:
    """A button showing a card's emoji and naming that card alone: its suit's emoji, its rank as
    the label (``[♠ 10]``), the same card in a size people read."""
    emoji, text = button.emoji, (button.label or "").strip()
    found = CARD.fullmatch(text)
    if (
        not found
        or not isinstance(emoji, discord.PartialEmoji)
        or emoji.name != emoji_name(found[1] + LETTER[found[2]])
    ):
        return
    suit_id = EMOJIS.by_name(emoji_name(SUIT + LETTER[found[2]]))
    if suit_id is not None:
        button.emoji = discord.PartialEmoji(name=emoji_name(SUIT + LETTER[found[2]]), id=suit_id)
        button.label = found[1]


def _view(view: discord.ui.View, four: bool) -> None:
    for item in view.children:
        inner = getattr(item, "item", item)  # a DynamicItem wraps the button or select it shows
        if isinstance(inner, discord.ui.Button):
            _rank_beside_suit(inner)
            inner.emoji = _four_emoji(inner.emoji, four)
            label = _label(inner.label, inner.emoji)
            inner.label = label if label or inner.emoji is not None else inner.label
        elif isinstance(inner, discord.ui.Select):
            inner.placeholder = plain(inner.placeholder, 150)
            for option in inner.options:
                option.emoji = _four_emoji(option.emoji, four)
                option.label = plain(option.label, 100) or option.label
                option.description = plain(option.description, 100)


def readable(rendered: Any, four: bool) -> Any:
    """Rewrite a :class:`~bot.contract.Rendered` in place (and return it) so that no ♠ or ♣
    character is left where the card emojis can stand instead."""
    if rendered is None or not len(EMOJIS):
        return rendered
    rendered.content = markdown(rendered.content, four, LIMITS["content"])
    for embed in rendered.embeds:
        _embed(embed, four)
    if rendered.view is not None:
        _view(rendered.view, four)
    return rendered


def drawn_readable(draw: Callable[..., Any], kind: Any, table: Any, *args: Any, **kwargs: Any) -> Any:
    """A game's message for ``table`` (``draw(kind, table, ...)``, one of its drawing methods),
    made :func:`readable` with the table's look options: the drawing and its rewriting are the
    drawing side's one step, which the runtime asks for once."""
    return readable(draw(kind, table, *args, **kwargs), four_colour(table.record.options))
