"""High Card's adapter to the runtime (:class:`bot.seam.contract.GameKind`): the least a game must
answer, everything else left to the seam's defaults."""

from __future__ import annotations

import random

import discord

from bot.seam.contract import Action, GameKind, LiveTable, OptionSpec, Press, Rendered
from bot.seam.replaying import Replayer
from db.records import ResultRow
from draw.cards import label, labels
from draw.common import COLOR
from draw.looks import rule_options
from draw.ratings import add_rating_field
from games.common.engine import Event
from tests.thirdgame.controls import CardButton, HandButton
from tests.thirdgame.engine import GAME, HighCard, HighCardAction, HighCardView, Rules, make_rules


class HighCardReplayer(Replayer[HighCard]):
    """A step is one trick."""

    def ends_step(self, engine: HighCard, events: list[Event]) -> bool:
        return any(e.kind == "trick" for e in events)

    def start_lines(self, engine: HighCard, names: list[str]) -> list[str]:
        return [f"The deal: {engine.rules.cards} spades each."]

    def event_lines(self, engine: HighCard, events: list[Event], names: list[str]) -> list[str]:
        lines = []
        for event in events:
            if event.kind == "played":
                lines.append(f"{names[event.data['seat']]} plays {label(event.data['card'])}")
            elif event.kind == "trick":
                lines.append(f"{names[event.data['winner']]} wins the trick")
            elif event.kind == "game_over":
                lines.append("🏁 Game over")
        return lines

    def add_hands(self, embed: discord.Embed, engine: HighCard, names: list[str]) -> None:
        for seat, name in enumerate(names):
            embed.add_field(name=name, value=labels(engine.view(seat)["hand"]) or "—", inline=False)


class HighCardKind(GameKind[HighCard, Rules, HighCardView, HighCardView, HighCardAction]):
    key = GAME
    title = "High Card"
    hand_item = HandButton
    engine = HighCard
    rule_set = Rules
    presets = ("standard",)
    default_preset = "standard"
    preset_info = {"standard": ("Standard", "Three spades each, the highest card wins the trick.")}
    replayer = HighCardReplayer()

    # -- rules --------------------------------------------------------------------------------
    def options(self) -> list[OptionSpec]:
        return [OptionSpec("cards", tuple(str(n) for n in range(1, 7)), "Cards dealt to each player")]

    def make_rules(self, preset: str, options: dict[str, str]) -> Rules:
        return make_rules(preset, rule_options(options))

    def describe(self, rules: Rules) -> list[str]:
        return rules.describe()

    # -- the running game ---------------------------------------------------------------------
    def decision_key(self, view: HighCardView, seat: int) -> object:
        return {"hand": view["hand"], "legal": view["legal"], "trick": view["trick"]}

    def draw_table(self, table: LiveTable, events: list[Event], view: HighCardView) -> Rendered:
        turn = view["turn"]
        content = f"🃏 {table.mention(turn)} to play." if turn is not None else None
        return Rendered(content=content, embeds=[_table_embed(table, view)], view=None, files=[])

    def draw_panel(
        self,
        table: LiveTable,
        seat: int,
        view: HighCardView,
        key: str,
        *,
        warning: str | None = None,
        note: str | None = None,
    ) -> Rendered:
        lines = [f"⚠️ {warning}"] if warning else []
        if note:
            lines.append(note)
        lines.append(f"Your hand: {labels(view['hand']) or 'empty'}")
        controls = discord.ui.View(timeout=None)
        acting = seat in view["to_act"] and table.seats[seat].ai_level is None
        if acting:
            lines.append("**Your turn:** press a card to play it.")
            for action in view["legal"]:
                controls.add_item(CardButton(table.id, key, action["card"], label=label(action["card"])))
        controls.stop()
        embed = discord.Embed(title=f"Your hand · game #{table.id}", description="\n".join(lines), color=COLOR)
        return Rendered(content=None, embeds=[embed], view=controls if controls.children else None, files=[])

    def press_action(self, table: LiveTable, seat: int, press: Press) -> Action:
        return {"type": "play", "card": press.arg}  # a card button's only press

    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        embed = discord.Embed(title=f"High Card · game #{table.id} · final standings", color=COLOR)
        embed.description = "\n".join(f"{r.place}. **{r.name}**: {r.total} trick(s)" for r in results)
        add_rating_field(embed, results)
        winners = [r for r in results if r.place == 1]
        content = "🏁 Game over! 🏆 " + " and ".join(table.mention(r.seat) for r in winners) + " won."
        return Rendered(content=content, embeds=[embed], view=table.lent.finale(table))

    def ai_action(self, view: HighCardView, level: str, rng: random.Random) -> HighCardAction:
        return {"type": "play", "card": rng.choice(view["legal"])["card"]}


def _table_embed(table: LiveTable, view: HighCardView) -> discord.Embed:
    embed = discord.Embed(title=f"High Card · game #{table.id}", color=COLOR)
    trick = view["trick"] or view["last_trick"]
    shown = ", ".join(f"{table.name(p['seat'])} {label(p['card'])}" for p in trick)
    embed.add_field(name="Trick" if view["trick"] else "Last trick", value=shown or "—", inline=False)
    embed.add_field(
        name="Tricks won",
        value="\n".join(f"{table.name(s)}: {n}" for s, n in enumerate(view["tricks"])),
        inline=False,
    )
    embed.set_footer(text=f"Game #{table.id} · /{GAME} rules shows the rules")
    return embed
