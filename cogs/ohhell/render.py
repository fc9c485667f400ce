"""Oh Hell messages, built only from engine views: the public table from ``view(None)`` (so no
hand or unrevealed bid can reach a channel), a player's hand from ``view(seat)``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import discord

from bot.snapshot import view as shared_view
from draw.budget import Budget
from draw.cards import label, labels, suit_symbol
from draw.common import COLOR, ordinal
from draw.emojis import card_text, hand_text
from games.common.engine import Event
from games.ohhell.game import OhHell
from games.ohhell.views import OhHellSeatView, OhHellView
from locales import _, ngettext


def seat_view(engine: OhHell, seat: int) -> OhHellSeatView:
    """``engine.view(seat)``, built once per move and shared by whatever draws for that seat."""
    return shared_view(engine, seat)


def public_view(engine: OhHell) -> OhHellView:
    """``engine.view(None)``, built once per move and shared by whatever draws the table."""
    return shared_view(engine, None)


Name = Callable[[int], str]
#: the public view every table message is built from (a seat's view extends it)
View = OhHellView


def cards(n: int) -> str:
    """ "1 card", "5 cards" in the reader's language."""
    return ngettext("{n} card", "{n} cards", n)


def trump_line(view: View) -> str:
    trump, turnup = view["trump"], view["turnup"]
    if view["deal_kind"] != "normal" and turnup is None and trump is None:
        return _("No trumps")
    if turnup is None:
        return _("Trumps: {suit}", suit=suit_symbol(trump)) if trump else _("No trumps this deal")
    dealers = view["turnup_is_dealers"]
    if trump is None:
        if dealers:
            return _("No trumps: {card} was turned up (the dealer's own last card)", card=label(turnup))
        return _("No trumps: {card} was turned up", card=label(turnup))
    if dealers:
        return _(
            "Trumps: {suit} (turned up {card} (the dealer's own last card))",
            suit=suit_symbol(trump),
            card=label(turnup),
        )
    return _("Trumps: {suit} (turned up {card})", suit=suit_symbol(trump), card=label(turnup))


def deal_title(view: View) -> str:
    # an extra or play-off deal comes after the last scheduled one: "deal 2 of 1" would be nonsense
    if view["deal"] <= view["deals"]:
        number = _("deal {deal} of {deals}", deal=view["deal"], deals=view["deals"])
    else:
        number = _("deal {deal}", deal=view["deal"])
    title = f"Oh Hell · {number} · {cards(view['hand_size'])}"
    if view["deal_kind"] == "extra":
        return title + " · " + _("extra deal to break the tie")
    if view["deal_kind"] == "playoff":
        return title + " · " + _("play-off deal")
    return title


def _trick_text(cards: list[Any], name: Name) -> str:
    parts = []
    for seat, code, named in cards:
        if named and code == "X":
            parts.append(_("{name} {card} as {suit}", name=name(seat), card=card_text(code), suit=suit_symbol(named)))
        else:
            parts.append(f"{name(seat)} {card_text(code)}")
    return " · ".join(parts)


def seat_lines(view: View, name: Name) -> str:
    lines = []
    secret = view["phase"] == "bidding" and view["bidding"] == "simultaneous"
    for seat in view["players"]:
        bid = view["bids"][seat]
        if bid is not None:
            bid_text = _("bid **{bid}**", bid=bid)
        elif view["has_bid"][seat]:
            bid_text = _("✅ has bid") if secret else _("bid ?")
        else:
            bid_text = _("⏳ bidding") if seat in view["to_act"] else "—"
        dealer = " 🎴" if seat == view["dealer"] else ""
        won = " · " + _("won {n}", n=view["tricks"][seat]) if view["phase"] != "bidding" else ""
        points = _("{n} pts", n=view["totals"][seat])
        lines.append(f"{name(seat)}{dealer}: {bid_text}{won} · {points}")
    return "\n".join(lines)


def revoke_lines(revokes: Sequence[Mapping[str, Any]], name: Name) -> list[str]:
    """This deal's revokes, a line a player in the order they first revoked: the short form of a
    list that seven long names revoking at every trick would take past a field's 1,024."""
    by_seat: dict[int, list[str]] = {}
    for r in revokes:
        by_seat.setdefault(r["seat"], []).append(
            _("{suit} trick {trick}", suit=suit_symbol(r["suit"]), trick=r["trick"])
        )
    return [f"{name(seat)}: {', '.join(where)}" for seat, where in by_seat.items()]


def table_embed(view: View, name: Name, notices: list[str]) -> discord.Embed:
    """The public table: measured as it is built (:class:`draw.budget.Budget`), so that no long
    name, trick or list makes Discord refuse the edit, which would stop the table for the deal."""
    budget = Budget()
    embed = budget.embed(title=deal_title(view), color=COLOR)
    bid_total = view["bid_total"]
    desc = [trump_line(view), _("Dealer: {name} 🎴", name=name(view["dealer"]))]
    if view["phase"] != "bidding" or view["bidding"] == "sequential":
        desc.append(
            ngettext(
                "Bids total {total} for {n} trick",
                "Bids total {total} for {n} tricks",
                view["hand_size"],
                total=bid_total,
            )
        )
    if view["devils_bridge"]:
        desc.append(_("🌉 Devil's Bridge: everyone sees every card but their own (**My hand**)"))
    budget.describe(embed, desc)
    budget.field(embed, _("Players (from the dealer's left)"), seat_lines(view, name).split("\n"))
    last = view["last_trick"]
    # Between tricks the one just finished stays in view, its winner named, until the next lead.
    finished = view["phase"] == "playing" and not view["trick"] and last is not None and last["deal"] == view["deal"]
    if finished:
        assert last is not None
        budget.field(
            embed,
            _("Trick {n}", n=view["trick_no"] - 1),
            [
                _("{cards} → **{name}** wins", cards=_trick_text(last["cards"], name), name=name(last["winner"])),
                _("*({name} to lead trick {n})*", name=name(view["leader"]), n=view["trick_no"]),
            ],
        )
    elif view["phase"] == "playing":
        trick = (
            _trick_text(view["trick"], name) if view["trick"] else _("*({name} to lead)*", name=name(view["leader"]))
        )
        budget.field(embed, _("Trick {n}", n=view["trick_no"]), [trick])
    # The engine keeps the previous deal's last trick until this deal's first trick is won.
    if last is not None and view["phase"] == "playing" and view["trick_no"] > 1 and not finished:
        won = _("{cards} → **{name}** wins", cards=_trick_text(last["cards"], name), name=name(last["winner"]))
        budget.field(embed, _("Last trick"), [won])
    revokes = view["revokes"]
    if revokes:
        budget.field(embed, _("Revokes this deal"), revoke_lines(revokes, name))
    if notices:
        budget.field(
            embed,
            _("Notes"),
            notices,
            last=True,
            tail=lambda n: "(" + ngettext("{n} earlier note", "{n} earlier notes", n) + ")",
        )
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
                return _("🤫 Secret bids: the computers are bidding…")
            return _(
                "🤫 Secret bids: waiting for {names}. Bid on **My hand**.", names=", ".join(mention(s) for s in humans)
            )
        if not humans:
            return _("🤖 {name} is bidding…", name=mention(waiting[0]))
        return _("🗣️ {name}, your bid: press **My hand**.", name=mention(waiting[0]))
    if not humans:
        return _("🤖 {name} is playing…", name=mention(waiting[0]))
    return _("🃏 {name}, your turn to play: press **My hand**.", name=mention(waiting[0]))


def deal_result_embed(scored: Mapping[str, Any], name: Name, last_trick: Mapping[str, Any] | None) -> discord.Embed:
    """The closing state of a deal's table message: the last trick and everyone's score change."""
    budget = Budget()
    embed = budget.embed(
        title="Oh Hell · " + _("deal {deal} done ({cards})", deal=scored["deal"], cards=cards(scored["hand_size"])),
        color=discord.Color.greyple(),
    )
    if last_trick is not None:
        won = _(
            "{cards} → **{name}** wins", cards=_trick_text(last_trick["cards"], name), name=name(last_trick["winner"])
        )
        budget.field(embed, _("Last trick"), [won])
    lines = []
    for seat, score in enumerate(scored["scores"]):
        if score is None:
            continue
        bid, tricks = scored["bids"][seat], scored["tricks"][seat]
        mark = "✅" if bid == tricks else "❌"
        said = dict(mark=mark, name=name(seat), bid=bid, won=tricks, change=f"{score:+d}", total=scored["totals"][seat])
        if seat in scored["revoked"]:
            lines.append(_("{mark} {name}: bid {bid}, won {won} (revoked) → **{change}** = {total}", **said))
        else:
            lines.append(_("{mark} {name}: bid {bid}, won {won} → **{change}** = {total}", **said))
    budget.field(embed, _("Scores"), lines)
    return embed


def _names(seats: Sequence[int], name: Name) -> str:
    names = [name(s) for s in seats]
    return names[0] if len(names) == 1 else _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def _decider(decided: str, their: bool = False) -> str:
    """What broke a tie (the standings' ``decided_by``) in words: the figure's name, or the
    play-off deal (``their``: "their scores in play-off deal 1", as a sentence's subject)."""
    if decided.startswith("play-off "):
        n = decided.split()[1]
        return _("their scores in play-off deal {n}", n=n) if their else _("play-off {n}", n=n)
    return {
        "exact contracts": _("exact contracts"),
        "exact winning contracts": _("exact winning contracts"),
        "contracts made or exceeded": _("contracts made or exceeded"),
        "total": _("total"),
    }.get(decided, decided)


def scores_title(deals: int) -> str:
    """ "Oh Hell scores after 3 deals" (the score sheet's and the scoreboard's title)."""
    return ngettext("Oh Hell scores after {n} deal", "Oh Hell scores after {n} deals", deals)


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
        said = dict(names=_names(leaders, name), total=best, deal=first - 1)
        if len(extra) == 1:
            lines.append(
                _("{names} were tied for first on {total} after deal {deal}: the extra deal decided it.", **said)
            )
        else:
            lines.append(
                _(
                    "{names} were tied for first on {total} after deal {deal}: {n} extra deals decided it.",
                    n=len(extra),
                    **said,
                )
            )
    if len(top) > 1:
        decided = top[0]["decided_by"]
        seats = [row["seat"] for row in top]
        if decided == "unbroken" and all(row["rank"] == 1 for row in top):
            lines.append(
                _(
                    "{names} tied on {total} and nothing separated them: they share first place.",
                    names=_names(seats, name),
                    total=top[0]["total"],
                )
            )
        else:
            decided = next(
                (row["decided_by"] for row in top if row["decided_by"] not in ("unbroken", "total")), decided
            )
            figures = ", ".join(f"{name(row['seat'])} {_figure(row, decided)}" for row in top)
            lines.append(
                _(
                    "{names} tied on {total}; {what} decided first place ({figures}).",
                    names=_names(seats, name),
                    total=top[0]["total"],
                    what=_decider(decided, their=True),
                    figures=figures,
                )
            )
    return "\n".join(lines) or None


def standings_embed(
    standings: Sequence[Mapping[str, Any]],
    name: Name,
    ties: str,
    history: Sequence[Mapping[str, Any]] = (),
) -> discord.Embed:
    embed = discord.Embed(title=_("🏆 Oh Hell: final standings"), color=discord.Color.gold())
    lines = []
    for row in standings:
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(row["rank"], f"{ordinal(row['rank'])}")
        figures = ""
        if ties == "misere-tiebreak":
            figures = " · " + _(
                "exact {exact}, exact winning {winning}, made {made}",
                exact=row["exact"],
                winning=row["exact_winning"],
                made=row["made_or_exceeded"],
            )
        decided = ""
        if row["decided_by"] not in ("total",):
            if row["decided_by"] == "unbroken":
                decided = " · " + _("tie unbroken")
            else:
                decided = " · " + _("tie broken by {what}", what=_decider(row["decided_by"]))
        lines.append(f"{medal} {name(row['seat'])}: **{row['total']}**{figures}{decided}")
    budget = Budget(embeds=[embed])
    budget.describe(embed, lines)
    story = tie_story(standings, history, name)
    if story is not None:
        budget.field(embed, _("Tie-breaker"), story.split("\n"))
    return embed


def hand_embed(view: OhHellSeatView, where: str | None, name: Name) -> discord.Embed:
    """A player's private view: their hand (or, on Devil's Bridge, everyone else's card);
    ``where`` (the game and its channel) left out where None."""
    seat = view["viewer"]
    assert seat is not None, "a seat's own view"
    embed = discord.Embed(title=_("Your hand · {title}", title=deal_title(view)), color=COLOR)
    budget = Budget(embeds=[embed])
    budget.describe(embed, [trump_line(view), *([where] if where else [])])
    if view["hand_hidden"]:
        others = view["others_cards"] or []
        text = [f"{name(s)}: {labels(cards)}" for s, cards in enumerate(others) if cards is not None]
        budget.field(embed, _("🌉 Devil's Bridge: your own card is hidden; the others hold"), text)
    else:
        budget.field(embed, _("Cards"), hand_text(view["hand"], view["trump"]).split("\n"))
    if view["my_bid"] is not None:
        embed.add_field(
            name=_("Your bid"),
            value=_("{bid} (won {won} so far)", bid=view["my_bid"], won=view["tricks"][seat]),
            inline=True,
        )
    return embed


def takeback_line(event: Event, name: Name) -> str | None:
    """A take-back's request, answer or outcome, or a changed secret bid, as the table tells it
    (:mod:`games.ohhell.takeback`); None for any other event."""
    d = event.data
    if event.kind == "undo_asked":
        if not d["waiting"]:  # only computers to answer: they accept at once
            return _("↩️ {name} asks to take back {card}.", name=name(d["seat"]), card=label(d["card"]))
        return _(
            "↩️ {name} asks to take back {card}: {waiting}, accept or refuse on your panel.",
            name=name(d["seat"]),
            card=label(d["card"]),
            waiting=", ".join(name(s) for s in d["waiting"]),
        )
    if event.kind == "undo_done":
        return _("↩️ {name} took back {card}: everyone agreed.", name=name(d["seat"]), card=label(d["card"]))
    if event.kind == "undo_refused":
        if d["seat"] == d["asker"]:
            return _("↩️ {name} withdrew the request to take back {card}.", name=name(d["seat"]), card=label(d["card"]))
        return _(
            "↩️ {name} refused to let {asker} take back {card}.",
            name=name(d["seat"]),
            asker=name(d["asker"]),
            card=label(d["card"]),
        )
    if event.kind == "undo_lapsed":
        return _(
            "↩️ {name}'s request to take back {card} lapsed: the next card was played.",
            name=name(d["seat"]),
            card=label(d["card"]),
        )
    if event.kind == "bid_placed" and d.get("changed"):
        return _("✏️ {name} changed their secret bid.", name=name(d["seat"]))
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
                _(
                    "🔁 {names} tie on {total}: one more deal of {cards}.",
                    names=leaders,
                    total=event.data["total"],
                    cards=cards(event.data["hand_size"]),
                )
            )
        elif event.kind == "playoff_started":
            seats, size = ", ".join(name(s) for s in event.data["seats"]), event.data["hand_size"]
            if size in (8, 11, 18):  # English says "an 8-card", "an 11-card": one sentence each way
                line = _(
                    "⚔️ {names} are still tied on {total}: an {n}-card play-off.",
                    names=seats,
                    total=event.data["total"],
                    n=size,
                )
            else:
                line = _(
                    "⚔️ {names} are still tied on {total}: a {n}-card play-off.",
                    names=seats,
                    total=event.data["total"],
                    n=size,
                )
            out.append(line)
    return out


def scoreboard_embed(view: View, name: Name) -> discord.Embed:
    """Totals and the last few deals, deal by deal: what a score sheet on the table would show."""
    budget = Budget()
    footer = _("bid/won and the change, per player")
    budget.reserve(len(footer))
    embed = budget.embed(title=scores_title(len(view["history"])), color=COLOR)
    order = sorted(range(view["seat_count"]), key=lambda s: -view["totals"][s])
    budget.describe(embed, [f"**{view['totals'][s]}** {name(s)}" for s in order])
    for entry in view["history"][-6:]:
        cells = []
        for seat, score in enumerate(entry["scores"]):
            if score is not None:
                cells.append(f"{name(seat)} {entry['bids'][seat]}/{entry['tricks'][seat]} {score:+d}")
        title = _("Deal {deal} ({cards})", deal=entry["deal"], cards=cards(entry["hand_size"]))
        budget.field(embed, title, cells, sep=" · ")
    budget.footer(embed, footer)
    return embed
