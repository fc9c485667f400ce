"""Turn pings for play-by-post tables: when the table waits on a person who is not looking, the
bot pings them once, after a delay the table sets (``/<game> set ping_after 2m``; off by default).

*Not looking* means their live private panel is not open (:meth:`bot.messages.panels.Panels.live`: no
press of theirs in the last 14.5 minutes that the bot could still redraw); a player whose panel
is open sees their turn come there and is never pinged. Each member may turn pings off for
themselves (``/<game> pings off``), kept by the store for every table.

The ping is a mention in the table's channel, with the message's allowed mentions limited to the
people it names, rather than a DM: it lands where the table and its **My hand** button are (one
click to play), Discord notifies a mention as it does a DM, it reaches players whose DMs are
closed (a seat's ``dm_closed``), and it says nothing private (only whose turn it is, which the
table shows anyway).

The ping's time rides on the turn's stored timer (:class:`db.records.Timer`'s ``ping_at`` and
``pinged``, migration 0017), run by :class:`bot.tables.clock.Clock` with the turn timer's reminder and
deadline: one timer per turn, so a restart keeps a pending ping and sends it once, and a ping
never goes out for a turn that is over (the line is dropped once the turn moved on).
"""

from __future__ import annotations

from collections.abc import Mapping

from draw.common import parse_timer
from draw.looks import PING_AFTER
from locales import _, translate

__all__ = ["PING_AFTER", "parse_ping_after", "ping_after", "ping_text"]


def parse_ping_after(text: str) -> str:
    """A host's ``ping_after`` as the table keeps it: ``off``, or a time as ``90s``, ``2m``,
    ``1h``; :class:`ValueError` with what to type instead."""
    raw = text.strip().lower()
    if raw in ("off", "none", "0", "no", ""):
        return "off"
    try:
        seconds = parse_timer(raw)
    except ValueError:
        seconds = None
    if seconds is None:
        raise ValueError(_("Give ping_after as off, or a wait of 10 seconds up to a day, such as 30s, 2m, 1h or 1d."))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def ping_after(options: Mapping[str, str]) -> int | None:
    """The table's ping delay in seconds, or None (pings off)."""
    text = options.get(PING_AFTER, "off")
    if text == "off":
        return None
    try:
        return parse_timer(text)
    except ValueError:  # (only a value the host's command accepted is ever kept)
        return None


def ping_text(mentions: list[str], button: str) -> str:
    """The ping: the people the table waits on, and the one press that shows them their cards."""
    return _(
        "🔔 {people}: the table is waiting for you. Press **{button}** on the table to play.",
        people=", ".join(mentions),
        button=translate(button),
    )
