"""The translations, read from gettext ``.po`` files with Babel and installed into :mod:`locales`.

Why gettext and Babel: translators know the ``.po`` format and its tools (Poedit, Weblate), plural
rules come with each language's CLDR data (German and Spanish need two forms, other languages
more), Babel also writes each language's numbers, and its extractor lists every marked string from
the source, which is how a test finds a string a catalogue lacks. Fluent would give translators
more freedom per sentence, but its Python package is far less used.

Layout: ``locales/<language>/<domain>.po``, one domain per part of the bot (``lobby.po``,
``ohhell.po``...), so that the words of a feature live in one file per language. Every domain of a
language is merged into one catalogue; a ``msgctxt`` separates equal English words that translate
differently (a command's name from a button's label).

The pseudo-language ``qps`` (Microsoft's pseudo-locale tag) is built from the source strings on
demand: each string becomes ``⟦...⟧`` with its letters accented, its placeholders kept, so a test
that plays in ``qps`` sees at once any word that did not go through the catalogue.
"""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

from babel.core import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

import locales

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PSEUDO = "qps"

#: the marking functions of :mod:`locales`, as Babel's extractor reads them
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "msg": None,
    "ngettext": (1, 2),
    "nmsg": (1, 2),
    "pgettext": ((1, "c"), 2),
}

#: where the words live: every package a person's words are written in
SOURCE_DIRS = ("bot", "cogs", "draw", "games")


def language_dirs() -> list[Path]:
    return sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def read_language(language: str) -> Catalog:
    """Every domain file of ``language`` merged into one catalogue (a msgid twice is an error:
    two files would translate it two ways)."""
    merged: Catalog | None = None
    for path in sorted((HERE / language).glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        if merged is None:
            merged = catalog  # its header's Plural-Forms are the language's (the translators' own)
            continue
        for message in catalog:
            if not message.id:
                continue
            if merged.get(message.id, context=message.context) is not None:
                raise ValueError(f"{path.name}: {message.id!r} is translated in another file of {language} too")
            merged[message.id] = message
    if merged is None:
        raise ValueError(f"locales/{language} holds no .po file")
    return merged


def _translations(catalog: Catalog) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer)


def source_messages() -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    """Every marked string of the source: (file, line, msgid or (singular, plural), context)."""
    found = []
    # (Babel writes a warning on stderr for every f-string among a marked call's arguments, a
    # placeholder's value included, which is fine: an f-string as the message itself is what
    # tests/locales refuses. The warnings were noise in every bench and tool that reads the marks.)
    with contextlib.redirect_stderr(io.StringIO()):
        for folder in SOURCE_DIRS:
            for filename, lineno, message, _comments, context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
            ):
                found.append((f"{folder}/{filename}", lineno, message, context))
    yield from found


def pseudo(text: str) -> str:
    """The pseudo-language's form of ``text``: accented letters inside ``⟦ ⟧``, placeholders
    (``{name}``) kept as they are."""
    out: list[str] = []
    depth = 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        out.append(char if depth else _ACCENTS.get(char, char))
    return "⟦" + "".join(out) + "⟧"


_ACCENTS = dict(zip("aeiouAEIOUcnyCNY", "áéíóúÁÉÍÓÚçñýÇÑÝ", strict=True))


@functools.cache
def catalogues() -> dict[str, Translations]:
    return {path.name: _translations(read_language(path.name)) for path in language_dirs()}


def _lookup(language: str, msgid: str) -> str | None:
    if language == PSEUDO:
        return pseudo(msgid)
    translations = catalogues().get(language)
    if translations is None:
        return None
    text = translations.gettext(msgid)
    return text if text != msgid else None


def _plural(language: str, singular: str, plural: str, n: int) -> str | None:
    if language == PSEUDO:
        return pseudo(singular if n == 1 else plural)
    translations = catalogues().get(language)
    if translations is None:
        return None
    return translations.ngettext(singular, plural, n)


def lookup_in_context(language: str, context: str, msgid: str) -> str | None:
    """``msgid`` in ``context`` (``msgctxt``), or None where the catalogue has no translation."""
    if language == PSEUDO:
        return pseudo(msgid)
    translations = catalogues().get(language)
    if translations is None:
        return None
    text = str(translations.pgettext(context, msgid))
    return text if text != msgid else None


def _cldr_locale(language: str) -> str:
    """The locale Babel writes ``language``'s numbers in (the pseudo-language writes English's)."""
    return locales.SOURCE if language == PSEUDO else language


def _number(language: str, value: float) -> str:
    if type(value) is int:
        return _whole_number(language, value)
    return format_decimal(value, locale=_cldr_locale(language))


@functools.lru_cache(maxsize=4096)
def _whole_number(language: str, value: int) -> str:
    """Kept: Babel parses the locale and the number's pattern again on every call (some 80 µs),
    and a game writes the same few scores and counts thousands of times. Whole numbers only: a
    float key would answer ``-0.0`` with the text of ``0``, which the cache holds as equal."""
    return format_decimal(value, locale=_cldr_locale(language))


def _decimal(language: str, value: float, places: int, signed: bool) -> str:
    body = "#,##0" + ("." + "0" * places if places else "")
    pattern = f"+{body};-{body}" if signed else body
    # (the float's exact value, rounded as an f-string rounds it: its text "12.345" would round down)
    return format_decimal(Decimal(value), format=pattern, locale=_cldr_locale(language))


def install(*, pseudo_language: bool = False) -> None:
    """Read every catalogue and make :mod:`locales` speak them (``qps`` too when asked: tests)."""
    spoken = (locales.SOURCE, *(name for name in catalogues() if name != locales.SOURCE))
    if pseudo_language:
        spoken = (*spoken, PSEUDO)
    locales.install(_lookup, _plural, _number, spoken, decimal=_decimal)


def display_name(language: str) -> str:
    """The language's own name for itself (``Deutsch``), for the language setting's choices."""
    if language == PSEUDO:
        return "Pseudo"
    return (Locale.parse(language).get_display_name(language) or language).capitalize()


def source_keys() -> set[tuple[str, str | None]]:
    """Every user-facing string of the source once: (msgid, context) (a plural by its singular)."""
    return {(m[0] if isinstance(m, tuple) else m, context) for _, _, m, context in source_messages()}


def missing(language: str, keys: set[tuple[str, str | None]] | None = None) -> set[tuple[str, str | None]]:
    """The source's strings ``language`` has no usable translation of (none, fuzzy, or a form empty)."""
    merged = read_language(language)
    out: set[tuple[str, str | None]] = set()
    for ident, context in source_keys() if keys is None else keys:
        entry = merged.get(ident, context=context)
        forms = () if entry is None else entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry is None or entry.fuzzy or not forms or not all(forms):
            out.add((ident, context))
    return out
