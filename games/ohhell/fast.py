"""The computer players' fast path: integer actions, no checks, no events.

``current_seat()``, ``fast_legal()`` (int ids: bids ``0..hand_size``, card ints, a no-trump
joker ``card | (suit + 1) << 12``, see :mod:`games.ohhell.actions`), ``fast_apply(id)``
(returns the next ``fast_legal()``, [] when over) and ``playout(rng, deal_only)``.

``playout(rng)`` is decision for decision ``legal = fast_apply(rng.choice(legal))`` (same
actions, same generator state after), made without building the legal lists: every rule set
goes through it. Its fastest path (the bids, then the tricks, in the loops of
:mod:`games.ohhell.fast_loops`, compiled to C where the install could) covers every deal
without revoke or joker bookkeeping; a deal with ``revokes=penalize`` or a
joker in a no-trump deal plays through the general :meth:`DealState._do` one decision at a
time (its legal list built by ``fast_legal``, the same draw inline), and a generator that is
not a plain ``random.Random`` goes through its own ``choice`` and ``fast_apply``.

This module and :mod:`games.ohhell.fast_loops` hold inline copies of rules written once in
:mod:`games.ohhell.play_rules` and :mod:`games.ohhell.tricks`: who takes the lead in a trick
(``takes_the_lead``), the hook (``hook_forbidden_bid``), a uniform draw (``random_below``) and
the legal plays (follow suit if you can: ``Tricks.legal_plays``).
``tests/games/ohhell/test_play_rules.py`` pins them (through whichever copy of the loops is
loaded; ``tests/games/ohhell/test_game_playout.py`` runs both). The hot loops keep short local
names (``gb``, ``bl``...): attribute and global look-ups cost measurably in Python.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from games.compiled import load
from games.ohhell.play_rules import BIT_LENGTH, legal_bids
from games.ohhell.state import DealState
from games.ohhell.tables import BID, OVER, PLAY

if TYPE_CHECKING:
    from games.ohhell import fast_loops
else:  # the compiled copy where it is current (games.compiled)
    fast_loops = load("games.ohhell.fast_loops")


class FastPath(DealState):
    """:class:`DealState` with the search's unchecked integer API."""

    def current_seat(self) -> int:
        """The seat :meth:`fast_apply` acts for (-1 when over)."""
        return self.turn if self.phase != OVER else -1

    def fast_legal(self) -> list[int]:
        """Legal action ids for :meth:`current_seat` (a new list, empty when over): bids are
        ints 0..hand size; plays are card ints (a no-trump joker carries its suit: ``card |
        (suit + 1) << 12``). In penalize mode only the non-revoking plays are listed."""
        phase = self.phase
        if phase == PLAY:
            t = self.tricks
            if self.deal.needs_bookkeeping:
                return t.legal_plays(self.turn, True)
            # inline copy of Tricks.legal_plays(turn, True) without bookkeeping: follow suit if you can
            g = t.hands[self.turn]
            if t.cards:
                follow = g[t.led_suit]
                if follow:
                    return follow[:]
            return g[0] + g[1] + g[2] + g[3] + g[4]
        if phase == BID:
            return legal_bids(self.deal.hand_size, self.bidding.forbidden())
        return []

    def fast_apply(self, a: int) -> list[int]:
        """Apply a legal action id for :meth:`current_seat` (unchecked) and return
        :meth:`fast_legal` of the next decision (empty when the game is over).

        The common case, a card in a deal without revoke or no-trump-joker bookkeeping, is
        inlined here: the computer players' search spends its time in this method."""
        if self.general_path:
            if self.phase == BID:
                self._bid(self.turn, a, None)
                if self.phase == BID:
                    return legal_bids(self.deal.hand_size, self.bidding.forbidden())
            else:
                self._do(self.turn, a, None)
            return self.fast_legal()
        # the plain card play: Tricks.play without bookkeeping or events, inlined
        t = self.tricks
        d = t.deal
        seat = self.turn
        suit = d.effective_suit[a]
        t.hands[seat][suit].remove(a)
        trick = t.cards
        if trick:
            # inline copy of play_rules.takes_the_lead
            if suit == t.led_suit or suit == d.trump:
                power = d.power[a]
                if power >= t.best_power:  # >=: of two identical cards the later wins
                    t.best_power = power
                    t.winning_seat = seat
            trick.append(a)
            if len(trick) == d.player_count:  # Tricks._end_trick without events
                winner = t.winning_seat
                t.won[winner] += 1
                t.done += 1
                t.finished.append((t.leader, tuple(trick), -1, winner))
                t.cards = []
                if t.done == d.hand_size:
                    self._score_deal(None)
                    return self.fast_legal()
                self.turn = t.leader = winner
                g = t.hands[winner]
                return g[0] + g[1] + g[2] + g[3] + g[4]  # a lead: any card
            suit = t.led_suit
        else:
            t.led_suit = suit
            t.best_power = d.power[a]
            t.winning_seat = seat
            trick.append(a)
        seat = self.turn = d.next_seat[seat]
        g = t.hands[seat]
        follow = g[suit]  # suit is the suit led
        if follow:
            return follow[:]
        return g[0] + g[1] + g[2] + g[3] + g[4]

    def playout(self, rng: random.Random, deal_only: bool = False) -> None:
        """Play on with uniformly random legal actions until the game is over, or until the
        current deal is scored when ``deal_only``: the random rollout of a searching player.

        Every decision is ``rng.choice(self.fast_legal())``, so the result is the same as
        ``while legal: legal = g.fast_apply(rng.choice(legal))`` with the same ``rng`` (tests
        check it over every preset). For a plain ``random.Random`` the choice is made without
        building the list: ``choice(seq)`` is ``seq[_randbelow(len(seq))]`` and
        ``_randbelow(n)`` draws ``getrandbits(n.bit_length())`` until the value is below ``n``
        (:func:`games.ohhell.play_rules.random_below`); the loops here draw exactly those bits
        and take the same element of the same (never built) list, so the generator ends in the
        same state. Any other generator goes through ``rng.choice`` and :meth:`fast_apply`.
        Deals with revoke or no-trump-joker bookkeeping (``penalize`` revokes, a joker in a
        no-trump deal) play through the general ``_do`` one decision at a time; the rest runs
        in :mod:`games.ohhell.fast_loops`."""
        if type(rng) is not random.Random:
            self._playout_choice(rng, deal_only)
            return
        gb = rng.getrandbits
        bl = BIT_LENGTH
        start = self.deal.number
        while self.phase != OVER and not (deal_only and self.deal.number != start):
            if self.phase == BID:
                self._random_bids(gb)
            if self.general_path:  # a deal with revoke / no-trump joker bookkeeping
                legal = self.fast_legal()
                n = len(legal)
                b = bl[n]  # inline copy of play_rules.random_below
                r = gb(b)
                while r >= n:
                    r = gb(b)
                self._do(self.turn, legal[r], None)
                continue
            self._random_tricks(gb)

    def _random_bids(self, gb: Callable[[int], int]) -> None:
        """The rest of the bidding, each bid drawn as ``rng.choice`` over :meth:`fast_legal`
        would (``gb`` is the generator's ``getrandbits``)."""
        bl = BIT_LENGTH
        d = self.deal
        h = d.hand_size
        if self.setup.simultaneous:
            while self.phase == BID:
                n = h + 1
                b = bl[n]  # inline copy of play_rules.random_below
                r = gb(b)
                while r >= n:
                    r = gb(b)
                self._bid(self.turn, r, None)
            return
        # sequential: Bidding.place without events, its loop in fast_loops (compiled where it can be)
        bd = self.bidding
        bd.count, bd.total = fast_loops.random_bids(
            gb, h, self.setup.hook, self.turn, d.next_seat, bd.bids, bd.order, bd.count, bd.total, d.player_count
        )
        self._start_play()

    def _random_tricks(self, gb: Callable[[int], int]) -> None:
        """Play the current deal (no revoke or joker bookkeeping) to its end with random
        cards, each drawn as ``rng.choice`` over :meth:`fast_legal` would, then score it: the
        loop is :func:`games.ohhell.fast_loops.random_tricks`, on this deal's lists."""
        t = self.tricks
        d = t.deal
        np = d.player_count
        follow: list[tuple[int, ...]]
        if np == self.seat_count:
            follow = self.setup.followers
        else:  # a play-off: the seats after each player in this deal
            next_seat = d.next_seat
            follow = [()] * self.seat_count
            for s in d.players:
                seats = [next_seat[s]]
                while len(seats) < np - 1:
                    seats.append(next_seat[seats[-1]])
                follow[s] = tuple(seats[: np - 1])
        self.turn, t.leader, t.led_suit, t.best_power, t.winning_seat = fast_loops.random_tricks(
            gb, t.hands, d.effective_suit, d.power, follow, d.hand_size, d.trump, t.won, t.finished, t.cards, t.done,
            t.leader, t.led_suit, t.best_power, t.winning_seat,
        )  # fmt: skip
        t.cards = []
        t.done = d.hand_size
        self._score_deal(None)

    def _playout_choice(self, rng: random.Random, deal_only: bool) -> None:
        """:meth:`playout` for a generator that is not a plain ``random.Random``."""
        choice = rng.choice
        start = self.deal.number
        legal = self.fast_legal()
        while legal and not (deal_only and self.deal.number != start):
            legal = self.fast_apply(choice(legal))
