"""High Card's buttons: **My hand** on the table (it opens the player's live panel) and the
panel's one button a card. Dynamic items: their custom ids carry the game, so they keep working
after a restart and nothing is held in memory."""

from __future__ import annotations

from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.contract import LiveTable
from bot.errors import USER_ERRORS, Refusal
from bot.panels import refused_note


class HandButton(GameItem[discord.ui.Button[Any]], template=r"hc:(?P<game_id>\d+):hand"):
    fields = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="My hand", style=discord.ButtonStyle.primary, custom_id=f"hc:{game_id}:hand")
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = tables.get(self.game_id)
        seat = _seat(table, interaction)
        rendered = tables.presenter.panels.render(table, seat)
        sent = await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
        await tables.presenter.panels.opened(table, seat, interaction, sent.message_id)


class CardButton(
    GameItem[discord.ui.Button[Any]], template=r"hcp:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<card>[0-9A-Z]+)"
):
    """Plays one card; refused (the panel redrawn with why) once the seat's decision changed."""

    fields = {"game_id": int}

    def __init__(self, game_id: int, key: str, card: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or card,
                style=discord.ButtonStyle.success,
                custom_id=f"hcp:{game_id}:{key}:{card}",
                disabled=disabled,
            )
        )
        self.game_id, self.key, self.card = game_id, key, card

    async def handle(self, interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = tables.get(self.game_id)
        seat = _seat(table, interaction)
        async with table.lock:
            if not tables.is_live(table):
                raise Refusal("This game has ended.")
            try:
                await tables.act(
                    table,
                    seat,
                    {"type": "play", "card": self.card},
                    interaction=interaction,
                    expect_key=self.key,
                    reply=lambda: tables.presenter.panels.render(table, seat),
                )
            except USER_ERRORS as error:
                if interaction.response.is_done():
                    raise
                warning, note = refused_note(table, seat, interaction, error)
                await tables.presenter.answer(interaction, table.kind.panel(table, seat, warning=warning, note=note))
                await tables.presenter.panels.opened(table, seat, interaction)


def _seat(table: LiveTable, interaction: discord.Interaction) -> int:
    seat = table.player_seat(interaction.user.id)
    if table.engine is None:
        raise Refusal("The game has not started yet.")
    return seat


def table_view(table: LiveTable) -> discord.ui.View:
    """**My hand**; the runtime adds what the other features lend (a seat's take-back, Watch)."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(HandButton(table.id))
    controls.stop()  # dispatched by custom id: nothing to keep
    return controls
