"""Oh Hell messages, built only from engine views: the public table from ``view(None)`` (so no
hand or unrevealed bid can reach a channel), a player's hand from ``view(seat)``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, cast

import discord

from bot.snapshot import view as shared_view
from draw.budget import Budget
from draw.cards import label, labels, suit_symbol
from draw.common import COLOR, a_or_an, count, ordinal
from draw.emojis import card_text, hand_text
from games.common.engine import Event
from games.ohhell.game import OhHell
from games.ohhell.views import OhHellSeatView, OhHellView


def seat_view(engine: OhHell, seat: int) -> OhHellSeatView:
    """``engine.view(seat)``, built once per move and shared by whatever draws for that seat."""
    return cast(OhHellSeatView, shared_view(engine, seat))


def public_view(engine: OhHell) -> OhHellView:
    """``engine.view(None)``, built once per move and shared by whatever draws the table."""
    return cast(OhHellView, shared_view(engine, None))


Name = Callable[[int], str]
#: the public view every table message is built from (a seat's view extends it)
View = OhHellView

KIND_TITLES = {"normal": "", "extra": " · extra deal to break the tie", "playoff": " · play-off deal"}


def trump_line(view: View) -> str:
    trump, turnup = view["trump"], view["turnup"]
    if view["deal_kind"] != "normal" and turnup is None and trump is None:
        return "No trumps"
    if turnup is None:
        return f"Trumps: {suit_symbol(trump)}" if trump else "No trumps this deal"
    whose = " (the dealer's own last card)" if view["turnup_is_dealers"] else ""
    if trump is None:
        return f"No trumps: {label(turnup)} was turned up{whose}"
    return f"Trumps: {suit_symbol(trump)} (turned up {label(turnup)}{whose})"


def deal_title(view: View) -> str:
    # an extra or play-off deal comes after the last scheduled one: "deal 2 of 1" would be nonsense
    number = f"deal {view['deal']} of {view['deals']}" if view["deal"] <= view["deals"] else f"deal {view['deal']}"
    return f"Oh Hell · {number} · {count(view['hand_size'], 'card')}{KIND_TITLES.get(view['deal_kind'], '')}"


def _trick_text(cards: list[Any], name: Name) -> str:
    parts = []
    for seat, code, named in cards:
        as_suit = f" as {suit_symbol(named)}" if named and code == "X" else ""
        parts.append(f"{name(seat)} {card_text(code)}{as_suit}")
    return " · ".join(parts)


def seat_lines(view: View, name: Name) -> str:
    lines = []
    secret = view["phase"] == "bidding" and view["bidding"] == "simultaneous"
    for seat in view["players"]:
        bid = view["bids"][seat]
        if bid is not None:
            bid_text = f"bid **{bid}**"
        elif view["has_bid"][seat]:
            bid_text = "✅ has bid" if secret else "bid ?"
        else:
            bid_text = "⏳ bidding" if seat in view["to_act"] else "—"
        dealer = " 🎴" if seat == view["dealer"] else ""
        won = f" · won {view['tricks'][seat]}" if view["phase"] != "bidding" else ""
        lines.append(f"{name(seat)}{dealer}: {bid_text}{won} · {view['totals'][seat]} pts")
    return "\n".join(lines)


def revoke_lines(revokes: Sequence[Mapping[str, Any]], name: Name) -> list[str]:
    """This deal's revokes, a line a player in the order they first revoked: the short form of a
    list that seven long names revoking at every trick would take past a field's 1,024."""
    by_seat: dict[int, list[str]] = {}
    for r in revokes:
        by_seat.setdefault(r["seat"], []).append(f"{suit_symbol(r['suit'])} trick {r['trick']}")
    return [f"{name(seat)}: {', '.join(where)}" for seat, where in by_seat.items()]


def table_embed(view: View, name: Name, notices: list[str]) -> discord.Embed:
    """The public table: measured as it is built (:class:`draw.budget.Budget`), so that no long
    name, trick or list makes Discord refuse the edit, which would stop the table for the deal."""
    budget = Budget()
    embed = budget.embed(title=deal_title(view), color=COLOR)
    bid_total = view["bid_total"]
    desc = [trump_line(view), f"Dealer: {name(view['dealer'])} 🎴"]
    if view["phase"] != "bidding" or view["bidding"] == "sequential":
        desc.append(f"Bids total {bid_total} for {count(view['hand_size'], 'trick')}")
    if view["devils_bridge"]:
        desc.append("🌉 Devil's Bridge: everyone sees every card but their own (**My hand**)")
    budget.describe(embed, desc)
    budget.field(embed, "Players (from the dealer's left)", seat_lines(view, name).split("\n"))
    last = view["last_trick"]
    # Between tricks the one just finished stays in view, its winner named, until the next lead.
    finished = view["phase"] == "playing" and not view["trick"] and last is not None and last["deal"] == view["deal"]
    if finished:
        assert last is not None
        budget.field(
            embed,
            f"Trick {view['trick_no'] - 1}",
            [
                f"{_trick_text(last['cards'], name)} → **{name(last['winner'])}** wins",
                f"*({name(view['leader'])} to lead trick {view['trick_no']})*",
            ],
        )
    elif view["phase"] == "playing":
        trick = _trick_text(view["trick"], name) if view["trick"] else f"*({name(view['leader'])} to lead)*"
        budget.field(embed, f"Trick {view['trick_no']}", [trick])
    # The engine keeps the previous deal's last trick until this deal's first trick is won.
    if last is not None and view["phase"] == "playing" and view["trick_no"] > 1 and not finished:
        budget.field(embed, "Last trick", [f"{_trick_text(last['cards'], name)} → **{name(last['winner'])}** wins"])
    revokes = view["revokes"]
    if revokes:
        budget.field(embed, "Revokes this deal", revoke_lines(revokes, name))
    if notices:
        budget.field(embed, "Notes", notices, last=True, tail=lambda n: f"({count(n, 'earlier note')})")
    return embed


def turn_content(view: View, mention: Name, people: Collection[int] | None = None) -> str | None:
    """The line above the table that pings whoever must act. Only people (``people``: the seats
    humans play; all when not given) are told to press a button; a computer's turn just says so."""
    waiting = view["to_act"]
    if not waiting or view["phase"] == "over":
        return None
    humans = [s for s in waiting if people is None or s in people]
    if view["phase"] == "bidding":
        if view["bidding"] == "simultaneous":
            if not humans:
                return "🤫 Secret bids: the computers are bidding…"
            return f"🤫 Secret bids: waiting for {', '.join(mention(s) for s in humans)}. Bid on **My hand**."
        if not humans:
            return f"🤖 {mention(waiting[0])} is bidding…"
        return f"🗣️ {mention(waiting[0])}, your bid: press **My hand**."
    if not humans:
        return f"🤖 {mention(waiting[0])} is playing…"
    return f"🃏 {mention(waiting[0])}, your turn to play: press **My hand**."


def deal_result_embed(scored: Mapping[str, Any], name: Name, last_trick: Mapping[str, Any] | None) -> discord.Embed:
    """The closing state of a deal's table message: the last trick and everyone's score change."""
    budget = Budget()
    embed = budget.embed(
        title=f"Oh Hell · deal {scored['deal']} done ({count(scored['hand_size'], 'card')})",
        color=discord.Color.greyple(),
    )
    if last_trick is not None:
        budget.field(
            embed, "Last trick", [f"{_trick_text(last_trick['cards'], name)} → **{name(last_trick['winner'])}** wins"]
        )
    lines = []
    for seat, score in enumerate(scored["scores"]):
        if score is None:
            continue
        bid, tricks = scored["bids"][seat], scored["tricks"][seat]
        mark = "✅" if bid == tricks else "❌"
        revoked = " (revoked)" if seat in scored["revoked"] else ""
        lines.append(
            f"{mark} {name(seat)}: bid {bid}, won {tricks}{revoked} → **{score:+d}** = {scored['totals'][seat]}"
        )
    budget.field(embed, "Scores", lines)
    return embed


def _names(seats: Sequence[int], name: Name) -> str:
    names = [name(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _figure(row: Mapping[str, Any], decided: str) -> str:
    if decided.startswith("play-off "):
        scores = row["playoff"]
        index = int(decided.split()[1]) - 1
        return f"{scores[index]:+d}" if index < len(scores) else "-"
    key = {"exact contracts": "exact", "exact winning contracts": "exact_winning"}.get(decided, "made_or_exceeded")
    return str(row[key])


def tie_story(standings: Sequence[Mapping[str, Any]], history: Sequence[Mapping[str, Any]], name: Name) -> str | None:
    """How first place was decided when totals alone did not decide it: the extra deals that
    settled a tie (``ties="extra-hand"``), or the figure that separated equal totals, with each
    tied player's figure, or that nothing did. None when one player simply scored most."""
    extra = [h for h in history if h["kind"] == "extra"]
    top = [row for row in standings if row["total"] == standings[0]["total"]]
    lines = []
    if extra:
        first = extra[0]["deal"]
        totals: dict[int, int] = {}
        for entry in history:
            if entry["deal"] >= first:
                break
            for seat, score in enumerate(entry["scores"]):
                totals[seat] = totals.get(seat, 0) + (score or 0)
        best = max(totals.values(), default=0)
        leaders = [s for s, t in sorted(totals.items()) if t == best]
        lines.append(
            f"{_names(leaders, name)} were tied for first on {best} after deal {first - 1}: "
            f"{'the extra deal' if len(extra) == 1 else f'{len(extra)} extra deals'} decided it."
        )
    if len(top) > 1:
        decided = top[0]["decided_by"]
        seats = [row["seat"] for row in top]
        if decided == "unbroken" and all(row["rank"] == 1 for row in top):
            lines.append(
                f"{_names(seats, name)} tied on {top[0]['total']} and nothing separated them: they share first place."
            )
        else:
            decided = next(
                (row["decided_by"] for row in top if row["decided_by"] not in ("unbroken", "total")), decided
            )
            figures = ", ".join(f"{name(row['seat'])} {_figure(row, decided)}" for row in top)
            what = f"their scores in play-off deal {decided.split()[1]}" if decided.startswith("play-off") else decided
            lines.append(f"{_names(seats, name)} tied on {top[0]['total']}; {what} decided first place ({figures}).")
    return "\n".join(lines) or None


def standings_embed(
    standings: Sequence[Mapping[str, Any]],
    name: Name,
    ties: str,
    history: Sequence[Mapping[str, Any]] = (),
) -> discord.Embed:
    embed = discord.Embed(title="🏆 Oh Hell: final standings", color=discord.Color.gold())
    lines = []
    for row in standings:
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(row["rank"], f"{ordinal(row['rank'])}")
        figures = (
            f" · exact {row['exact']}, exact winning {row['exact_winning']}, made {row['made_or_exceeded']}"
            if ties == "misere-tiebreak"
            else ""
        )
        decided = ""
        if row["decided_by"] not in ("total",):
            decided = " · tie unbroken" if row["decided_by"] == "unbroken" else f" · tie broken by {row['decided_by']}"
        lines.append(f"{medal} {name(row['seat'])}: **{row['total']}**{figures}{decided}")
    budget = Budget(embeds=[embed])
    budget.describe(embed, lines)
    story = tie_story(standings, history, name)
    if story is not None:
        budget.field(embed, "Tie-breaker", story.split("\n"))
    return embed


def hand_embed(view: OhHellSeatView, where: str | None, name: Name) -> discord.Embed:
    """A player's private view: their hand (or, on Devil's Bridge, everyone else's card);
    ``where`` (the game and its channel) left out where None."""
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    embed = discord.Embed(title=f"Your hand · {deal_title(view)}", color=COLOR)
    budget = Budget(embeds=[embed])
    budget.describe(embed, [trump_line(view), *([where] if where else [])])
    if view["hand_hidden"]:
        others = view["others_cards"] or []
        text = [f"{name(s)}: {labels(cards)}" for s, cards in enumerate(others) if cards is not None]
        budget.field(embed, "🌉 Devil's Bridge: your own card is hidden; the others hold", text)
    else:
        budget.field(embed, "Cards", hand_text(view["hand"], view["trump"]).split("\n"))
    if view["my_bid"] is not None:
        embed.add_field(name="Your bid", value=f"{view['my_bid']} (won {view['tricks'][seat]} so far)", inline=True)
    return embed


def takeback_line(event: Event, name: Name) -> str | None:
    """A take-back's request, answer or outcome, or a changed secret bid, as the table tells it
    (:mod:`games.ohhell.takeback`); None for any other event."""
    d = event.data
    if event.kind == "undo_asked":
        asked = f"↩️ {name(d['seat'])} asks to take back {label(d['card'])}"
        if not d["waiting"]:  # only computers to answer: they accept at once
            return f"{asked}."
        return f"{asked}: {', '.join(name(s) for s in d['waiting'])}, accept or refuse on your panel."
    if event.kind == "undo_done":
        return f"↩️ {name(d['seat'])} took back {label(d['card'])}: everyone agreed."
    if event.kind == "undo_refused":
        if d["seat"] == d["asker"]:
            return f"↩️ {name(d['seat'])} withdrew the request to take back {label(d['card'])}."
        return f"↩️ {name(d['seat'])} refused to let {name(d['asker'])} take back {label(d['card'])}."
    if event.kind == "undo_lapsed":
        return f"↩️ {name(d['seat'])}'s request to take back {label(d['card'])} lapsed: the next card was played."
    if event.kind == "bid_placed" and d.get("changed"):
        return f"✏️ {name(d['seat'])} changed their secret bid."
    return None


def deal_notes(events: list[Event], name: Name) -> list[str]:
    """Public lines worth keeping on the table from this batch of events."""
    out = []
    for event in events:
        if event.seat is not None:
            continue
        line = takeback_line(event, name)
        if line is not None:
            out.append(line)
        if event.kind == "extra_deal":
            leaders = ", ".join(name(s) for s in event.data["leaders"])
            out.append(
                f"🔁 {leaders} tie on {event.data['total']}: one more deal of {count(event.data['hand_size'], 'card')}."
            )
        elif event.kind == "playoff_started":
            seats, size = ", ".join(name(s) for s in event.data["seats"]), event.data["hand_size"]
            out.append(f"⚔️ {seats} are still tied on {event.data['total']}: {a_or_an(str(size))} {size}-card play-off.")
    return out


def scoreboard_embed(view: View, name: Name) -> discord.Embed:
    """Totals and the last few deals, deal by deal: what a score sheet on the table would show."""
    budget = Budget()
    footer = "bid/won and the change, per player"
    budget.reserve(len(footer))
    embed = budget.embed(title=f"Oh Hell scores after {count(len(view['history']), 'deal')}", color=COLOR)
    order = sorted(range(view["seat_count"]), key=lambda s: -view["totals"][s])
    budget.describe(embed, [f"**{view['totals'][s]}** {name(s)}" for s in order])
    for entry in view["history"][-6:]:
        cells = []
        for seat, score in enumerate(entry["scores"]):
            if score is not None:
                cells.append(f"{name(seat)} {entry['bids'][seat]}/{entry['tricks'][seat]} {score:+d}")
        budget.field(embed, f"Deal {entry['deal']} ({count(entry['hand_size'], 'card')})", cells, sep=" · ")
    budget.footer(embed, footer)
    return embed
