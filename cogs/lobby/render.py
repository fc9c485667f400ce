"""The lobby message: who is seated, the rules, and the host's controls (built by
:mod:`cogs.lobby.controls`, which passes them in)."""

from __future__ import annotations

import discord

from bot.contract import LiveTable, Rendered
from draw.common import COLOR, timer_label


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
    embed = discord.Embed(
        title=f"🃏 {table.kind.title}: a table is open",
        description=f"Host: **{host}** · preset **{table.kind.preset_name(record.preset)}**"
        + (f"\n{summary}" if summary else ""),
        color=COLOR,
    )
    embed.add_field(
        name=f"Players ({len(record.seats)}, {low}–{high} can play)", value=seated or "nobody yet", inline=False
    )
    embed.add_field(name="Rules", value="\n".join(f"• {line}" for line in rules_lines)[:1024] or "—", inline=False)
    embed.add_field(name="Turn timer", value=timer_label(record.turn_seconds), inline=True)
    embed.set_footer(
        text=f"Game #{record.id} · the host can change any rule with /{table.kind.key} set before pressing Start"
    )
    content = "Press **Join** to take a seat. The host presses **Start** when everyone is in."
    return Rendered(content=content, embeds=[embed], view=controls)


def closed_lobby(table: LiveTable, text: str) -> Rendered:
    embed = discord.Embed(title=f"🃏 {table.kind.title}", description=text, color=COLOR)
    seated = ", ".join(s.name for s in table.record.seats)
    if seated:
        embed.add_field(name="Players", value=seated, inline=False)
    return Rendered(content=None, embeds=[embed], view=None)
