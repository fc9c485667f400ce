"""The dealing phase: a deal's deck order, its trump and turn-up, the hands, and what stays fixed
until the deal is scored.

:class:`Deal` is made by dealing (its constructor deals) and never changes after: who dealt,
who plays in which order, the hand size, the trump and the card tables for it. The phases that
follow (:mod:`games.ohhell.bidding`, :mod:`games.ohhell.tricks`) read it; a copy of the game
shares it rather than copying it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import starmap
from typing import TYPE_CHECKING

from games.common.cards import ACE, Card, parse_card, rank_of, suit_of
from games.common.engine import RulesError
from games.common.rng import GameRng
from games.compiled import load
from games.ohhell.decks import build_deck
from games.ohhell.rules import Rules
from games.ohhell.tables import JOKER, NO_TRUMP, GameSetup, trump_of
from locales import msg

if TYPE_CHECKING:
    from games.ohhell import fast_loops
else:  # the compiled copy where it is current (games.compiled)
    fast_loops = load("games.ohhell.fast_loops")


def stack_deck(
    rules: Rules,
    seats: int,
    dealer: int,
    hands: Mapping[int, Sequence[Card | str]],
    turnup: Card | str | None = None,
) -> list[Card]:
    """A deck order that deals ``hands`` (seat → cards, all the same size; the seats dealt
    to) with ``dealer`` dealing, ``turnup`` next, then the other cards in a fixed order."""
    order = sorted(hands, key=lambda s: (s - dealer - 1) % seats)
    cards = {s: [parse_card(c) if isinstance(c, str) else c for c in hand] for s, hand in hands.items()}
    size = len(cards[order[0]])
    if any(len(cards[s]) != size for s in order):
        raise ValueError("every hand must have the same size")
    deck: list[Card] = []
    for i in range(size):
        deck += [cards[s][i] for s in order]
    rest = list(build_deck(rules.deck_for(seats), seats))
    for c in deck:
        rest.remove(c)
    if turnup is not None:
        t = parse_card(turnup) if isinstance(turnup, str) else turnup
        rest.remove(t)
        deck.append(t)
    return deck + rest


def checked_deck(setup: GameSetup, deck: Sequence[Card | str]) -> list[Card]:
    """A given deck order (cards or codes) as cards, or RulesError if it is not the game's deck."""
    cards = [parse_card(c) if isinstance(c, str) else c for c in deck]
    if sorted(cards) != setup.sorted_deck:
        raise RulesError(msg("A given deck order must hold exactly the {n} cards of the deck.", n=setup.deck_size))
    return cards


def shuffled_deck(setup: GameSetup, rng: GameRng, decks: list[list[Card]] | None, number: int) -> list[Card]:
    """Deal ``number``'s deck order: the given one, else a shuffle from the game's generator."""
    if decks is not None and number <= len(decks):
        return decks[number - 1]
    cards = setup.deck
    if isinstance(rng, random.Random):
        # exactly shuffled(setup.deck, rng) (a test checks it), with the loops in C: one
        # rng.random() key per card in deck order, the indices sorted by key. The
        # computer players' imagined deals and games dealt with generator version 1.
        keys = [*starmap(rng.random, setup.shuffle_no_args)]
        return [*map(cards.__getitem__, sorted(setup.deck_indices, key=keys.__getitem__))]
    deck = cards.copy()  # exactly shuffled(cards, rng) for the other generators, a call less
    rng.shuffle(deck)
    return deck


def deal_trump(rules: Rules, deck: list[Card], cards_dealt: int, number: int) -> tuple[int, int, bool]:
    """(trump, turn-up card or -1, whether the turn-up is the dealer's own last card)."""
    if rules.trump == "turn-up":
        if cards_dealt < len(deck):
            turnup, dealers = deck[cards_dealt], False
        else:  # every card dealt: the dealer's last card is shown
            turnup, dealers = deck[cards_dealt - 1], True
        if turnup == JOKER or (rules.no_trump_turnup and rank_of(turnup) == ACE):
            return NO_TRUMP, turnup, dealers
        return suit_of(turnup), turnup, dealers
    if rules.trump == "fixed":
        return trump_of(rules.trump_suit), -1, False
    return trump_of(rules.trump_rotation[(number - 1) % len(rules.trump_rotation)]), -1, False


class Deal:
    """One deal as dealt (see the module docstring); read-only once made."""

    __slots__ = (
        "number", "kind", "dealer", "deck", "players", "player_count", "next_seat", "hand_size", "trump",
        "turnup", "turnup_is_dealers", "devils_bridge", "effective_suit", "power", "no_trump_joker",
        "needs_bookkeeping", "first_lead",
    )  # fmt: skip

    number: int  # 1-based, tie deals counted
    kind: str  # "normal" | "extra" | "playoff"
    dealer: int
    deck: list[Card]  # the whole deck in dealing order, top card first (stored: the provable shuffle)
    players: list[int]  # the seats in this deal, from the dealer's left, dealer last
    player_count: int
    next_seat: list[int]  # each player's left-hand neighbour in this deal (-1: not in it)
    hand_size: int
    trump: int  # 0..3, or NO_TRUMP
    turnup: int  # the turned-up card, or -1
    turnup_is_dealers: bool  # the turn-up is the dealer's own last card, shown to all
    devils_bridge: bool  # the Devil's Bridge deal (each player sees only the others' cards)
    effective_suit: list[int]  # per card, for this deal's trump (tables.card_tables)
    power: list[int]  # per card, for this deal's trump
    no_trump_joker: bool  # a joker in a no-trump deal: played as a named suit
    #: revoke or no-trump-joker bookkeeping needed (games.ohhell.revokes): the fast path's
    #: plain card play is off
    needs_bookkeeping: bool
    first_lead: int  # who leads the first trick

    def __init__(
        self,
        setup: GameSetup,
        deck: list[Card],
        number: int,
        kind: str,
        hand_size: int,
        dealer: int,
        seats_in: list[int],
        bridge: bool,
        hands: list[list[list[Card]]],
    ) -> None:
        """Deal ``hand_size`` cards of ``deck`` to each of ``seats_in``, one at a time from the
        dealer's left, into ``hands`` (per seat, five empty lists by effective suit)."""
        n = setup.seat_count
        if len(seats_in) == n:
            order = setup.seat_orders[dealer]
            next_seat = setup.left_of
        else:  # a play-off deal: only the tied seats
            order = sorted(seats_in, key=lambda s: (s - dealer - 1) % n)
            next_seat = [-1] * n
            for i, s in enumerate(order):
                next_seat[s] = order[(i + 1) % len(order)]
        player_count = len(order)
        cards_dealt = player_count * hand_size
        trump, self.turnup, self.turnup_is_dealers = deal_trump(setup.rules, deck, cards_dealt, number)
        self.effective_suit, self.power = setup.tables[trump]
        fast_loops.deal_hands(deck, order, hands, self.effective_suit, cards_dealt)
        self.number = number
        self.kind = kind
        self.dealer = dealer
        self.deck = deck
        self.players = order
        self.player_count = player_count
        self.next_seat = next_seat
        self.hand_size = hand_size
        self.trump = trump
        self.devils_bridge = bridge
        self.no_trump_joker = setup.has_joker and trump == NO_TRUMP
        self.needs_bookkeeping = setup.penalize or self.no_trump_joker
        self.first_lead = dealer if setup.dealer_leads else order[0]
