"""User text echoed in a reply, cut down: a refusal quotes what was typed ("There is no preset
called …"), and Discord refuses a message over 2,000 characters (an embed title over 256), so a
long input would get no answer at all. Every door that echoes typed text quotes it through here."""

from __future__ import annotations

#: characters of typed text a reply quotes
ECHO_LIMIT = 40


def shorten(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` on one line, at most ``limit`` characters (cut with an ellipsis)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def quoted(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` shortened and in quotes, as a refusal echoes it: ``'abc…'``."""
    return repr(shorten(text, limit))
