"""Checking an action: from untrusted JSON to a :data:`Move` with exact cards, or a refusal.

What a seat sends comes from a button, a stored log or a test, so :func:`parse` trusts nothing:
it checks the phase, the turn, the zone the seat must play from and every card named, and raises
:class:`~games.common.engine.IllegalAction` with a sentence the player can read. What it returns
holds the exact cards (a bare code such as ``"5S"`` picks the lowest copy the player holds), so
:mod:`games.shithead.turns` can do the move without checking again.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.common.cards import JOKER_RANK, Card, card_label, face_of, parse_card, suit_of
from games.common.engine import ActionData, IllegalAction
from games.shithead.contracts import Zone
from games.shithead.hands import PLAY_ORDER, sort_key
from games.shithead.pile import NEXT_IN_RUN, short_rank
from games.shithead.table import Table
from locales import msg


@dataclass(frozen=True, slots=True)
class Swap:
    hand: Card
    up: Card


@dataclass(frozen=True, slots=True)
class Stack:
    card: Card


@dataclass(frozen=True, slots=True)
class Ready:
    pass


@dataclass(frozen=True, slots=True)
class Choose:
    cards: list[Card]


@dataclass(frozen=True, slots=True)
class Play:
    #: in the order they land on the pile
    cards: list[Card]
    zone: Zone


@dataclass(frozen=True, slots=True)
class Flip:
    index: int


@dataclass(frozen=True, slots=True)
class Pickup:
    #: the face-up card put on the pile first (refusing with face-up cards), or None
    add: Card | None


#: a checked action
Move = Swap | Stack | Ready | Choose | Play | Flip | Pickup

_SWAP_KINDS = ("swap", "ready", "choose_up", "stack")


def parse(table: Table, seat: int, action: ActionData) -> Move:
    """The move ``action`` stands for, with exact cards; raises IllegalAction if not allowed."""
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction(msg("That is not an action."))
    kind = action["type"]
    if table.phase == "over":
        raise IllegalAction(msg("The game is over."))
    if not isinstance(seat, int) or not 0 <= seat < table.seats:
        raise IllegalAction(msg("You are not playing in this game."))
    if table.phase == "swap":
        return _parse_swap(table, seat, kind, action)
    if kind in _SWAP_KINDS:
        raise IllegalAction(msg("Swapping is over."))
    if seat != table.turn:
        raise IllegalAction(msg("It is not your turn."))
    zone = table.zone(seat)
    if kind == "flip":
        return _parse_flip(table, seat, zone, action)
    if kind == "pickup":
        return _parse_pickup(table, seat, zone, action)
    if kind != "play":
        raise IllegalAction(msg("Unknown action {kind}.", kind=repr(kind)))
    return _parse_play(table, seat, zone, action)


def _parse_flip(table: Table, seat: int, zone: Zone | None, action: ActionData) -> Flip:
    if zone != "down":
        if zone == "hand":
            raise IllegalAction(msg("You cannot flip yet: play from your hand first."))
        raise IllegalAction(msg("You cannot flip yet: play from your face-up cards first."))
    index = action.get("index")
    if not isinstance(index, int) or not 0 <= index < len(table.down[seat]):
        raise IllegalAction(msg("There is no face-down card there."))
    if table.down[seat][index] is None:
        raise IllegalAction(msg("That face-down card has already been played."))
    return Flip(index)


def _parse_pickup(table: Table, seat: int, zone: Zone | None, action: ActionData) -> Pickup:
    if zone == "down":
        raise IllegalAction(msg("With only face-down cards you must flip one."))
    if not table.pile:
        raise IllegalAction(msg("There is nothing to pick up: play any card."))
    add = action.get("add")
    if zone == "up" and table.rules.refusal == "add-one":
        if add is None:
            raise IllegalAction(msg("Choose one of your face-up cards to add to the pile."))
        (card,) = take(table.up[seat], [add], "face up")
        return Pickup(card)
    if add is not None:
        raise IllegalAction(msg("Just pick up the pile; you add no card."))
    return Pickup(None)


def _parse_play(table: Table, seat: int, zone: Zone | None, action: ActionData) -> Play:
    if zone == "down":
        raise IllegalAction(msg("Your hand and face-up cards are gone: flip a face-down card."))
    source = table.hand[seat] if zone == "hand" else table.up[seat]
    where = "in your hand" if zone == "hand" else "face up"
    names = action.get("cards")
    try:
        cards = take(source, names, where)
    except IllegalAction:
        if zone == "hand" and table.up[seat]:
            try:
                take(table.up[seat], names, "face up")
            except IllegalAction:
                pass
            else:
                raise IllegalAction(msg("You must play from your hand first.")) from None
        raise
    if not cards:
        raise IllegalAction(msg("Choose at least one card to play."))
    assert zone is not None  # a seat to play always holds cards
    if zone == "up" and table.rules.stacking:
        _check_whole_stacks(table, seat, cards)
    return Play(check_play(table, cards), zone)


def _check_whole_stacks(table: Table, seat: int, cards: list[Card]) -> None:
    """Under stacking, equal face-up cards lie in one stack and leave the table together."""
    for rank in {c & 31 for c in cards}:
        group = [u for u in table.up[seat] if u & 31 == rank]
        if sum(1 for c in cards if c & 31 == rank) != len(group):
            raise IllegalAction(
                msg(
                    "Equal face-up cards are played together: play all {n} of your face-up {rank}s.",
                    n=len(group),
                    rank=short_rank(rank),
                )
                if len(group) > 1
                else msg("Equal face-up cards are played together.")
            )


def _parse_swap(table: Table, seat: int, kind: Any, action: ActionData) -> Move:
    if kind not in _SWAP_KINDS:
        raise IllegalAction(msg("The game has not started: finish swapping first."))
    if table.ready[seat]:
        raise IllegalAction(msg("You are already ready; wait for the others."))
    if table.rules.deal == "choose":
        if kind != "choose_up":
            raise IllegalAction(msg("Choose the {n} cards to put face up.", n=table.rules.table_cards))
        cards = take(table.hand[seat], action.get("cards"), "in your hand")
        if len(cards) != table.rules.table_cards:
            raise IllegalAction(msg("Choose exactly {n} cards to put face up.", n=table.rules.table_cards))
        return Choose(cards)
    if kind == "ready":
        return Ready()
    if kind == "stack":
        if not table.rules.stacking:
            raise IllegalAction(msg("Stacking face-up cards is Karma's rule (stacking=on); it is off here."))
        (card,) = take(table.hand[seat], [action.get("card")], "in your hand")
        if not any(u & 31 == card & 31 for u in table.up[seat]):
            raise IllegalAction(
                msg("{card} can only go on face-up cards of its rank, and you have none.", card=card_label(card))
            )
        return Stack(card)
    if kind != "swap":
        raise IllegalAction(msg("Swap a hand card with a face-up card, or say you are ready."))
    (hand_card,) = take(table.hand[seat], [action.get("hand")], "in your hand")
    (up_card,) = take(table.up[seat], [action.get("up")], "face up")
    if face_of(hand_card) == face_of(up_card):
        raise IllegalAction(msg("Those two cards are the same: nothing to swap."))
    return Swap(hand_card, up_card)


def take(source: Sequence[Card], names: object, where: str) -> list[Card]:
    """The exact cards ``names`` (card codes) name in ``source`` (a bare code matches any copy)."""
    if not isinstance(names, list | tuple):
        raise IllegalAction(msg("Name the cards as a list."))
    left = list(source)
    out = []
    for name in names:
        try:
            card = parse_card(name) if isinstance(name, str) else None
        except ValueError:
            card = None
        if card is None:
            raise IllegalAction(msg("{name} is not a card.", name=repr(name)))
        if card not in left:
            if "#" not in name:
                same = [c for c in left if face_of(c) == face_of(card)]
                if same:
                    card = min(same)
        if card not in left:
            held = card in source
            if held:
                raise IllegalAction(msg("You named {card} twice.", card=card_label(card)))
            if where == "face up":
                raise IllegalAction(msg("You have no {card} face up.", card=card_label(card)))
            raise IllegalAction(msg("You have no {card} in your hand.", card=card_label(card)))
        left.remove(card)
        out.append(card)
    return out


def check_play(table: Table, cards: list[Card]) -> list[Card]:
    """``cards`` in the order they go on the pile, if they may: one rank, or (``runs``) a run of
    consecutive cards of one suit, each legal in turn and the pile not burning before the end."""
    pr = table.pr
    ranks = {c & 31 for c in cards}
    if len(ranks) == 1:
        first = cards[0]
        reason = pr.why_not(first, table.pile, table.free)
        if reason:
            raise IllegalAction(reason)
        return sorted(cards, key=sort_key)
    if JOKER_RANK in ranks:
        raise IllegalAction(msg("Jokers cannot be played with other cards."))
    if not table.rules.runs:
        raise IllegalAction(msg("Play cards of one rank only."))
    run = sorted(cards, key=lambda c: 2 if c & 31 == 2 else PLAY_ORDER[c & 31] + 3)
    suits = {suit_of(c) for c in run}
    consecutive = all(NEXT_IN_RUN.get(a & 31) == b & 31 for a, b in itertools.pairwise(run))
    if len(suits) != 1 or not consecutive:
        raise IllegalAction(msg("Play cards of one rank, or a run of consecutive cards in one suit."))
    pile = list(table.pile)
    for i, card in enumerate(run):
        if i and pr.burns(pile):
            raise IllegalAction(msg("The pile burns before the end of that run: stop the run there."))
        reason = pr.why_not(card, pile, table.free)
        if reason:
            raise IllegalAction(
                reason if i == 0 else msg("The run breaks at {card}: {reason}", card=card_label(card), reason=reason)
            )
        pile.append(card)
    return run
