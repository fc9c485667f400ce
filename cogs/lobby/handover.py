"""``/<game> handover member:@x [player:@y]``: hand a seat to another member mid-game.

The seat's player (or the host, naming an absent ``player``) offers it; the offer is posted in
the channel, pinging the member, with **Take the seat** (theirs alone to press) and **Decline**
(theirs, the old player's or the offerer's). Taking it answers with the new player's panel, so
they play on with their next press. What may be offered to whom, and what taking it does, is the
runtime's (:mod:`bot.handover`); the buttons are dynamic items carrying the whole offer, so an
offer made before a restart can still be taken after it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import locales
from bot import handover
from bot.client import tables_of
from bot.components import GameItem
from bot.contract import AnyKind
from bot.errors import Refusal, mark_committed
from bot.faults import TRANSIENT
from bot.interaction import open_panel


def add_handover_command(group: app_commands.Group, kind: AnyKind) -> None:
    """``/<game> handover`` in ``kind``'s group."""

    @group.command(name="handover", description="Hand your seat to another member, who plays on from this moment")
    @app_commands.describe(
        member="Who takes the seat (they accept with one press; you play it until then)",
        player="Host only: an absent player (the computer plays their seat) whose seat to hand over",
    )
    async def handover_command(
        interaction: discord.Interaction, member: discord.Member, player: discord.Member | None = None
    ) -> None:
        tables = tables_of(interaction)
        table = tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is None:
            raise Refusal(f"There is no {kind.title} table in this channel.")
        async with table.lock:
            by = interaction.user.id
            seat = handover.seat_to_offer(table, by, player.id if player is not None else None)
            channel = interaction.channel_id or 0
            await handover.check_taker(tables.seating, table, seat, member, interaction.guild_id, channel)
            old = table.seats[seat]
            assert old.user_id is not None  # a person's seat (computers have no member to offer it)
            locales.set_speaking(tables.presenter.language(table))  # (the offer is the channel's to read)
            whose = "their" if old.user_id == by else f"{old.name}'s"
            view = offer_view(table.id, seat, old.user_id, by, member.id)
            await interaction.response.send_message(
                f"🪑 {interaction.user.mention} offers {whose} seat at game #{table.id} to {member.mention}, who "
                f"plays it from the moment they press **Take the seat** ({old.name}'s seat stays as it is until "
                "then).",
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[member], everyone=False, roles=False),
            )


def offer_view(game_id: int, seat: int, old: int, by: int, new: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HandoverButton(game_id, seat, old, by, new, "take"))
    view.add_item(HandoverButton(game_id, seat, old, by, new, "no"))
    view.stop()  # dispatched by custom id (dynamic items): nothing waits in memory
    return view


class HandoverButton(
    GameItem[discord.ui.Button[Any]],
    template=r"ho:(?P<game_id>\d+):(?P<seat>\d+):(?P<old>\d+):(?P<by>\d+):(?P<new>\d+):(?P<act>take|no)",
):
    fields = {"game_id": int, "seat": int, "old": int, "by": int, "new": int}

    def __init__(self, game_id: int, seat: int, old: int, by: int, new: int, act: str) -> None:
        take = act == "take"
        super().__init__(
            discord.ui.Button(
                label="Take the seat" if take else "Decline",
                style=discord.ButtonStyle.success if take else discord.ButtonStyle.secondary,
                custom_id=f"ho:{game_id}:{seat}:{old}:{by}:{new}:{act}",
            )
        )
        self.game_id, self.seat, self.old, self.by, self.new, self.act = game_id, seat, old, by, new, act

    async def handle(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        if self.act == "no":
            if user not in (self.new, self.old, self.by):
                raise Refusal("Only the member offered the seat, or whoever offered it, can decline it.")
            who = "declined" if user == self.new else "withdrawn"
            await interaction.response.edit_message(
                content=f"🪑 The offer of a seat at game #{self.game_id} to <@{self.new}> was {who}.",
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        if user != self.new:
            raise Refusal(f"This seat is offered to <@{self.new}>: only they can take it.")
        manager = tables_of(interaction)
        table = manager.get(self.game_id)
        async with table.lock:
            old_name = await handover.take(
                manager.seating,
                table,
                self.seat,
                self.old,
                self.by,
                interaction.user,
                interaction.guild_id,
                interaction.channel_id or 0,
            )
            mark_committed(interaction, "Taking the seat")
        await open_panel(interaction, self.game_id)  # the answer: their panel, to play on with one press
        if interaction.message is not None:
            try:
                await interaction.message.edit(
                    content=f"🪑 <@{self.new}> took {old_name}'s seat at game #{self.game_id}.",
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except TRANSIENT:  # the seat is theirs; only the offer's look is out of date
                pass
