"""The computer players' fast path: integer actions, no checks, no events.

``current_seat()``, ``fast_legal()`` (int ids: bids ``0..hand_size``, card ints, a no-trump
joker ``card | (suit + 1) << 12``, see :mod:`games.ohhell.actions`), ``fast_apply(id)``
(returns the next ``fast_legal()``, [] when over) and ``playout(rng, deal_only)``.

``playout(rng)`` is decision for decision ``legal = fast_apply(rng.choice(legal))`` (same
actions, same generator state after), made without building the legal lists: every rule set
goes through it. Its fastest path (bids inline, then a trick at a time on local variables)
covers every deal without revoke or joker bookkeeping; a deal with ``revokes=penalize`` or a
joker in a no-trump deal plays through the general :meth:`DealState._do` one decision at a
time (its legal list built by ``fast_legal``, the same draw inline), and a generator that is
not a plain ``random.Random`` goes through its own ``choice`` and ``fast_apply``.

This module holds inline copies of rules written once in :mod:`games.ohhell.play_rules` and
:mod:`games.ohhell.state`: who takes the lead in a trick (``takes_the_lead``), the hook
(``hook_forbidden_bid``), a uniform draw (``random_below``) and the legal plays (follow suit if
you can: ``DealState._legal_plays``). ``tests/games/ohhell/test_play_rules.py`` pins them. The
hot loops keep short local names (``gb``, ``hs``, ``es``, ``pw``...): attribute and global
look-ups cost measurably there; each is explained where it is bound.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ohhell.play_rules import BIT_LENGTH, legal_bids
from games.ohhell.state import DealState
from games.ohhell.tables import BID, OVER, PLAY


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
                self.last_trick = done = (self.leader, trick, -1, winner)
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
        trick by trick on local variables."""
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
        # sequential: _bid inlined (no events in a playout), on locals
        hook = self.setup.hook
        player_count = self.player_count
        next_seat = self.next_seat
        bids = self.bids
        deal_bids = self.deal_bids
        bid_count = self.bid_count
        bid_total = self.bid_total
        seat = self.turn
        while True:
            n = h + 1
            forbidden = -1
            if hook and bid_count == player_count - 1:
                # inline copy of play_rules.hook_forbidden_bid and legal_bids: the list of
                # legal bids is 0..h without ``forbidden``, so its r-th item is r, or r + 1
                # from ``forbidden`` on
                forbidden = h - bid_total
                if forbidden >= 0:
                    n = h
            b = bl[n]  # inline copy of play_rules.random_below
            r = gb(b)
            while r >= n:
                r = gb(b)
            if 0 <= forbidden <= r:
                r += 1
            bids[seat] = r
            deal_bids.append((seat, r))
            bid_count += 1
            bid_total += r
            if bid_count == player_count:
                break
            seat = next_seat[seat]
        self.bid_count = bid_count
        self.bid_total = bid_total
        self.phase = PLAY
        self.general_path = self.needs_bookkeeping
        self.turn = self.leader

    def _random_tricks(self, gb: Callable[[int], int]) -> None:
        """Play the current deal (no revoke or joker bookkeeping) to its end with random
        cards, each drawn as ``rng.choice`` over :meth:`fast_legal` would, then score it. A
        follower with cards of the led suit picks among them (``fast_legal`` lists that
        suit's group); a leader or a void follower among the whole hand, whose list is the
        suit groups one after another, so the r-th card is found by walking the groups."""
        # short local names on purpose: this loop is the search's hot path (see module doc)
        bl = BIT_LENGTH  # bit lengths for the draws
        hs = self.hand_groups  # each seat's hand by effective suit
        es = self.effective_suit  # card -> effective suit
        pw = self.power  # card -> power in a trick
        np = self.player_count
        h = self.hand_size
        trump = self.trump
        won = self.tricks_won
        deal_tricks = self.deal_tricks
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
        tc = self.trick_cards  # the trick's cards
        tdone = self.tricks_done
        leader = self.leader
        led = self.led_suit
        best = self.best_power
        win = self.winning_seat
        seat = leader
        # a trick already begun: its remaining seats first
        rest: tuple[int, ...] | None = follow[leader][len(tc) - 1 :] if tc else None
        while True:
            if rest is None:  # lead: any card
                g = hs[leader]
                n = h - tdone
                b = bl[n]  # inline copy of play_rules.random_below
                r = gb(b)
                while r >= n:
                    r = gb(b)
                for f in g:
                    m = len(f)
                    if r < m:
                        break
                    r -= m
                a = f[r]
                del f[r]
                led = es[a]
                best = pw[a]
                win = leader
                tc = [a]
                rest = follow[leader]
            for seat in rest:
                g = hs[seat]
                f = g[led]
                if f:  # following suit: one of the led suit's cards
                    n = len(f)
                    if n == 1:
                        while gb(1):  # random_below(gb, 1) draws one bit until it is 0
                            pass
                        a = f.pop()
                    else:
                        b = bl[n]
                        r = gb(b)
                        while r >= n:
                            r = gb(b)
                        a = f[r]
                        del f[r]
                    # inline copy of play_rules.takes_the_lead (the card is of the suit led)
                    p = pw[a]
                    if p >= best:  # >=: of two identical cards the later wins (Australian pack)
                        best = p
                        win = seat
                else:  # void: any card
                    n = h - tdone
                    b = bl[n]
                    r = gb(b)
                    while r >= n:
                        r = gb(b)
                    for f in g:
                        m = len(f)
                        if r < m:
                            break
                        r -= m
                    a = f[r]
                    del f[r]
                    # inline copy of play_rules.takes_the_lead (the card is not of the suit led)
                    if es[a] == trump:
                        p = pw[a]
                        if p >= best:
                            best = p
                            win = seat
                tc.append(a)
            rest = None
            won[win] += 1
            tdone += 1
            deal_tricks.append((leader, tc, -1, win))
            if tdone == h:
                break
            leader = win
        self.last_trick = deal_tricks[-1]
        self.trick_cards = []
        self.tricks_done = tdone
        self.turn = seat
        self.leader = leader
        self.led_suit = led
        self.best_power = best
        self.winning_seat = win
        self._score_deal()

    def _playout_choice(self, rng: random.Random, deal_only: bool) -> None:
        """:meth:`playout` for a generator that is not a plain ``random.Random``."""
        choice = rng.choice
        start = self.deal_no
        legal = self.fast_legal()
        while legal and not (deal_only and self.deal_no != start):
            legal = self.fast_apply(choice(legal))
