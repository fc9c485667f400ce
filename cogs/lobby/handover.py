"""``/<game> handover member:@x [player:@y]``: hand a seat to another member mid-game.

The seat's player (or the host, naming an absent ``player``) offers it; the offer is posted in
the channel, pinging the member, with **Take the seat** (theirs alone to press) and **Decline**
(theirs, the old player's or the offerer's). Taking it answers with the new player's panel, so
they play on with their next press. What may be offered to whom, and what taking it does, is the
runtime's (:mod:`bot.handover`); the buttons are dynamic items carrying the whole offer, so an
offer made before a restart can still be taken after it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands

from bot import handover
from bot.client import tables_of
from bot.components import GameItem
from bot.contract import AnyKind
from bot.errors import Refusal, mark_committed
from bot.faults import TRANSIENT
from bot.interaction import open_panel
from bot.speech import in_channel, pgettext
from locales import _


def add_handover_command(group: app_commands.Group, kind: AnyKind) -> None:
    """``/<game> handover`` in ``kind``'s group."""

    @group.command(
        name="handover",
        description=pgettext("command description", "Hand your seat to another member, who plays on from this moment"),
    )
    @app_commands.describe(
        member=pgettext(
            "option description", "Who takes the seat (they accept with one press; you play it until then)"
        ),
        player=pgettext(
            "option description", "Host only: an absent player (the computer plays their seat) whose seat to hand over"
        ),
    )
    async def handover_command(
        interaction: discord.Interaction, member: discord.Member, player: discord.Member | None = None
    ) -> None:
        tables = tables_of(interaction)
        table = tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is None:
            raise Refusal(_("There is no {game} table in this channel.", game=kind.title))
        async with table.lock:
            by = interaction.user.id
            seat = handover.seat_to_offer(table, by, player.id if player is not None else None)
            channel = interaction.channel_id or 0
            await handover.check_taker(tables.seating, table, seat, member, interaction.guild_id, channel)
            old = table.seats[seat]
            assert old.user_id is not None  # a person's seat (computers have no member to offer it)
            with in_channel(interaction.client, table.record.guild_id, table.record.options):  # said to all
                view = offer_view(table.id, seat, old.user_id, by, member.id)
                params = {"who": interaction.user.mention, "game": table.id, "member": member.mention, "name": old.name}
                if old.user_id == by:
                    said = _(
                        "🪑 {who} offers their seat at game #{game} to {member}, who plays it from the moment they"
                        " press **Take the seat** ({name}'s seat stays as it is until then).",
                        **params,
                    )
                else:
                    said = _(
                        "🪑 {who} offers {name}'s seat at game #{game} to {member}, who plays it from the moment they"
                        " press **Take the seat** ({name}'s seat stays as it is until then).",
                        **params,
                    )
            await interaction.response.send_message(
                said,
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
                label=_("Take the seat") if take else _("Decline"),
                style=discord.ButtonStyle.success if take else discord.ButtonStyle.secondary,
                custom_id=f"ho:{game_id}:{seat}:{old}:{by}:{new}:{act}",
            )
        )
        self.game_id, self.seat, self.old, self.by, self.new, self.act = game_id, seat, old, by, new, act

    def _in_channel(self, interaction: discord.Interaction) -> contextlib.AbstractContextManager[str]:
        """The offer is a message to the whole channel: what it says next is in the channel's language."""
        table = tables_of(interaction).tables.get(self.game_id)
        return in_channel(interaction.client, interaction.guild_id, table.record.options if table is not None else {})

    async def handle(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        if self.act == "no":
            if user not in (self.new, self.old, self.by):
                raise Refusal(_("Only the member offered the seat, or whoever offered it, can decline it."))
            with self._in_channel(interaction):
                if user == self.new:
                    said = _(
                        "🪑 The offer of a seat at game #{game} to <@{member}> was declined.",
                        game=self.game_id,
                        member=self.new,
                    )
                else:
                    said = _(
                        "🪑 The offer of a seat at game #{game} to <@{member}> was withdrawn.",
                        game=self.game_id,
                        member=self.new,
                    )
            await interaction.response.edit_message(
                content=said,
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        if user != self.new:
            raise Refusal(_("This seat is offered to <@{member}>: only they can take it.", member=self.new))
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
            mark_committed(interaction, _("Taking the seat"))
        await open_panel(interaction, self.game_id)  # the answer: their panel, to play on with one press
        if interaction.message is not None:
            try:
                with self._in_channel(interaction):
                    said = _(
                        "🪑 <@{member}> took {name}'s seat at game #{game}.",
                        member=self.new,
                        name=old_name,
                        game=self.game_id,
                    )
                await interaction.message.edit(
                    content=said,
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except TRANSIENT:  # the seat is theirs; only the offer's look is out of date
                pass
