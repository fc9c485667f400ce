"""The Oh Hell game state: which phase the game is in, whose turn it is, and the rule steps that
move it from one phase to the next: deal, bid, play the tricks, score, deal again (or an extra
or play-off deal), finish.

:class:`DealState` coordinates; each phase's state and rules live in their own object:

- :class:`games.ohhell.deal.Deal` (dealing): the deck order, trump, turn-up, seats and card
  tables of the current deal, fixed once dealt;
- :class:`games.ohhell.bidding.Bidding` (bidding): the deal's bids, the hook, secret bids;
- :class:`games.ohhell.tricks.Tricks` (trick play): the hands, the trick on the table, the
  tricks won, with :class:`games.ohhell.revokes.Bookkeeping` for revokes and no-trump jokers;
- :class:`games.ohhell.record.GameRecord` (scoring and what comes next): the scored deals,
  the totals, the schedule, extra and play-off deals, the standings;
- :class:`games.ohhell.takeback_state.Takeback`: cards taken back and secret bids replaced.

Its rule steps take *checked* integer actions (see :mod:`games.ohhell.actions`) and append
events to ``events`` when it is a list (the checked API of :class:`games.ohhell.game.OhHell`
passes one; a computer player's search passes None). :mod:`games.ohhell.fast` adds the search's
unchecked fast path on top, and :mod:`games.ohhell.game` the public, checked API.

Seats are ``0..seat_count-1`` clockwise; the left of seat ``s`` is ``s + 1``. Cards are ints
(:mod:`games.common.cards`).
"""

from __future__ import annotations

from games.common.cards import Card
from games.common.engine import Event
from games.common.rng import GameRng
from games.ohhell.bidding import Bidding
from games.ohhell.deal import Deal, shuffled_deck
from games.ohhell.events import deal_events, event
from games.ohhell.record import GameRecord
from games.ohhell.results import Standing
from games.ohhell.tables import BID, OVER, PLAY, GameSetup
from games.ohhell.takeback_state import Takeback
from games.ohhell.tricks import Tricks


class DealState:
    """One Oh Hell game's mutable state and the steps between its phases (see the module
    docstring)."""

    # -- fixed for the game -------------------------------------------------------------------
    setup: GameSetup
    seat_count: int
    seed: int
    rng_version: int
    #: the deals' generator: every shuffle (and the first dealer, unless given) comes from it
    rng: GameRng
    #: given deck orders (deal ``i`` uses ``decks[i]``), or None: every deal shuffled
    decks: list[list[Card]] | None
    first_dealer_given: int | None

    # -- where the game is --------------------------------------------------------------------
    phase: int  # BID, PLAY or OVER
    turn: int  # the seat to act (-1 when over)
    #: True unless fast_apply may take its plain card-play path (trick play without bookkeeping)
    general_path: bool
    actions_done: int  # accepted actions so far: the length of :attr:`OhHell.log`, without building it

    # -- each phase's state -------------------------------------------------------------------
    deal: Deal  # the current (or, once over, the last) deal as dealt
    bidding: Bidding  # its bids
    tricks: Tricks  # its card play
    record: GameRecord  # the scored deals and what comes next
    takeback: Takeback  # cards taken back, requests, replaced secret bids (games.ohhell.takeback)

    # ------------------------------------------------------------------------------------
    # the game's start

    def _begin(self, events: list[Event] | None) -> None:
        """Draw the first dealer (unless given) and deal the first deal, recording its events
        in ``events`` when it is a list."""
        n = self.seat_count
        first_dealer = self.first_dealer_given
        dealer = first_dealer if first_dealer is not None else self.rng.randrange(n)
        self.actions_done = 0
        self.takeback = Takeback()
        self.record = GameRecord(self.setup)
        hands: list[list[list[Card]]] = [[[], [], [], [], []] for _ in range(n)]
        self._deal(1, "normal", self.setup.hand_sizes[0], dealer, list(range(n)), hands, events)

    def _deal(
        self,
        number: int,
        kind: str,
        hand_size: int,
        dealer: int,
        seats_in: list[int],
        hands: list[list[list[Card]]],
        events: list[Event] | None,
    ) -> None:
        """Deal ``number`` (``hand_size`` cards to each of ``seats_in`` into ``hands``, each
        seat's five lists empty) and start its bidding."""
        setup = self.setup
        deck = shuffled_deck(setup, self.rng, self.decks, number)
        bridge = kind == "normal" and self.record.schedule_index == setup.bridge_deal
        self.deal = deal = Deal(setup, deck, number, kind, hand_size, dealer, seats_in, bridge, hands)
        self.bidding = Bidding(setup, deal)
        self.tricks = Tricks(deal, hands, setup.penalize)
        self.phase = BID
        self.general_path = True
        self.turn = deal.players[0]
        if events is not None:
            events += deal_events(setup, deal, self.tricks.hand)

    # ------------------------------------------------------------------------------------
    # an action

    def _do(self, seat: int, action_id: int, events: list[Event] | None) -> None:
        self.actions_done += 1
        if self.phase == PLAY:
            self._play(seat, action_id, events)
        else:
            self._bid(seat, action_id, events)

    def _bid(self, seat: int, bid: int, events: list[Event] | None) -> None:
        turn = self.bidding.place(seat, bid, events)
        if turn < 0:
            self._start_play()
        else:
            self.turn = turn

    def _start_play(self) -> None:
        """Every bid is in: the first trick's leader leads."""
        self.phase = PLAY
        self.general_path = self.deal.needs_bookkeeping
        self.turn = self.tricks.leader

    def _play(self, seat: int, play_id: int, events: list[Event] | None) -> None:
        turn = self.tricks.play(seat, play_id, events)
        if turn < 0:
            self._score_deal(events)
        else:
            self.turn = turn

    # ------------------------------------------------------------------------------------
    # the end of a deal, the game

    def _score_deal(self, events: list[Event] | None) -> None:
        """The deal's last trick is won: score it, then deal the next deal or finish."""
        record = self.record
        deal = self.deal
        record.score(deal, self.bidding, self.tricks, events)
        following = record.next_deal(deal, events)
        if following is None:
            self._finish(events)
            return
        # the hands are empty once the deal is played out: the next deal refills the same lists
        kind, hand_size, dealer, seats = following
        self._deal(deal.number + 1, kind, hand_size, dealer, seats, self.tricks.hands, events)

    def _finish(self, events: list[Event] | None) -> None:
        self.phase = OVER
        self.general_path = True
        self.turn = -1
        if events is not None:
            events.append(event("game_over", {"standings": self.standings()}))

    def standings(self) -> list[Standing]:
        """The final standings (see :func:`games.ohhell.results.standings`)."""
        return self.record.standings()

    # ------------------------------------------------------------------------------------
    # reading (shared by the views, the events and the take-back rules)

    @property
    def deal_no(self) -> int:
        """The current deal's number, 1-based, tie deals counted."""
        return self.deal.number

    @property
    def totals(self) -> list[int]:
        """Each seat's total so far (play-off deals apart)."""
        return self.record.totals
