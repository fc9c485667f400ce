"""**Rematch** on the final standings: a new lobby in the same channel, with the same rules and
turn timer, the computers seated again, and the other people of the game invited by name.

The people are *invited*, not seated: a seat is a promise to play, and only its owner can make
it (one press of Join). The person who presses Rematch hosts the new table and is seated; the
host presses Start once the others are in. The button is a dynamic item (its custom id holds the
finished game's id and the game is read back from the store), so it works after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.contract import LiveTable
from bot.errors import Refusal
from bot.speech import in_channel
from cogs.lobby.controls import render_lobby
from locales import _


class RematchButton(GameItem[discord.ui.Button[Any]], template=r"rematch:(?P<game_id>\d+)"):
    fields = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Rematch"), emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"rematch:{game_id}"
            )
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = tables_of(interaction)
        old = await manager.store.get_game(self.game_id)
        if old is None or old.kind not in manager.kinds:
            raise Refusal(_("That game is not known any more."))
        user = interaction.user
        if not any(s.user_id == user.id for s in old.seats):
            raise Refusal(_("Only the players of game #{game} can start its rematch.", game=old.id))
        kind = manager.kinds[old.kind]
        seating = manager.seating
        table = await seating.open_lobby(kind, old.guild_id, old.channel_id, user, old.preset)
        async with table.lock:
            await seating.change_options(table, old.preset, dict(old.options), old.turn_seconds)
            for seat in old.seats:
                if seat.user_id is None and seat.ai_level is not None:
                    await seating.add_computer(table, seat.ai_level)
            invited = sorted({s.user_id for s in old.seats if s.user_id is not None and s.user_id != user.id})
            with in_channel(interaction.client, table.record.guild_id, table.record.options):  # the channel's
                rendered = render_lobby(table)
                if invited:
                    rendered.content = _(
                        "🔁 Rematch of game #{game}, hosted by {host}: {invited}, press **Join** to take your seat.",
                        game=old.id,
                        host=user.mention,
                        invited=", ".join(f"<@{i}>" for i in invited),
                    )
            await interaction.response.send_message(
                **rendered.send_kwargs(), allowed_mentions=discord.AllowedMentions(users=True)
            )
            message = await interaction.original_response()
            await manager.presenter.remember_message(table, message.id)


def rematch_view(table: LiveTable) -> discord.ui.View:
    """Under a game's final message (lent to every game: :attr:`bot.features.Feature.finale`, read
    by a game's ``finale`` as ``table.lent.finale``)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(table.id))
    view.stop()  # dispatched by custom id (dynamic items): nothing to store
    return view
