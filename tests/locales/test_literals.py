"""No English sentence handed straight to Discord: a static look over the bot's source.

A string literal (or an f-string) passed as what a person reads — ``content=``, ``label=``,
``placeholder=``, ``title=``, ``description=``, an embed field's ``name=``/``value=``, a footer's
or author's text, the first argument of ``send_message``/``send``/``edit_message``, of a
``Refusal`` or a ``GameError`` — bypasses the catalogue unless it is wrapped in ``_()``,
``ngettext``, ``msg`` or ``translate``. The games played in the pseudo-language
(``tests/bot/messages/test_no_bypass.py``) find what such a look cannot (a word built elsewhere); this one
finds what no game played reaches.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("bot", "cogs", "draw")
#: a dev tool's own page, never shown in Discord
SKIP = {"bot/host/local.py", "bot/host/local_page.py", "bot/host/local_hints.py"}
READ_KEYWORDS = {"content", "label", "placeholder", "title", "description"}
FIELD_CALLS = {"add_field", "insert_field_at", "set_field_at", "set_footer", "set_author"}
FIELD_KEYWORDS = {"name", "value", "text"}
FIRST_ARG_CALLS = {"send_message", "send", "edit_message", "Refusal", "GameError"}
WORDS = re.compile(r"[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})")  # two words or more: a sentence, not a code


def words_in(node: ast.expr) -> str | None:
    """The English a literal or f-string argument holds (None: none, or it goes through a mark)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    else:
        return None
    return text if WORDS.search(text) else None


def call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def bypasses(source: str, where: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node)
        shown: list[ast.expr] = [k.value for k in node.keywords if k.arg in READ_KEYWORDS]
        if name in FIELD_CALLS:
            shown += [k.value for k in node.keywords if k.arg in FIELD_KEYWORDS]
        if name in FIRST_ARG_CALLS and node.args:
            shown.append(node.args[0])
        for argument in shown:
            text = words_in(argument)
            if text is not None:
                found.append(f"{where}:{argument.lineno}: {text!r}")
    return found


def test_the_look_finds_a_bare_sentence_and_passes_a_marked_one() -> None:
    source = 'x.send_message("Your turn now", ephemeral=True)\nButton(label=_("My hand"))\nRefusal(f"No game {n} here")'
    assert bypasses(source, "f") == ["f:1: 'Your turn now'", "f:3: 'No game  here'"]


def test_no_literal_sentence_is_handed_to_discord() -> None:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where not in SKIP:
                found += bypasses(path.read_text(encoding="utf-8"), where)
    assert not found, f"{len(found)} literal sentences bypass the catalogue:\n" + "\n".join(found)
