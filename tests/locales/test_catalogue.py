"""The catalogue against the source: every marked string translated in every language, with the
same placeholders, nothing translated that the source no longer says, and every mark one a
translator can see (a literal, not an f-string)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import locales
from locales import catalogue

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [p.name for p in catalogue.language_dirs()]
MARKS = {"_", "N_", "msg", "nmsg", "ngettext", "pgettext"}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def source() -> dict[tuple[str | tuple[str, ...], str | None], str]:
    found: dict[tuple[str | tuple[str, ...], str | None], str] = {}
    for where, line, message, context in catalogue.source_messages():
        found.setdefault((message, context), f"{where}:{line}")
    return found


def test_there_are_two_translations_besides_english() -> None:
    assert {"de", "es"} <= set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated_with_its_placeholders(language: str) -> None:
    merged = catalogue.read_language(language)
    problems = []
    for (message, context), where in sorted(source().items(), key=lambda kv: kv[1]):
        ident = message[0] if isinstance(message, tuple) else message
        entry = merged.get(ident, context=context)
        if entry is None or entry.fuzzy:
            problems.append(f"{where}: no {language} translation of {ident!r}")
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set().union(*(placeholders(m) for m in (message if isinstance(message, tuple) else (message,))))
        for form in forms:
            if not form:
                problems.append(f"{where}: an empty {language} form of {ident!r}")
            elif placeholders(form) - wanted or (len(forms) == 1 and placeholders(form) != wanted):
                problems.append(f"{where}: {language} placeholders {sorted(placeholders(form))} for {ident!r}")
    assert not problems, "\n".join(problems[:60]) + f"\n({len(problems)} in all)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_is_translated_that_the_source_does_not_say(language: str) -> None:
    said = {(m[0] if isinstance(m, tuple) else m, c) for m, c in source()}
    stale = []
    for path in sorted((catalogue.HERE / language).glob("*.po")):
        with path.open("rb") as handle:
            for entry in read_po(handle, locale=language):
                if entry.id and (entry.id if isinstance(entry.id, str) else entry.id[0], entry.context) not in said:
                    stale.append(f"{path.name}: {entry.id!r}")
    assert not stale, "\n".join(stale)


def test_every_mark_is_a_literal_the_extractor_can_read() -> None:
    wrong = []
    for folder in catalogue.SOURCE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKS:
                    count = 2 if node.func.id in ("ngettext", "nmsg", "pgettext") else 1
                    args = node.args[:count]
                    if len(args) < count or not all(
                        isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
                    ):
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert not wrong, "a translator never sees these:\n" + "\n".join(wrong)


def test_the_mark_check_catches_an_f_string(tmp_path: Path) -> None:
    tree = ast.parse('_(f"{name} bids")\n_("{name} bids", name=x)')
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    literal = [isinstance(c.args[0], ast.Constant) for c in calls]
    assert literal == [False, True]


def test_plural_forms_and_numbers_follow_the_language() -> None:
    catalogue.install()
    with locales.speaking("de"):
        assert locales.number(1234567.5) == "1.234.567,5"
    with locales.speaking("es-ES"):
        assert locales.current() == "es"
    with locales.speaking("en-US"):
        assert locales.number(1234) == "1,234"
    with locales.speaking("fr"):
        assert locales.current() == locales.SOURCE


def test_a_decimal_keeps_its_places_and_sign_in_the_languages_form() -> None:
    catalogue.install()
    with locales.speaking("de"):
        assert locales.decimal(1.5, 1, signed=True) == "+1,5"
        assert locales.decimal(-30.0, 1, signed=True) == "-30,0"
        assert locales.decimal(2.5, 2) == "2,50"
        assert locales.decimal(1234.5, 2) == "1.234,50"
    assert locales.decimal(1.5, 1, signed=True, language="es") == "+1,5"
    for value in (0.0, -0.0, 1.5, -2.25, 3.0, 12.345, 2.675, -0.04):  # English reads as an f-string wrote it
        assert locales.decimal(value, 1, signed=True) == f"{value:+.1f}"
        assert locales.decimal(value, 2) == f"{value:.2f}"


def test_the_pseudo_language_keeps_placeholders_and_marks_every_word() -> None:
    text = catalogue.pseudo("{name} bids {bid} and takes a trick")
    assert re.fullmatch(r"⟦\{name\} .*\{bid\}.*⟧", text)
    assert "a" not in text.replace("{name}", "").replace("{bid}", "")
    catalogue.install(pseudo_language=True)
    try:
        with locales.speaking("qps"):
            assert locales._("{name} bids", name="Ann") == "⟦Ann bíds⟧"
    finally:
        catalogue.install()


def test_a_msg_is_said_in_the_language_spoken_where_it_is_shown() -> None:
    catalogue.install()
    said = locales.msg("Something went wrong on my side; nothing was changed.")
    assert str(said) == "Something went wrong on my side; nothing was changed."
    assert said.in_language("de").startswith("Bei mir")
    assert said.in_language("es").startswith("Algo falló")


def test_a_plural_msg_takes_the_form_of_its_count_in_the_language_it_is_said_in() -> None:
    catalogue.install()
    one, many = (locales.nmsg("burnt {n} card", "burnt {n} cards", n) for n in (1, 4))
    assert (str(one), str(many)) == ("burnt 1 card", "burnt 4 cards")
    assert (one.in_language("de"), many.in_language("de")) == ("verbrannte 1 Karte", "verbrannte 4 Karten")
    assert many.in_language("es") == "quemó 4 cartas"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_reads_cleanly(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Babel says on stdout (which the benches and the local mode print) what it could not read: a
    plural with more forms than the header's ``nplurals`` (Babel writes Spanish with CLDR's three
    forms unless told otherwise), and such a form is lost."""
    catalogue.read_language(language)
    said = capsys.readouterr()
    assert "WARNING" not in said.out + said.err, said.out + said.err


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalogue_says_no_source_lines(language: str) -> None:
    """Where a string is said in the source (``#: file:line``) goes stale as the code moves: more
    than half of those the catalogues carried named a line or file that no longer held the string,
    and a translator who followed one found another sentence. A translator looks the string up."""
    stale = [
        f"{path.relative_to(catalogue.ROOT)}:{number}"
        for path in sorted((catalogue.ROOT / "locales" / language).glob("*.po"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("#:")
    ]
    assert stale == []
