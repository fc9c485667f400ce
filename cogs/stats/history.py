"""``/<game> history``, ``/<game> replay`` and the replay's Prev/Next buttons.

Only finished games of the server the command is typed in are listed, replayed or exported:
a live game stays hidden until it ends, and a member of one server never reaches another
server's games (the buttons check the server again, as a custom id can be forged). A duplicate
match's finished table waits for every table of its match: the secrecy policy
(:mod:`bot.tables.secrecy`) decides, here as at every other door.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot.client import CardBot
from bot.fairness.beacon.binding import LABEL
from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.messages.components import GameItem
from bot.messages.errors import Refusal
from bot.messages.speech import pgettext
from bot.seam.contract import AnyKind
from bot.tables import secrecy
from bot.tables.secrecy import Door
from cogs.stats.replay import hand_history, page, steps
from db.records import AbandonedGame, FinishedGame, GameRecord
from db.store import Store
from draw.budget import Budget
from draw.common import COLOR
from locales import N_, _, translate

HISTORY_GAMES = 10


#: the doors ``/<game> replay`` opens: the step-by-step page and the JSON file with the seed
REPLAY_DOORS = (Door.REPLAY, Door.EXPORT)


async def refusal(
    store: Store,
    record: GameRecord | None,
    game_id: int,
    interaction: discord.Interaction,
    kind: str | None = None,
    doors: tuple[Door, ...] = REPLAY_DOORS,
) -> str | None:
    """Why this member may not have ``record`` (game ``game_id``; None: not stored) through
    ``doors``, or None: what :func:`finished_game` refuses with, and what the history and the
    autocomplete ask before they offer a game, so they offer nothing the command then refuses."""
    if record is None or record.guild_id != interaction.guild_id or (kind is not None and record.kind != kind):
        return _("There is no game #{game} on this server.", game=game_id)
    for door in doors:
        decision = await secrecy.ask(store, door, record, interaction.user.id, interaction.guild_id)
        if not decision.allowed:
            return decision.text(record.id)
    if record.status != "finished":  # ended early: no result, nothing to replay
        return _("Game #{game} has not finished: it can be replayed once it ends.", game=game_id)
    return None


async def finished_game(
    store: Store,
    game_id: int,
    interaction: discord.Interaction,
    kind: str | None = None,
    doors: tuple[Door, ...] = REPLAY_DOORS,
) -> GameRecord:
    """The stored game, if it is a finished game of this server (and of ``kind``) that the
    secrecy policy lets this member through ``doors`` of (a duplicate match's table waits for
    every table of the match); else a refusal."""
    record = await store.get_game(game_id)
    why = await refusal(store, record, game_id, interaction, kind, doors)
    if why is not None:
        raise Refusal(why)
    assert record is not None
    return record


def result_line(game: FinishedGame, loser_mark: str = "", earlier: dict[int, list[str]] | None = None) -> str:
    """The places of a finished game; ``loser_mark``: the game's mark for its loser (if any);
    ``earlier``: by seat, who played a seat before it was handed to its final player (whose
    result it is)."""
    people = []
    for r in game.results:
        text = f"{r.place}. {r.name}"
        if (earlier or {}).get(r.seat):
            text += " " + _("(took over from {names})", names=_(" then ").join((earlier or {})[r.seat]))
        if r.total is not None:
            text += f" ({r.total})"
        if r.is_loser and loser_mark:
            text += f" {loser_mark}"
        people.append(text)
    return ", ".join(people)


#: in the history, instead of the result of a duplicate match's table whose match still plays
HELD_RESULT = N_("🔒 A table of a duplicate match still playing: its result shows once every table has finished.")


def beacon_mark(game: FinishedGame) -> str:
    """How the game's decks were drawn, where it named a drand round: the round, or the label."""
    if game.beacon_round is not None:
        return f" · 🎲 drand {game.beacon_round}"
    return f" · {translate(LABEL)}" if game.unbeaconed else ""


def abandoned_after_round(game: AbandonedGame, chain: Chain) -> bool:
    """Whether ``game`` ended once its drand round had been published: its decks could be known
    then, so ending it (the host, or a bot dropping decks it dislikes) is listed, not hidden. A
    lobby closed while its round was still to come gave nothing away."""
    if not game.ended_at:
        return False
    return datetime.fromisoformat(game.ended_at).timestamp() >= chain.round_time(game.beacon_round)


def abandoned_line(game: AbandonedGame, command: str) -> tuple[str, str]:
    """An abandoned game's field in the history: its name, and how to check its shuffle."""
    name = _(
        "#{game} · {date} · abandoned after drand round {round} was published",
        game=game.id,
        date=game.ended_at[:10],
        round=game.beacon_round,
    )
    return name, _("/{command} verify game:{game} checks its shuffle", command=command, game=game.id)


def history_embed(
    title: str,
    games: list[FinishedGame],
    preset_name: Callable[[str], str] = str,
    hidden: set[int] | None = None,
    *,
    command: str,
    loser_mark: str = "",
    offered: set[int] | None = None,
    earlier: dict[int, dict[int, list[str]]] | None = None,
    abandoned: Sequence[AbandonedGame] = (),
) -> discord.Embed:
    """The list of past games of the game whose command is ``command``; ``hidden``: the games
    whose result the reader may not see yet; ``offered``: those the reader may replay now (None:
    every game listed), of which the footer names the newest; ``earlier``: by game and seat, who
    played a seat handed over before it finished; ``abandoned``: games ended after their drand
    round was published, listed among the others by when they ended (at most ``HISTORY_GAMES`` in all)."""
    budget = Budget()
    listed: list[FinishedGame | AbandonedGame] = [*games, *abandoned]
    listed.sort(key=lambda g: (g.finished_at if isinstance(g, FinishedGame) else g.ended_at, g.id), reverse=True)
    listed = listed[:HISTORY_GAMES]
    games = [g for g in listed if isinstance(g, FinishedGame)]
    replayable = [g.id for g in games if offered is None or g.id in offered]
    # the real command, with a real number to copy that it will replay
    footer = (
        _("Replay one with /{command} replay game:{game}", command=command, game=replayable[0]) if replayable else ""
    )
    budget.reserve(len(footer))
    embed = budget.embed(title=_("📜 {game}: the last games here", game=title), color=COLOR)
    if not listed:
        embed.description = _("No finished games here yet.")
    for game in listed:
        if isinstance(game, AbandonedGame):
            name, check = abandoned_line(game, command)
            if not budget.field(embed, name, [check]):
                break
            continue
        before = (earlier or {}).get(game.id)
        shown = translate(HELD_RESULT) if game.id in (hidden or set()) else result_line(game, loser_mark, before)
        name = f"#{game.id} · {game.finished_at[:10]} · {preset_name(game.preset)}{beacon_mark(game)}"
        if not budget.field(embed, name, shown.split(", "), sep=", "):
            break  # no room for more games: the newest are shown
    if footer:
        budget.footer(embed, footer)
    return embed


class ReplayButton(GameItem[discord.ui.Button[Any]], template=r"replay:(?P<game_id>\d+):(?P<step>\d+):(?P<tag>\w+)"):
    """Turns a replay's page; the custom id carries the game and the step to show."""

    fields = {"game_id": int, "step": int}

    def __init__(self, game_id: int, step: int, tag: str, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or tag.capitalize(),
                style=discord.ButtonStyle.secondary,
                custom_id=f"replay:{game_id}:{step}:{tag}",
                disabled=disabled,
            )
        )
        self.game_id, self.step = game_id, step

    async def handle(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, CardBot)
        record = await finished_game(client.store, self.game_id, interaction, doors=(Door.REPLAY,))
        kind = client.tables.kinds.get(record.kind)
        if kind is None:
            raise Refusal(_("This game can no longer be replayed here."))
        embed, view = replay_page(kind, record, self.step)
        await interaction.response.edit_message(embed=embed, view=view)


def replay_page(kind: AnyKind, record: GameRecord, step: int) -> tuple[discord.Embed, discord.ui.View]:
    found = steps(kind, record)
    step = max(0, min(step, len(found) - 1))
    last = len(found) - 1
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(record.id, 0, "first", _("⏮ First"), disabled=step == 0))
    view.add_item(ReplayButton(record.id, max(step - 1, 0), "prev", _("◀ Prev"), disabled=step == 0))
    view.add_item(ReplayButton(record.id, min(step + 1, last), "next", _("Next ▶"), disabled=step == last))
    view.add_item(ReplayButton(record.id, last, "last", _("Last ⏭"), disabled=step == last))
    view.stop()  # the buttons are dynamic items: nothing in memory needs to wait for them
    return page(kind, record, found, step), view


async def game_choices(
    store: Store, interaction: discord.Interaction, kind: str, current: str, doors: tuple[Door, ...] = REPLAY_DOORS
) -> list[app_commands.Choice[int]]:
    """The autocomplete of a ``game`` option: this server's finished games of ``kind``, newest
    first: those whose number starts with the digits typed, or whose date or players hold the
    text typed (never another server's), that the command will give this member (``doors``)."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return []
    typed = current.strip().lstrip("#").lower()
    games = await store.finished_games(guild_id, kind, limit=200, newest_first=True)
    out = []
    for game in games:
        # by seat, not by place: a duplicate match's table keeps its places until the match is over
        players = ", ".join(r.name for r in sorted(game.results, key=lambda r: r.seat))
        text = f"#{game.id} · {game.finished_at[:10]} · {players}"
        if typed.isdigit():
            match = str(game.id).startswith(typed)  # a number: the game's number
        else:
            match = typed in text.lower()
        if match and await _gives(store, game.id, interaction, doors):
            out.append(app_commands.Choice(name=text[:100], value=game.id))
        if len(out) == 25:
            break
    return out


async def _gives(store: Store, game_id: int, interaction: discord.Interaction, doors: tuple[Door, ...]) -> bool:
    """Whether the command behind ``doors`` gives game ``game_id`` to this member (:func:`refusal`)."""
    return await refusal(store, await store.get_game(game_id), game_id, interaction, doors=doors) is None


async def _hidden(store: Store, games: list[FinishedGame], interaction: discord.Interaction) -> set[int]:
    """The listed games whose result the secrecy policy keeps from this member for now."""
    out = set()
    for game in games:
        record = await store.get_game(game.id)
        if record is None or record.match_id is None:
            continue
        decision = await secrecy.ask(store, Door.HISTORY, record, interaction.user.id, interaction.guild_id)
        if not decision.allowed:
            out.add(game.id)
    return out


def add_history_commands(bot: CardBot, group: app_commands.Group, kind: str, title: str) -> None:
    @group.command(
        name="history", description=pgettext("command description", "The last {game} games on this server", game=title)
    )
    async def history(interaction: discord.Interaction) -> None:
        games = await bot.store.finished_games(interaction.guild_id, kind, limit=HISTORY_GAMES, newest_first=True)
        game_kind = bot.tables.kinds.get(kind)
        names: Callable[[str], str] = game_kind.preset_name if game_kind is not None else str
        mark = game_kind.loser_mark if game_kind is not None else ""
        hidden = await _hidden(bot.store, games, interaction)
        offered = {g.id for g in games if await _gives(bot.store, g.id, interaction, REPLAY_DOORS)}
        earlier: dict[int, dict[int, list[str]]] = {}
        for handover in await bot.store.seat_handovers([g.id for g in games]):
            earlier.setdefault(handover.game_id, {}).setdefault(handover.seat, []).append(handover.from_name)
        beacons = bot.tables.seating.beacons
        chain = beacons.chain if beacons is not None else QUICKNET
        abandoned = [
            g
            for g in await bot.store.abandoned_games(interaction.guild_id, kind, limit=HISTORY_GAMES)
            if abandoned_after_round(g, chain)
        ]
        embed = history_embed(
            title,
            games,
            names,
            hidden,
            command=kind,
            loser_mark=mark,
            offered=offered,
            earlier=earlier,
            abandoned=abandoned,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(
        name="replay",
        description=pgettext(
            "command description", "Replay a finished {game} game step by step, privately", game=title
        ),
    )
    @app_commands.describe(game=pgettext("option description", "The game's number (see history)"))
    async def replay(interaction: discord.Interaction, game: int) -> None:
        record = await finished_game(bot.store, game, interaction, kind)
        results = await bot.store.results(record.id)
        embed, view = replay_page(bot.tables.kinds[kind], record, 0)
        data = json.dumps(hand_history(record, results), indent=1).encode()
        attachment = discord.File(
            io.BytesIO(data),
            filename=f"{kind}-game-{record.id}.json",
            description=_("Game #{game}'s hand history as a JSON file: every deal, move and result.", game=record.id),
        )
        await interaction.response.send_message(embed=embed, view=view, file=attachment, ephemeral=True)

    @replay.autocomplete("game")
    async def replay_games(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await game_choices(bot.store, interaction, kind, current)
