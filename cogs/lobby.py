"""The lobby every game shares, and the slash-command group each game gets.

``/<game> new`` opens a table; its lobby message carries Join / Leave / Add computer / Start /
Cancel buttons and the host's preset picker. The buttons are dynamic items, so a lobby keeps
working after a restart. Each game's cog builds its command group with :func:`game_group` and adds
its own commands (``hand``) to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import GameItem
from bot.errors import Refusal, guarded
from bot.kinds import GameKind
from bot.render.common import TIMER_CHOICES, parse_timer, timer_label
from bot.render.lobby import closed_lobby, lobby_message
from bot.tables import LiveTable

if TYPE_CHECKING:
    from bot.client import CardBot

TIMER_OPTION = "turn_timer"


def _bot(interaction: discord.Interaction) -> CardBot:
    return interaction.client  # type: ignore[return-value]


def render_lobby(table: LiveTable):
    rules = table.kind.make_rules(table.record.preset, table.record.options)
    return lobby_message(table, table.kind.describe(rules), table.kind.player_range(rules))


class LobbyButton(GameItem[discord.ui.Button], template=r"lobby:(?P<game_id>\d+):(?P<act>[a-z]+)"):
    LABELS = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "bot": ("Add computer", discord.ButtonStyle.secondary),
        "unbot": ("Remove computer", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "cancel": ("Cancel", discord.ButtonStyle.danger),
    }

    def __init__(self, game_id: int, act: str) -> None:
        label, style = self.LABELS[act]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"lobby:{game_id}:{act}"))
        self.game_id, self.act = game_id, act

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = _bot(interaction).tables
        table = manager.get(self.game_id)
        async with table.lock:
            if table.record.status != "lobby":
                raise Refusal("This game has already started.")
            user = interaction.user
            host_only = self.act in ("start", "cancel", "bot", "unbot")
            if host_only and user.id != table.record.host_id:
                raise Refusal("Only the host can do that.")
            if self.act == "join":
                await manager.join(table, user)
            elif self.act == "leave":
                seat = table.seat_of(user.id)
                if seat is None:
                    raise Refusal("You are not at this table.")
                if user.id == table.record.host_id:
                    raise Refusal("You are the host: press Cancel to close the table instead.")
                await manager.remove_seat(table, seat)
            elif self.act == "bot":
                await manager.add_computer(table, "strong")
            elif self.act == "unbot":
                computers = [s.seat for s in table.seats if s.user_id is None]
                if not computers:
                    raise Refusal("There is no computer player to remove.")
                await manager.remove_seat(table, computers[-1])
            elif self.act == "cancel":
                await manager.cancel(table)
                await interaction.response.edit_message(
                    **closed_lobby(table, f"The table was closed by {user.mention}.").kwargs()
                )
                return
            elif self.act == "start":
                await manager.start(table)
                await interaction.response.edit_message(
                    **closed_lobby(table, "The game has started: the table is below. Good luck!").kwargs()
                )
                await manager.post_new_table(table, [])
                manager.kick(table)
                return
            await interaction.response.edit_message(**render_lobby(table).kwargs())


class PresetSelect(GameItem[discord.ui.Select], template=r"lobbypreset:(?P<game_id>\d+)"):
    def __init__(self, game_id: int, kind: GameKind | None = None, current: str | None = None) -> None:
        options = [
            discord.SelectOption(label=f"Preset: {p}", value=p, default=p == current)
            for p in (kind.presets if kind else ())
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(custom_id=f"lobbypreset:{game_id}", options=options, placeholder="Preset (host)")
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = _bot(interaction).tables
        table = manager.get(self.game_id)
        async with table.lock:
            if table.record.status != "lobby":
                raise Refusal("This game has already started.")
            if interaction.user.id != table.record.host_id:
                raise Refusal("Only the host can change the rules.")
            preset = self.item.values[0]
            await manager.change_options(table, preset, {}, table.record.turn_seconds)
            await interaction.response.edit_message(**render_lobby(table).kwargs())


def lobby_view(table: LiveTable) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for act in ("join", "leave", "start", "cancel"):
        view.add_item(LobbyButton(table.id, act))
    view.add_item(LobbyButton(table.id, "bot"))
    view.add_item(LobbyButton(table.id, "unbot"))
    view.add_item(PresetSelect(table.id, table.kind, table.record.preset))
    return view


async def refresh_lobby(bot: CardBot, table: LiveTable) -> None:
    if table.record.message_id is None:
        return
    channel = bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
    await channel.get_partial_message(table.record.message_id).edit(**render_lobby(table).kwargs())


async def post_lobby(bot: CardBot, table: LiveTable) -> None:
    """Post the lobby as a new message (the local mode's channel starts empty on every run)."""
    channel = bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
    message = await channel.send(**render_lobby(table).kwargs())
    table.record.message_id = message.id
    await bot.store.set_message(table.id, message.id)


def game_group(kind: GameKind) -> app_commands.Group:
    """The ``/<game>`` command group: everything a player types, for one game."""

    group = app_commands.Group(name=kind.key, description=f"Play {kind.title}", guild_only=True)

    def live_table(interaction: discord.Interaction) -> LiveTable:
        table = _bot(interaction).tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is None:
            raise Refusal(f"There is no {kind.title} table in this channel. Open one with /{kind.key} new.")
        return table

    async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=p, value=p) for p in kind.presets if current.lower() in p][:25]

    @group.command(name="new", description=f"Open a {kind.title} table in this channel")
    @app_commands.describe(preset="The rule set to start from (the host can change any rule before starting)")
    @app_commands.autocomplete(preset=preset_autocomplete)
    @guarded
    async def new(interaction: discord.Interaction, preset: str | None = None) -> None:
        bot = _bot(interaction)
        chosen = (preset or kind.default_preset).strip().lower()
        if chosen not in kind.presets:
            raise Refusal(f"There is no preset called {chosen!r}. Presets: {', '.join(kind.presets)}.")
        table = await bot.tables.open_lobby(
            kind, interaction.guild_id, interaction.channel_id or 0, interaction.user, chosen
        )
        async with table.lock:
            await interaction.response.send_message(**render_lobby(table).kwargs())
            message = await interaction.original_response()
            table.record.message_id = message.id
            await bot.store.set_message(table.id, message.id)

    async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        names = [TIMER_OPTION, *(o.name for o in kind.options())]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    async def value_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        option = getattr(interaction.namespace, "option", None)
        if option == TIMER_OPTION:
            values: tuple[str, ...] = tuple(TIMER_CHOICES)
        else:
            spec = next((o for o in kind.options() if o.name == option), None)
            values = spec.values if spec else ()
        return [app_commands.Choice(name=v, value=v) for v in values if current.lower() in v.lower()][:25]

    @group.command(name="set", description="Change one rule before the start (host only)")
    @app_commands.describe(option="The rule to change", value="Its new value")
    @app_commands.autocomplete(option=option_autocomplete, value=value_autocomplete)
    @guarded
    async def set_option(interaction: discord.Interaction, option: str, value: str) -> None:
        bot = _bot(interaction)
        table = live_table(interaction)
        async with table.lock:
            if table.record.status != "lobby":
                raise Refusal("The game has already started: rules can only change in the lobby.")
            if interaction.user.id != table.record.host_id:
                raise Refusal("Only the host can change the rules.")
            options = dict(table.record.options)
            turn_seconds = table.record.turn_seconds
            if option == TIMER_OPTION:
                try:
                    turn_seconds = parse_timer(value)
                except ValueError as error:
                    raise Refusal(str(error)) from None
            else:
                if option not in {o.name for o in kind.options()}:
                    names = ", ".join(o.name for o in kind.options())
                    raise Refusal(f"There is no rule called {option!r}. Rules: {TIMER_OPTION}, {names}.")
                options[option] = value
            await bot.tables.change_options(table, table.record.preset, options, turn_seconds)
            shown = timer_label(turn_seconds) if option == TIMER_OPTION else value
            await interaction.response.send_message(f"✅ {option} is now **{shown}**.", ephemeral=True)
            await refresh_lobby(bot, table)

    @group.command(name="rules", description="The rules in force at this table (or of a preset)")
    @app_commands.autocomplete(preset=preset_autocomplete)
    @guarded
    async def rules(interaction: discord.Interaction, preset: str | None = None) -> None:
        table = _bot(interaction).tables.in_channel(interaction.channel_id or 0, kind.key)
        if preset is not None or table is None:
            name = (preset or kind.default_preset).lower()
            if name not in kind.presets:
                raise Refusal(f"There is no preset called {name!r}. Presets: {', '.join(kind.presets)}.")
            rule_set, title = kind.make_rules(name, {}), f"{kind.title}: preset {name}"
        else:
            rule_set = (
                table.rules if table.rules is not None else kind.make_rules(table.record.preset, table.record.options)
            )
            title = f"{kind.title}: rules at this table"
        lines = "\n".join(f"• {line}" for line in kind.describe(rule_set))
        embed = discord.Embed(title=title, description=lines[:4000])
        if table is not None and preset is None:
            embed.add_field(name="Turn timer", value=timer_label(table.record.turn_seconds))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="scores", description="The scores at this table, or of the last game here")
    @guarded
    async def scores(interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        table = bot.tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is not None and table.engine is not None:
            await interaction.response.send_message(**_no_none(kind.scores(table).kwargs()), ephemeral=True)
            return
        last = await bot.store.last_game(interaction.channel_id or 0, kind.key)
        if last is None:
            raise Refusal(f"No {kind.title} game has been played in this channel yet.")
        rows = await bot.store.results(last.id)
        if not rows:
            raise Refusal(f"The last {kind.title} game here (#{last.id}) was ended before its result.")
        embed = discord.Embed(title=f"{kind.title}: result of game #{last.id}")
        embed.description = "\n".join(
            f"{row.place}. {row.name}"
            + (f": **{row.total}**" if row.total is not None else "")
            + (" 💩" if row.is_loser and kind.key == "shithead" else "")
            for row in rows
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="table", description="Post the table again here (lost it in the chat?)")
    @guarded
    async def table_again(interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        table = live_table(interaction)
        if table.engine is None:
            raise Refusal("The game has not started yet: the lobby message is the table for now.")
        async with table.lock:
            await interaction.response.send_message("Here is the table again:", ephemeral=True)
            await bot.tables.repost(table)

    @group.command(name="leave", description="Leave the lobby, or hand your seat to the computer")
    @guarded
    async def leave(interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        table = live_table(interaction)
        async with table.lock:
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("You are not playing at this table.")
            if table.record.status == "lobby":
                if interaction.user.id == table.record.host_id:
                    raise Refusal("You are the host: press Cancel on the lobby to close the table instead.")
                await bot.tables.remove_seat(table, seat)
                await interaction.response.send_message("You left the table.", ephemeral=True)
                await refresh_lobby(bot, table)
                return
            await bot.tables.stand_in(table, seat)
            table.notice(f"🚪 {table.name(seat)} left: the computer plays their seat (/{kind.key} back to return).")
            await interaction.response.send_message(
                f"The computer plays your seat now. Use /{kind.key} back to take it again.", ephemeral=True
            )
            bot.tables.kick(table)

    @group.command(name="back", description="Take your seat back from the computer")
    @guarded
    async def back(interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        table = live_table(interaction)
        async with table.lock:
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("You have no seat at this table.")
            await bot.tables.take_back(table, seat)
            await interaction.response.send_message("Your seat is yours again.", ephemeral=True)

    @group.command(name="end", description="End the game at this table (host only)")
    @guarded
    async def end(interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        table = live_table(interaction)
        async with table.lock:
            if interaction.user.id != table.record.host_id:
                raise Refusal("Only the host can end the game.")
            if table.record.status == "lobby":
                await bot.tables.cancel(table)
                await interaction.response.send_message("The table was closed.")
                if table.record.message_id:
                    channel = bot.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
                    await channel.get_partial_message(table.record.message_id).edit(
                        **closed_lobby(table, "The table was closed by the host.").kwargs()
                    )
                return
            await interaction.response.send_message(
                f"🛑 {interaction.user.mention} ended the game. No result is recorded."
            )
            await bot.tables.end_early(table, interaction.user.mention)

    return group


def take_back_button(table: LiveTable) -> discord.ui.Item | None:
    """Shown on a table message while the computer stands in for an absent person."""
    if any(s.user_id is not None and s.ai_level is not None for s in table.seats):
        return SeatBackButton(table.id)
    return None


class SeatBackButton(GameItem[discord.ui.Button], template=r"seatback:(?P<game_id>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take my seat back", style=discord.ButtonStyle.secondary, custom_id=f"seatback:{game_id}"
            )
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        manager = _bot(interaction).tables
        table = manager.get(self.game_id)
        async with table.lock:
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("You have no seat at this table.")
            await manager.take_back(table, seat)
            await interaction.response.send_message(
                "Your seat is yours again: your turn is yours to play.", ephemeral=True
            )


class Lobby(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot


async def setup(bot: CardBot) -> None:
    bot.add_dynamic_items(LobbyButton, PresetSelect, SeatBackButton)
    await bot.add_cog(Lobby(bot))


def _no_none(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if v is not None}
