"""High Card's buttons: **My hand** on the table (it opens the player's live panel) and the
panel's one button a card. Dynamic items: their custom ids carry the game, so they keep working
after a restart and nothing is held in memory. What a press does is the runtime's
(:mod:`bot.tables.interaction`); the game says only what a card button asks for (``HighCardKind.press_action``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.tables.interaction import HandItem, PressItem


class HandButton(HandItem, template=r"hc:(?P<game_id>\d+):hand"):
    custom_id_format = "hc:{game_id}:hand"


class CardButton(
    PressItem[discord.ui.Button[Any]], template=r"hcp:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<arg>[0-9A-Z]+)"
):
    """Plays one card (its ``arg``); refused (the panel redrawn with why) once the seat's decision changed."""

    act = "play"

    def __init__(self, game_id: int, key: str, arg: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or arg,
                style=discord.ButtonStyle.success,
                custom_id=f"hcp:{game_id}:{key}:{arg}",
                disabled=disabled,
            )
        )
        self.game_id, self.key, self.arg = game_id, key, arg
