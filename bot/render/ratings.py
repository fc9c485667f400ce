"""The rating changes on a game's final standings (the stats cog puts them in each result's
``stats['rating']`` as ``[before, after]`` displayed ratings, after the game is rated)."""

from __future__ import annotations

import discord

from db.store import ResultRow


def add_rating_field(embed: discord.Embed, results: list[ResultRow]) -> None:
    lines = []
    for r in sorted(results, key=lambda r: (r.place, r.seat)):
        change = r.stats.get("rating")
        if not change:
            continue
        before, after = change
        lines.append(f"{r.name}: {before} → **{after}** ({after - before:+d})")
    if lines:
        embed.add_field(name="Ratings", value="\n".join(lines)[:1024], inline=False)
