"""Shithead messages, built only from engine views.

The table message comes from ``view(None)``, which holds no hand and no face-down card, so nothing
hidden can reach a channel whatever this module does. A player's private panel comes from
``view(seat)``: their own hand, and their face-down cards only as positions.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.snapshot import view as shared_view
from draw.budget import Budget
from draw.cards import label, labels, legible
from draw.common import COLOR, count, ordinal
from games.shithead.contracts import ShitheadView
from games.shithead.game import Shithead

Name = Callable[[int], str]
View = ShitheadView


def game_view(engine: Shithead, viewer: int | None) -> ShitheadView:
    """``engine.view(viewer)``, built once per move and shared by whatever draws for that viewer."""
    return shared_view(engine, viewer)


FACE_DOWN = "🂠"
PILE_SHOWN = 6  # top cards of the pile shown on the table
RECENT_SHOWN = 5  # last actions shown on the table

_RECENT_MARK = {
    "play": "🃏",
    "flip": "💥",
    "pickup": "📥",
    "burn": "🔥",
    "flush": "🚽",
    "out": "🏁",
    "swap": "🔄",
    "stack": "📚",
    "ready": "✅",
    "choose_up": "✅",
}
_MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _reversible(view: View) -> bool:
    rules = view["rules"]
    return bool((rules["jokers"] > 0 and rules["joker_rule"] == "reverse") or rules["eight"] == "reverse")


def direction_text(view: View) -> str:
    return "↻ clockwise (seat 1 → 2 → …)" if view["direction"] == 1 else "↺ anticlockwise (… → 2 → 1)"


def pile_text(view: View) -> str:
    """The pile's top cards and what the next play must answer."""
    pile = view["pile"]
    if not pile:
        return "The pile is empty: any card starts it."
    shown = pile[-PILE_SHOWN:]
    more = "… " if len(pile) > len(shown) else ""
    cards = " ".join(label(c) for c in shown[:-1])
    line = f"Pile: {more}{cards} **{label(shown[-1])}**".replace("  ", " ")
    line += f" ({len(pile)} card{'s' if len(pile) != 1 else ''})"
    to_beat = view["to_beat"]
    see_through = ""
    if to_beat is not None and to_beat != view["pile_top"]:
        see_through = f" (the top card is see-through: the card to beat is **{label(to_beat)}**)"
    return f"{line}{see_through}\n{view['need']}"


def _seat_line(view: View, seat: int, name: Name) -> str:
    info = view["seats"][seat]
    dealer = " 🎴" if seat == view["dealer"] else ""
    place = info["place"]
    if info["out"] and place is not None:
        medal = _MEDALS.get(place, "🏁")
        return f"{medal} ~~{name(seat)}~~ out, {ordinal(place)}{dealer}"
    if view["phase"] == "swap":
        mark = "✅" if info["ready"] else "⏳"
    elif view["phase"] == "play" and seat == view["turn"]:
        mark = "▶️"
    elif view["phase"] == "over" and seat == view["loser"]:
        mark = "💩"
    else:
        mark = "▫️"
    up = labels(info["face_up"]) if info["face_up"] else "—"
    down = FACE_DOWN * info["face_down"] if info["face_down"] else "—"
    zone = {"up": " · *plays face-up*", "down": " · *plays face-down*"}.get(info["zone"] or "", "")
    who = f"**{name(seat)}**" if mark == "▶️" else name(seat)
    return f"{mark} {who}{dealer} · ✋ {info['hand_size']} · up {up} · down {down}{zone}"


def seat_lines(view: View, name: Name) -> str:
    return "\n".join(_seat_line(view, s, name) for s in range(view["seat_count"]))


def recent_lines(view: View, name: Name, count: int = RECENT_SHOWN) -> str:
    lines = []
    for item in view["recent"][-count:]:
        mark = _RECENT_MARK.get(item["kind"], "•")
        lines.append(f"{mark} {name(item['seat'])} {item['text']}")
    return "\n".join(lines)


def table_embed(view: View, name: Name, notices: list[str], footer: str) -> discord.Embed:
    """The public table, measured as it is built (:class:`draw.budget.Budget`): seven long names
    with their cards, the last actions and notes never make Discord refuse the edit."""
    phase = view["phase"]
    title = {"swap": "swap phase", "play": "play", "over": "game over"}[phase]
    budget = Budget()
    budget.reserve(len(footer))
    embed = budget.embed(title=f"💩 Shithead · {title}", color=COLOR if phase != "over" else discord.Color.greyple())
    desc = []
    if phase == "swap":
        if view["rules"]["deal"] == "choose":
            n = view["rules"]["table_cards"]
            desc.append(f"Everyone chooses {count(n, 'card')} to lie face up. Press **My cards**.")
        else:
            desc.append("Swap any hand cards with your face-up cards, then press **Ready** (under **My cards**).")
    else:
        desc.append(pile_text(view))
    desc.append(f"Stock **{view['stock']}** · burnt **{view['burnt']}**")
    if _reversible(view) and phase == "play":
        desc[-1] += f" · direction {direction_text(view)}"
    flush = view.get("flush")
    if flush is not None:  # Smeghead's "flush" person (rules option flush)
        desc.append(f"🚽 Flush person: {name(flush)} (the first to clear the pile)")
    if view["first_player"] is not None and phase == "play" and view["action_count"] < 3 * view["seat_count"] + 4:
        desc.append(f"{name(view['first_player'])} started: {view['first_reason']}.")
    budget.describe(embed, desc)
    players = seat_lines(view, name).split("\n")
    budget.fields(embed, "Players (✋ hand · face up · face down)", players, next_name="Players (continued)")
    if view["finished"]:
        out = [f"{ordinal(i + 1)} {name(s)}" for i, s in enumerate(view["finished"])]
        budget.field(embed, "Out so far", out, sep=" · ")
    recent = recent_lines(view, name)
    if recent:
        budget.field(embed, "Last actions", recent.split("\n"), last=True, tail=_earlier)
    if notices:
        budget.field(embed, "Notes", notices, last=True, tail=_earlier)
    budget.footer(embed, footer)
    return embed


def _earlier(left: int) -> str:
    return f"({left} earlier)"


def turn_content(view: View, mention: Name, waiting_people: list[int]) -> str | None:
    """The line above the table that pings whoever must act (``waiting_people``: seats of humans)."""
    phase = view["phase"]
    if phase == "swap":
        if not waiting_people:
            return "🔄 Swap phase: the computers are getting ready."
        who = ", ".join(mention(s) for s in waiting_people)
        if view["rules"]["deal"] == "choose":
            return f"🔄 {who}: choose your face-up cards. Press **My cards**."
        return f"🔄 {who}: swap cards if you like, then **Ready**. Press **My cards**."
    if phase != "play" or view["turn"] is None:
        return None
    seat = view["turn"]
    if seat not in waiting_people:
        return f"🤖 {mention(seat)} is playing…"
    zone = view["seats"][seat]["zone"]
    if zone == "down":
        what = "flip one of your face-down cards"
    elif view["pile"]:
        what = f"beat {label(view['to_beat'])} or pick up" if view["to_beat"] else "play any card or pick up"
    else:
        what = "start the pile with any card"
    return f"🃏 {mention(seat)}, your turn: {what}. Press **My cards**."


def final_embed(view: View, name: Name, order: list[int], cards_left: dict[int, int]) -> discord.Embed:
    goal = view["rules"]["goal"]
    if goal == "winner":
        embed = discord.Embed(title="🏆 Shithead: we have a winner", color=discord.Color.gold())
        lines = [f"🥇 **{name(order[0])}** went out first"] if order else []
        rest = sorted((s for s in range(view["seat_count"]) if s not in order), key=lambda s: cards_left[s])
        lines += [f"▫️ {name(s)}: {count(cards_left[s], 'card')} left" for s in rest]
    else:
        embed = discord.Embed(title="💩 Shithead: the finishing order", color=discord.Color.gold())
        lines = []
        for place, seat in enumerate(order, 1):
            if seat == view["loser"]:
                lines.append(f"💩 **{name(seat)}** is the shithead ({count(cards_left[seat], 'card')} left)")
            else:
                lines.append(f"{_MEDALS.get(place, ordinal(place))} {name(seat)}")
    Budget(embeds=[embed]).describe(embed, lines)
    return embed


def panel_embed(view: View, name: Name, game_id: int, notes: list[str]) -> discord.Embed:
    """A player's own cards: hand, face-up, face-down by position, and what they may do now."""
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    me = view["seats"][seat]
    embed = discord.Embed(title=f"Your cards · Shithead #{game_id}", color=COLOR)
    desc = list(notes)
    phase = view["phase"]
    if phase == "swap":
        if view["rules"]["deal"] == "choose" and not me["ready"]:
            n = view["rules"]["table_cards"]
            desc.append(f"Choose {count(n, 'card')} to lay face up on your face-down cards, then **Confirm**.")
        elif not me["ready"]:
            desc.append("Swap a hand card with a face-up card as often as you like, then press **Ready**.")
        else:
            desc.append("✅ You are ready: the play starts once everyone is.")
    elif phase == "play":
        # A waiting panel is not redrawn as the others move (see bot.panels): it shows the pile
        # and names whose turn it is only on the player's own turn, when they stay true.
        if view["turn"] == seat:
            desc.append(pile_text(view))
        if view["turn"] == seat and not any(n.startswith("**Your turn") for n in notes):
            zone = view["zone"]
            desc.append(
                {
                    "hand": "**Your turn.** Choose cards from your hand, then **Play**; or pick up.",
                    "up": "**Your turn.** Your hand is empty: play from your face-up cards, or pick up.",
                    "down": "**Your turn.** Flip one of your face-down cards: if it does not fit, you take the pile.",
                }.get(zone or "", "")
            )
        elif view["turn"] == seat:
            pass  # the panel's controls gave the turn's one instruction
        elif me["out"] and me["place"] is not None:
            desc.append(f"🏁 You are out ({ordinal(me['place'])}).")
        elif view["turn"] is not None:
            desc.append("⏳ Not your turn yet (the table shows whose it is).")
    else:
        desc.append("The game is over.")
    budget = Budget(embeds=[embed])
    budget.describe(embed, [d for d in desc if d])
    # ranks as text beside each suit's emoji (draw.cards.legible): a card emoji's rank is too small
    budget.field(embed, f"Hand ({len(view['hand'])})", [legible(view["hand"]) or "—"])
    embed.add_field(name="Face up", value=legible(me["face_up"]) or "—", inline=True)
    slots = me["face_down_slots"]
    down = " ".join(f"{FACE_DOWN}{i + 1}" for i in slots) if slots else "—"
    embed.add_field(name="Face down (positions)", value=down, inline=True)
    return embed


def dm_embed(view: View, where: str) -> discord.Embed:
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    me = view["seats"][seat]
    embed = discord.Embed(title="💩 Shithead: your cards", color=COLOR, description=where)
    embed.add_field(name="Hand", value=labels(view["hand"]) or "—", inline=False)
    embed.add_field(name="Face up", value=labels(me["face_up"]) or "—", inline=True)
    embed.add_field(name="Face down", value=FACE_DOWN * me["face_down"] or "—", inline=True)
    if view["rules"]["deal"] == "choose":
        tip = f"Choose your {count(view['rules']['table_cards'], 'face-up card')} with My cards below."
    else:
        tip = "Swap hand and face-up cards with My cards below, then press Ready."
    # (a footer shows no markdown)
    embed.set_footer(text=f"{tip} This message stays as it is; the My cards panel follows the game.")
    return embed
