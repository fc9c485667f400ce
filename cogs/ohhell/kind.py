"""Oh Hell's adapter to the runtime: its rules, how its table, hands and results look (from
:mod:`cogs.ohhell.render`), and how a computer plays it."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

import discord

from bot.seam.contract import (
    Action,
    Explicit,
    GameKind,
    LiveTable,
    MoveNotes,
    OptionSpec,
    PanelRedraw,
    Press,
    Rendered,
)
from bot.seam.profiles import Profile
from cogs.ohhell.coach import COACHING
from cogs.ohhell.controls import TableButton, dm_view
from cogs.ohhell.panel import panel as live_panel
from cogs.ohhell.panel import press_action
from cogs.ohhell.pictures import chart_picture, hand_picture, last_trick_picture, trick_picture
from cogs.ohhell.render import (
    deal_notes,
    deal_result_embed,
    hand_embed,
    public_view,
    scores_title,
    seat_view,
    standings_embed,
    table_embed,
    turn_content,
)
from cogs.ohhell.replay import OhHellReplayer
from cogs.ohhell.scoresheet import rows_from_history, rows_from_store, running_totals, scoresheet
from db.records import DealScore, GameRecord, ResultRow
from draw.common import game_place
from draw.looks import four_colour, rule_options
from draw.ratings import add_rating_field
from draw.seats import Faces
from games.common.engine import Event
from games.ohhell import rules as oh_rules
from games.ohhell import rules_text
from games.ohhell.actions import OhHellAction
from games.ohhell.ai import ai_view, choose_action
from games.ohhell.game import OhHell
from games.ohhell.options import OPTIONS
from games.ohhell.presets import PRESETS
from games.ohhell.views import OhHellSeatView, OhHellView
from locales import N_, _, ngettext, translate


class OhHellKind(GameKind[OhHell, oh_rules.Rules, OhHellView, OhHellSeatView, OhHellAction]):
    key = "ohhell"
    hand_item = TableButton
    title = "Oh Hell"
    engine = OhHell
    rule_set = oh_rules.Rules
    presets = tuple(PRESETS)
    default_preset = "classic"
    coaching = COACHING
    replayer = OhHellReplayer()
    #: marked for the catalogue; said in the reader's language by :meth:`preset_name` and :meth:`preset_line`
    preset_info = {
        "classic": (N_("Classic"), N_("3–7 players · hands down to 1 and back up · turned-up trumps · 10 a trick bid")),
        "oh-shit": (N_("Oh Shit (secret bids)"), N_("3–7 players · hands 1 up to 9 and back · bids revealed together")),
        "bowers": (N_("Bowers"), N_("2–5 players · the jacks of the trump colour rank highest · 1 a trick, +10 exact")),
        "spades": (N_("Spades always trump"), N_("3–8 players · hands from the whole deck down to 1 · spades trump")),
    }

    def __init__(self, bot: discord.Client | None) -> None:
        self.bot = bot

    # -- rules --------------------------------------------------------------------------------
    def preset_name(self, preset: str) -> str:
        return translate(super().preset_name(preset)) if preset in self.preset_info else preset

    def preset_line(self, preset: str) -> str:
        return translate(super().preset_line(preset)) if preset in self.preset_info else ""

    def options(self) -> list[OptionSpec]:
        """The rules a host may set, their help in the reader's language."""
        return [OptionSpec(o.name, o.values, translate(o.help)) for o in OPTIONS.values()]

    def make_rules(self, preset: str, options: dict[str, str]) -> oh_rules.Rules:
        return oh_rules.make_rules(preset, **rule_options(options))

    def describe(self, rules: oh_rules.Rules) -> list[str]:
        return rules_text.describe(rules)

    def add_profile(self, lines: list[str], profile: Profile) -> None:
        if profile.deals:
            rate = f"{100 * profile.bids_made / profile.deals:.0f}"
            lines.append(
                _("Bids made: {made} of {deals} ({rate}%)", made=profile.bids_made, deals=profile.deals, rate=rate)
            )
        else:
            lines.append(_("Bids made: {made} of {deals}", made=profile.bids_made, deals=profile.deals))
        if profile.best is not None:
            lines[0] += " · " + _("best total {total} (game #{id})", total=profile.best.total, id=profile.best.game_id)

    # -- rendering ----------------------------------------------------------------------------
    def message_key(self, engine: OhHell) -> Hashable:
        return engine.deal_number  # the public view's "deal": a new deal posts a new table message

    def decision_key(self, view: OhHellSeatView, seat: int) -> object:
        """The deal and phase; while the seat is to act, also what it decides from: its hand (or
        the others' cards on a Devil's Bridge), trumps, the bids it can see (none of the secret
        ones), the bids it may make, the trick on the table and the cards it may play. Another
        player's secret bid changes none of these."""
        key: dict[str, object] = {"deal": view["deal"], "phase": view["phase"], "acting": seat in view["to_act"]}
        if key["acting"]:
            key |= {
                name: view[name]
                for name in (
                    "hand",
                    "others_cards",
                    "trump",
                    "turnup",
                    "bids",
                    "my_bid",
                    "bid_options",
                    "trick_no",
                    "trick",
                    "legal",
                    "proper",
                )
            }
        return key

    def draw_table(self, table: LiveTable, events: list[Event], view: OhHellView) -> Rendered:
        faces = Faces.of(table.record.seats)
        embed = table_embed(view, faces.name, table.notices)
        files = trick_picture(view, faces.name, embed, four_colour(table.record.options))
        return Rendered(
            content=turn_content(view, faces.mention, faces.people),
            embeds=[embed],
            view=None,
            files=files,
        )

    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        scored = next((e.data for e in events if e.kind == "deal_scored"), None)
        last = None
        for event in events:
            if event.kind == "trick_won":
                last = {"cards": event.data["cards"], "winner": event.data["seat"]}
        if scored is None:  # ended another way (the host ended the game)
            return Rendered(content=None, embeds=[], view=None)
        name = Faces.of(table.record.seats).name
        embed = deal_result_embed(scored, name, last)
        return Rendered(
            content=None,
            embeds=[embed],
            view=None,
            files=last_trick_picture(last, name, embed, four_colour(table.record.options)),
        )

    def draw_panel(
        self,
        table: LiveTable,
        seat: int,
        view: OhHellSeatView,
        key: str,
        *,
        warning: str | None = None,
        note: str | None = None,
    ) -> Rendered:
        where = _place(self.bot, table)
        return live_panel(table, seat, where=where, warning=warning, note=note, view=view, key=key)

    def press_action(self, table: LiveTable, seat: int, press: Press) -> Action | Explicit | PanelRedraw:
        return press_action(table, seat, press, _place(self.bot, table))

    def computers_wait(self, engine: OhHell) -> bool:
        """A computer to play waits while people answer a take-back (its card would end it)."""
        return engine.undo_request() is not None

    def panel_extra(self, engine: OhHell, seat: int) -> Hashable:
        """A take-back to ask, answer or withdraw, and whether a secret bid may still change: each
        puts buttons on a panel that is not to act (see :mod:`cogs.ohhell.panel`)."""
        return (tuple(engine.undo_options(seat)), engine.undo_request() is not None, engine.may_change_bid(seat))

    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        view = seat_view(self.game(table), seat)
        embed = hand_embed(view, _place(self.bot, table), Faces.of(table.record.seats).name)
        return Rendered(
            content=None,
            embeds=[embed],
            view=dm_view(table),
            files=hand_picture(view, embed, four_colour(table.record.options)),
        )

    def move_notes(self, table: LiveTable, events: list[Event]) -> MoveNotes:
        return MoveNotes(deal_scores_of(events), deal_notes(events, Faces.of(table.record.seats).name))

    def results(self, table: LiveTable) -> list[ResultRow]:
        engine = self.game(table)
        stats = {row["seat"]: row for row in engine.stats()}
        standings = engine.standings()
        last_rank = max(row["rank"] for row in standings)
        seats = table.record.seats
        return [
            ResultRow(
                seat=row["seat"],
                user_id=seats[row["seat"]].user_id,
                name=seats[row["seat"]].name,
                place=row["rank"],
                total=row["total"],
                is_loser=row["rank"] == last_rank and last_rank > 1,
                stats={**stats[row["seat"]], "decided_by": row["decided_by"], "playoff": row["playoff"]},
            )
            for row in standings
        ]

    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        engine = self.game(table)
        view = public_view(engine)
        faces = Faces.of(table.record.seats)
        embed = standings_embed(engine.standings(), faces.name, engine.rules.ties, view["history"])
        names = [faces.name(s) for s in range(view["seat_count"])]
        chart = chart_picture(names, running_totals(rows_from_history(view["history"], len(names)), len(names)), embed)
        add_rating_field(embed, results)
        winners = [faces.mention(r.seat) for r in results if r.place == 1]
        return Rendered(
            content=ngettext(
                "🎉 Game over! Winner: {names}",
                "🎉 Game over! Winners: {names}",
                len(winners),
                names=", ".join(winners),
            ),
            embeds=[embed],
            view=table.lent.finale(table),
            files=chart,
        )

    def ai_action(self, view: OhHellSeatView, level: str, rng: random.Random) -> OhHellAction:
        return choose_action(view, level, rng)

    def ai_decider(self) -> Callable[[OhHellSeatView, str, random.Random], OhHellAction]:
        return choose_action

    def ai_view(self, engine: OhHell, seat: int) -> OhHellSeatView:
        return ai_view(engine, seat)

    def scores(self, table: LiveTable) -> Rendered:
        view = public_view(self.game(table))
        names = [table.name(s) for s in range(view["seat_count"])]
        rows = rows_from_history(view["history"], len(names))
        return scoresheet(scores_title(len(rows)), names, rows)

    def stored_scores(self, record: GameRecord, rows: list[ResultRow], deals: list[DealScore]) -> Rendered | None:
        names = [s.name for s in sorted(record.seats, key=lambda s: s.seat)]
        places = " · ".join(f"{r.place}. {r.name} **{r.total}**" for r in rows)
        sheet = rows_from_store(deals, len(names))
        return scoresheet(_("Oh Hell: game #{id}, deal by deal", id=record.id), names, sheet, note=places)


def _place(client: discord.Client | None, table: LiveTable) -> str:
    return game_place(client, table.id, table.record.guild_id, table.record.channel_id)


def deal_scores_of(events: list[Event]) -> list[DealScore]:
    """The scores of the deals that ``events`` ended, as the store keeps them (a play-off deal's
    too: it is on the sheet, though never added to a total)."""
    out: list[DealScore] = []
    for event in events:
        if event.kind != "deal_scored":
            continue
        data = event.data
        for seat, delta in enumerate(data["scores"]):
            if delta is not None:
                out.append(
                    DealScore(data["deal"], seat, data["bids"][seat], data["tricks"][seat], delta, data["totals"][seat])
                )
    return out
