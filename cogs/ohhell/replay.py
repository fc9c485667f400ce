"""Oh Hell's replay pages (:class:`bot.seam.replaying.Replayer`): a step is a deal dealt, its bids,
each trick, and its scores; every hand is shown as it stands at that step."""

from __future__ import annotations

import discord

from bot.seam.replaying import Replayer
from cogs.ohhell.render import takeback_line
from draw.cards import label, labels, suit_symbol
from games.common.engine import Event
from games.ohhell.game import OhHell
from locales import _, ngettext

#: the events that close a step
STEP_ENDS = {"bids_revealed", "trick_won", "deal_scored"}


def _deal_line(deal: int, cards: int, dealer: str, trump: str | None) -> str:
    return ngettext(
        "Deal {deal}: {n} card, {dealer} deals, trumps {suit}",
        "Deal {deal}: {n} cards, {dealer} deals, trumps {suit}",
        cards,
        deal=deal,
        dealer=dealer,
        suit=suit_symbol(trump),
    )


class OhHellReplayer(Replayer[OhHell]):
    def ends_step(self, engine: OhHell, events: list[Event]) -> bool:
        return any(e.kind in STEP_ENDS for e in events) or engine.is_over

    def start_lines(self, engine: OhHell, names: list[str]) -> list[str]:
        view = engine.view(None)
        return [_deal_line(view["deal"], view["hand_size"], names[view["dealer"]], view["trump"])]

    def event_lines(self, engine: OhHell, events: list[Event], names: list[str]) -> list[str]:
        lines = []
        for event in events:
            if event.seat is not None:
                continue  # a private event; the hands are shown below anyway
            d = event.data
            if event.kind == "deal_started":
                lines.append(_deal_line(d["deal"], d["hand_size"], names[d["dealer"]], d["trump"]))
            elif event.kind == "bid":
                lines.append(_("{name} bids {bid}", name=names[d["seat"]], bid=d["bid"]))
            elif event.kind == "bids_revealed":
                bids = ", ".join(f"{names[s]} {b}" for s, b in enumerate(d["bids"]) if b is not None)
                lines.append(_("Bids: {bids}", bids=bids))
            elif event.kind == "card_played":
                lines.append(_("{name} plays {card}", name=names[d["seat"]], card=label(d["card"])))
            elif event.kind == "trick_won":
                lines.append(_("**{name} wins the trick**", name=names[d["seat"]]))
            elif event.kind == "deal_scored":
                scores = ", ".join(
                    f"{names[s]} {score:+d} ({total})"
                    for s, (score, total) in enumerate(zip(d["scores"], d["totals"], strict=True))
                    if score is not None
                )
                lines.append(_("Scores: {scores}", scores=scores))
            elif event.kind == "game_over":
                lines.append(_("🏁 Game over"))
            elif (line := takeback_line(event, lambda s: names[s])) is not None:
                lines.append(line)
        return lines

    def add_hands(self, embed: discord.Embed, engine: OhHell, names: list[str]) -> None:
        view = engine.view(None)
        for seat, name in enumerate(names):
            bid = view["bids"][seat]
            head = _("{name} · total {total}", name=name, total=view["totals"][seat])
            if bid is not None:
                head += " · " + _("bid {bid}, won {won}", bid=bid, won=view["tricks"][seat])
            embed.add_field(name=head, value=labels(engine.hand(seat)) or _("*(no cards)*"), inline=False)
