"""The lobby message: who is seated, the rules, and the host's controls (built by
:mod:`cogs.lobby.controls`, which passes them in)."""

from __future__ import annotations

import discord

from bot.contract import LiveTable, Rendered
from draw.budget import Budget
from draw.common import COLOR, timer_label
from locales import _


def lobby_message(
    table: LiveTable, rules_lines: list[str], player_range: tuple[int, int], controls: discord.ui.View
) -> Rendered:
    record = table.record
    low, high = player_range
    # Names rather than mentions: an embed's mention shows as a raw <@id> to anyone whose client
    # has not seen that member yet, and it never pings anyway.
    seated = "\n".join(f"{s.seat + 1}. {'🤖 ' if s.user_id is None else ''}{s.name}" for s in record.seats)
    # what another feature lends a seat (the stats' rating; nothing without it), one line per seat
    notes = [table.lent.seat_note(table, s) for s in record.seats]
    seated = "\n".join(
        line + (f" · {note}" if note else "") for line, note in zip(seated.splitlines(), notes, strict=False)
    )
    host = next((s.name for s in record.seats if s.user_id == record.host_id), f"<@{record.host_id}>")
    # the preset's one-line summary only while no option changes it (the Rules field says all)
    summary = table.kind.preset_line(record.preset) if not record.options else ""
    budget = Budget()
    footer = _(
        "Game #{game} · the host can change any rule with /{key} set before pressing Start",
        game=record.id,
        key=table.kind.key,
    )
    timer = timer_label(record.turn_seconds)
    budget.reserve(len(footer) + len(timer) + 20)
    embed = budget.embed(title=_("🃏 {game}: a table is open", game=table.kind.title), color=COLOR)
    budget.describe(
        embed,
        [
            _("Host: **{host}** · preset **{preset}**", host=host, preset=table.kind.preset_name(record.preset)),
            *([summary] if summary else []),
        ],
    )
    players = _("Players ({count}, {low}–{high} can play)", count=len(record.seats), low=low, high=high)
    budget.field(embed, players, seated.split("\n") if seated else [], empty=_("nobody yet"))
    rules = [f"• {line}" for line in rules_lines]
    budget.field(
        embed,
        _("Rules"),
        rules,
        tail=lambda left: _("… {left} more: /{key} rules shows them all", left=left, key=table.kind.key),
    )
    budget.release()
    budget.field(embed, _("Turn timer"), [timer], inline=True)
    budget.footer(embed, footer)
    content = _("Press **Join** to take a seat. The host presses **Start** when everyone is in.")
    return Rendered(content=content, embeds=[embed], view=controls)


def closed_lobby(table: LiveTable, text: str) -> Rendered:
    budget = Budget()
    embed = budget.embed(title=f"🃏 {table.kind.title}", description=text, color=COLOR)
    if table.record.seats:
        budget.field(embed, _("Players"), [s.name for s in table.record.seats], sep=", ")
    return Rendered(content=None, embeds=[embed], view=None)
