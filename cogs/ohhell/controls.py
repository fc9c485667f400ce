"""Oh Hell's controls: the table's buttons and the private bid and play forms.

A click on **Bid** or **Play a card** opens a form (a modal) that only the clicking player sees,
holding their hand and a list of exactly the bids or cards they may choose. Submitting it comes
back as an interaction *on the table message*, so the bot answers by editing the table in that
same reply: a card costs no REST call besides the interaction's own answer. Forms are handled by
custom id (:func:`on_form`, called from the cog's ``on_interaction``) rather than by a stored
``Modal`` object, so a form opened before a restart still works after it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.contract import Action, LiveTable, View
from bot.errors import Refusal
from bot.render.cards import hand_lines, label, labels, suit_symbol
from bot.render.emojis import EMOJIS
from cogs.fairness.spectators import watch_button
from cogs.lobby.controls import take_back_button
from cogs.ohhell.panel import open_panel
from games.ohhell.game import OhHell

MODAL_PREFIX = "ohm:"


class TableButton(GameItem[discord.ui.Button[Any]], template=r"oh:(?P<game_id>\d+):(?P<act>bid|play|hand)"):
    fields = {"game_id": int}
    LABELS = {
        "bid": ("Bid", discord.ButtonStyle.primary),
        "play": ("Play a card", discord.ButtonStyle.primary),
        "hand": ("My hand", discord.ButtonStyle.success),
    }

    def __init__(self, game_id: int, act: str) -> None:
        text, style = self.LABELS[act]
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=f"oh:{game_id}:{act}"))
        self.game_id, self.act = game_id, act

    async def handle(self, interaction: discord.Interaction) -> None:
        table = tables_of(interaction).get(self.game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You are not playing at this table.")
        if interaction.message is not None and interaction.message.id != table.record.message_id:
            raise Refusal("That deal is over: use the newest table message.")
        engine = table.engine
        assert isinstance(engine, OhHell)
        if self.act == "hand":
            await open_panel(interaction, table, seat)
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


def table_view(table: LiveTable, view: View) -> discord.ui.View:
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id, "hand"))
    controls.add_item(TableButton(table.id, "bid" if view["phase"] == "bidding" else "play"))
    back = take_back_button(table)
    if back is not None:
        controls.add_item(back)
    controls.add_item(watch_button(table))
    return controls


def _private_summary(table: LiveTable, view: View) -> str:
    if view["hand_hidden"]:
        others = view["others_cards"] or []
        held = "\n".join(f"{table.name(s)}: {labels(c)}" for s, c in enumerate(others) if c is not None)
        return f"🌉 Your own card is hidden. The others hold:\n{held}"
    return f"**Your hand**\n{hand_lines(view['hand'], view['trump'])}"


def _trump_text(view: View) -> str:
    return f"Trumps: {suit_symbol(view['trump'])}" if view["trump"] else "No trumps"


def form_id(table: LiveTable, view: View, act: str) -> str:
    """``ohm:<game>:<digest>:<act>``: the digest of what bore on the viewer's choice when the form
    was drawn (:meth:`~bot.contract.GameKind.decision_digest`), so it is refused only once that
    changed, also after a restart."""
    assert table.engine is not None
    return f"{MODAL_PREFIX}{table.id}:{table.kind.decision_digest(table.engine, view['viewer'])}:{act}"


def bid_form(table: LiveTable, view: View) -> discord.ui.Modal:
    modal = discord.ui.Modal(title=f"Deal {view['deal']}: your bid", custom_id=form_id(table, view, "bid"))
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
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="choice", options=options[:25], min_values=1, max_values=1
    )
    modal.add_item(discord.ui.Label(text="How many tricks will you take?", component=select))
    return modal


def _play_value(action: Action) -> str:
    return f"{action['card']}@{action['suit']}" if action.get("suit") else action["card"]


def play_form(table: LiveTable, view: View) -> discord.ui.Modal:
    modal = discord.ui.Modal(title=f"Trick {view['trick_no']}: play a card", custom_id=form_id(table, view, "play"))
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
        emoji = EMOJIS.partial(action["card"]) if action["card"] != "?" else None
        options.append(discord.SelectOption(label=text, value=value, description=note, emoji=emoji))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="choice", options=options[:25], min_values=1, max_values=1
    )
    modal.add_item(discord.ui.Label(text="Your card", component=select))
    return modal


def _modal_value(components: list[dict[str, Any]]) -> str | None:
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


async def on_form(interaction: discord.Interaction, custom_id: str) -> None:
    """A bid or play form submitted: the action goes through the runtime's move pipeline."""
    game_id, key, act = custom_id[len(MODAL_PREFIX) :].split(":")
    tables = tables_of(interaction)
    await tables.borrow(int(game_id))
    table = tables.get(int(game_id))
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    data: dict[str, Any] = dict(interaction.data or {})
    value = _modal_value(data.get("components", []))
    if value is None:
        raise Refusal("Choose one option, then submit.")
    if act == "bid":
        action: Action = {"type": "bid", "bid": int(value)}
    else:
        card, _, suit = value.partition("@")
        action = {"type": "play", "card": card, **({"suit": suit} if suit else {})}
    async with table.lock:
        if table.engine is None or not tables.is_live(table):
            raise Refusal("This game has ended.")
        if table.seats[seat].ai_level is not None:
            raise Refusal("The computer is playing your seat: press **Take my seat back** first.")
        await tables.act(table, seat, action, interaction=interaction, expect_key=key)
