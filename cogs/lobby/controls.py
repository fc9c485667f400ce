"""The lobby's controls (Join / Leave / Add computer / Remove computer / Start / Cancel and the
host's preset picker) and the **Take my seat back** button every game's table carries. All are
dynamic items, so a lobby or a table keeps working after a restart."""

from __future__ import annotations

import contextlib
import functools
import logging
from typing import Any

import discord

from bot.client import tables_of
from bot.fairness.shuffles import commitment_line
from bot.messages.components import GameItem
from bot.messages.errors import Refusal, mark_committed, reply_ephemeral
from bot.messages.faults import TRANSIENT, Fault
from bot.messages.speech import in_channel
from bot.seam.contract import AnyKind, LiveTable, Rendered
from cogs.lobby.carry import carry_options
from cogs.lobby.render import closed_lobby, lobby_message
from draw.looks import display_lines
from locales import N_, _, translate

log = logging.getLogger(__name__)


def render_lobby(table: LiveTable) -> Rendered:
    """The lobby message, in the language being spoken (the channel's: see :func:`channel_lobby`)."""
    rules = table.kind.make_rules(table.record.preset, table.record.options)
    lines = table.kind.describe(rules) + display_lines(table.record.options)
    return lobby_message(table, lines, table.kind.player_range(rules), lobby_view(table))


def channel_lobby(interaction: discord.Interaction, table: LiveTable) -> Rendered:
    """The lobby message as its channel reads it, whoever pressed."""
    with in_channel(interaction.client, table.record.guild_id, table.record.options):
        return render_lobby(table)


def _channel_says(interaction: discord.Interaction, table: LiveTable) -> contextlib.AbstractContextManager[str]:
    """What the lobby's message says after a press is in its channel's language, not the presser's."""
    return in_channel(interaction.client, table.record.guild_id, table.record.options)


class LobbyButton(GameItem[discord.ui.Button[Any]], template=r"lobby:(?P<game_id>\d+):(?P<act>[a-z]+)"):
    fields = {"game_id": int}
    LABELS = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "bot": (N_("Add computer"), discord.ButtonStyle.secondary),
        "unbot": (N_("Remove computer"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
        "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
    }

    def __init__(self, game_id: int, act: str) -> None:
        label, style = self.LABELS[act]
        super().__init__(discord.ui.Button(label=translate(label), style=style, custom_id=f"lobby:{game_id}:{act}"))
        self.game_id, self.act = game_id, act

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = tables_of(interaction)
        seating = manager.seating
        table = manager.get(self.game_id)
        async with table.lock:
            _may_press(interaction, table, self.act)
            if self.act == "cancel":
                await _cancel(interaction, table)
                return
            if self.act != "start":
                await _change_seats(interaction, table, self.act)
                await _answer_with_lobby(interaction, table, None)
                return
            committed = await _begin_start(interaction, table)
        if seating.beacons is not None:
            await _start_with_beacon(interaction, table)
            return
        await _show_started(interaction, table, committed)


def _may_press(interaction: discord.Interaction, table: LiveTable, act: str) -> None:
    """Refuses a press once the lobby is gone or starting, and the host's buttons to anyone else."""
    if table.record.status != "lobby":
        raise Refusal(_("This game has already started."))
    if tables_of(interaction).seating.starting(table):
        raise Refusal(
            _(
                "The game is starting: its decks wait for drand round {round}.",
                round=table.record.beacon_round,
            )
        )
    host_only = act in ("start", "cancel", "bot", "unbot")
    if host_only and interaction.user.id != table.record.host_id:
        raise Refusal(_("Only the host can do that."))


async def _change_seats(interaction: discord.Interaction, table: LiveTable, act: str) -> None:
    """Join, Leave, Add computer, Remove computer: one seat taken or freed."""
    seating = tables_of(interaction).seating
    user = interaction.user
    if act == "join":
        await seating.sit(table, user, interaction.guild_id, interaction.channel_id)
    elif act == "leave":
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal(_("You are not at this table."))
        if user.id == table.record.host_id:
            raise Refusal(_("You are the host: press Cancel to close the table instead."))
        await seating.remove_seat(table, seat)
    elif act == "bot":
        await seating.add_computer(table, "strong")
    elif act == "unbot":
        computers = [s.seat for s in table.seats if s.user_id is None]
        if not computers:
            raise Refusal(_("There is no computer player to remove."))
        await seating.remove_seat(table, computers[-1])


async def _cancel(interaction: discord.Interaction, table: LiveTable) -> None:
    """Cancel: the table closed, the lobby's last look naming who closed it."""
    await tables_of(interaction).seating.cancel(table)
    with _channel_says(interaction, table):
        closed = closed_lobby(table, _("The table was closed by **{name}**.", name=interaction.user.display_name))
    await _answer_with_lobby(interaction, table, closed)


async def _begin_start(interaction: discord.Interaction, table: LiveTable) -> str | None:
    """Start, under the table's lock: with a beacon, the round to wait for is fixed and shown;
    without, the game starts at once. Returns the shuffle's commitment line shown (None: none, or
    the start waits for its round)."""
    seating = tables_of(interaction).seating
    if seating.beacons is not None:
        number = await seating.begin_start(table)
        mark_committed(interaction, _("The start"))
        with _channel_says(interaction, table):
            text = _(
                "The game is starting: its decks wait for drand round **{round}** (a few seconds)…",
                round=number,
            )
            closed = closed_lobby(table, f"{text}\n\n{commitment_line(table)}")
        await interaction.response.edit_message(**closed.kwargs())
        return None
    await seating.start(table)
    mark_committed(interaction, _("The start"))
    with _channel_says(interaction, table):
        committed = commitment_line(table)
        starting = closed_lobby(table, _("The game is starting…") + f"\n\n{committed}")
    if committed:
        # The shuffle's commitment is shown before any card is dealt (the provable shuffle).
        await interaction.response.edit_message(**starting.kwargs())
    seating.show_start(table)
    return committed


async def _show_started(interaction: discord.Interaction, table: LiveTable, committed: str | None) -> None:
    """Started: the lobby says where the table is only once it is there (or why it is not yet)."""
    fault = await tables_of(interaction).presenter.settled(table)
    with _channel_says(interaction, table):
        text = started_text(table, fault)
        closed = closed_lobby(table, f"{text}\n\n{committed}" if committed else text)
    if interaction.response.is_done():
        await interaction.edit_original_response(**closed.kwargs())
    else:
        await interaction.response.edit_message(**closed.kwargs())


async def _start_with_beacon(interaction: discord.Interaction, table: LiveTable) -> None:
    """The wait for the round runs without the table's lock (the lobby's controls say it is
    starting meanwhile); then the first hand is dealt from the seed and the round, or labelled. A
    failure (the store, Discord) is tried again by the table's clock, as after a restart."""
    manager = tables_of(interaction)
    try:
        await manager.seating.complete_start(table)
    except Exception:
        log.exception("game %s: starting after the drand round failed; trying again", table.id)
        job = functools.partial(manager.seating.complete_start, table)
        manager.clock.supervise(table, N_("starting after the drand round"), job)
        return
    fault = await manager.presenter.settled(table)
    with _channel_says(interaction, table):
        committed = commitment_line(table)
        text = started_text(table, fault)
        closed = closed_lobby(table, f"{text}\n\n{committed}" if committed else text)
    await interaction.edit_original_response(**closed.kwargs())


async def _answer_with_lobby(interaction: discord.Interaction, table: LiveTable, closed: Rendered | None) -> None:
    """Answer a lobby click (its change is saved) by redrawing the lobby (``closed``: its last
    look). If Discord refuses the answer, the lobby's display redraws it, and the player is told
    the truth: done, the message catches up."""
    presenter = tables_of(interaction).presenter
    try:
        await interaction.response.edit_message(**(closed or channel_lobby(interaction, table)).kwargs())
    except TRANSIENT:
        if closed is not None:
            await presenter.edit_message(table, closed)
        else:
            await presenter.refresh_lobby(table)
        await reply_ephemeral(interaction, _("✅ Done. The lobby message isn't updated yet: it catches up by itself."))


def started_text(table: LiveTable, fault: Fault | None) -> str:
    """What the lobby's last look says once the game started (in the language being spoken)."""
    if fault is None:
        return _("The game has started: the table is below. Good luck!")
    if fault.permission is not None:
        return _(
            "The game has started, but its table is not here yet: I may not post in this channel yet (I need the"
            " **{permission}** permission). It will appear by itself as soon as I can post it (or type /{key} table).",
            permission=translate(fault.permission),
            key=table.kind.key,
        )
    return _(
        "The game has started, but its table is not here yet: Discord did not let me post it yet. It will appear"
        " by itself as soon as I can post it (or type /{key} table).",
        key=table.kind.key,
    )


class PresetSelect(GameItem[discord.ui.Select[Any]], template=r"lobbypreset:(?P<game_id>\d+)"):
    fields = {"game_id": int}

    def __init__(self, game_id: int, kind: AnyKind | None = None, current: str | None = None) -> None:
        options = (
            [
                discord.SelectOption(
                    label=_("Preset: {name}", name=kind.preset_name(p))[:100],
                    value=p,
                    default=p == current,
                    description=kind.preset_line(p)[:100] or None,
                )
                for p in kind.presets
            ]
            if kind is not None
            else []
        )
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(custom_id=f"lobbypreset:{game_id}", options=options, placeholder=_("Preset (host)"))
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = tables_of(interaction)
        table = manager.get(self.game_id)
        async with table.lock:
            if table.record.status != "lobby" or manager.seating.starting(table):
                raise Refusal(_("This game has already started."))
            if interaction.user.id != table.record.host_id:
                raise Refusal(_("Only the host can change the rules."))
            preset = self.item.values[0]
            carried = carry_options(table.kind, preset, dict(table.record.options))
            await manager.seating.change_options(table, preset, carried.kept, table.record.turn_seconds)
            await _answer_with_lobby(interaction, table, None)
            summary = carried.summary(preset)
            if summary:  # say which of the host's changes the new preset kept, and why others went
                await interaction.followup.send(summary, ephemeral=True)


def lobby_view(table: LiveTable) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for act in ("join", "leave", "start", "cancel"):
        view.add_item(LobbyButton(table.id, act))
    view.add_item(LobbyButton(table.id, "bot"))
    view.add_item(LobbyButton(table.id, "unbot"))
    view.add_item(PresetSelect(table.id, table.kind, table.record.preset))
    return view


def take_back_button(table: LiveTable) -> discord.ui.Item[Any] | None:
    """Shown on a table message while the computer stands in for an absent person."""
    if any(s.user_id is not None and s.ai_level is not None for s in table.record.seats):
        return SeatBackButton(table.id)
    return None


class SeatBackButton(GameItem[discord.ui.Button[Any]], template=r"seatback:(?P<game_id>\d+)"):
    fields = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Take my seat back"), style=discord.ButtonStyle.secondary, custom_id=f"seatback:{game_id}"
            )
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = tables_of(interaction)
        table = manager.get(self.game_id)
        async with table.lock:
            seat = table.player_seat(interaction.user.id)  # the one guard of a player's door
            await manager.seating.take_back(table, seat)
            await interaction.response.send_message(
                _("Your seat is yours again: your turn is yours to play."), ephemeral=True
            )
