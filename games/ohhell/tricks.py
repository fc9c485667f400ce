"""The trick-play phase: the hands, the trick on the table, who is winning it, the tricks won.

:class:`Tricks` is one deal's card play: its rule steps take *checked* integer play ids (see
:mod:`games.ohhell.actions`; the refusals a player reads are in
:mod:`games.ohhell.play_checks`). Follow suit if you can; the highest trump wins a trick, else
the highest card of the suit led (:func:`games.ohhell.play_rules.takes_the_lead`). Revokes and a
no-trump joker need bookkeeping (:mod:`games.ohhell.revokes`). A hand is kept as five lists by
effective suit (clubs, diamonds, hearts, spades, then a joker in a no-trump deal), so that "the
cards of the suit led" is one list lookup. The fast path (:mod:`games.ohhell.fast`) plays plain
cards on these fields directly.
"""

from __future__ import annotations

from games.common.cards import Card, card_code
from games.common.engine import Event
from games.ohhell.actions import named_joker_id, split_play_id
from games.ohhell.deal import Deal
from games.ohhell.display import trick_plays
from games.ohhell.events import CardPlayed, TrickWon, event
from games.ohhell.play_rules import takes_the_lead
from games.ohhell.results import PlayedTrick
from games.ohhell.revokes import Bookkeeping
from games.ohhell.tables import JOKER, suit_letter
from games.ohhell.takeback_state import UndoPoint


class Tricks:
    """One deal's card play (see the module docstring)."""

    __slots__ = (
        "deal", "hands", "leader", "cards", "joker_suit", "led_suit", "best_power", "winning_seat", "won", "done",
        "finished", "books",
    )  # fmt: skip

    deal: Deal
    hands: list[list[list[Card]]]  # per seat, its hand as five lists by effective suit
    leader: int  # the current trick's leader
    cards: list[Card]  # the current trick's cards, in playing order
    joker_suit: int  # the suit a no-trump joker in the current trick counts as, or -1
    led_suit: int  # the current trick's suit led (meaningful once ``cards`` is not empty)
    best_power: int  # the power of the best card of the current trick
    winning_seat: int  # who played it
    won: list[int]  # tricks won, per seat
    done: int  # tricks finished
    finished: list[PlayedTrick]  # this deal's finished tricks
    books: Bookkeeping

    def __init__(self, deal: Deal, hands: list[list[list[Card]]], penalize: bool) -> None:
        """``hands``: the hands :class:`Deal` dealt."""
        seats = len(hands)
        self.deal = deal
        self.hands = hands
        self.leader = deal.first_lead
        self.cards = []
        self.joker_suit = -1
        self.led_suit = -1
        self.best_power = -1
        self.winning_seat = -1
        self.won = [0] * seats
        self.done = 0
        self.finished = []
        self.books = Bookkeeping(penalize, seats)

    def copy(self) -> Tricks:
        other = object.__new__(Tricks)
        other.deal, other.leader, other.joker_suit = self.deal, self.leader, self.joker_suit
        other.led_suit, other.best_power, other.winning_seat = self.led_suit, self.best_power, self.winning_seat
        other.done = self.done
        other.hands = [[x[:] for x in groups] for groups in self.hands]
        other.cards = self.cards[:]
        other.won = self.won[:]
        other.finished = self.finished[:]
        # a deal without bookkeeping never writes it (see put_back): shared, as the deal is
        other.books = self.books.copy() if self.deal.needs_bookkeeping else self.books
        return other

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards, by effective suit (clubs, diamonds, hearts, spades, joker)."""
        g = self.hands[seat]
        return g[0] + g[1] + g[2] + g[3] + g[4]

    # -- the rule steps -------------------------------------------------------------------

    def play(self, seat: int, play_id: int, events: list[Event] | None) -> int:
        """``seat`` plays (checked) ``play_id``; returns the next seat to play, -1 once the deal's
        last trick is won."""
        deal = self.deal
        card, named = split_play_id(play_id)
        groups = self.hands[seat]
        groups[deal.effective_suit[card]].remove(card)
        trick = self.cards
        if deal.needs_bookkeeping:
            led = self.led_suit if trick else -1
            suit = self.books.track(deal, groups, seat, card, named, led, self.done + 1, events)
            if card == JOKER and deal.no_trump_joker:
                self.joker_suit = suit
        else:
            suit = deal.effective_suit[card]
        power = deal.power[card]
        if trick:
            if takes_the_lead(suit, power, self.led_suit, deal.trump, self.best_power):
                self.best_power = power
                self.winning_seat = seat
        else:
            self.led_suit = suit
            self.best_power = power
            self.winning_seat = seat
        trick.append(card)
        if events is not None:
            data: CardPlayed = {
                "seat": seat,
                "card": card_code(card),
                "suit": suit_letter(suit) if card == JOKER and deal.no_trump_joker else None,
                "trick": self.done + 1,
            }
            events.append(event("card_played", data))
        if len(trick) == deal.player_count:
            return self._end_trick(events)
        return deal.next_seat[seat]

    def _end_trick(self, events: list[Event] | None) -> int:
        """The trick is full: its winner takes it and leads the next (-1: the deal is played)."""
        winner = self.winning_seat
        self.won[winner] += 1
        self.done += 1
        trick = (self.leader, tuple(self.cards), self.joker_suit, winner)
        self.finished.append(trick)
        if events is not None:
            data: TrickWon = {
                "seat": winner,
                "trick": self.done,
                "cards": trick_plays(self.deal, self.leader, self.cards, self.joker_suit),
                "tricks": self.won[:],
            }
            events.append(event("trick_won", data))
        self.cards = []
        self.joker_suit = -1
        if self.done == self.deal.hand_size:
            return -1
        self.leader = winner
        return winner

    def put_back(self, point: UndoPoint) -> None:
        """Take the trick's latest card back into its hand, exactly where it was, and what its
        play changed (:mod:`games.ohhell.takeback`)."""
        seat = point.seat
        card, _ = split_play_id(point.play_id)
        removed = self.cards.pop()
        assert removed == card
        self.hands[seat][point.group].insert(point.index, card)
        self.led_suit = point.led_suit
        self.best_power = point.best_power
        self.winning_seat = point.winning_seat
        self.joker_suit = point.trick_joker_suit
        if self.deal.needs_bookkeeping:  # else the play wrote none of it
            books = self.books
            books.played[seat] = point.suits_played
            books.failed[seat] = point.suits_failed
            books.revoked[seat] = point.revoked
            del books.revokes[point.revokes :]

    # -- what may be played ---------------------------------------------------------------

    def legal_plays(self, seat: int, proper: bool) -> list[int]:
        """Play ids for ``seat``; ``proper`` leaves out revokes (always, in prevent mode).

        Follow suit if you can; a joker in a no-trump deal may be led as any suit, or follow
        as the suit led, only as :meth:`Bookkeeping.joker_may_be` allows."""
        hand = self.hand(seat)
        trick = self.cards
        holds_nt_joker = self.deal.no_trump_joker and JOKER in hand
        if not proper:  # penalize mode: any card, the joker as any suit it may be played as
            if not holds_nt_joker:
                return hand
            out = [c for c in hand if c != JOKER]
            if trick:
                out.append(named_joker_id(JOKER, self.led_suit) if self.led_suit < 4 else JOKER)
            else:
                out += [named_joker_id(JOKER, s) for s in range(4)]
            return out
        if not holds_nt_joker:
            if trick:
                follow = self.hands[seat][self.led_suit]
                if follow:
                    return follow[:]
            return hand
        return self._joker_plays(seat, hand)

    def _joker_plays(self, seat: int, hand: list[Card]) -> list[int]:
        """The proper plays of a hand with a no-trump joker."""
        deal, books = self.deal, self.books
        others = [c for c in hand if c != JOKER]
        if not self.cards:
            may = [s for s in range(4) if books.joker_may_be(deal, others, seat, s, self.done)]
            return others + [named_joker_id(JOKER, s) for s in may]
        led = self.led_suit
        if led >= 4:  # a blind joker lead (Devil's Bridge): one card left each
            return hand
        follow = [c for c in others if deal.effective_suit[c] == led]
        out = follow or others
        if books.joker_may_be(deal, others, seat, led, self.done):
            out = out + [named_joker_id(JOKER, led)]
        return out
