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
:mod:`games.ohhell.play_rules` and :mod:`games.ohhell.state`: who takes the lead in a trick
(``takes_the_lead``), the hook (``hook_forbidden_bid``), a uniform draw (``random_below``) and
the legal plays (follow suit if you can: ``DealState._legal_plays``).
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
            if self.needs_bookkeeping:
                return self._legal_plays(self.turn, True)
            # inline copy of _legal_plays(turn, True) without bookkeeping: follow suit if you can
            g = self.hand_groups[self.turn]
            if self.trick_cards:
                follow = g[self.led_suit]
                if follow:
                    return follow[:]
            return g[0] + g[1] + g[2] + g[3] + g[4]
        if phase == BID:
            return legal_bids(self.hand_size, self._forbidden_bid())
        return []

    def fast_apply(self, a: int) -> list[int]:
        """Apply a legal action id for :meth:`current_seat` (unchecked) and return
        :meth:`fast_legal` of the next decision (empty when the game is over).

        The common case, a card in a deal without revoke or no-trump-joker bookkeeping, is
        inlined here: the computer players' search spends its time in this method."""
        if self.general_path:
            if self.phase == BID and self.events is None:
                self._bid(self.turn, a)
                if self.phase == BID:
                    return legal_bids(self.hand_size, self._forbidden_bid())
            else:
                self._do(self.turn, a)
            return self.fast_legal()
        # the plain card play: DealState._play without bookkeeping or events, inlined
        seat = self.turn
        suit = self.effective_suit[a]
        self.hand_groups[seat][suit].remove(a)
        trick = self.trick_cards
        if trick:
            # inline copy of play_rules.takes_the_lead
            if suit == self.led_suit or suit == self.trump:
                power = self.power[a]
                if power >= self.best_power:  # >=: of two identical cards the later wins
                    self.best_power = power
                    self.winning_seat = seat
            trick.append(a)
            if len(trick) == self.player_count:  # DealState._end_trick without events
                winner = self.winning_seat
                self.tricks_won[winner] += 1
                self.tricks_done += 1
                self.last_trick = done = (self.leader, tuple(trick), -1, winner)
                self.deal_tricks.append(done)
                self.trick_cards = []
                if self.tricks_done == self.hand_size:
                    self._score_deal()
                    return self.fast_legal()
                self.turn = self.leader = winner
                g = self.hand_groups[winner]
                return g[0] + g[1] + g[2] + g[3] + g[4]  # a lead: any card
            suit = self.led_suit
        else:
            self.led_suit = suit
            self.best_power = self.power[a]
            self.winning_seat = seat
            trick.append(a)
        seat = self.turn = self.next_seat[seat]
        g = self.hand_groups[seat]
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
        start = self.deal_no
        while self.phase != OVER and not (deal_only and self.deal_no != start):
            if self.phase == BID:
                self._random_bids(gb)
            if self.general_path:  # a deal with revoke / no-trump joker bookkeeping
                legal = self.fast_legal()
                n = len(legal)
                b = bl[n]  # inline copy of play_rules.random_below
                r = gb(b)
                while r >= n:
                    r = gb(b)
                self._do(self.turn, legal[r])
                continue
            self._random_tricks(gb)

    def _random_bids(self, gb: Callable[[int], int]) -> None:
        """The rest of the bidding, each bid drawn as ``rng.choice`` over :meth:`fast_legal`
        would (``gb`` is the generator's ``getrandbits``)."""
        bl = BIT_LENGTH
        h = self.hand_size
        if self.setup.simultaneous:
            while self.phase == BID:
                n = h + 1
                b = bl[n]  # inline copy of play_rules.random_below
                r = gb(b)
                while r >= n:
                    r = gb(b)
                self._bid(self.turn, r)
            return
        # sequential: _bid without events, its loop in fast_loops (compiled where it can be)
        self.bid_count, self.bid_total = fast_loops.random_bids(
            gb, h, self.setup.hook, self.turn, self.next_seat, self.bids, self.deal_bids, self.bid_count,
            self.bid_total, self.player_count,
        )  # fmt: skip
        self.phase = PLAY
        self.general_path = self.needs_bookkeeping
        self.turn = self.leader

    def _random_tricks(self, gb: Callable[[int], int]) -> None:
        """Play the current deal (no revoke or joker bookkeeping) to its end with random
        cards, each drawn as ``rng.choice`` over :meth:`fast_legal` would, then score it: the
        loop is :func:`games.ohhell.fast_loops.random_tricks`, on this deal's lists."""
        np = self.player_count
        follow: list[tuple[int, ...]]
        if np == self.seat_count:
            follow = self.setup.followers
        else:  # a play-off: the seats after each player in this deal
            next_seat = self.next_seat
            follow = [()] * self.seat_count
            for s in self.players:
                seats = [next_seat[s]]
                while len(seats) < np - 1:
                    seats.append(next_seat[seats[-1]])
                follow[s] = tuple(seats[: np - 1])
        deal_tricks = self.deal_tricks
        self.turn, self.leader, self.led_suit, self.best_power, self.winning_seat = fast_loops.random_tricks(
            gb, self.hand_groups, self.effective_suit, self.power, follow, self.hand_size, self.trump,
            self.tricks_won, deal_tricks, self.trick_cards, self.tricks_done, self.leader, self.led_suit,
            self.best_power, self.winning_seat,
        )  # fmt: skip
        self.last_trick = deal_tricks[-1]
        self.trick_cards = []
        self.tricks_done = self.hand_size
        self._score_deal()

    def _playout_choice(self, rng: random.Random, deal_only: bool) -> None:
        """:meth:`playout` for a generator that is not a plain ``random.Random``."""
        choice = rng.choice
        start = self.deal_no
        legal = self.fast_legal()
        while legal and not (deal_only and self.deal_no != start):
            legal = self.fast_apply(choice(legal))
