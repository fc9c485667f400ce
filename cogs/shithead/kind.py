"""Shithead's adapter to the runtime: its rules, how its table, panel and results look (from
:mod:`cogs.shithead.render` and the panel in :mod:`cogs.shithead.panel`), and how a
computer plays it."""

from __future__ import annotations

import random
from collections.abc import Callable

import discord

from bot.seam.comparison import BY_PLACE
from bot.seam.contract import GAME_OVER, Action, Explicit, GameKind, LiveTable, OptionSpec, PanelRedraw, Press, Rendered
from bot.seam.profiles import Profile
from cogs.shithead.coach import COACHING
from cogs.shithead.controls import TableButton, dm_view
from cogs.shithead.panel import panel
from cogs.shithead.panel_actions import press_action
from cogs.shithead.pictures import hand_picture, table_picture
from cogs.shithead.render import dm_embed, final_embed, game_view, table_embed, turn_content
from cogs.shithead.replay import ShitheadReplayer
from db.records import ResultRow
from draw.common import game_place
from draw.looks import four_colour, rule_options
from draw.ratings import add_rating_field
from draw.seats import Faces
from games.common.engine import Event
from games.shithead import rules as sh_rules
from games.shithead.contracts import ShitheadAction, ShitheadView
from games.shithead.game import Shithead
from games.shithead.search import decide as search_decide
from locales import N_, _, ngettext, translate

#: preset names that are names in every language
_NAMES = frozenset({"Karma", "Ten-Two Slide"})


class ShitheadKind(GameKind[Shithead, sh_rules.Rules, ShitheadView, ShitheadView, ShitheadAction]):
    key = "shithead"
    title = "Shithead"
    engine = Shithead
    rule_set = sh_rules.Rules
    presets = tuple(sh_rules.PRESETS)
    default_preset = "pagat"
    coaching = COACHING
    replayer = ShitheadReplayer()
    #: marked for the catalogue; said in the reader's language by :meth:`preset_name` and :meth:`preset_line`
    preset_info = {
        key: (name, sh_rules.PRESET_HELP.get(key, ""))
        for key, name in {
            "pagat": N_("Standard"),
            "six-players": N_("Six players (jokers)"),
            "karma": "Karma",
            "gultnieks": N_("Seven and lower"),
            "guarducci": N_("Glass sevens and runs"),
            "smeghead": N_("Smeghead (two packs)"),
            "finland": N_("Finland (four face-down)"),
            "ten-two-slide": "Ten-Two Slide",
            "winner": N_("Play for a winner"),
        }.items()
    }
    hand_button = N_("My cards")
    hand_item = TableButton
    loser_mark = "💩"  # the shithead
    comparison = BY_PLACE  # no points: a duplicate match compares finishing places

    def __init__(self, bot: discord.Client | None) -> None:
        self.bot = bot

    # -- rules --------------------------------------------------------------------------------
    def preset_name(self, preset: str) -> str:
        name = super().preset_name(preset)
        return translate(name) if preset in self.preset_info and name not in _NAMES else name

    def preset_line(self, preset: str) -> str:
        line = super().preset_line(preset)
        return translate(line) if line else ""

    def options(self) -> list[OptionSpec]:
        """The rules a host may set, their help in the reader's language."""
        return [OptionSpec(o.name, o.values, translate(o.help)) for o in sh_rules.OPTIONS]

    def make_rules(self, preset: str, options: dict[str, str]) -> sh_rules.Rules:
        return sh_rules.make_rules(preset, **rule_options(options))

    def describe(self, rules: sh_rules.Rules) -> list[str]:
        return rules.describe()

    def add_profile(self, lines: list[str], profile: Profile) -> None:
        best = profile.best
        lines.append(ngettext("{n} time the shithead", "{n} times the shithead", profile.losses))
        if best is not None:
            lines[-1] += " · " + _(
                "best game #{game} (place {place} of {players})",
                game=best.game_id,
                place=best.place,
                players=best.players,
            )

    # -- rendering ----------------------------------------------------------------------------
    def decision_key(self, view: ShitheadView, seat: int) -> object:
        """The phase and whether the seat is to act, its own cards and legal actions; in play also
        the pile and every seat's public cards. So another player's swap or Ready leaves a swap
        panel alone, while any move in play (which changes the pile or whose turn it is) makes a
        panel drawn before it stale."""
        me = view["seats"][seat]
        key: dict[str, object] = {
            "phase": view["phase"],
            "acting": seat in view["to_act"],
            "hand": view.get("hand", []),
            "face_up": me["face_up"],
            "face_down": me["face_down_slots"],
            "ready": me["ready"],
            "legal": view.get("legal", []),
        }
        if view["phase"] == "play":
            key |= {
                "turn": view["turn"],
                "direction": view["direction"],
                "pile": view["pile"],
                "to_beat": view["to_beat"],
                "stock": view["stock"],
                "burnt": view["burnt"],
                "seats": [[s["face_up"], s["face_down"], s["hand_size"], s["out"]] for s in view["seats"]],
            }
        return key

    def draw_table(self, table: LiveTable, events: list[Event], view: ShitheadView) -> Rendered:
        faces = Faces.of(table.record.seats)
        people = [s for s in view["to_act"] if s in faces.people]
        embed = table_embed(view, faces.name, table.notices, _footer(table))
        return Rendered(
            content=turn_content(view, faces.mention, people),
            embeds=[embed],
            view=None,
            files=table_picture(view, faces.name, embed, four_colour(table.record.options)),
        )

    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        view = game_view(self.game(table), None)
        name = Faces.of(table.record.seats).name
        embed = table_embed(view, name, table.notices, _footer(table))
        return Rendered(
            content=translate(GAME_OVER),
            embeds=[embed],
            view=None,
            files=table_picture(view, name, embed, four_colour(table.record.options)),
        )

    def draw_panel(
        self,
        table: LiveTable,
        seat: int,
        view: ShitheadView,
        key: str,
        *,
        warning: str | None = None,
        note: str | None = None,
    ) -> Rendered:
        return panel(table, seat, warning=warning, note=note, view=view, key=key)

    def press_action(self, table: LiveTable, seat: int, press: Press) -> Action | Explicit | PanelRedraw:
        return press_action(table, seat, press)

    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        where = game_place(self.bot, table.id, table.record.guild_id, table.record.channel_id)
        view = game_view(self.game(table), seat)
        embed = dm_embed(view, where)
        return Rendered(
            content=None,
            embeds=[embed],
            view=dm_view(table),
            files=hand_picture(view, embed, four_colour(table.record.options)),
        )

    def results(self, table: LiveTable) -> list[ResultRow]:
        engine = self.game(table)
        res = engine.results()
        order: list[int] = res["order"]
        left = _cards_left(engine)
        pickups = engine.pickups
        rows = []
        for seat in range(engine.seats):
            # Playing for a winner stops at the first out: everyone else shares second place.
            place = order.index(seat) + 1 if seat in order else len(order) + 1
            rows.append(
                ResultRow(
                    seat=seat,
                    user_id=table.record.seats[seat].user_id,
                    name=table.record.seats[seat].name,
                    place=place,
                    total=None,
                    is_loser=seat == res["loser"],
                    stats={"cards_left": left[seat], "pickups": pickups[seat], "goal": engine.rules.goal},
                )
            )
        return sorted(rows, key=lambda r: (r.place, r.seat))

    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        engine = self.game(table)
        view = game_view(engine, None)  # the state's one public view (the closing table drew it)
        order = engine.results()["order"]
        faces = Faces.of(table.record.seats)
        embed = final_embed(view, faces.name, order, _cards_left(engine, view))
        add_rating_field(embed, results)
        loser, winner = view["loser"], view["winner"]
        if loser is not None:
            content = _("🏁 Game over! 💩 {name} is the shithead (and deals next time).", name=faces.mention(loser))
        else:
            assert winner is not None  # a game over has a shithead, or (winner rules) a winner
            content = _("🏁 Game over! 🏆 {name} wins.", name=faces.mention(winner))
        return Rendered(content=content, embeds=[embed], view=table.lent.finale(table))

    def ai_view(self, engine: Shithead, seat: int) -> ShitheadView:
        return engine.ai_view(seat)

    def ai_action(self, view: ShitheadView, level: str, rng: random.Random) -> ShitheadAction:
        return decide(view, level, rng)

    def ai_decider(self) -> Callable[[ShitheadView, str, random.Random], ShitheadAction]:
        return decide


def _footer(table: LiveTable) -> str:
    if rule_options(table.record.options):
        return _(
            "Game #{game} · {preset} rules with changes · /shithead rules shows them",
            game=table.id,
            preset=table.record.preset,
        )
    return _("Game #{game} · {preset} rules · /shithead rules shows them", game=table.id, preset=table.record.preset)


def _cards_left(engine: Shithead, view: ShitheadView | None = None) -> dict[int, int]:
    view = game_view(engine, None) if view is None else view
    return {s["seat"]: s["hand_size"] + len(s["face_up"]) + s["face_down"] for s in view["seats"]}


def decide(view: ShitheadView, level: str, rng: random.Random) -> ShitheadAction:
    """A computer seat's move; module-level so that computer worker processes can be sent it.
    "strong" searches (:mod:`games.shithead.search`), "quick" plays sensibly, "random" at random."""
    return search_decide(view, level, rng)
