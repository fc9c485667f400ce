"""Every word the bot says to a person, in that person's language.

The words are English source strings marked where they are written, gettext's way: ``_("...")``
translates now, in the language being spoken; ``ngettext(singular, plural, n)`` picks the plural
form the language needs; ``N_("...")`` only marks a string for the catalogue (a constant defined at
import, translated where it is shown with :func:`translate` or as a :class:`Msg`). Placeholders are
``str.format`` names (``_("{name} bids {bid}", name=..., bid=...)``), so a translation may reorder
them.

Which language is spoken is a context variable: a private answer speaks the presser's language
(Discord's ``interaction.locale``), what the channel sees speaks the table's (``/ohhell set
language``, else the server's preferred locale); the bot enters :func:`speaking` around each.

This module is the standard library alone, so the engines (which must run on a bare checkout) can
mark their words too; :mod:`locales.catalogue` reads the translations (Babel) and installs them
with :func:`install`. Until then, and for English, every string is its own translation.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, cast

#: the language every string is written in
SOURCE = "en"

_speaking: ContextVar[str] = ContextVar("speaking", default=SOURCE)

#: (language, msgid) -> translation or None; (language, singular, plural, n) -> translation or None
Lookup = Callable[[str, str], str | None]
PluralLookup = Callable[[str, str, str, int], str | None]
NumberFormat = Callable[[str, float], str]
#: (language, value, decimal places, whether a plus sign is written) -> the number in the language's form
DecimalFormat = Callable[[str, float, int, bool], str]


def _plain_decimal(language: str, value: float, places: int, signed: bool) -> str:
    return f"{value:+.{places}f}" if signed else f"{value:.{places}f}"


@dataclass
class _Installed:
    lookup: Lookup = lambda language, msgid: None
    plural: PluralLookup = lambda language, singular, plural, n: None
    number: NumberFormat = lambda language, value: f"{value:,}" if isinstance(value, int) else f"{value:g}"
    languages: tuple[str, ...] = (SOURCE,)
    aliases: dict[str, str] = field(default_factory=dict)
    decimal: DecimalFormat = _plain_decimal


_installed = _Installed()


def install(
    lookup: Lookup,
    plural: PluralLookup,
    number: NumberFormat,
    languages: tuple[str, ...],
    aliases: dict[str, str] | None = None,
    decimal: DecimalFormat = _plain_decimal,
) -> None:
    """Set the catalogue every ``_`` reads from (:mod:`locales.catalogue` calls this)."""
    global _installed
    _installed = _Installed(lookup, plural, number, languages, dict(aliases or {}), decimal)


def languages() -> tuple[str, ...]:
    """The languages the installed catalogue speaks, the source language first."""
    return _installed.languages


def language_of(tag: str | None) -> str:
    """Our language for a Discord locale tag (``de``, ``es-ES``, ``es-419``, ``en-US``...): its
    exact match, else its first part, else English."""
    if not tag:
        return SOURCE
    tag = str(tag)
    spoken = _installed.languages
    if tag in spoken:
        return tag
    if tag in _installed.aliases:
        return _installed.aliases[tag]
    base = tag.split("-")[0].lower()
    return base if base in spoken else SOURCE


def current() -> str:
    """The language being spoken now."""
    return _speaking.get()


@contextlib.contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak ``language`` (a Discord locale tag or one of ours) inside the block."""
    token = _speaking.set(language_of(language))
    try:
        yield _speaking.get()
    finally:
        _speaking.reset(token)


def set_speaking(language: str | None) -> None:
    """Speak ``language`` from now on in this task (an interaction's handler sets its presser's
    language once, at its door; tasks it starts inherit it)."""
    _speaking.set(language_of(language))


def _format(text: str, params: dict[str, object]) -> str:
    return text.format(**params) if params else text


def _(msgid: str, /, **params: object) -> str:
    """``msgid`` in the language being spoken, its ``{placeholders}`` filled."""
    language = _speaking.get()
    text = msgid if language == SOURCE else (_installed.lookup(language, msgid) or msgid)
    return _format(text, params)


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form of ``singular``/``plural`` the language uses for ``n`` (``{n}`` is filled with ``n``
    in the language's digits unless given)."""
    language = _speaking.get()
    text = None if language == SOURCE else _installed.plural(language, singular, plural, n)
    if text is None:
        text = singular if n == 1 else plural
    params.setdefault("n", number(n))
    return _format(text, params)


def N_(msgid: str, /) -> str:
    """Mark ``msgid`` for the catalogue without translating it (translated where it is shown)."""
    return msgid


def translate(msgid: str, /, **params: object) -> str:
    """A string marked with :func:`N_` (or a rule's name, a constant), translated now."""
    return _(msgid, **params)


def number(value: float, language: str | None = None) -> str:
    """``value`` written the way the language writes numbers (``1.234`` in German)."""
    return _installed.number(language or _speaking.get(), value)


def decimal(value: float, places: int, *, signed: bool = False, language: str | None = None) -> str:
    """``value`` with exactly ``places`` decimals, written the way the language writes numbers, a
    plus sign before it when ``signed`` (``+1,5`` in German, ``+1.5`` in English): a figure inside a
    sentence, where an f-string would keep English's decimal point in every language."""
    return _installed.decimal(language or _speaking.get(), value, places, signed)


@dataclass(frozen=True)
class Msg:
    """A sentence decided now and said later, in whatever language is spoken then: an error raised
    deep in a rule check reaches the player in the player's language, a table's line in the
    channel's. ``str()`` translates it."""

    msgid: str
    params: dict[str, object] = field(default_factory=dict)
    #: the plural form's source (``msgid`` the singular), chosen by ``params["n"]`` (:func:`nmsg`)
    plural: str | None = None

    def __str__(self) -> str:
        params = {k: (str(v) if isinstance(v, Msg) else v) for k, v in self.params.items()}
        if self.plural is not None:
            n = params.pop("n")
            assert isinstance(n, int), "a plural's count is an int"
            return ngettext(self.msgid, self.plural, n, **params)
        return _(self.msgid, **params)

    def in_language(self, language: str) -> str:
        with speaking(language):
            return str(self)

    def to_json(self) -> MsgData:
        """The sentence as plain JSON data (an engine's events and views are JSON-able: stored,
        compared, sent to other processes); :meth:`from_json` makes the sentence again."""
        params = {k: (v.to_json() if isinstance(v, Msg) else v) for k, v in self.params.items()}
        data: MsgData = {"msgid": self.msgid, "params": params}
        if self.plural is not None:
            data["plural"] = self.plural
        return data

    @classmethod
    def from_json(cls, data: MsgData) -> Msg:
        params = {k: (cls.from_json(cast(MsgData, v)) if _is_msg_data(v) else v) for k, v in data["params"].items()}
        return cls(data["msgid"], params, data.get("plural"))


class MsgData(TypedDict):
    """A :class:`Msg` as JSON (:meth:`Msg.to_json`); a parameter that is a sentence itself is one too."""

    msgid: str
    params: dict[str, object]
    plural: NotRequired[str]


def _is_msg_data(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("msgid"), str) and isinstance(value.get("params"), dict)


def said(data: MsgData) -> str:
    """A sentence an engine keeps as data (:meth:`Msg.to_json`), in the language spoken now."""
    return str(Msg.from_json(data))


def msg(msgid: str, /, **params: object) -> Msg:
    """A :class:`Msg` (marked for the catalogue like ``_``)."""
    return Msg(msgid, params)


def nmsg(singular: str, plural: str, n: int, /, **params: object) -> Msg:
    """A :class:`Msg` whose form follows ``n`` when it is said (marked like ``ngettext``): an
    engine's "burnt {n} cards", decided now, worded in each reader's language later."""
    return Msg(singular, {**params, "n": n}, plural)


__all__ = [
    "SOURCE",
    "Msg",
    "MsgData",
    "N_",
    "_",
    "current",
    "decimal",
    "install",
    "language_of",
    "languages",
    "msg",
    "ngettext",
    "nmsg",
    "number",
    "said",
    "set_speaking",
    "speaking",
    "translate",
]
