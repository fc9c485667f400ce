"""The engine's own lines (the last actions, why a player starts) in the reader's language.

The engine keeps them as English data in its state and view (a saved game, a replay and every
reader share one state, so it cannot hold a language); each has one of a few fixed shapes, so it
is read back here and said again through the catalogue. A line of an unknown shape is shown as the
engine wrote it.
"""

from __future__ import annotations

import re

from games.common.cards import ACE, JACK, JOKER_RANK, KING, QUEEN
from games.shithead.pile import said_rank
from locales import N_, _, ngettext, translate

#: (the engine's English line, what it says): a one-form sentence
_LINES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), text)
    for pattern, text in (
        (r"swapped (?P<hand>.+) onto the table for (?P<up>.+)", N_("swapped {hand} onto the table for {up}")),
        (r"stacked (?P<card>.+) face up on its rank", N_("stacked {card} face up on its rank")),
        (r"flipped (?P<card>.+), which does not fit", N_("flipped {card}, which does not fit")),
        (r"put (?P<cards>.+) face up", N_("put {cards} face up")),
        (r"played face-up (?P<cards>.+)", N_("played face-up {cards}")),
        (r"played (?P<cards>.+)", N_("played {cards}")),
        (r"flipped (?P<cards>.+)", N_("flipped {cards}")),
        (r"is out \(place (?P<place>\d+)\)", N_("is out (place {place})")),
        (r"is ready", N_("is ready")),
    )
)
_BURNT = re.compile(r"burnt (?P<n>\d+) cards?")
_PICKED = re.compile(r"picked up (?P<n>\d+) cards?(?: \(adding (?P<card>.+)\))?")
_FIRST_UP = re.compile(r"the first face-up (?P<rank>\S+)")
_IN_HAND = re.compile(r"an? (?P<rank>\S+) in hand")
_RANK_WORDS = {"jack": JACK, "queen": QUEEN, "king": KING, "ace": ACE, "joker": JOKER_RANK}


def action_text(text: str) -> str:
    """A line of the view's ``recent`` (``played 7♠``) in the reader's language."""
    for pattern, said in _LINES:
        found = pattern.fullmatch(text)
        if found:
            return translate(said, **found.groupdict())
    found = _BURNT.fullmatch(text)
    if found:
        return ngettext("burnt {n} card", "burnt {n} cards", int(found["n"]))
    found = _PICKED.fullmatch(text)
    if found and found["card"]:
        return ngettext(
            "picked up {n} card (adding {card})",
            "picked up {n} cards (adding {card})",
            int(found["n"]),
            card=found["card"],
        )
    if found:
        return ngettext("picked up {n} card", "picked up {n} cards", int(found["n"]))
    return text


def start_reason(text: str) -> str:
    """Why the first player starts (the view's ``first_reason``) in the reader's language."""
    found = _FIRST_UP.fullmatch(text)
    if found:
        return _("the first face-up {rank}", rank=found["rank"])
    found = _IN_HAND.fullmatch(text)
    if found:
        word = found["rank"]
        rank = _RANK_WORDS.get(word)
        return _("{rank} in hand", rank=said_rank(rank) if rank is not None else word)
    if text == "the dealer's left":
        return _("the dealer's left")
    return text
