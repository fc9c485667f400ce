"""What the channel is told when it lags behind the game: one line, worded for where the table
stands (a lobby, a game in play, a game that is over), naming the permission the bot lacks or what
Discord keeps refusing. Kept apart from the display's loop, which only decides *when* to say it."""

from __future__ import annotations

from bot.messages.faults import Fault
from bot.seam.contract import LiveTable
from locales import _, translate


def trouble_line(table: LiveTable, fault: Fault, *, finale_pending: bool) -> str:
    """The one line that tells the channel it is behind (in the language being spoken)."""
    key, game = table.kind.key, table.kind.title
    if table.engine is not None and table.record.status != "playing":
        return _after_the_end(fault, finale_pending)
    if table.engine is None:  # a lobby has no /<game> table to type: it catches up by itself
        if fault.permission is not None:
            return _(
                "⚠️ I can't keep this {game} lobby up to date here: I need the **{permission}** permission"
                " in this channel. The game goes on, and the lobby catches up by itself once I have it.",
                game=game,
                permission=translate(fault.permission),
            )
        return _(
            "⚠️ Discord keeps failing when I update this lobby ({what}). The game goes on, and the lobby"
            " catches up by itself.",
            what=translate(fault.what),
        )
    if fault.permission is not None:
        return _(
            "⚠️ I can't keep this {game} table up to date here: I need the **{permission}** permission in"
            " this channel. The game goes on, and the table catches up by itself once I have it (or type"
            " /{key} table).",
            game=game,
            permission=translate(fault.permission),
            key=key,
        )
    return _(
        "⚠️ Discord keeps failing when I update this table ({what}). The game goes on, and the table catches"
        " up by itself (or type /{key} table).",
        what=translate(fault.what),
        key=key,
    )


def _after_the_end(fault: Fault, finale: bool) -> str:
    """The line for a game that is over: there is no game going on and no table to ask for
    (``/<game> table`` answers that there is none), only what is late and that it follows."""
    if fault.permission is not None:
        if finale:
            return _(
                "⚠️ I can't post the final standings here: I need the **{permission}** permission in this"
                " channel. The standings will follow once I have it.",
                permission=translate(fault.permission),
            )
        return _(
            "⚠️ I can't show how this game ended here: I need the **{permission}** permission in this"
            " channel. The table will show it once I have it.",
            permission=translate(fault.permission),
        )
    if finale:
        return _(
            "⚠️ Discord keeps failing when I post the final standings ({what}). The standings will follow"
            " as soon as it lets me.",
            what=translate(fault.what),
        )
    return _(
        "⚠️ Discord keeps failing when I show how this game ended ({what}). The table will show it as soon"
        " as it lets me.",
        what=translate(fault.what),
    )
