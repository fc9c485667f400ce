"""``/<game> end`` asks first: an ephemeral "End game #N now?" with **Confirm** and **Cancel**.

Ending throws the game away (no result is stored), so one mistyped command must not do it. The
buttons are dynamic items whose custom id carries the game's id, so they still work after a
restart; only the host can confirm (the question is ephemeral, but the check does not rely on it).
Confirming after the game moved on still ends it while it is live; once it is over (ended by an
earlier confirm, or finished) the answer says so and nothing changes.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.errors import Refusal
from bot.speech import in_channel
from locales import _


def question(game_id: int) -> str:
    return _("End game #{game} now? No result is recorded.", game=game_id)


class EndButton(GameItem[discord.ui.Button[Any]], template=r"end:(?P<game_id>\d+):(?P<answer>yes|no)"):
    fields = {"game_id": int}

    def __init__(self, game_id: int, answer: str) -> None:
        confirm = answer == "yes"
        super().__init__(
            discord.ui.Button(
                label=_("Confirm") if confirm else _("Cancel"),
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"end:{game_id}:{answer}",
            )
        )
        self.game_id = game_id
        self.answer = answer

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = tables_of(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=_("Game #{game} goes on.", game=self.game_id), view=None)
            return
        table = manager.tables.get(self.game_id)
        if table is None or table.engine is None:
            stored = await manager.store.get_game(self.game_id)
            if stored is not None and stored.status == "finished":
                said = _("Game #{game} has finished.", game=self.game_id)
            else:
                said = _("Game #{game} has already ended.", game=self.game_id)
            await interaction.response.edit_message(content=said, view=None)
            return
        async with table.lock:
            if not manager.is_live(table):
                await interaction.response.edit_message(
                    content=_("Game #{game} has already ended.", game=self.game_id), view=None
                )
                return
            if interaction.user.id != table.record.host_id:
                raise Refusal(_("Only the host can end the game."))
            await interaction.response.edit_message(content=_("Game #{game} is ended.", game=self.game_id), view=None)
            with in_channel(interaction.client, table.record.guild_id, table.record.options):  # said to all
                said = _(
                    "🛑 {who} ended game #{game}. No result is recorded.",
                    who=interaction.user.mention,
                    game=self.game_id,
                )
            await interaction.followup.send(
                said,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await manager.seating.end_early(table, interaction.user.mention)


def confirm_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(EndButton(game_id, "yes"))
    view.add_item(EndButton(game_id, "no"))
    view.stop()  # dispatched by custom id (dynamic items): nothing to store
    return view
