"""Discord's limits on a message, held where a message is built: what does not fit is left out
whole (a line at a time) and said so, never sent for Discord to refuse.

Discord refuses a whole message whose embeds pass any one limit (a field's value over 1,024
characters, or 6,000 in all across a message's embeds), and the player then sees nothing, or
"Something went wrong". A :class:`Budget` is one message's embeds: each part is put through it,
measured against its own limit *and* what is left of the message's total, and the lines that do
not fit are dropped from the end with a line saying how many (``tail``). The budget keeps every
part as it was offered, whole (:meth:`Budget.transcript`), so a message that left something out
can carry it all as a text file (:meth:`Budget.attachment`), or the caller can choose a shorter
form instead.

Lengths are counted as Discord and discord.py count them (``len(embed)``: title, description,
field names and values, footer, author), in characters."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import discord

from draw.pictures import ImageFile
from locales import _

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
#: every embed of one message together (title, description, fields, footer, author)
TOTAL = 6000
CONTENT = 2000
EMBEDS = 10
ELLIPSIS = "…"

#: the line that says how many lines were left out (given their count)
Tail = Callable[[int], str]


def more(count: int) -> str:
    """The default tail: how many lines did not fit."""
    return _("{ellipsis} and {n} more", ellipsis=ELLIPSIS, n=count)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut ("" when no room)."""
    if len(text) <= limit:
        return text
    if limit <= 0:
        return ""
    return text[: limit - 1].rstrip() + ELLIPSIS


def fit_lines(
    lines: Sequence[str], limit: int, tail: Tail = more, sep: str = "\n", *, last: bool = False
) -> tuple[str, int]:
    """As many of ``lines`` as fit in ``limit`` characters, joined by ``sep``, whole and in their
    order, then ``tail(left out)`` when some did not fit; and how many were shown. ``last``: the
    last lines are kept instead (the newest), the tail before them. When not even one line and
    the tail fit, that line is shortened (something shows)."""
    if limit <= 0 or not lines:
        return "", 0
    whole = sep.join(lines)
    if len(whole) <= limit:
        return whole, len(lines)
    count = len(lines)
    for shown in range(count - 1, 0, -1):
        end = tail(count - shown)
        text = sep.join([end, *lines[count - shown :]] if last else [*lines[:shown], end])
        if len(text) <= limit:
            return text, shown
    one = lines[-1] if last else lines[0]
    end = tail(count - 1) if count > 1 else ""
    room = limit - len(sep) - len(end)
    if end and room >= 12:
        return (end + sep + shorten(one, room)) if last else (shorten(one, room) + sep + end), 1
    return shorten(one, limit), 1


def leading(lines: Sequence[str], limit: int, sep: str = "\n") -> int:
    """How many of the first ``lines``, whole, fit in ``limit`` characters joined by ``sep``."""
    used, count = -len(sep), 0
    for line in lines:
        used += len(sep) + len(line)
        if used > limit:
            break
        count += 1
    return count


@dataclass
class Budget:
    """One message's embeds, built within Discord's limits: every part goes through here.

    ``total`` is what the message's embeds may hold in all (less than 6,000 when some must be
    kept for a part added later: :meth:`reserve`). :attr:`cut` says whether anything offered was
    left out or shortened; :meth:`transcript` gives all that was offered, whole."""

    total: int = TOTAL
    embeds: list[discord.Embed] = field(default_factory=list)
    cut: bool = False
    #: everything offered, whole, in order: what a text file of the message holds
    parts: list[str] = field(default_factory=list)
    reserved: int = 0

    @property
    def used(self) -> int:
        return sum(len(e) for e in self.embeds)

    @property
    def left(self) -> int:
        return max(0, self.total - self.used - self.reserved)

    def reserve(self, characters: int) -> None:
        """Keep ``characters`` of the total for a part added later (a footer, a closing field)."""
        self.reserved = max(0, characters)

    def release(self) -> None:
        self.reserved = 0

    def _text(self, text: str, limit: int) -> str:
        room = min(limit, self.left)
        out = shorten(text, room)
        self.cut |= out != text
        return out

    def embed(
        self, title: str | None = None, description: str | None = None, color: discord.Color | int | None = None
    ) -> discord.Embed:
        """A new embed of this message (its title and description measured), at most 10."""
        if len(self.embeds) >= EMBEDS:
            raise ValueError("a message holds at most 10 embeds")
        made = discord.Embed(color=color)
        self.embeds.append(made)
        if title:
            self.parts.append(title)
            made.title = self._text(title, TITLE)
        if description:
            self.describe(made, description.split("\n"))
        return made

    def describe(self, embed: discord.Embed, lines: Sequence[str], tail: Tail = more, *, last: bool = False) -> int:
        """``embed``'s description: the lines that fit (the last ones with ``last``); how many
        were shown."""
        self.parts.append("\n".join(lines))
        embed.description = None
        text, shown = fit_lines(lines, min(DESCRIPTION, self.left), tail, last=last)
        self.cut |= shown < len(lines) or text != "\n".join(lines)
        embed.description = text or None
        return shown

    def field(
        self,
        embed: discord.Embed,
        name: str,
        lines: Sequence[str],
        *,
        tail: Tail = more,
        inline: bool = False,
        sep: str = "\n",
        empty: str = "—",
        last: bool = False,
    ) -> int:
        """A field of ``lines`` (joined by ``sep``; ``empty`` when none): the lines that fit, whole;
        how many were shown (``last``: the last lines, the tail before them). No field at all (0)
        once the embed holds 25 or too little room is left."""
        lines = list(lines) or [empty]
        self.parts.append(name + "\n" + sep.join(lines))
        shown_name = shorten(name, min(FIELD_NAME, self.left))
        room = min(FIELD_VALUE, self.left - len(shown_name))
        if len(embed.fields) >= FIELDS or not shown_name.strip() or room < min(20, len(sep.join(lines))):
            self.cut = True
            return 0
        text, shown = fit_lines(lines, room, tail, sep, last=last)
        self.cut |= shown < len(lines) or shown_name != name or text != sep.join(lines)
        embed.add_field(name=shown_name, value=text, inline=inline)
        return shown

    def fields(
        self, embed: discord.Embed, name: str, lines: Sequence[str], *, tail: Tail = more, next_name: str = "…"
    ) -> int:
        """``lines`` over as many fields as they need (the first named ``name``, the others
        ``next_name``), each filled with whole lines, until the message's room or the 25 fields
        run out: the last field then ends with ``tail``. How many lines were shown."""
        if not lines:  # the field says there are none ("—"): no line of ``lines`` shown
            self.field(embed, name, lines)
            return 0
        self.parts.append(name + "\n" + "\n".join(lines))
        rest, shown, title = list(lines), 0, name
        while rest:
            room = min(FIELD_VALUE, self.left - len(title))
            fit = leading(rest, room)
            if room < FIELD_VALUE or len(embed.fields) >= FIELDS - 1 or fit == len(rest):
                before = self.parts[:]
                got = self.field(embed, title, rest, tail=tail)
                self.parts = before  # offered once, above
                return shown + got
            if fit == 0:  # one line longer than a field: shortened, and on to the next
                self.cut = True
                embed.add_field(name=title, value=shorten(rest[0], room), inline=False)
                fit = 1
            else:
                embed.add_field(name=title, value="\n".join(rest[:fit]), inline=False)
            shown, rest, title = shown + fit, rest[fit:], next_name
        return shown

    def footer(self, embed: discord.Embed, text: str) -> None:
        self.parts.append(text)
        self.release()
        embed.set_footer(text=self._text(text, FOOTER) or None)

    def author(self, embed: discord.Embed, name: str) -> None:
        self.parts.append(name)
        embed.set_author(name=self._text(name, AUTHOR))

    def transcript(self) -> str:
        """Everything offered, whole, as plain text (Discord shows a text file's start in the chat)."""
        return "\n\n".join(p for p in self.parts if p).replace("**", "") + "\n"

    def attachment(self, filename: str) -> ImageFile | None:
        """The whole text as a file for the message, when something was left out; None if all fit."""
        if not self.cut:
            return None
        text = self.transcript()
        first = next((line for line in text.splitlines() if line.strip()), "")
        # the file's alt text: what it is, and its first line, for a screen reader's list of files
        return ImageFile(
            filename, text.encode("utf-8"), _("The whole text, which the message could not hold: {first}", first=first)
        )


def fit(embed: discord.Embed, total: int = TOTAL) -> bool:
    """An embed that code which takes no budget filled (a game's replay hands), brought within
    the limits after the fact: each part to its own limit (whole lines where it can), then the
    last fields dropped, one saying how many, until the total holds. Whether anything was cut."""
    before = copy.deepcopy(embed.to_dict())  # (its fields are the embed's own list)
    embed.title = shorten(embed.title, TITLE) if embed.title else embed.title
    if embed.description:
        embed.description = fit_lines(embed.description.split("\n"), DESCRIPTION)[0]
    if embed.footer.text:
        embed.set_footer(text=shorten(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=shorten(embed.author.name, AUTHOR), url=embed.author.url, icon_url=embed.author.icon_url)
    fields = [(shorten(f.name or "", FIELD_NAME), f.value or "", bool(f.inline)) for f in embed.fields]
    fields = [(n, fit_lines(v.split("\n"), FIELD_VALUE)[0], i) for n, v, i in fields]
    dropped = max(0, len(fields) - FIELDS)
    fields = fields[:FIELDS]

    def size() -> int:
        return (
            len(embed)
            - sum(len(f.name or "") + len(f.value or "") for f in embed.fields)
            + sum(len(n) + len(v) for n, v, _ in fields)
        )

    note = ("…", "")
    while fields and size() + len(note[0]) + len(note[1]) > total:
        fields.pop()
        dropped += 1
        note = ("…", _("{n} more not shown", n=dropped))
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if dropped and len(fields) < FIELDS and len(embed) + len(note[0]) + len(note[1]) <= total:
        embed.add_field(name=note[0], value=note[1], inline=False)
    if len(embed) > total and embed.description:
        room = max(0, len(embed.description) - (len(embed) - total))
        embed.description = shorten(embed.description, room) or None
    return embed.to_dict() != before


def within(embeds: Sequence[discord.Embed]) -> bool:
    """Whether ``embeds`` hold every limit Discord sets on one message's embeds."""
    if len(embeds) > EMBEDS or sum(len(e) for e in embeds) > TOTAL:
        return False
    for e in embeds:
        if len(e.title or "") > TITLE or len(e.description or "") > DESCRIPTION or len(e.fields) > FIELDS:
            return False
        if len(e.footer.text or "") > FOOTER or len(e.author.name or "") > AUTHOR:
            return False
        if any(len(f.name or "") > FIELD_NAME or len(f.value or "") > FIELD_VALUE for f in e.fields):
            return False
    return True
