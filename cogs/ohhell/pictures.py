"""Oh Hell's pictures: the trick on the table, a player's hand, the running totals.

Built from the same engine views as the text (the public view for the table), so a picture can
show no more than the message it sits on. Each picture's alt text (what a screen reader says
for it) is made here, beside the picture, from the same view: the table's trick and whose turn
it is, a hand (only on that hand's private picture), the chart's leader and totals."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from draw.cards import SUIT_WORDS, card_words, cards_words, suit_words
from draw.images import hand_png, scores_chart_png, short_name, trick_png
from draw.pictures import ImageFile, fit_alt, show_picture
from games.ohhell.views import OhHellSeatView, OhHellView
from locales import _, ngettext

Name = Callable[[int], str]
TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
CHART_FILE = "scores.png"


def trick_picture(view: OhHellView, name: Name, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    """While cards are played: the trick so far and an empty place for each player still to play
    (in playing order); between tricks, the trick just finished, its winner marked, until the next
    card is led (a player sees the trick they just played); while bidding, the turned-up card
    alone (if there is one)."""
    turnup = view["turnup"]
    finished = finished_trick(view)
    alt = trick_alt(view, name)
    if finished is not None:
        return [show_picture(embed, TABLE_FILE, trick_png(_marked(finished, name), (), turnup, four), alt)]
    if view["phase"] == "playing":
        plays = tuple((name(seat), code) for seat, code, _named in view["trick"])
        waiting = tuple(name(s) for s in _waiting(view))
        return [show_picture(embed, TABLE_FILE, trick_png(plays, waiting, turnup, four), alt)]
    if view["phase"] == "bidding" and turnup is not None:
        return [show_picture(embed, TABLE_FILE, trick_png((), (), turnup, four), alt)]
    return []


def _waiting(view: OhHellView) -> list[int]:
    """The seats still to play to the trick, in playing order (the first is to play now)."""
    played = {seat for seat, _code, _named in view["trick"]}
    order = list(view["players"])
    start = order.index(view["leader"]) if view["leader"] in order else 0
    return [s for s in order[start:] + order[:start] if s not in played]


def _played(plays: Sequence[Sequence[Any]], name: Name) -> str:
    """``Ann: queen of hearts; Bob: joker (as spades)`` (the joker's named suit when it has one)."""
    return "; ".join(
        _("{name}: {card} (as {suit})", name=name(seat), card=card_words(code), suit=suit_words(named))
        if named in SUIT_WORDS
        else _("{name}: {card}", name=name(seat), card=card_words(code))
        for seat, code, named, *_rest in plays
    )


def _trump_words(view: OhHellView) -> str:
    turnup, trump = view["turnup"], view["trump"]
    if turnup:
        if trump in SUIT_WORDS:
            return _("Turned-up card: {card}, trumps are {suit}.", card=card_words(turnup), suit=suit_words(trump))
        return _("Turned-up card: {card}, no trumps.", card=card_words(turnup))
    if trump in SUIT_WORDS:
        return _("Trumps are {suit}.", suit=suit_words(trump))
    return _("No trumps.")


def trick_alt(view: OhHellView, name: Name) -> str:
    """The table picture in words (:func:`trick_picture`): the cards on it, by whom, the trick's
    winner or who plays next, and the turned-up card: what the public view shows everyone."""

    def said(name: Name) -> str:
        finished = finished_trick(view)
        if finished is not None:
            return _(
                "Deal {deal}, trick {trick} won by {name}: {cards}. {trumps}",
                deal=view["deal"],
                trick=view["trick_no"],
                name=name(finished["winner"]),
                cards=_played(finished["cards"], name),
                trumps=_trump_words(view),
            )
        if view["phase"] == "playing":
            waiting = _waiting(view)
            cards = _played(view["trick"], name) or _("no card yet")
            said = _("Deal {deal}, the trick so far: {cards}.", deal=view["deal"], cards=cards)
            if len(waiting) > 1:
                said += " " + _(
                    "{name} to play, then {others}.",
                    name=name(waiting[0]),
                    others=", ".join(name(s) for s in waiting[1:]),
                )
            elif waiting:
                said += " " + _("{name} to play.", name=name(waiting[0]))
            else:
                said += "."
            return f"{said} {_trump_words(view)}"
        return _("Deal {deal}, bidding. {trumps}", deal=view["deal"], trumps=_trump_words(view))

    return fit_alt(said(name), said(lambda seat: short_name(name(seat), 12)))


def finished_trick(view: OhHellView) -> Mapping[str, Any] | None:
    """The trick this deal just finished, while the next has no card yet (else None)."""
    last = view["last_trick"]
    if view["phase"] != "playing" or view["trick"] or last is None or last["deal"] != view["deal"]:
        return None
    return last


def _marked(last: Mapping[str, Any], name: Name) -> tuple[tuple[str, str], ...]:
    winner = last["winner"]
    return tuple((f"★ {name(seat)}" if seat == winner else name(seat), code) for seat, code, _named in last["cards"])


def last_trick_picture(
    last: Mapping[str, Any] | None, name: Name, embed: discord.Embed, four: bool = False
) -> list[ImageFile]:
    """A deal's closing message: its last trick, the winner's name marked."""
    if last is None:
        return []
    alt = fit_alt(
        *(
            _(
                "The deal's last trick, won by {name}: {cards}.",
                name=said(last["winner"]),
                cards=_played(last["cards"], said),
            )
            for said in (name, lambda seat: short_name(name(seat), 12))
        )
    )
    return [show_picture(embed, TABLE_FILE, trick_png(_marked(last, name), (), None, four), alt)]


def hand_picture(view: OhHellSeatView, embed: discord.Embed, four: bool = False) -> list[ImageFile]:
    if view["hand_hidden"]:
        return []  # Devil's Bridge: the player may not see their own card
    return [show_picture(embed, HAND_FILE, hand_png(tuple(view["hand"]), four), hand_alt(view["hand"]))]


def hand_alt(hand: Sequence[str]) -> str:
    """A hand picture in words, every card in the order shown (the seat's own view: this text
    goes only with that seat's private picture)."""
    if not hand:
        return _("Your hand: no cards left.")
    return fit_alt(
        ngettext("Your hand, {n} card: {cards}.", "Your hand, {n} cards: {cards}.", len(hand), cards=cards_words(hand))
    )


def chart_picture(names: Sequence[str], running: Sequence[Sequence[int]], embed: discord.Embed) -> list[ImageFile]:
    """Running totals after each deal; nothing before the first deal is scored."""
    if not running:
        return []
    data = scores_chart_png(tuple(names), tuple(tuple(row) for row in running))
    return [show_picture(embed, CHART_FILE, data, totals_alt(_("Chart of the running totals"), names, running))]


def totals_alt(what: str, names: Sequence[str], running: Sequence[Sequence[int]]) -> str:
    """A score picture in words: after how many deals, who leads, and everyone's total, highest
    first (the public scores every player sees)."""

    def said(names: Sequence[str]) -> str:
        totals = sorted(zip(running[-1], names, strict=True), key=lambda pair: -pair[0])
        best = [n for t, n in totals if t == totals[0][0]]
        if len(best) > 1:
            lead = _(
                "{names} and {last} lead with {total}", names=", ".join(best[:-1]), last=best[-1], total=totals[0][0]
            )
        else:
            lead = _("{name} leads with {total}", name=best[0], total=totals[0][0])
        rest = "; ".join(f"{n} {t}" for t, n in totals)
        return ngettext(
            "{what} after {n} deal: {lead}. Totals: {rest}.",
            "{what} after {n} deals: {lead}. Totals: {rest}.",
            len(running),
            what=what,
            lead=lead,
            rest=rest,
        )

    return fit_alt(said(names), said([short_name(n, 12) for n in names]))
