"""Shithead's replay pages (:class:`bot.seam.replaying.Replayer`): a step is one action (a swap, a
play, a pick-up…), with every hand, face-up and face-down card shown."""

from __future__ import annotations

import discord

from bot.seam.replaying import Replayer
from draw.cards import labels
from games.common.engine import Event
from games.shithead.game import Shithead
from games.shithead.hands import codes
from locales import _, said


class ShitheadReplayer(Replayer[Shithead]):
    def ends_step(self, engine: Shithead, events: list[Event]) -> bool:
        return True  # every action is a step

    def start_lines(self, engine: Shithead, names: list[str]) -> list[str]:
        return [_("The deal: every player swaps, then play starts.")]

    def event_lines(self, engine: Shithead, events: list[Event], names: list[str]) -> list[str]:
        lines = [_("🏁 Game over") for event in events if event.seat is None and event.kind == "game_over"]
        if not lines:
            recent = engine.view(None)["recent"]
            if recent:
                lines.append(f"{names[recent[-1]['seat']]} {said(recent[-1]['text'])}")
        return lines

    def add_hands(self, embed: discord.Embed, engine: Shithead, names: list[str]) -> None:
        for seat, name in enumerate(names):
            down = [c for c in engine.down[seat] if c is not None]
            value = _(
                "hand: {hand}\nface up: {up} · face down: {down}",
                hand=labels(codes(engine.hand[seat])) or "—",
                up=labels(codes(engine.up[seat])) or "—",
                down=labels(codes(down)) or "—",
            )
            embed.add_field(name=name, value=value[:1024], inline=False)
        pile = engine.view(None)["pile"]
        embed.add_field(name=_("Pile"), value=labels(pile[-8:]) or _("empty"), inline=False)
