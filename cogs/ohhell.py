"""Oh Hell on Discord: the table's buttons, the private bid and play forms, and ``/ohhell``.

A click on **Bid** or **Play a card** opens a form (a modal) that only the clicking player sees,
holding their hand and a list of exactly the bids or cards they may choose. Submitting it comes
back as an interaction *on the table message*, so the bot answers by editing the table in that
same reply: a card costs no REST call besides the interaction's own answer. Forms are handled by
custom id in :meth:`OhHellCog.on_interaction` rather than by a stored ``Modal`` object, so a form
opened before a restart still works after it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.components import GameItem
from bot.errors import Refusal, guarded, report
from bot.kinds import GameKind, OptionSpec, Rendered, register
from bot.render.cards import hand_lines, label, labels, suit_symbol
from bot.render.ohhell import (
    deal_notes,
    deal_result_embed,
    hand_embed,
    scoreboard_embed,
    standings_embed,
    table_embed,
    turn_content,
)
from bot.tables import LiveTable
from cogs.lobby import game_group, take_back_button
from db.store import DealScore, ResultRow
from games.common.engine import Engine, Event
from games.ohhell import rules as oh_rules
from games.ohhell.ai import ai_view, choose_action
from games.ohhell.game import OhHell

if TYPE_CHECKING:
    from bot.client import CardBot

MODAL_PREFIX = "ohm:"
MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class OhHellKind(GameKind):
    key = "ohhell"
    title = "Oh Hell"
    engine = OhHell
    presets = tuple(oh_rules.PRESETS)
    default_preset = "classic"

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    # -- rules --------------------------------------------------------------------------------
    def options(self) -> list[OptionSpec]:
        return [OptionSpec(o.name, o.values, o.help) for o in oh_rules.OPTIONS.values()]

    def make_rules(self, preset: str, options: dict[str, str]) -> oh_rules.Rules:
        return oh_rules.make_rules(preset, **options)

    def rules_to_json(self, rules: oh_rules.Rules) -> dict:
        return rules.to_json()

    def rules_from_json(self, data: dict) -> oh_rules.Rules:
        return oh_rules.Rules.from_json(data)

    def describe(self, rules: oh_rules.Rules) -> list[str]:
        return rules.describe()

    def player_range(self, rules: oh_rules.Rules) -> tuple[int, int]:
        return rules.player_range()

    # -- rendering ----------------------------------------------------------------------------
    def message_key(self, engine: Engine) -> Any:
        return engine.view(None)["deal"]

    def table(self, table: LiveTable, events: list[Event]) -> Rendered:
        assert table.engine is not None
        view = table.engine.view(None)
        for note in deal_notes(events, table.name):
            table.notice(note)
        embed = table_embed(view, table.name, table.notices)
        return Rendered(content=turn_content(view, table.mention), embeds=[embed], view=table_view(table, view))

    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        scored = next((e.data for e in events if e.kind == "deal_scored"), None)
        last = None
        for event in events:
            if event.kind == "trick_won":
                last = {"cards": event.data["cards"], "winner": event.data["seat"]}
        if scored is None:  # ended another way (the host ended the game)
            return Rendered(content=None, embeds=[], view=None)
        return Rendered(content=None, embeds=[deal_result_embed(scored, table.name, last)], view=None)

    def hand(self, table: LiveTable, seat: int) -> Rendered:
        assert table.engine is not None
        view = table.engine.view(seat)
        embed = hand_embed(view, f"Game #{table.id} in <#{table.record.channel_id}>", table.name)
        return Rendered(content=None, embeds=[embed], view=None)

    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        assert table.engine is not None
        view = table.engine.view(seat)
        guild = self.bot.get_guild(table.record.guild_id or 0)
        where = f"Game #{table.id} on **{guild.name if guild else 'your server'}** in <#{table.record.channel_id}>"
        return Rendered(content=None, embeds=[hand_embed(view, where, table.name)], view=None)

    def deal_scores(self, engine: Engine, events: list[Event]) -> list[DealScore]:
        out = []
        for event in events:
            if event.kind != "deal_scored":
                continue
            data = event.data
            for seat, delta in enumerate(data["scores"]):
                if delta is not None:
                    out.append(
                        DealScore(
                            data["deal"], seat, data["bids"][seat], data["tricks"][seat], delta, data["totals"][seat]
                        )
                    )
        return out

    def results(self, table: LiveTable) -> list[ResultRow]:
        engine = table.engine
        assert isinstance(engine, OhHell)
        stats = {row["seat"]: row for row in engine.stats()}
        standings = engine.standings()
        last_rank = max(row["rank"] for row in standings)
        return [
            ResultRow(
                seat=row["seat"],
                user_id=table.seats[row["seat"]].user_id,
                name=table.name(row["seat"]),
                place=row["rank"],
                total=row["total"],
                is_loser=row["rank"] == last_rank and last_rank > 1,
                stats={**stats[row["seat"]], "decided_by": row["decided_by"], "playoff": row["playoff"]},
            )
            for row in standings
        ]

    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        engine = table.engine
        assert isinstance(engine, OhHell)
        embed = standings_embed(engine.standings(), table.name, engine.rules.ties)
        winners = [table.mention(r.seat) for r in results if r.place == 1]
        return Rendered(content=f"🎉 Game over! Winner: {', '.join(winners)}", embeds=[embed], view=None)

    def ai_action(self, view: dict, level: str, rng: random.Random) -> dict:
        return choose_action(view, level, rng)

    def ai_view(self, engine: Engine, seat: int) -> dict:
        return ai_view(engine, seat)

    def scores(self, table: LiveTable) -> Rendered:
        assert table.engine is not None
        return Rendered(content=None, embeds=[scoreboard_embed(table.engine.view(None), table.name)], view=None)

    def describe_action(self, table: LiveTable, seat: int, action: dict) -> str:
        if action["type"] == "bid":
            return "bid"
        return f"played {label(action['card'])}" if action["card"] != "?" else "played their hidden card"


# -- the table's controls -------------------------------------------------------------------------
class TableButton(GameItem[discord.ui.Button], template=r"oh:(?P<game_id>\d+):(?P<act>bid|play|hand)"):
    LABELS = {
        "bid": ("Bid", discord.ButtonStyle.primary),
        "play": ("Play a card", discord.ButtonStyle.primary),
        "hand": ("My hand", discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, act: str) -> None:
        text, style = self.LABELS[act]
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=f"oh:{game_id}:{act}"))
        self.game_id, self.act = game_id, act

    async def handle(self, interaction: discord.Interaction) -> None:
        bot: CardBot = interaction.client  # type: ignore[assignment]
        table = bot.tables.get(self.game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You are not playing at this table.")
        if interaction.message is not None and interaction.message.id != table.record.message_id:
            raise Refusal("That deal is over: use the newest table message.")
        engine = table.engine
        assert isinstance(engine, OhHell)
        if self.act == "hand":
            await interaction.response.send_message(**_no_none(table.kind.hand(table, seat).kwargs()), ephemeral=True)
            return
        if table.seats[seat].ai_level is not None:
            raise Refusal("The computer is playing your seat: press **Take my seat back** first.")
        view = engine.view(seat)
        if seat not in view["to_act"]:
            waiting = ", ".join(table.name(s) for s in view["to_act"])
            raise Refusal(f"It is not your turn: waiting for {waiting}.")
        wanted = "bidding" if self.act == "bid" else "playing"
        if view["phase"] != wanted:
            raise Refusal(
                "Bidding is over: press **Play a card**." if self.act == "bid" else "Bidding is still going on."
            )
        modal = bid_form(table, view) if self.act == "bid" else play_form(table, view)
        modal.stop()  # answered through on_interaction by custom id, so it survives restarts
        await interaction.response.send_modal(modal)


def table_view(table: LiveTable, view: dict) -> discord.ui.View:
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id, "bid" if view["phase"] == "bidding" else "play"))
    controls.add_item(TableButton(table.id, "hand"))
    back = take_back_button(table)
    if back is not None:
        controls.add_item(back)
    return controls


def _private_summary(table: LiveTable, view: dict) -> str:
    if view["hand_hidden"]:
        others = view["others_cards"] or []
        held = "\n".join(f"{table.name(s)}: {labels(c)}" for s, c in enumerate(others) if c is not None)
        return f"🌉 Your own card is hidden. The others hold:\n{held}"
    return f"**Your hand**\n{hand_lines(view['hand'], view['trump'])}"


def _trump_text(view: dict) -> str:
    return f"Trumps: {suit_symbol(view['trump'])}" if view["trump"] else "No trumps"


def bid_form(table: LiveTable, view: dict) -> discord.ui.Modal:
    seq = len(table.engine.log) if table.engine else 0
    modal = discord.ui.Modal(title=f"Deal {view['deal']}: your bid", custom_id=f"{MODAL_PREFIX}{table.id}:{seq}:bid")
    lines = [_private_summary(table, view), _trump_text(view)]
    if view["bidding"] == "sequential":
        made = [f"{table.name(s)} {view['bids'][s]}" for s in view["players"] if view["bids"][s] is not None]
        lines.append(f"Bids so far: {', '.join(made) or 'none'} (total {view['bid_total']} of {view['hand_size']})")
    refused = [f"⛔ {reason}" for bid, allowed, reason in view["bid_options"] if not allowed]
    lines.extend(refused)
    modal.add_item(discord.ui.TextDisplay("\n".join(lines)[:4000]))
    options = [
        discord.SelectOption(label=f"{bid} trick{'s' if bid != 1 else ''}", value=str(bid))
        for bid, allowed, _ in view["bid_options"]
        if allowed
    ]
    select = discord.ui.Select(custom_id="choice", options=options[:25], min_values=1, max_values=1)
    modal.add_item(discord.ui.Label(text="How many tricks will you take?", component=select))
    return modal


def _play_value(action: dict) -> str:
    return f"{action['card']}@{action['suit']}" if action.get("suit") else action["card"]


def play_form(table: LiveTable, view: dict) -> discord.ui.Modal:
    seq = len(table.engine.log) if table.engine else 0
    modal = discord.ui.Modal(
        title=f"Trick {view['trick_no']}: play a card", custom_id=f"{MODAL_PREFIX}{table.id}:{seq}:play"
    )
    trick = ", ".join(f"{table.name(s)} {label(c)}" for s, c, _ in view["trick"]) or "you lead"
    lines = [_private_summary(table, view), f"{_trump_text(view)} · Trick so far: {trick}"]
    if view["my_bid"] is not None:
        lines.append(f"You bid {view['my_bid']} and have won {view['tricks'][view['viewer']]}.")
    modal.add_item(discord.ui.TextDisplay("\n".join(lines)[:4000]))
    proper = {_play_value(a) for a in view["proper"]}
    options = []
    for action in view["legal"]:
        value = _play_value(action)
        text = "Your hidden card" if action["card"] == "?" else label(action["card"])
        if action.get("suit") and action["card"] == "X":
            text += f" as {suit_symbol(action['suit'])}"
        note = None if value in proper else "Revoke: you hold the suit led (scores at most -5)"
        options.append(discord.SelectOption(label=text, value=value, description=note))
    select = discord.ui.Select(custom_id="choice", options=options[:25], min_values=1, max_values=1)
    modal.add_item(discord.ui.Label(text="Your card", component=select))
    return modal


def _modal_value(components: list[dict]) -> str | None:
    for component in components:
        if component.get("custom_id") == "choice":
            values = component.get("values") or []
            return values[0] if values else component.get("value")
        for key in ("component",):
            if isinstance(component.get(key), dict):
                found = _modal_value([component[key]])
                if found is not None:
                    return found
        if component.get("components"):
            found = _modal_value(component["components"])
            if found is not None:
                return found
    return None


def _no_none(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if v is not None}


class OhHellCog(commands.Cog):
    def __init__(self, bot: CardBot, kind: OhHellKind) -> None:
        self.bot = bot
        self.kind = kind

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        if not custom_id.startswith(MODAL_PREFIX):
            return
        try:
            await self._submit(interaction, custom_id)
        except Exception as error:  # noqa: BLE001
            await report(interaction, error)

    async def _submit(self, interaction: discord.Interaction, custom_id: str) -> None:
        game_id, seq, act = custom_id[len(MODAL_PREFIX) :].split(":")
        table = self.bot.tables.get(int(game_id))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You are not playing at this table.")
        value = _modal_value((interaction.data or {}).get("components", []))
        if value is None:
            raise Refusal("Choose one option, then submit.")
        if act == "bid":
            action: dict = {"type": "bid", "bid": int(value)}
        else:
            card, _, suit = value.partition("@")
            action = {"type": "play", "card": card, **({"suit": suit} if suit else {})}
        async with table.lock:
            if table.engine is None or table.id not in self.bot.tables.tables:
                raise Refusal("This game has ended.")
            if table.seats[seat].ai_level is not None:
                raise Refusal("The computer is playing your seat: press **Take my seat back** first.")
            await self.bot.tables.act(table, seat, action, interaction=interaction, expect_seq=int(seq))


async def setup(bot: CardBot) -> None:
    kind = register(OhHellKind(bot))
    group = game_group(kind)

    @group.command(name="hand", description="Show your hand, privately")
    @guarded
    async def hand(interaction: discord.Interaction) -> None:
        table = bot.tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is None or table.engine is None:
            raise Refusal("There is no Oh Hell game running in this channel.")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You are not playing at this table.")
        await interaction.response.send_message(**_no_none(kind.hand(table, seat).kwargs()), ephemeral=True)

    bot.tree.add_command(group)
    bot.add_dynamic_items(TableButton)
    await bot.add_cog(OhHellCog(bot, kind))
