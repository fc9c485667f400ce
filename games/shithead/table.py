"""The state of one Shithead deal, and the questions about it that every phase asks.

A :class:`Table` is what is on (and around) the table: each seat's face-down, face-up and hand
cards, the stock, the pile, the burnt cards, whose turn it is and which way play goes. The
engine (:class:`games.shithead.game.Shithead`) is a Table plus the common engine interface; the
phases are functions of a Table kept in their own modules: :mod:`~games.shithead.legal` (what
may be done), :mod:`~games.shithead.moves` (checking an action), :mod:`~games.shithead.turns`
(doing it) and :mod:`~games.shithead.views` (what each seat sees).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.common.cards import Card
from games.common.engine import Action, RulesError
from games.shithead.contracts import Phase, RecentAction, Results, Zone
from games.shithead.deal import deal, full_deck
from games.shithead.hands import codes
from games.shithead.pile import PileRules
from games.shithead.rules import Rules, validate
from locales import Msg

#: how many recent public actions the view keeps
RECENT = 8


class Table:
    """One deal of ``rules`` to ``seats`` seats from ``deck`` (``deck[0]`` dealt first)."""

    def __init__(self, rules: Rules, seats: int, deck: Sequence[Card], dealer: int, seed: int | None = None):
        validate(rules)
        rules.check_players(seats)
        if sorted(deck) != sorted(full_deck(rules)):
            raise RulesError("The deck does not hold exactly the cards of these rules.")
        if not 0 <= dealer < seats:
            raise RulesError(f"The dealer must be a seat from 0 to {seats - 1}.")
        self.rules = rules
        #: how many seats (the view's ``seat_count``; the save format's ``seats``)
        self.seats = seats
        self.seed = seed
        self.dealer = dealer
        self.deck = list(deck)
        self.pr = PileRules(rules)
        #: the rules' JSON form, made once (every view carries a copy)
        self.rules_json = rules.to_json()
        dealt = deal(rules, seats, dealer, self.deck)
        self.down: list[list[Card | None]] = [list(d) for d in dealt.down]
        self.up: list[list[Card]] = dealt.up
        #: the face-up cards as dealt, before any swap: 003's first player is "the person who
        #: receives the first 3 dealt face-up"
        self.dealt_up: list[list[Card]] = [list(u) for u in dealt.up]
        self.hand: list[list[Card]] = dealt.hand
        #: the cards of each hand that the whole table saw go in and not come out: the pile a
        #: seat picked up, the face-up cards it swapped into its hand. What a player at a real
        #: table remembers; the strong computer's worlds keep them where they are (never a card
        #: only its holder saw: a dealt or drawn card stays unknown)
        self.known: list[list[Card]] = [[] for _ in range(seats)]
        self.stock: list[Card] = dealt.stock[::-1]  # pop() draws the next card
        self.pile: list[Card] = []
        self.burnt: list[Card] = []
        self.free: set[Card] = set()  # skip jokers played with two players left: count as a 2
        self.phase: Phase = "swap"
        self.ready = [False] * seats
        self.active = [True] * seats
        self.finished: list[int] = []
        #: pick-ups per seat, failed flips included (they take the pile too): a result's figure
        self.pickups = [0] * seats
        self.turn: int | None = None
        self.direction = 1
        self.last_player: int | None = None
        self.first_player: int | None = None
        self.first_reason: Msg | None = None
        #: Smeghead's "flush" person: the first seat to clear the pile (rules.flush)
        self.flush: int | None = None
        self.loser: int | None = None
        self.winner: int | None = None
        self._log: list[tuple[int, Action]] = []
        self.recent: list[RecentAction] = []

    @property
    def action_count(self) -> int:
        """Actions taken so far (the log's length)."""
        return len(self._log)

    # -- whose turn -------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        """Seats that may act now: every unready seat during the swap, then the seat to play."""
        if self.phase == "swap":
            return [s for s in range(self.seats) if not self.ready[s]]
        if self.phase == "play" and self.turn is not None:
            return [self.turn]
        return []

    def zone(self, seat: int) -> Zone | None:
        """Where ``seat`` plays from now: hand, up (face-up), down (face-down), or None if out."""
        if self.hand[seat]:
            return "hand"
        if self.up[seat]:
            return "up"
        if any(c is not None for c in self.down[seat]):
            return "down"
        return None

    def walk(self, seat: int, steps: int, direction: int) -> list[int]:
        """The next ``steps`` active seats from ``seat`` in ``direction`` (may come round again)."""
        out: list[int] = []
        s = seat
        while len(out) < steps:
            s = (s + direction) % self.seats
            if self.active[s]:
                out.append(s)
        return out

    def next_seat(self, seat: int, steps: int, direction: int) -> int:
        return self.walk(seat, steps, direction)[-1]

    def forget(self, seat: int, cards: Sequence[Card]) -> None:
        """``cards`` left ``seat``'s hand in sight of the table: those known leave its known cards."""
        known = self.known[seat]
        for c in cards:
            if c in known:
                known.remove(c)

    # -- the end ----------------------------------------------------------------------------
    def results(self) -> Results:
        """Finishing order (the loser last) and the loser, or the winner when playing for one.

        ``next_dealer``: the shithead deals the next hand (003's end); playing for a winner there
        is no shithead, so the deal passes to the left as 003's deal section says."""
        order = list(self.finished)
        if self.loser is not None:
            order.append(self.loser)
        return {
            "order": order,
            "loser": self.loser,
            "winner": self.winner,
            "next_dealer": self.loser if self.loser is not None else (self.dealer + 1) % self.seats,
        }

    # -- the recent actions ------------------------------------------------------------------
    def note(self, seat: int, kind: str, cards: Sequence[Card], text: Msg) -> None:
        """Remember a public action for the view's ``recent`` (the last :data:`RECENT`)."""
        self.recent.append({"seat": seat, "kind": kind, "cards": codes(cards), "text": text.to_json()})
        if len(self.recent) > RECENT:
            del self.recent[0]
