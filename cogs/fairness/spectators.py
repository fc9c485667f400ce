"""Spectators: anyone in the channel who is not playing presses **Watch** on a live table and gets
a private view of it, which the bot keeps current as the game moves (:mod:`bot.messages.watchers`; after
15 minutes Discord no longer lets it, and **Refresh** makes it current again). It shows the
public table, the hands of the players who allow it (``/<game> spectators hand:show``; off by
default, each player decides for their own hand, at any time) and, once a deal is over, every
hand of that deal (all its cards were played in the open). A spectator can do nothing: the view
has no game controls, and every table button already refuses anyone without a seat. Who may
watch is the secrecy policy's to say (:mod:`bot.tables.secrecy`): not a player of the table, who would
see the hands others let spectators see, nor one of another table of its duplicate match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.client import tables_of
from bot.messages.components import GameItem
from bot.messages.errors import Refusal
from bot.messages.speech import pgettext
from bot.seam.contract import AnyKind, LiveTable, Rendered
from bot.tables.snapshot import view as shared_view
from draw.budget import Budget
from draw.cards import labels
from draw.common import COLOR
from draw.looks import four_colour
from draw.readable import readable
from games.common.cards import card_code
from locales import _, current


class WatchButton(GameItem[discord.ui.Button[Any]], template=r"watch:(?P<game_id>\d+):(?P<act>open|refresh)"):
    fields = {"game_id": int}

    def __init__(self, game_id: int, act: str) -> None:
        text = _("Watch") if act == "open" else _("Refresh")
        super().__init__(
            discord.ui.Button(label=text, style=discord.ButtonStyle.secondary, custom_id=f"watch:{game_id}:{act}")
        )
        self.game_id, self.act = game_id, act

    async def handle(self, interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = tables.get(self.game_id)
        user = interaction.user.id
        await tables.seating.watch(table, user, interaction.guild_id, interaction.channel_id)
        # a private answer: in the spectator's language; the table message's own drawing where
        # the channel reads that language too
        spoken = current()
        with tables.presenter.in_channel(table) as channel:
            face = tables.presenter.live_face(table) if channel == spoken else None
        rendered = spectator_view(table, face)
        if self.act == "open":
            await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
        else:
            await interaction.response.edit_message(**rendered.kwargs())
        tables.presenter.watchers.opened(table, user, interaction)  # redrawn by the bot from now on


def watch_button(table: LiveTable) -> WatchButton:
    """The **Watch** button each game's table message carries."""
    return WatchButton(table.id, "open")


def spectator_view(table: LiveTable, public: Rendered | None = None) -> Rendered:
    """What a spectator sees: no hand of a player who has not allowed it, until the deal is over.
    ``public``: the table message as drawn for this state (drawn here if not given)."""
    engine = table.engine
    assert engine is not None
    if public is None:
        public = table.kind.table(table, [])
    shown: list[str] = []
    for seat in table.seats:
        if not seat.shows_hand:
            continue
        view: Mapping[str, Any] = shared_view(engine, seat.seat)  # that seat let spectators see its hand
        hand = view.get("hand") or []
        shown.append(f"**{seat.name}**: {labels(hand) if hand else _('no cards in hand')}")
    # one message: the table's embeds and these share Discord's 6,000 characters
    budget = Budget(embeds=list(public.embeds))
    hands = budget.embed(title=_("👁️ Hands shown to spectators"), color=COLOR)
    budget.describe(
        hands,
        shown
        or [
            _(
                "No player shows their hand to spectators (each player decides with `/{key} spectators`).",
                key=table.kind.key,
            )
        ],
    )
    last = engine.last_deal_hands()
    if last and budget.left > 100:
        finished = budget.embed(title=_("🂠 The last deal's hands (that deal is over)"), color=COLOR)
        budget.describe(
            finished,
            [f"**{table.name(seat)}**: {labels(sorted(card_code(c) for c in cards))}" for seat, cards in last.items()],
        )
    embeds = budget.embeds
    files = list(public.files or [])  # the table's pictures go with its embeds ("image unavailable" else)
    if engine.is_over or table.record.status != "playing":
        content = _("🏁 Game #{game} is over: this is its last look (only you see this).", game=table.id)
        return _readable(table, Rendered(content=content, embeds=embeds, view=None, files=files))
    controls = discord.ui.View(timeout=None)
    controls.add_item(WatchButton(table.id, "refresh"))
    controls.stop()  # dispatched by custom id (a dynamic item): nothing to keep
    content = _(
        "👀 You are watching game #{game} (only you see this). It follows the game by itself; if it stops (after"
        " 15 minutes), press **Refresh**.",
        game=table.id,
    )
    return _readable(table, Rendered(content=content, embeds=embeds, view=controls, files=files))


def _readable(table: LiveTable, rendered: Rendered) -> Rendered:
    """The hands' cards as the game's messages show them (card emojis, not ♠ and ♣ as text,
    dark grey on a dark page): the table's own embeds already are, the hands here are added."""
    result: Rendered = readable(rendered, four_colour(table.record.options))
    return result


def add_spectator_commands(group: app_commands.Group, kind: AnyKind) -> None:
    @group.command(
        name="spectators",
        description=pgettext("command description", "Let people watching this table see your hand, or stop it"),
    )
    @app_commands.describe(
        hand=pgettext("option description", "show: spectators see your hand; hide: they do not (the default)")
    )
    @app_commands.choices(  # (what a client shows in its language; the value the bot reads stays)
        hand=[
            app_commands.Choice(name=pgettext("option choice", "show"), value="show"),
            app_commands.Choice(name=pgettext("option choice", "hide"), value="hide"),
        ]
    )
    async def spectators(interaction: discord.Interaction, hand: str) -> None:
        tables = tables_of(interaction)
        table = tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is None:
            raise Refusal(_("There is no {game} table in this channel.", game=kind.title))
        async with table.lock:
            seat = table.player_seat(interaction.user.id)
            record = table.seats[seat]
            record.shows_hand = hand == "show"
            await tables.store.update_seat(table.id, record)
        if record.shows_hand:
            text = _("👁️ People watching this table can now see your hand (and only yours).")
        else:
            text = _("🙈 People watching this table no longer see your hand.")
        await interaction.response.send_message(text, ephemeral=True)
