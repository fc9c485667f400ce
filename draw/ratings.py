"""The rating changes on a game's final standings (the stats cog puts them in each result's
``stats['rating']`` as ``[before, after]`` displayed ratings, after the game is rated).

The results are read through :class:`Rated`, the few facts the field shows, so the toolkit does
not import the store: the store's ``ResultRow`` fits it as it is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from draw.budget import Budget
from locales import _


class Rated(Protocol):
    """One seat's final result, as far as the ratings field reads it."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def place(self) -> int: ...
    @property
    def stats(self) -> dict[str, Any]: ...


def add_rating_field(embed: discord.Embed, results: Sequence[Rated]) -> None:
    lines = []
    for r in sorted(results, key=lambda r: (r.place, r.seat)):
        change = r.stats.get("rating")
        if not change:
            continue
        before, after = change
        lines.append(f"{r.name}: {before} → **{after}** ({after - before:+d})")
    if lines:
        Budget(embeds=[embed]).field(embed, _("Ratings"), lines)
