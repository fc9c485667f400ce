"""Shithead messages, built only from engine views.

The table message comes from ``view(None)``, which holds no hand and no face-down card, so nothing
hidden can reach a channel whatever this module does. A player's private panel comes from
``view(seat)``: their own hand, and their face-down cards only as positions.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.tables.snapshot import view as shared_view
from draw.budget import Budget
from draw.cards import label, labels, legible
from draw.common import COLOR, ordinal
from games.shithead.contracts import ShitheadView
from games.shithead.game import Shithead
from locales import _, ngettext, said

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
    return _("↻ clockwise (seat 1 → 2 → …)") if view["direction"] == 1 else _("↺ anticlockwise (… → 2 → 1)")


def need_text(view: View) -> str:
    """What the next play must be, in the reader's language."""
    return said(view["need"])


def pile_text(view: View) -> str:
    """The pile's top cards and what the next play must answer."""
    pile = view["pile"]
    if not pile:
        return _("The pile is empty: any card starts it.")
    shown = pile[-PILE_SHOWN:]
    more = "… " if len(pile) > len(shown) else ""
    cards = " ".join(label(c) for c in shown[:-1])
    line = _("Pile: {cards}", cards=f"{more}{cards} **{label(shown[-1])}**".replace("  ", " "))
    line += " " + ngettext("({n} card)", "({n} cards)", len(pile))
    to_beat = view["to_beat"]
    see_through = ""
    if to_beat is not None and to_beat != view["pile_top"]:
        see_through = " " + _("(the top card is see-through: the card to beat is **{card}**)", card=label(to_beat))
    return f"{line}{see_through}\n{need_text(view)}"


def _seat_line(view: View, seat: int, name: Name) -> str:
    info = view["seats"][seat]
    dealer = " 🎴" if seat == view["dealer"] else ""
    place = info["place"]
    if info["out"] and place is not None:
        medal = _MEDALS.get(place, "🏁")
        return _(
            "{medal} ~~{name}~~ out, {place}{dealer}", medal=medal, name=name(seat), place=ordinal(place), dealer=dealer
        )
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
    zone = {"up": " · " + _("*plays face-up*"), "down": " · " + _("*plays face-down*")}.get(info["zone"] or "", "")
    who = f"**{name(seat)}**" if mark == "▶️" else name(seat)
    return _(
        "{mark} {who}{dealer} · ✋ {hand} · up {up} · down {down}{zone}",
        mark=mark,
        who=who,
        dealer=dealer,
        hand=info["hand_size"],
        up=up,
        down=down,
        zone=zone,
    )


def seat_lines(view: View, name: Name) -> str:
    return "\n".join(_seat_line(view, s, name) for s in range(view["seat_count"]))


def recent_lines(view: View, name: Name, count: int = RECENT_SHOWN) -> str:
    lines = []
    for item in view["recent"][-count:]:
        mark = _RECENT_MARK.get(item["kind"], "•")
        lines.append(f"{mark} {name(item['seat'])} {said(item['text'])}")
    return "\n".join(lines)


def table_embed(view: View, name: Name, notices: list[str], footer: str) -> discord.Embed:
    """The public table, measured as it is built (:class:`draw.budget.Budget`): seven long names
    with their cards, the last actions and notes never make Discord refuse the edit."""
    phase = view["phase"]
    title = {"swap": _("swap phase"), "play": _("play"), "over": _("game over")}[phase]
    budget = Budget()
    budget.reserve(len(footer))
    embed = budget.embed(title=f"💩 Shithead · {title}", color=COLOR if phase != "over" else discord.Color.greyple())
    desc = []
    if phase == "swap":
        if view["rules"]["deal"] == "choose":
            n = view["rules"]["table_cards"]
            desc.append(
                ngettext(
                    "Everyone chooses {n} card to lie face up. Press **My cards**.",
                    "Everyone chooses {n} cards to lie face up. Press **My cards**.",
                    n,
                )
            )
        else:
            desc.append(_("Swap any hand cards with your face-up cards, then press **Ready** (under **My cards**)."))
    else:
        desc.append(pile_text(view))
    desc.append(_("Stock **{stock}** · burnt **{burnt}**", stock=view["stock"], burnt=view["burnt"]))
    if _reversible(view) and phase == "play":
        desc[-1] += " · " + _("direction {direction}", direction=direction_text(view))
    flush = view.get("flush")
    if flush is not None:  # Smeghead's "flush" person (rules option flush)
        desc.append(_("🚽 Flush person: {name} (the first to clear the pile)", name=name(flush)))
    first, reason = view["first_player"], view["first_reason"]
    early = view["action_count"] < 3 * view["seat_count"] + 4
    if first is not None and reason is not None and phase == "play" and early:
        desc.append(_("{name} started: {reason}.", name=name(first), reason=said(reason)))
    budget.describe(embed, desc)
    players = seat_lines(view, name).split("\n")
    budget.fields(embed, _("Players (✋ hand · face up · face down)"), players, next_name=_("Players (continued)"))
    if view["finished"]:
        out = [f"{ordinal(i + 1)} {name(s)}" for i, s in enumerate(view["finished"])]
        budget.field(embed, _("Out so far"), out, sep=" · ")
    recent = recent_lines(view, name)
    if recent:
        budget.field(embed, _("Last actions"), recent.split("\n"), last=True, tail=_earlier)
    if notices:
        budget.field(embed, _("Notes"), notices, last=True, tail=_earlier)
    budget.footer(embed, footer)
    return embed


def _earlier(left: int) -> str:
    return _("({left} earlier)", left=left)


def turn_content(view: View, mention: Name, waiting_people: list[int]) -> str | None:
    """The line above the table that pings whoever must act (``waiting_people``: seats of humans)."""
    phase = view["phase"]
    if phase == "swap":
        if not waiting_people:
            return _("🔄 Swap phase: the computers are getting ready.")
        who = ", ".join(mention(s) for s in waiting_people)
        if view["rules"]["deal"] == "choose":
            return _("🔄 {who}: choose your face-up cards. Press **My cards**.", who=who)
        return _("🔄 {who}: swap cards if you like, then **Ready**. Press **My cards**.", who=who)
    if phase != "play" or view["turn"] is None:
        return None
    seat = view["turn"]
    if seat not in waiting_people:
        return _("🤖 {name} is playing…", name=mention(seat))
    zone = view["seats"][seat]["zone"]
    who = mention(seat)
    if zone == "down":
        return _("🃏 {who}, your turn: flip one of your face-down cards. Press **My cards**.", who=who)
    if view["pile"] and view["to_beat"]:
        return _(
            "🃏 {who}, your turn: beat {card} or pick up. Press **My cards**.", who=who, card=label(view["to_beat"])
        )
    if view["pile"]:
        return _("🃏 {who}, your turn: play any card or pick up. Press **My cards**.", who=who)
    return _("🃏 {who}, your turn: start the pile with any card. Press **My cards**.", who=who)


def final_embed(view: View, name: Name, order: list[int], cards_left: dict[int, int]) -> discord.Embed:
    goal = view["rules"]["goal"]
    if goal == "winner":
        embed = discord.Embed(title=_("🏆 Shithead: we have a winner"), color=discord.Color.gold())
        lines = [_("🥇 **{name}** went out first", name=name(order[0]))] if order else []
        rest = sorted((s for s in range(view["seat_count"]) if s not in order), key=lambda s: cards_left[s])
        lines += [
            ngettext("▫️ {name}: {n} card left", "▫️ {name}: {n} cards left", cards_left[s], name=name(s)) for s in rest
        ]
    else:
        embed = discord.Embed(title=_("💩 Shithead: the finishing order"), color=discord.Color.gold())
        lines = []
        for place, seat in enumerate(order, 1):
            if seat == view["loser"]:
                lines.append(
                    ngettext(
                        "💩 **{name}** is the shithead ({n} card left)",
                        "💩 **{name}** is the shithead ({n} cards left)",
                        cards_left[seat],
                        name=name(seat),
                    )
                )
            else:
                lines.append(f"{_MEDALS.get(place, ordinal(place))} {name(seat)}")
    Budget(embeds=[embed]).describe(embed, lines)
    return embed


def panel_embed(view: View, name: Name, game_id: int, notes: list[str]) -> discord.Embed:
    """A player's own cards: hand, face-up, face-down by position, and what they may do now."""
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    me = view["seats"][seat]
    embed = discord.Embed(title=_("Your cards · Shithead #{game}", game=game_id), color=COLOR)
    desc = list(notes)
    phase = view["phase"]
    if phase == "swap":
        if view["rules"]["deal"] == "choose" and not me["ready"]:
            n = view["rules"]["table_cards"]
            desc.append(
                ngettext(
                    "Choose {n} card to lay face up on your face-down cards, then **Confirm**.",
                    "Choose {n} cards to lay face up on your face-down cards, then **Confirm**.",
                    n,
                )
            )
        elif not me["ready"]:
            desc.append(_("Swap a hand card with a face-up card as often as you like, then press **Ready**."))
        else:
            desc.append(_("✅ You are ready: the play starts once everyone is."))
    elif phase == "play":
        # A waiting panel is not redrawn as the others move (see bot.messages.panels): it shows the pile
        # and names whose turn it is only on the player's own turn, when they stay true.
        if view["turn"] == seat:
            desc.append(pile_text(view))
        if view["turn"] == seat and not any(n.startswith(_("**Your turn")) for n in notes):
            zone = view["zone"]
            desc.append(
                {
                    "hand": _("**Your turn.** Choose cards from your hand, then **Play**; or pick up."),
                    "up": _("**Your turn.** Your hand is empty: play from your face-up cards, or pick up."),
                    "down": _(
                        "**Your turn.** Flip one of your face-down cards: if it does not fit, you take the pile."
                    ),
                }.get(zone or "", "")
            )
        elif view["turn"] == seat:
            pass  # the panel's controls gave the turn's one instruction
        elif me["out"] and me["place"] is not None:
            desc.append(_("🏁 You are out ({place}).", place=ordinal(me["place"])))
        elif view["turn"] is not None:
            desc.append(_("⏳ Not your turn yet (the table shows whose it is)."))
    else:
        desc.append(_("The game is over."))
    budget = Budget(embeds=[embed])
    budget.describe(embed, [d for d in desc if d])
    # ranks as text beside each suit's emoji (draw.cards.legible): a card emoji's rank is too small
    budget.field(embed, _("Hand ({n})", n=len(view["hand"])), [legible(view["hand"]) or "—"])
    embed.add_field(name=_("Face up"), value=legible(me["face_up"]) or "—", inline=True)
    slots = me["face_down_slots"]
    down = " ".join(f"{FACE_DOWN}{i + 1}" for i in slots) if slots else "—"
    embed.add_field(name=_("Face down (positions)"), value=down, inline=True)
    return embed


def dm_embed(view: View, where: str) -> discord.Embed:
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    me = view["seats"][seat]
    embed = discord.Embed(title=_("💩 Shithead: your cards"), color=COLOR, description=where)
    embed.add_field(name=_("Hand"), value=labels(view["hand"]) or "—", inline=False)
    embed.add_field(name=_("Face up"), value=labels(me["face_up"]) or "—", inline=True)
    embed.add_field(name=_("Face down"), value=FACE_DOWN * me["face_down"] or "—", inline=True)
    if view["rules"]["deal"] == "choose":
        tip = ngettext(
            "Choose your {n} face-up card with My cards below.",
            "Choose your {n} face-up cards with My cards below.",
            view["rules"]["table_cards"],
        )
    else:
        tip = _("Swap hand and face-up cards with My cards below, then press Ready.")
    # (a footer shows no markdown)
    embed.set_footer(text=tip + " " + _("This message stays as it is; the My cards panel follows the game."))
    return embed
