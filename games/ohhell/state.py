"""The Oh Hell game state and the rules that move it: deal, bid, play a card, win a trick,
score a deal, deal the next (or an extra or play-off deal), finish.

:class:`DealState` is one mutable game. Its methods here take *checked* integer actions (see
:mod:`games.ohhell.actions`) and append events to ``self.events`` when it is a list (the
checked API of :class:`games.ohhell.game.OhHell` turns it on; a computer player's search leaves
it off). :mod:`games.ohhell.fast` adds the search's unchecked fast path on top, and
:mod:`games.ohhell.game` the public, checked API.

Seats are ``0..seat_count-1`` clockwise; the left of seat ``s`` is ``s + 1``. Cards are ints
(:mod:`games.common.cards`); a hand is kept as five lists by effective suit (clubs, diamonds,
hearts, spades, then a joker in a no-trump deal), so that "the cards of the suit led" is one
list lookup. Every field is described where :meth:`DealState._deal` and :meth:`_begin` set it.
"""

from __future__ import annotations

import random
from itertools import starmap
from typing import TYPE_CHECKING

from games.common.cards import ACE, JOKER_SUIT, SUIT_LETTERS, Card, card_code, rank_of, suit_of
from games.common.engine import Event
from games.common.rng import GameRng
from games.compiled import load
from games.ohhell.actions import named_joker_id, split_play_id
from games.ohhell.display import trick_plays
from games.ohhell.events import (
    BidsRevealed,
    CardPlayed,
    ExtraDeal,
    PlayoffStarted,
    RevokeMade,
    TrickWon,
    deal_events,
    event,
)
from games.ohhell.play_rules import hook_forbidden_bid, takes_the_lead
from games.ohhell.results import (
    DealLog,
    DealRecord,
    HistoryEntry,
    PlayedTrick,
    Revoke,
    Standing,
    history_entry,
    standings,
    tie_keys,
    tied_groups,
)
from games.ohhell.rules import PLAYOFF_HAND
from games.ohhell.scoring import REVOKE_SCORE
from games.ohhell.tables import BID, JOKER, NO_TRUMP, OVER, PLAY, GameSetup, suit_letter, trump_of
from games.ohhell.takeback_state import Takeback

if TYPE_CHECKING:
    from games.ohhell import fast_loops
else:  # the compiled copy where it is current (games.compiled)
    fast_loops = load("games.ohhell.fast_loops")


class DealState:
    """One Oh Hell game's mutable state and its rule steps (see the module docstring)."""

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
    #: where the rule steps record their events; None: no events (the search, a replay's twin)
    events: list[Event] | None

    # -- the game so far ----------------------------------------------------------------------
    phase: int  # BID, PLAY or OVER
    deal_no: int  # 1-based, tie deals counted
    schedule_index: int  # index in setup.hand_sizes of the last scheduled deal dealt
    deal_kind: str  # "normal" | "extra" | "playoff"
    extra_deals: int
    playoff_deals: int
    totals: list[int]
    deal_records: list[DealRecord]
    playoff_scores: list[list[int]]  # per seat, its score in each play-off deal it played
    deal_logs: list[DealLog]  # the finished deals' actions (kept per deal: one append a trick)
    #: the history entries of the first deal_records, built when a view first asks for them
    history_built: tuple[HistoryEntry, ...]
    #: the latest finished trick (stays on show into the next deal until its first trick is won)
    last_trick: PlayedTrick | None

    # -- this deal ----------------------------------------------------------------------------
    dealer: int
    deal_deck: list[Card]  # this deal's whole deck in dealing order (top card first)
    players: list[int]  # the seats in this deal, from the dealer's left, dealer last
    player_count: int
    next_seat: list[int]  # each player's left-hand neighbour in this deal (-1: not in it)
    hand_size: int
    hand_groups: list[list[list[Card]]]  # per seat, its hand as five lists by effective suit
    trump: int  # 0..3, or NO_TRUMP
    turnup: int  # the turned-up card, or -1
    turnup_is_dealers: bool  # the turn-up is the dealer's own last card, shown to all
    devils_bridge: bool  # this deal is the Devil's Bridge deal (each player sees only others)
    effective_suit: list[int]  # per card, for this deal's trump (tables.card_tables)
    power: list[int]  # per card, for this deal's trump
    no_trump_joker: bool  # a joker in a no-trump deal: played as a named suit
    #: revoke or no-trump-joker bookkeeping needed: the fast path's plain card play is off
    needs_bookkeeping: bool
    #: True unless fast_apply may take its plain card-play path (mode 0 in older notes)
    general_path: bool
    bids: list[int]  # per seat, -1 until bid
    bid_count: int
    bid_total: int
    deal_bids: list[tuple[int, int]]  # (seat, bid) in order
    turn: int  # the seat to act (-1 when over)
    leader: int  # the current trick's leader
    tricks_won: list[int]
    tricks_done: int
    deal_tricks: list[PlayedTrick]  # this deal's finished tricks
    trick_cards: list[Card]  # the current trick's cards, in playing order
    trick_joker_suit: int  # the suit a no-trump joker in the current trick counts as, or -1
    led_suit: int  # the current trick's suit led (meaningful once trick_cards is not empty)
    best_power: int  # the power of the best card of the current trick
    winning_seat: int  # who played it
    suits_played: list[int]  # per seat, bit s set: it played a card of suit s this deal
    suits_failed: list[int]  # per seat, bit s set: it failed to follow suit s this deal
    revokes: list[Revoke]  # this deal's revokes
    revoked: list[bool]  # per seat
    actions_done: int  # accepted actions so far: the length of :attr:`OhHell.log`, without building it
    takeback: Takeback  # cards taken back, requests, replaced secret bids (games.ohhell.takeback)

    # ------------------------------------------------------------------------------------
    # the game's start

    def _begin(self, events: list[Event] | None) -> None:
        """Draw the first dealer (unless given) and deal the first deal, recording its events
        in ``events`` when it is a list."""
        n = self.seat_count
        first_dealer = self.first_dealer_given
        dealer = first_dealer if first_dealer is not None else self.rng.randrange(n)
        self.phase = BID
        self.actions_done = 0
        self.takeback = Takeback()
        self.deal_no = 0
        self.schedule_index = 0
        self.deal_kind = "normal"
        self.extra_deals = 0
        self.playoff_deals = 0
        self.totals = [0] * n
        self.deal_records = []
        self.history_built = ()
        self.playoff_scores = [[] for _ in range(n)]
        self.deal_logs = []
        self.last_trick = None
        self.hand_groups = [[[], [], [], [], []] for _ in range(n)]
        self.events = events
        self._deal("normal", self.setup.hand_sizes[0], dealer, list(range(n)))
        self.events = None

    # ------------------------------------------------------------------------------------
    # the deal

    def _shuffled_deck(self) -> list[Card]:
        """This deal's deck order: the given one, else a shuffle from the game's generator."""
        if self.decks is not None and self.deal_no <= len(self.decks):
            return self.decks[self.deal_no - 1]
        setup = self.setup
        cards = setup.deck
        rng = self.rng
        if isinstance(rng, random.Random):
            # exactly shuffled(setup.deck, rng) (a test checks it), with the loops in C: one
            # rng.random() key per card in deck order, the indices sorted by key. The
            # computer players' imagined deals and games dealt with generator version 1.
            keys = [*starmap(rng.random, setup.shuffle_no_args)]
            return [*map(cards.__getitem__, sorted(setup.deck_indices, key=keys.__getitem__))]
        deck = cards.copy()  # exactly shuffled(cards, rng) for the other generators, a call less
        rng.shuffle(deck)
        return deck

    def _deal_trump(self, deck: list[Card], cards_dealt: int) -> tuple[int, int, bool]:
        """(trump, turn-up card or -1, whether the turn-up is the dealer's own last card)."""
        rules = self.setup.rules
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
        return trump_of(rules.trump_rotation[(self.deal_no - 1) % len(rules.trump_rotation)]), -1, False

    def _deal(self, kind: str, hand_size: int, dealer: int, seats_in: list[int]) -> None:
        """Deal ``hand_size`` cards to each of ``seats_in`` (one at a time from the dealer's
        left) and start the bidding."""
        setup = self.setup
        n = self.seat_count
        self.deal_no += 1
        self.deal_kind = kind
        deck = self._shuffled_deck()
        #: this deal's whole deck as dealt (stored by the bot: the provable shuffle)
        self.deal_deck = deck
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
        trump, turnup, turnup_is_dealers = self._deal_trump(deck, cards_dealt)
        self.effective_suit, self.power = effective_suit, _ = setup.tables[trump]
        # a deal starts when the last one has been played out, so the lists are empty: refill
        fast_loops.deal_hands(deck, order, self.hand_groups, effective_suit, cards_dealt)
        self.dealer = dealer
        self.players = order
        self.player_count = player_count
        self.next_seat = next_seat
        self.hand_size = hand_size
        self.bids = [-1] * n
        self.bid_count = 0
        self.bid_total = 0
        self.tricks_won = [0] * n
        self.tricks_done = 0
        self.trump = trump
        self.turnup = turnup
        self.turnup_is_dealers = turnup_is_dealers
        self.trick_cards = []
        self.trick_joker_suit = -1
        self.led_suit = -1
        self.best_power = -1
        self.winning_seat = -1
        self.no_trump_joker = setup.has_joker and trump == NO_TRUMP
        self.needs_bookkeeping = setup.penalize or self.no_trump_joker
        self.devils_bridge = kind == "normal" and self.schedule_index == setup.bridge_deal
        self.suits_played = [0] * n
        self.suits_failed = [0] * n
        self.revokes = []
        self.revoked = [False] * n
        self.deal_bids = []
        self.deal_tricks = []
        self.phase = BID
        self.general_path = True
        self.turn = order[0]
        self.leader = dealer if setup.dealer_leads else order[0]
        if self.events is not None:
            self.events += deal_events(self)

    def _hand(self, seat: int) -> list[Card]:
        """``seat``'s cards, by effective suit (clubs, diamonds, hearts, spades, joker)."""
        g = self.hand_groups[seat]
        return g[0] + g[1] + g[2] + g[3] + g[4]

    # ------------------------------------------------------------------------------------
    # bidding

    def _forbidden_bid(self) -> int | None:
        """The bid the hook forbids now (only for the dealer's bid, the last one), or None."""
        if self.phase == BID and self.setup.hook and self.bid_count == self.player_count - 1:
            return hook_forbidden_bid(self.hand_size, self.bid_total)
        return None

    def _bid(self, seat: int, bid: int) -> None:
        self.bids[seat] = bid
        self.bid_count += 1
        self.bid_total += bid
        self.deal_bids.append((seat, bid))
        setup = self.setup
        events = self.events
        if events is not None:
            if setup.simultaneous:
                events.append(event("bid_placed", {"seat": seat}))
            else:
                events.append(event("bid", {"seat": seat, "bid": bid}))
        if self.bid_count == self.player_count:
            if events is not None:
                shown = [b if b >= 0 else None for b in self.bids]
                revealed: BidsRevealed = {"bids": shown, "total": self.bid_total, "tricks": self.hand_size}
                events.append(event("bids_revealed", revealed))
            self.phase = PLAY
            self.general_path = self.needs_bookkeeping
            self.turn = self.leader
        elif setup.simultaneous:
            bids = self.bids
            for s in self.players:
                if bids[s] < 0:
                    self.turn = s
                    break
        else:
            self.turn = self.next_seat[seat]

    # ------------------------------------------------------------------------------------
    # playing a card

    def _do(self, seat: int, action_id: int) -> None:
        self.actions_done += 1
        if self.phase == PLAY:
            self._play(seat, action_id)
        else:
            self._bid(seat, action_id)

    def _play(self, seat: int, play_id: int) -> None:
        card, named = split_play_id(play_id)
        self.hand_groups[seat][self.effective_suit[card]].remove(card)
        trick = self.trick_cards
        suit = self._track(seat, card, named) if self.needs_bookkeeping else self.effective_suit[card]
        if trick:
            if takes_the_lead(suit, self.power[card], self.led_suit, self.trump, self.best_power):
                self.best_power = self.power[card]
                self.winning_seat = seat
        else:
            self.led_suit = suit
            self.best_power = self.power[card]
            self.winning_seat = seat
        trick.append(card)
        if self.events is not None:
            data: CardPlayed = {
                "seat": seat,
                "card": card_code(card),
                "suit": suit_letter(suit) if card == JOKER and self.no_trump_joker else None,
                "trick": self.tricks_done + 1,
            }
            self.events.append(event("card_played", data))
        if len(trick) == self.player_count:
            self._end_trick()
        else:
            self.turn = self.next_seat[seat]

    def _track(self, seat: int, card: Card, named: int) -> int:
        """Bookkeeping for no-trump jokers and revokes; returns the suit the card counts as."""
        hand = self._hand(seat)  # the card already removed
        trick = self.trick_cards
        led = self.led_suit if trick else -1
        revoke = -1
        if card == JOKER and self.no_trump_joker:
            suit = led if trick else (named if named >= 0 else JOKER_SUIT)
            self.trick_joker_suit = suit
            if self.setup.penalize and suit < 4 and not self._joker_may_be(seat, suit, hand):
                revoke = suit
        else:
            suit = self.effective_suit[card]
            if trick and suit != led and self.setup.penalize and self.hand_groups[seat][led]:
                revoke = led
            # a revoke becomes public when the revoker plays the suit they failed to follow
            for r in self.revokes:
                if r.seat == seat and r.suit == suit and not r.public:
                    self._reveal(r)
            if suit < 4:
                self.suits_played[seat] |= 1 << suit
        if trick and suit != led and led < 4:
            self.suits_failed[seat] |= 1 << led
        if revoke >= 0:
            self.revoked[seat] = True
            self.revokes.append(Revoke(seat, revoke, self.tricks_done + 1))
        return suit

    def _reveal(self, revoke: Revoke) -> None:
        revoke.public = True
        if self.events is not None:
            data: RevokeMade = {"seat": revoke.seat, "suit": SUIT_LETTERS[revoke.suit], "trick": revoke.trick}
            self.events.append(event("revoke", data))

    def _joker_may_be(self, seat: int, suit: int, hand: list[Card]) -> bool:
        """Seed 000's three conditions for a no-trump joker played as ``suit``: in the last
        trick; or the seat has not played that suit this deal; or it has not failed to follow
        it and holds no other card of it."""
        if self.tricks_done == self.hand_size - 1:
            return True
        if not (self.suits_played[seat] >> suit) & 1:
            return True
        if (self.suits_failed[seat] >> suit) & 1:
            return False
        effective_suit = self.effective_suit
        return not any(effective_suit[c] == suit for c in hand if c != JOKER)

    def _legal_plays(self, seat: int, proper: bool) -> list[int]:
        """Play ids for ``seat``; ``proper`` leaves out revokes (always, in prevent mode).

        Follow suit if you can; a joker in a no-trump deal may be led as any suit, or follow
        as the suit led, only as :meth:`_joker_may_be` allows."""
        hand = self._hand(seat)
        trick = self.trick_cards
        holds_nt_joker = self.no_trump_joker and JOKER in hand
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
                follow = self.hand_groups[seat][self.led_suit]
                if follow:
                    return follow[:]
            return hand
        others = [c for c in hand if c != JOKER]
        if not trick:
            return others + [named_joker_id(JOKER, s) for s in range(4) if self._joker_may_be(seat, s, others)]
        led = self.led_suit
        if led >= 4:  # a blind joker lead (Devil's Bridge): one card left each
            return hand
        follow = [c for c in others if self.effective_suit[c] == led]
        out = follow or others
        if self._joker_may_be(seat, led, others):
            out = out + [named_joker_id(JOKER, led)]
        return out

    # ------------------------------------------------------------------------------------
    # the end of a trick, a deal, the game

    def _end_trick(self) -> None:
        winner = self.winning_seat
        self.tricks_won[winner] += 1
        self.tricks_done += 1
        self.last_trick = trick = (self.leader, tuple(self.trick_cards), self.trick_joker_suit, winner)
        self.deal_tricks.append(trick)
        if self.events is not None:
            data: TrickWon = {
                "seat": winner,
                "trick": self.tricks_done,
                "cards": trick_plays(self, self.leader, self.trick_cards, self.trick_joker_suit),
                "tricks": self.tricks_won[:],
            }
            self.events.append(event("trick_won", data))
        self.trick_cards = []
        self.trick_joker_suit = -1
        if self.tricks_done == self.hand_size:
            self._score_deal()
        else:
            self.turn = self.leader = winner

    def _score_deal(self) -> None:
        bids = self.bids
        won = self.tricks_won
        revoked = self.revoked
        for r in self.revokes:
            if not r.public:
                self._reveal(r)
        totals = self.totals
        scores = fast_loops.score_seats(
            self.players, bids, won, revoked, self.setup.score_table, REVOKE_SCORE, self.seat_count,
            self.playoff_scores if self.deal_kind == "playoff" else None, totals,
        )  # fmt: skip
        # the deal's lists are never changed again (the next deal makes new ones): keep them.
        # tuple.__new__ is the NamedTuples' own constructor without their Python-level __new__
        # (a frame less a deal: random playouts score thousands a second)
        record: DealRecord = tuple.__new__(DealRecord, (
            self.deal_no, self.deal_kind, self.hand_size, self.dealer, self.trump, bids, won, scores, revoked,
            self.revokes,
        ))  # fmt: skip
        self.deal_records.append(record)
        self.deal_logs.append(tuple.__new__(DealLog, (self.players, self.deal_bids, self.deal_tricks)))
        if self.events is not None:
            self.events.append(event("deal_scored", {**history_entry(record), "totals": totals[:]}))
        self._after_deal()

    def history_entries(self) -> tuple[HistoryEntry, ...]:
        """Every scored deal's :class:`HistoryEntry`, each built once (read-only, shared).

        Why: the bot builds a view for the table and for each seat after every move, and each
        view holds the whole history; building every entry again for each made the history most
        of a view's cost late in a game (``python bench/views.py``). The entries are built here
        when first asked for, not when the deal is scored: the search's playouts score deals by
        the thousand and never look at them. ``deal_records`` only grows (a clone copies it), so
        the entries built so far stay those of its first records."""
        built = self.history_built
        records = self.deal_records
        if len(built) != len(records):
            if len(built) > len(records):  # never, while records only grow; rebuilt to be safe
                built = ()
            built = self.history_built = built + tuple(map(history_entry, records[len(built) :]))
        return built

    def _tie_keys(self) -> list[tuple[int, ...]]:
        return tie_keys(self.setup.rules.ties, self.totals, self.deal_records, self.playoff_scores)

    def _after_deal(self) -> None:
        """Deal the next scheduled deal; after the last, settle a tie for the lead with an
        extra deal or a tie anywhere with a play-off deal (``rules.ties``), up to
        ``rules.max_tie_deals``; else the game is over."""
        setup = self.setup
        n = self.seat_count
        next_dealer = (self.dealer + 1) % n
        if self.deal_kind == "normal" and self.schedule_index + 1 < len(setup.hand_sizes):
            self.schedule_index += 1
            self._deal("normal", setup.hand_sizes[self.schedule_index], next_dealer, setup.seat_orders[0])
            return
        rules = setup.rules
        if rules.ties == "extra-hand":
            top = max(self.totals)
            leaders = [s for s in range(n) if self.totals[s] == top]
            if len(leaders) > 1 and self.extra_deals < rules.max_tie_deals:
                self.extra_deals += 1
                if self.events is not None:
                    extra: ExtraDeal = {"leaders": leaders, "total": top, "hand_size": setup.hand_sizes[-1]}
                    self.events.append(event("extra_deal", extra))
                self._deal("extra", setup.hand_sizes[-1], next_dealer, setup.seat_orders[0])
                return
        else:
            groups = tied_groups(self._tie_keys())
            if groups and self.playoff_deals < rules.max_tie_deals:
                group = groups[0]
                self.playoff_deals += 1
                hand_size = min(PLAYOFF_HAND, setup.deck_size // len(group))
                dealer = next_dealer
                while dealer not in group:
                    dealer = (dealer + 1) % n
                if self.events is not None:
                    playoff: PlayoffStarted = {"seats": group, "total": self.totals[group[0]], "hand_size": hand_size}
                    self.events.append(event("playoff_started", playoff))
                self._deal("playoff", hand_size, dealer, group)
                return
        self._finish()

    def _finish(self) -> None:
        self.phase = OVER
        self.general_path = True
        self.turn = -1
        if self.events is not None:
            self.events.append(event("game_over", {"standings": self.standings()}))

    def standings(self) -> list[Standing]:
        """The final standings (see :func:`games.ohhell.results.standings`)."""
        return standings(self.setup.rules.ties, self.totals, self.deal_records, self.playoff_scores)
