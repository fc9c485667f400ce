"""``/cardstats``, ``/leaderboard`` and ``/cardadmin``: reads of the stored games and ratings
(rating a game that was left unrated first), and the admins' rating commands."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardBot, manages_server
from bot.fairness.beacon.binding import LABEL
from bot.messages.errors import Refusal
from bot.messages.speech import pgettext
from bot.seam.contract import AnyKind, LiveTable
from bot.tables import secrecy
from bot.tables.secrecy import Door
from cogs.stats.book import RatingBook
from cogs.stats.coach import Coach
from cogs.stats.profile import head_to_head, profile
from cogs.stats.ratings import ALL_TIME, SEASON_LENGTHS, display, season_of
from db.records import GuildSettings, ResultRow, SeatRecord
from draw.budget import Budget
from draw.common import COLOR, level_word
from games.common.text import shorten
from locales import N_, _, decimal, ngettext, translate

LEADERBOARD_ROWS = 15
#: a season's length (the server's setting, ``SEASON_LENGTHS``) as players read it
SEASON_WORDS = {
    "monthly": N_("monthly"),
    "quarterly": N_("quarterly"),
    "yearly": N_("yearly"),
    "none": N_("none: all time only"),
}
assert set(SEASON_WORDS) == set(SEASON_LENGTHS)
#: the ``/cardadmin seasons`` choices, in each member's language (Discord shows their translations)
SEASON_CHOICES = [
    app_commands.Choice(name=pgettext("option choice", "monthly"), value="monthly"),
    app_commands.Choice(name=pgettext("option choice", "quarterly"), value="quarterly"),
    app_commands.Choice(name=pgettext("option choice", "yearly"), value="yearly"),
    app_commands.Choice(name=pgettext("option choice", "none"), value="none"),
]


def current_season(settings: GuildSettings) -> str:
    return season_of(discord.utils.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"), settings.season) or ALL_TIME


def shown_name(ident: str, name: str) -> str:
    """A rated player's name: a computer's (``ai:strong``) in the reader's words, not the English
    one its rating row was stored with."""
    if ident.startswith("ai:"):
        return _("Computer ({level})", level=level_word(ident[3:]))
    return name


def games_text(n: int) -> str:
    return ngettext("{n} game", "{n} games", n)


class Stats(commands.Cog):
    def __init__(self, bot: CardBot, book: RatingBook, coach: Coach) -> None:
        self.bot = bot
        self.book = book
        self.coach = coach

    async def cog_unload(self) -> None:
        self.coach.close()

    def _preset_name(self, kind: str, preset: str) -> str:
        """A stored preset key as players read it ("Oh Shit (secret bids)")."""
        game = self.bot.tables.kinds.get(kind)
        return game.preset_name(preset) if game is not None and preset in game.presets else preset

    # -- hooks into the runtime -------------------------------------------------------------
    async def on_finished(self, table: LiveTable, results: list[ResultRow]) -> None:
        """Rate the game just finished; its changes go on the final standings."""
        changes = await self.book.finished(table)
        for change in changes.get(table.id, []):
            for row in results:
                if row.seat == change.seat:
                    row.stats["rating"] = [
                        display(change.mu_before, change.sigma_before),
                        display(change.mu_after, change.sigma_after),
                    ]

    def seat_note(self, table: LiveTable, seat: SeatRecord) -> str | None:
        ident = f"u:{seat.user_id}" if seat.user_id is not None else f"ai:{seat.ai_level or 'quick'}"
        return self.book.note(table.record.guild_id, table.kind.key, ident)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        for guild in self.bot.guilds:
            await self.book.warm(guild.id, list(self.bot.tables.kinds))

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.book.warm(guild.id, list(self.bot.tables.kinds))

    def _kinds(self, game: str | None) -> list[str]:
        return [game] if game else list(self.bot.tables.kinds)

    # -- /leaderboard (the commands themselves: :func:`add_stats_commands`) ----------------------
    async def leaderboard(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        guild_id = interaction.guild_id
        settings = await self.bot.store.guild_settings(guild_id)
        typed = (season or current_season(settings)).strip()
        # a season's code as stored ("2026-Q1", "2026-11"), however it was typed; "all" for all time
        chosen = ALL_TIME if typed.lower() == ALL_TIME else typed.upper()
        budget = Budget()  # both games' boards are one message: one budget
        for kind in self._kinds(game):
            await self.book.catch_up(guild_id, kind)
            rows = await self.bot.store.ratings(guild_id, kind, chosen)
            ranked = sorted(
                (r for r in rows if r.games >= settings.min_games),
                key=lambda r: (-display(r.mu, r.sigma), -r.mu, r.identity),
            )
            waiting = len(rows) - len(ranked)
            lines = [
                _(
                    "{place}. **{name}** — {rating} · {games} · {wins} won",
                    place=n,
                    name=shown_name(r.identity, r.name),
                    rating=display(r.mu, r.sigma),
                    games=games_text(r.games),
                    wins=r.wins,
                )
                for n, r in enumerate(ranked[:LEADERBOARD_ROWS], start=1)
            ]
            title = _("all time") if chosen == ALL_TIME else _("season {season}", season=shorten(chosen))  # as typed
            footer = _("Ranked after {games}", games=games_text(settings.min_games))
            unbeaconed = [
                at
                for at in await self.bot.store.unbeaconed_rated(guild_id, kind)
                if chosen == ALL_TIME or season_of(at, settings.season) == chosen
            ]
            if unbeaconed:  # rated like the others, but their decks came from the bot's seed alone
                footer += " · " + ngettext(
                    "{n} game here was {label}", "{n} games here were {label}", len(unbeaconed), label=translate(LABEL)
                )
            if waiting:
                footer += " · " + ngettext("{n} more player not ranked yet", "{n} more players not ranked yet", waiting)
            budget.reserve(len(footer))
            embed = budget.embed(title=f"🏆 {self.bot.tables.title_of(kind)} · {title}", color=COLOR)
            budget.describe(embed, lines or [_("Nobody is ranked yet.")])
            budget.footer(embed, footer)
        await interaction.response.send_message(embeds=budget.embeds, ephemeral=True)

    async def season_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """This server's seasons of the chosen game (both if none is chosen), newest first, and ``all``."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return []
        game = getattr(interaction.namespace, "game", None)
        found: set[str] = set()
        for kind in self._kinds(game if game in self.bot.tables.kinds else None):
            await self.book.catch_up(guild_id, kind)
            found |= {r.season for r in await self.bot.store.ratings(guild_id, kind, None)}
        found.discard(ALL_TIME)
        settings = await self.bot.store.guild_settings(guild_id)
        found.add(current_season(settings))
        found.discard(ALL_TIME)  # seasons "none": only all time
        typed = current.strip().lower()
        names = [ALL_TIME, *sorted(found, reverse=True)]
        shown = [(_("all time") if n == ALL_TIME else n, n) for n in names]  # "all" is a code: named in words
        return [
            app_commands.Choice(name=name, value=n) for name, n in shown if typed in n.lower() or typed in name.lower()
        ][:25]

    # -- /cardstats ---------------------------------------------------------------------------
    async def cardstats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: str | None = None,
        versus: discord.Member | None = None,
    ) -> None:
        who = member or interaction.user
        guild_id = interaction.guild_id
        held = await secrecy.held_matches(self.bot.store, Door.STATS)  # a match counts once it is over
        games = await self.bot.store.member_games(who.id, guild_id, held=held)
        theirs = await self.bot.store.member_games(versus.id, guild_id, held=held) if versus is not None else []
        budget = Budget()
        embed = budget.embed(title=_("{name}'s card games", name=who.display_name), color=COLOR)
        kinds = [k for k in self._kinds(game) if any(g.kind == k for g in games)]
        if not kinds:
            embed.description = _("No finished games here yet.")
        ident = f"u:{who.id}"
        for kind in kinds:
            await self.book.catch_up(guild_id, kind)
            rating = next(
                (r for r in await self.bot.store.ratings(guild_id, kind, ALL_TIME) if r.identity == ident), None
            )
            changes = await self.bot.store.rating_changes(guild_id, kind, ident)
            p = profile(kind, games, rating, changes)
            lines = [
                _(
                    "{games} played · {wins} won · average place {place}",
                    games=p.games,
                    wins=p.wins,
                    place=decimal(p.average_place, 2),
                ),
                _("Rating **{rating}**", rating=p.rating if p.rating is not None else "—")
                + (
                    " "
                    + _(
                        "({trend} over the last {games})", trend=f"{p.trend:+d}", games=games_text(min(5, len(changes)))
                    )
                    if p.trend is not None
                    else ""
                ),
            ]
            # the leaderboard's rule (its footer counts the same games server-wide)
            unbeaconed = len(await self.bot.store.unbeaconed_rated(guild_id, kind, ident))
            if unbeaconed:  # rated like the others, but their decks came from the bot's seed alone
                lines.append(
                    ngettext(
                        "Of the games rated, {n} was {label}",
                        "Of the games rated, {n} were {label}",
                        unbeaconed,
                        label=translate(LABEL),
                    )
                )
            game_kind = self.bot.tables.kinds.get(kind)
            if game_kind is not None:
                game_kind.add_profile(lines, p)  # the game's own figures (bids made, times the loser…)
            lines.append(
                _(
                    "Current streak: {streak} · favourite preset: {preset}",
                    streak=p.streak,
                    preset=self._preset_name(kind, p.favourite_preset),
                )
            )
            if versus is not None:
                h = head_to_head(games, theirs, kind)
                lines.append(
                    _(
                        "Against {name}: {games} together, ahead {ahead}, behind {behind}, level {level}",
                        name=versus.display_name,
                        games=games_text(h.together),
                        ahead=h.ahead,
                        behind=h.behind,
                        level=h.level,
                    )
                )
            budget.field(embed, self.bot.tables.title_of(kind), lines)
        await interaction.response.send_message(embed=embed, ephemeral=True)


def stats_commands(cog: Stats, kinds: list[AnyKind]) -> list[app_commands.Command[Any, Any, None]]:
    """``/leaderboard`` and ``/cardstats``, made once the games are registered (the runtime makes
    them at start-up: :attr:`bot.seam.features.Feature.commands`): their ``game`` choices are the
    registered games ``kinds`` (discord.py reads choices when a command is made)."""
    games = [app_commands.Choice(name=kind.title, value=kind.key) for kind in kinds]

    @app_commands.command(
        name="leaderboard", description=pgettext("command description", "This server's best players by rating")
    )
    @app_commands.describe(
        game=pgettext("option description", "Which game (both if left empty)"),
        season=pgettext(
            "option description", "'all' for all time, or a season such as 2026-11 (the current one if left empty)"
        ),
    )
    @app_commands.choices(game=games)
    @app_commands.guild_only()
    async def leaderboard(interaction: discord.Interaction, game: str | None = None, season: str | None = None) -> None:
        await cog.leaderboard(interaction, game, season)

    @leaderboard.autocomplete("season")
    async def season_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await cog.season_choices(interaction, current)

    @app_commands.command(
        name="cardstats", description=pgettext("command description", "A player's record on this server")
    )
    @app_commands.describe(
        member=pgettext("option description", "Whose record (yours if left empty)"),
        game=pgettext("option description", "Which game (every game played if left empty)"),
        versus=pgettext(
            "option description", "Compare with this member: the games you both played, who finished ahead"
        ),
    )
    @app_commands.choices(game=games)
    @app_commands.guild_only()
    async def cardstats(
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        game: str | None = None,
        versus: discord.Member | None = None,
    ) -> None:
        await cog.cardstats(interaction, member, game, versus)

    return [leaderboard, cardstats]


class CardAdmin(app_commands.Group):
    """``/cardadmin``: server managers only (Discord hides it from the rest by default)."""

    def __init__(self, bot: CardBot, book: RatingBook) -> None:
        super().__init__(
            name="cardadmin",
            description=pgettext("command description", "Card Table settings for this server"),
            guild_only=True,
            default_permissions=discord.Permissions(manage_guild=True),
        )
        self.bot = bot
        self.book = book

    async def _rebuild(self, guild_id: int | None) -> int:
        return sum([await self.book.rebuild(guild_id, kind) for kind in self.bot.tables.kinds])

    @app_commands.command(
        name="rebuild-ratings",
        description=pgettext("command description", "Recompute every rating from the stored games"),
    )
    async def rebuild_ratings(self, interaction: discord.Interaction) -> None:
        _require_manager(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        count = await self._rebuild(interaction.guild_id)
        await interaction.followup.send(_("Ratings rebuilt from {count} stored games.", count=count), ephemeral=True)

    @app_commands.command(
        name="seasons",
        description=pgettext("command description", "How long a leaderboard season lasts, and the games to be ranked"),
    )
    @app_commands.describe(
        length=pgettext("option description", "monthly, quarterly, yearly or none"),
        min_games=pgettext("option description", "Games a player needs to be ranked"),
    )
    @app_commands.choices(length=SEASON_CHOICES)
    async def seasons(self, interaction: discord.Interaction, length: str, min_games: int | None = None) -> None:
        _require_manager(interaction)
        settings = await self.bot.store.guild_settings(interaction.guild_id)
        if min_games is not None and not 1 <= min_games <= 100:
            raise Refusal(_("The games needed to be ranked must be between 1 and 100."))
        new = GuildSettings(length, settings.min_games if min_games is None else min_games)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.store.set_guild_settings(interaction.guild_id, new)
        count = await self._rebuild(interaction.guild_id)  # every game's season may have changed
        await interaction.followup.send(
            _(
                "Seasons are now **{length}**; players are ranked after {games}."
                " Ratings rebuilt from {count} stored games.",
                length=translate(SEASON_WORDS[length]),
                games=games_text(new.min_games),
                count=count,
            ),
            ephemeral=True,
        )


def _require_manager(interaction: discord.Interaction) -> None:
    if not manages_server(interaction):
        raise Refusal(_("Only members who can manage this server can do that."))
