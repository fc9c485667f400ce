"""The Oh Hell engine: one mutable game state with a checked, event-producing API for the bot and
a fast, unchecked integer API for the computer players' search.

Seats are ``0..n-1`` clockwise; the left of seat ``s`` is ``s + 1``. The seed fixes the first
dealer and every shuffle (nothing else is random), so ``(rules, seats, seed, log)`` rebuilds the
game exactly; :meth:`OhHell.from_decks` takes given deck orders and a first dealer instead
(:meth:`OhHell.stack_deck` builds a deck order from wanted hands). :meth:`OhHell.apply` mutates
the game and returns it with the events it caused; :meth:`OhHell.clone` branches.

Actions (dicts)
    ``{"type": "bid", "bid": 2}``
    ``{"type": "play", "card": "QH"}``; a joker in a no-trump deal carries the suit it is
    played as, ``{"type": "play", "card": "X", "suit": "H"}`` (named when led; the led suit when
    following, which may be omitted); in a Devil's Bridge deal the hidden card is played as
    ``{"type": "play", "card": "?"}``. ``legal_actions`` lists exactly these forms. In
    penalize mode every card is legal (a revoke is allowed and scored); the view's ``proper``
    lists the plays that are not revokes.

``view(seat)`` keys; ``view(None)`` is the public view, without the seat-only keys
    game ("ohhell"), seats, viewer (seat or None), rules (``Rules.to_json()``),
    phase ("bidding" | "playing" | "over"),
    deal (1-based, tie deals counted), deals (scheduled deals), deal_kind ("normal" | "extra" |
    "playoff"), extra_deals, playoffs (tie deals so far), hand_size, dealer,
    players (seats in this deal from the dealer's left, dealer last; a play-off has fewer),
    trump ("C"/"D"/"H"/"S", None = no trumps), turnup (code or None), turnup_is_dealers (the
    turn-up is the dealer's own last card, shown to all), devils_bridge (this deal is it),
    bidding ("sequential" | "simultaneous"), hook (bool), hook_forbidden (the bid the dealer
    may not make, when it is the dealer's turn to bid, else None),
    bids (per seat; None where unknown to this viewer: with simultaneous bidding all None until
    every bid is in), has_bid (per seat, public), bid_total (sum of the visible bids),
    tricks (won this deal, per seat), hand_counts (cards left, per seat),
    trick (the current trick: [[seat, code, named suit or None], ...]), trick_no (1-based),
    led_suit, leader, deal_tricks (this deal's finished tricks: [{"cards", "winner"}]),
    deal_plays (every card played this deal, in order, as in ``trick``),
    last_trick ({"cards", "winner", "deal"} or None; the previous deal's last trick stays until
    this deal's first trick is won), to_act (seats), totals (per seat),
    history (per scored deal: deal, kind, hand_size, dealer, trump, bids, tricks, scores,
    revoked; None in the lists for seats outside a play-off),
    revokes (this deal's revokes this viewer may see: [{"seat", "suit", "trick"}]; a revoke is
    public once the revoker plays the suit they failed to follow, or when the deal is scored; the
    revoker sees their own at once),
    standings (when over, :meth:`OhHell.standings`; else None).
    Seat-only: seat, hand (sorted codes: trumps first, then ♠ ♥ ♣ ♦, each descending; [] in a
    Devil's Bridge deal), hand_hidden (bool), others_cards (Devil's Bridge: codes per seat, None
    for the viewer and for seats not in the deal; otherwise None), my_bid (own bid, even while
    the bids are secret), legal (``legal_actions``), proper (plays that are not revokes; equal
    to legal outside penalize mode), bid_options ([[bid, allowed, reason or None], ...] while
    this seat may bid).

Event kinds (``Event.seat`` set = private to that seat)
    deal_started {deal, deals, kind, hand_size, dealer, players, trump, turnup,
    turnup_is_dealers, devils_bridge, first_lead}; hand_dealt (private) {deal, cards} (Devil's
    Bridge: cards [], hidden True, others [codes per seat or None]); extra_deal {leaders, total,
    hand_size}; playoff_started {seats, total, hand_size}; bid {seat, bid} (sequential);
    bid_placed {seat} (simultaneous: no number); bids_revealed {bids, total, tricks} (both
    modes, when the last bid is in); card_played {seat, card, suit (a no-trump joker's) , trick};
    revoke {seat, suit, trick} (when it becomes public); trick_won {seat, trick, cards, tricks};
    deal_scored {history entry + totals}; game_over {standings}.

Fast API (computer players): ``current_seat()``, ``fast_legal()`` (int ids: bids 0..h, card
ints, a no-trump joker ``card | (suit + 1) << 12``), ``fast_apply(id)`` (returns the next
``fast_legal()``, [] when over), ``playout(rng, deal_only)``, ``clone(rng)``,
``action_to_id`` / ``id_to_action``.

``playout(rng)`` is decision for decision ``legal = fast_apply(rng.choice(legal))`` (same
actions, same generator state after), made without building the legal lists: every rule set
goes through it. Its fastest path (bids inline, then a trick at a time on local variables)
covers every deal without revoke or joker bookkeeping; a deal with ``revokes=penalize`` or a
joker in a no-trump deal plays through the general ``_do`` one decision at a time (its legal
list built by ``fast_legal``, the same draw inline), and a generator that is not a plain
``random.Random`` goes through its own ``choice`` and ``fast_apply``.
"""

from __future__ import annotations

import random
from itertools import starmap
from typing import Any, ClassVar

from games.common.cards import (
    ACE,
    JACK,
    JOKER_SUIT,
    SUIT_LETTERS,
    SUIT_NAMES,
    Card,
    card_code,
    is_joker,
    joker,
    parse_card,
    rank_of,
    suit_of,
)
from games.common.engine import Action, Engine, Event, GameError, IllegalAction, RulesError
from games.common.rng import GENERATOR_VERSION, LEGACY_VERSION, GameRng, copy_rng, make_rng
from games.common.shuffle import shuffled
from games.ohhell.decks import build_deck, deck_size
from games.ohhell.rules import PLAYOFF_HAND, Rules, make_rules
from games.ohhell.scoring import REVOKE_SCORE, SCORERS

BID, PLAY, OVER = 0, 1, 2
PHASES = ("bidding", "playing", "over")
#: internal trump value of a no-trump deal: never equal to a card's effective suit
NO_TRUMP = 9
JOKER = joker()
#: a played joker's fast action id carries the named suit: card | (suit + 1) << NAME_SHIFT
NAME_SHIFT = 12
_TABLE_SIZE = 1024
#: n.bit_length() for the list lengths a random choice is made among
_BIT_LENGTH = tuple(n.bit_length() for n in range(257))
_SINGULAR = ("club", "diamond", "heart", "spade", "joker")
_DISPLAY_SUITS = (3, 2, 0, 1)  # after the trumps: ♠ ♥ ♣ ♦
_TIE_FIGURES = ("total", "exact contracts", "exact winning contracts", "contracts made or exceeded")


def _tables(trump: int, bowers: bool, cards: list[Card]) -> tuple[list[int], list[int]]:
    """Effective suit and trick power of every card for one trump suit.

    Power is the card's rank within its suit, +100 for a trump; the bowers and the joker sit
    above the ace of trumps, and a joker in a no-trump deal (effective suit JOKER_SUIT until it
    is played as a suit) beats everything.
    """
    es = [-1] * _TABLE_SIZE
    pw = [-1] * _TABLE_SIZE
    for c in cards:
        s, r = suit_of(c), rank_of(c)
        if is_joker(c):
            es[c], pw[c] = (JOKER_SUIT, 1000) if trump == NO_TRUMP else (trump, 140)
        elif bowers and trump != NO_TRUMP and r == JACK and s == trump:
            es[c], pw[c] = trump, 130
        elif bowers and trump != NO_TRUMP and r == JACK and s == 3 - trump:
            es[c], pw[c] = trump, 129
        else:
            es[c], pw[c] = s, r + (100 if s == trump else 0)
    return es, pw


class _Setup:
    """What stays fixed for the whole game; shared by clones."""

    def __init__(self, rules: Rules, n: int) -> None:
        self.rules = rules
        self.n = n
        self.sizes = rules.hand_sizes(n)
        self.deck = build_deck(rules.deck, n)
        self.deck_set = sorted(self.deck)
        self.deck_size = deck_size(rules.deck, n)
        # for the deal's shuffle: one empty argument tuple per card, and the card indices
        self.no_args = ((),) * len(self.deck)
        self.indices = range(len(self.deck))
        self.has_joker = rules.has_joker
        self.penalize = rules.revokes == "penalize"
        self.simultaneous = rules.bidding == "simultaneous"
        self.hook = rules.hook and not self.simultaneous
        self.lead_dealer = rules.first_lead == "dealer"
        self.scorer = SCORERS[rules.scoring]
        self.bridge = rules.bridge_deal(n)
        self.tables = {t: _tables(t, rules.bowers, self.deck) for t in (0, 1, 2, 3, NO_TRUMP)}
        # the whole table's seat order for each dealer (dealer last), and each seat's left
        self.orders = [[(d + 1 + k) % n for k in range(n)] for d in range(n)]
        self.nxt_all = [(s + 1) % n for s in range(n)]
        # the seats after each leader, in playing order (the whole table)
        self.follow_all = [tuple((s + 1 + k) % n for k in range(n - 1)) for s in range(n)]


_SETUPS: dict[tuple[Rules, int], _Setup] = {}


def _setup(rules: Rules, n: int) -> _Setup:
    """Setups are immutable, so games with the same rules and table share one."""
    key = (rules, n)
    setup = _SETUPS.get(key)
    if setup is None:
        if len(_SETUPS) > 256:
            _SETUPS.clear()
        setup = _SETUPS[key] = _Setup(rules, n)
    return setup


def _suit_letter(s: int) -> str | None:
    return SUIT_LETTERS[s] if 0 <= s < 4 else None


def _parse_suit(text: Any) -> int:
    t = str(text).strip().upper()
    for i, (letter, name) in enumerate(zip(SUIT_LETTERS[:4], SUIT_NAMES[:4], strict=True)):
        if t in (letter, name.upper(), "♣♦♥♠"[i]):
            return i
    raise IllegalAction("Name a suit: C, D, H or S.")


#: one deal of the action log: (players, bids [(seat, bid)], tricks [(leader, cards, joker's
#: suit or -1, winner)])
DealLog = tuple[list[int], list[tuple[int, int]], list[tuple[int, list[int], int, int]]]


class OhHell(Engine):
    GAME: ClassVar[str] = "ohhell"
    JSON_VERSION: ClassVar[int] = 1

    # ------------------------------------------------------------------------------------
    # building

    def __init__(
        self,
        rules: Rules,
        seats: int,
        seed: int = 0,
        decks: list[list[Card | str]] | None = None,
        first_dealer: int | None = None,
        rng_version: int = GENERATOR_VERSION,
    ) -> None:
        if isinstance(rules, dict):
            rules = Rules.from_json(rules)
        elif isinstance(rules, str):
            rules = make_rules(rules)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise RulesError("seats must be a number of players.")
        rules.check_players(seats)
        self.K = _setup(rules, seats)
        n = self.n = seats
        self.seed = seed
        self.rng_version = rng_version
        self.rng: GameRng = make_rng(seed, rng_version)
        self.decks: list[list[Card]] | None = None
        if decks is not None:
            self.decks = [self._check_deck(d) for d in decks]
        if first_dealer is not None and not (
            isinstance(first_dealer, int) and not isinstance(first_dealer, bool) and 0 <= first_dealer < n
        ):
            raise RulesError(f"first_dealer must be a seat from 0 to {n - 1}.")
        self.first_dealer_given = first_dealer
        self._start_events: list[Event] | None = None
        self._begin(None)

    def _begin(self, ev: list[Event] | None) -> None:
        """Draw the first dealer (unless given) and deal the first deal, recording its events
        in ``ev`` when it is a list."""
        n = self.n
        first_dealer = self.first_dealer_given
        dealer = first_dealer if first_dealer is not None else self.rng.randrange(n)
        self.phase = BID
        self.deal_no = 0
        self.sched_idx = 0
        self.kind = "normal"
        self.extra_count = 0
        self.playoff_count = 0
        self.totals = [0] * n
        # one record per scored deal (see _score_deal); history and the figures derive from them
        self.records: list[tuple[Any, ...]] = []
        self.po: list[list[int]] = [[] for _ in range(n)]
        # the action log is kept per deal, so that the hot path appends once a trick
        self.deals_log: list[DealLog] = []
        self.last_trick: tuple[int, list[int], int, int] | None = None
        self.hs: list[list[list[int]]] = [[[], [], [], [], []] for _ in range(n)]
        self.ev = ev
        self._deal("normal", self.K.sizes[0], dealer, list(range(n)))
        self.ev = None

    @property
    def start_events(self) -> list[Event]:
        """The events of the first deal (dealt when the game was made). Built on first use by
        dealing the first deal again from the same seed (or decks) and first dealer: most games,
        and every copy a search makes, never need them."""
        if self._start_events is None:
            twin = object.__new__(type(self))
            twin.K, twin.n, twin.seed, twin.decks = self.K, self.n, self.seed, self.decks
            twin.first_dealer_given = self.first_dealer_given
            twin.rng = make_rng(self.seed, self.rng_version)
            ev: list[Event] = []
            twin._begin(ev)
            self._start_events = ev
        return self._start_events

    @classmethod
    def new(cls, rules: Rules, seats: int, seed: int, *, rng_version: int = GENERATOR_VERSION) -> OhHell:
        """A fresh game; raises RulesError before dealing if the rules cannot work."""
        return cls(rules, seats, seed, rng_version=rng_version)

    @classmethod
    def from_decks(
        cls,
        rules: Rules,
        seats: int,
        decks: list[list[Card | str]],
        first_dealer: int,
        seed: int = 0,
    ) -> OhHell:
        """A game whose deals use the given deck orders (cards or codes; deal ``i`` uses
        ``decks[i]``; later deals are shuffled from ``seed``) and first dealer. The dealer deals
        one card at a time from the top, starting on their left; the next card is the turn-up."""
        return cls(rules, seats, seed, decks=decks, first_dealer=first_dealer)

    @staticmethod
    def stack_deck(
        rules: Rules,
        seats: int,
        dealer: int,
        hands: dict[int, list[Card | str]],
        turnup: Card | str | None = None,
    ) -> list[Card]:
        """A deck order that deals ``hands`` (seat → cards, all the same size; the seats dealt
        to) with ``dealer`` dealing, ``turnup`` next, then the other cards in a fixed order."""
        order = sorted(hands, key=lambda s: (s - dealer - 1) % seats)
        cards = {s: [parse_card(c) if isinstance(c, str) else c for c in hs] for s, hs in hands.items()}
        h = len(cards[order[0]])
        if any(len(cards[s]) != h for s in order):
            raise ValueError("every hand must have the same size")
        deck: list[Card] = []
        for i in range(h):
            deck += [cards[s][i] for s in order]
        rest = list(build_deck(rules.deck, seats))
        for c in deck:
            rest.remove(c)
        if turnup is not None:
            t = parse_card(turnup) if isinstance(turnup, str) else turnup
            rest.remove(t)
            deck.append(t)
        return deck + rest

    def _check_deck(self, deck: list[Card | str]) -> list[Card]:
        cards = [parse_card(c) if isinstance(c, str) else c for c in deck]
        if sorted(cards) != self.K.deck_set:
            raise RulesError(f"A given deck order must hold exactly the {self.K.deck_size} cards of the deck.")
        return cards

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seats: int,
        seed: int,
        log: list[tuple[int, Action]],
        decks: list[list[Card | str]] | None = None,
        first_dealer: int | None = None,
        *,
        rng_version: int = GENERATOR_VERSION,
    ) -> OhHell:
        """Rebuild a game from its seed (or decks and first dealer) and its action log."""
        game = cls(rules, seats, seed, decks=decks, first_dealer=first_dealer, rng_version=rng_version)
        for seat, action in log:
            game.apply(seat, action)
        return game

    def clone(self, rng: GameRng | None = None) -> OhHell:
        """An independent copy. Later deals of the copy are shuffled from ``rng`` if given (a
        searcher should pass its own, so that it cannot peek at the real game's next deal), else
        from a copy of this game's generator (an exact twin)."""
        g = object.__new__(OhHell)
        g.__dict__.update(self.__dict__)
        g.hs = [[x[:] for x in groups] for groups in self.hs]
        g.bids = self.bids[:]
        g.won = self.won[:]
        g.tcards = self.tcards[:]
        g.totals = self.totals[:]
        g.records = self.records[:]
        g.deals_log = self.deals_log[:]
        g.dbids = self.dbids[:]
        g.dtricks = self.dtricks[:]
        g.po = [p[:] for p in self.po]
        g.played = self.played[:]
        g.off = self.off[:]
        g.rev = [r[:] for r in self.rev]
        g.revoked = self.revoked[:]
        g.ev = None
        g.rng = copy_rng(self.rng) if rng is None else rng
        return g

    # ------------------------------------------------------------------------------------
    # the deal

    def _deal(self, kind: str, h: int, dealer: int, seats_in: list[int]) -> None:
        K = self.K
        n = self.n
        self.deal_no += 1
        self.kind = kind
        if self.decks is not None and self.deal_no <= len(self.decks):
            deck = self.decks[self.deal_no - 1]
        else:
            cards = K.deck
            rng = self.rng
            if isinstance(rng, random.Random):
                # exactly shuffled(K.deck, rng) (a test checks it), with the loops in C: one
                # rng.random() key per card in deck order, the indices sorted by key. The
                # computer players' imagined deals and games dealt with generator version 1.
                keys = [*starmap(rng.random, K.no_args)]
                deck = [*map(cards.__getitem__, sorted(K.indices, key=keys.__getitem__))]
            else:
                deck = shuffled(cards, rng)
        if len(seats_in) == n:
            order = K.orders[dealer]
            nxt = K.nxt_all
        else:
            order = sorted(seats_in, key=lambda s: (s - dealer - 1) % n)
            nxt = [-1] * n
            for i, s in enumerate(order):
                nxt[s] = order[(i + 1) % len(order)]
        np = len(order)
        need = np * h
        rules = K.rules
        turnup = -1
        turnup_dealers = False
        if rules.trump == "turn-up":
            if need < len(deck):
                turnup = deck[need]
            else:
                turnup, turnup_dealers = deck[need - 1], True
            if turnup == JOKER or (rules.no_trump_turnup and turnup & 31 == ACE):  # rank_of
                trump = NO_TRUMP
            else:
                trump = (turnup >> 5) & 7  # suit_of
        elif rules.trump == "fixed":
            trump = "CDHS".find(rules.trump_suit) if rules.trump_suit != "NT" else NO_TRUMP
        else:
            name = rules.trump_rotation[(self.deal_no - 1) % len(rules.trump_rotation)]
            trump = "CDHS".find(name) if name != "NT" else NO_TRUMP
        self.es, self.pw = es, _ = K.tables[trump]
        # each hand as five lists by effective suit (the fifth holds a no-trump joker); a deal
        # starts when the last one has been played out, so the lists are empty: refill them
        hs = self.hs
        for k, seat in enumerate(order):
            groups = hs[seat]
            for c in deck[k:need:np]:
                groups[es[c]].append(c)
        self.dealer = dealer
        self.players = order
        self.np = np
        self.nxt = nxt
        self.h = h
        self.bids = [-1] * n
        self.nbids = 0
        self.bidsum = 0
        self.won = [0] * n
        self.tdone = 0
        self.trump = trump
        self.turnup = turnup
        self.turnup_dealers = turnup_dealers
        self.tcards: list[int] = []
        self.tj = -1
        self.led = -1
        self.best = -1
        self.win = -1
        self.nt_joker = K.has_joker and trump == NO_TRUMP
        self.special = K.penalize or self.nt_joker
        self.bridge = kind == "normal" and self.sched_idx == K.bridge
        self.played = [0] * n
        self.off = [0] * n
        self.rev: list[list[int]] = []
        self.revoked = [False] * n
        self.dbids: list[tuple[int, int]] = []
        self.dtricks: list[tuple[int, list[int], int, int]] = []
        self.phase = BID
        self.mode = 1  # 0 only while fast_apply may take its plain card-play path
        self.turn = order[0]
        self.leader = dealer if K.lead_dealer else order[0]
        ev = self.ev
        if ev is not None:
            ev.append(
                Event(
                    "deal_started",
                    {
                        "deal": self.deal_no,
                        "deals": len(K.sizes),
                        "kind": kind,
                        "hand_size": h,
                        "dealer": dealer,
                        "players": order[:],
                        "trump": _suit_letter(trump),
                        "turnup": card_code(turnup) if turnup >= 0 else None,
                        "turnup_is_dealers": turnup_dealers,
                        "devils_bridge": self.bridge,
                        "first_lead": self.leader,
                    },
                )
            )
            for s in order:
                if self.bridge:
                    others = [self._sorted_codes(self._hand(o)) if o != s and o in order else None for o in range(n)]
                    data = {"deal": self.deal_no, "cards": [], "hidden": True, "others": others}
                else:
                    data = {"deal": self.deal_no, "cards": self._sorted_codes(self._hand(s))}
                ev.append(Event("hand_dealt", data, seat=s))

    def _hand(self, seat: int) -> list[int]:
        g = self.hs[seat]
        return g[0] + g[1] + g[2] + g[3] + g[4]

    # ------------------------------------------------------------------------------------
    # fast API: integer actions, no checks, no events

    def current_seat(self) -> int:
        """The seat :meth:`fast_apply` acts for (-1 when over)."""
        return self.turn if self.phase != OVER else -1

    def fast_legal(self) -> list[int]:
        """Legal action ids for :meth:`current_seat` (a new list, empty when over): bids are
        ints 0..h; plays are card ints (a no-trump joker carries its suit: ``card | (suit + 1)
        << 12``). In penalize mode only the non-revoking plays are listed."""
        phase = self.phase
        if phase == PLAY:
            if self.special:
                return self._legal_plays(self.turn, True)
            g = self.hs[self.turn]
            if self.tcards:
                f = g[self.led]
                if f:
                    return f[:]
            return g[0] + g[1] + g[2] + g[3] + g[4]
        if phase == BID:
            h = self.h
            if self.K.hook and self.nbids == self.np - 1:
                f = h - self.bidsum
                return [b for b in range(h + 1) if b != f]
            return list(range(h + 1))
        return []

    def fast_apply(self, a: int) -> list[int]:
        """Apply a legal action id for :meth:`current_seat` (unchecked) and return
        :meth:`fast_legal` of the next decision (empty when the game is over).

        The common case, a card in a deal without revoke or no-trump-joker bookkeeping, is
        inlined here: the computer players' search spends its time in this method."""
        if self.mode:
            if self.phase == BID and self.ev is None:
                self._bid(self.turn, a)
                if self.phase == BID:
                    h = self.h
                    if self.K.hook and self.nbids == self.np - 1:
                        f = h - self.bidsum
                        return [b for b in range(h + 1) if b != f]
                    return list(range(h + 1))
            else:
                self._do(self.turn, a)
            return self.fast_legal()
        seat = self.turn
        e = self.es[a]
        self.hs[seat][e].remove(a)
        tc = self.tcards
        if tc:
            if e == self.led or e == self.trump:
                p = self.pw[a]
                if p >= self.best:  # >=: of two identical cards the later wins (Australian pack)
                    self.best = p
                    self.win = seat
            tc.append(a)
            if len(tc) == self.np:
                w = self.win
                self.won[w] += 1
                self.tdone += 1
                self.last_trick = t = (self.leader, tc, -1, w)
                self.dtricks.append(t)
                self.tcards = []
                if self.tdone == self.h:
                    self._score_deal()
                    return self.fast_legal()
                self.turn = self.leader = w
                g = self.hs[w]
                return g[0] + g[1] + g[2] + g[3] + g[4]
            e = self.led
        else:
            self.led = e
            self.best = self.pw[a]
            self.win = seat
            tc.append(a)
        seat = self.turn = self.nxt[seat]
        g = self.hs[seat]
        f = g[e]
        if f:
            return f[:]
        return g[0] + g[1] + g[2] + g[3] + g[4]

    def playout(self, rng: random.Random, deal_only: bool = False) -> None:
        """Play on with uniformly random legal actions until the game is over, or until the
        current deal is scored when ``deal_only``: the random rollout of a searching player.

        Every decision is ``rng.choice(self.fast_legal())``, so the result is the same as
        ``while legal: legal = g.fast_apply(rng.choice(legal))`` with the same ``rng`` (tests
        check it over every preset). For a plain ``random.Random`` the choice is made without
        building the list: ``choice(seq)`` is ``seq[_randbelow(len(seq))]`` and
        ``_randbelow(n)`` draws ``getrandbits(n.bit_length())`` until the value is below ``n``;
        the loops here draw exactly those bits and take the same element of the same (never
        built) list, so the generator ends in the same state. Any other generator goes through
        ``rng.choice`` and :meth:`fast_apply`. Deals with revoke or no-trump-joker bookkeeping
        (``penalize`` revokes, a joker in a no-trump deal) play through the general ``_do``
        one decision at a time; the rest runs trick by trick on local variables."""
        if type(rng) is not random.Random:
            self._playout_choice(rng, deal_only)
            return
        gb = rng.getrandbits
        bl = _BIT_LENGTH
        start = self.deal_no
        while self.phase != OVER and not (deal_only and self.deal_no != start):
            if self.phase == BID:
                self._random_bids(gb)
            if self.mode:  # a deal with revoke / no-trump joker bookkeeping
                legal = self.fast_legal()
                n = len(legal)
                b = bl[n]
                r = gb(b)
                while r >= n:
                    r = gb(b)
                self._do(self.turn, legal[r])
                continue
            self._random_tricks(gb)

    def _random_bids(self, gb: Any) -> None:
        """The rest of the bidding, each bid drawn as ``rng.choice`` over :meth:`fast_legal`
        would (``gb`` is the generator's ``getrandbits``)."""
        bl = _BIT_LENGTH
        h = self.h
        if self.K.simultaneous:
            while self.phase == BID:
                n = h + 1
                b = bl[n]
                r = gb(b)
                while r >= n:
                    r = gb(b)
                self._bid(self.turn, r)
            return
        # sequential: _bid inlined (no events in a playout)
        hook = self.K.hook
        np = self.np
        nxt = self.nxt
        bids = self.bids
        dbids = self.dbids
        nbids = self.nbids
        bidsum = self.bidsum
        seat = self.turn
        while True:
            n = h + 1
            f = -1
            if hook and nbids == np - 1:
                f = h - bidsum
                if f >= 0:
                    n = h  # the hook: the bid f is left out of the list
            b = bl[n]
            r = gb(b)
            while r >= n:
                r = gb(b)
            if 0 <= f <= r:
                r += 1
            bids[seat] = r
            dbids.append((seat, r))
            nbids += 1
            bidsum += r
            if nbids == np:
                break
            seat = nxt[seat]
        self.nbids = nbids
        self.bidsum = bidsum
        self.phase = PLAY
        self.mode = 1 if self.special else 0
        self.turn = self.leader

    def _random_tricks(self, gb: Any) -> None:
        """Play the current deal (mode 0: no revoke or joker bookkeeping) to its end with
        random cards, each drawn as ``rng.choice`` over :meth:`fast_legal` would, then score
        it. A follower with cards of the led suit picks among them (``fast_legal`` lists that
        suit's group); a leader or a void follower among the whole hand, whose list is the
        suit groups one after another, so the r-th card is found by walking the groups."""
        bl = _BIT_LENGTH
        hs = self.hs
        es = self.es
        pw = self.pw
        np = self.np
        h = self.h
        trump = self.trump
        won = self.won
        dtricks = self.dtricks
        if np == self.n:
            follow = self.K.follow_all
        else:  # a play-off: the seats after each player in this deal
            nxt = self.nxt
            follow = [()] * self.n
            for s in self.players:
                seats = [nxt[s]]
                while len(seats) < np - 1:
                    seats.append(nxt[seats[-1]])
                follow[s] = tuple(seats[: np - 1])
        tc = self.tcards
        tdone = self.tdone
        leader = self.leader
        led = self.led
        best = self.best
        win = self.win
        seat = leader
        # a trick already begun: its remaining seats first
        rest = follow[leader][len(tc) - 1 :] if tc else None
        while True:
            if rest is None:  # lead: any card
                g = hs[leader]
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
                        while gb(1):
                            pass
                        a = f.pop()
                    else:
                        b = bl[n]
                        r = gb(b)
                        while r >= n:
                            r = gb(b)
                        a = f[r]
                        del f[r]
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
                    if es[a] == trump:
                        p = pw[a]
                        if p >= best:
                            best = p
                            win = seat
                tc.append(a)
            rest = None
            won[win] += 1
            tdone += 1
            dtricks.append((leader, tc, -1, win))
            if tdone == h:
                break
            leader = win
        self.last_trick = dtricks[-1]
        self.tcards = []
        self.tdone = tdone
        self.turn = seat
        self.leader = leader
        self.led = led
        self.best = best
        self.win = win
        self._score_deal()

    def _playout_choice(self, rng: random.Random, deal_only: bool) -> None:
        """:meth:`playout` for a generator that is not a plain ``random.Random``."""
        choice = rng.choice
        start = self.deal_no
        legal = self.fast_legal()
        while legal and not (deal_only and self.deal_no != start):
            legal = self.fast_apply(choice(legal))

    def _do(self, seat: int, a: int) -> None:
        if self.phase == PLAY:
            self._play(seat, a)
        else:
            self._bid(seat, a)

    def _bid(self, seat: int, b: int) -> None:
        self.bids[seat] = b
        self.nbids += 1
        self.bidsum += b
        self.dbids.append((seat, b))
        K = self.K
        ev = self.ev
        if ev is not None:
            if K.simultaneous:
                ev.append(Event("bid_placed", {"seat": seat}))
            else:
                ev.append(Event("bid", {"seat": seat, "bid": b}))
        if self.nbids == self.np:
            if ev is not None:
                ev.append(
                    Event(
                        "bids_revealed",
                        {
                            "bids": [b if b >= 0 else None for b in self.bids],
                            "total": self.bidsum,
                            "tricks": self.h,
                        },
                    )
                )
            self.phase = PLAY
            self.mode = 1 if self.special else 0
            self.turn = self.leader
        elif K.simultaneous:
            bids = self.bids
            for s in self.players:
                if bids[s] < 0:
                    self.turn = s
                    break
        else:
            self.turn = self.nxt[seat]

    def _play(self, seat: int, a: int) -> None:
        if a >= 4096:
            c = a & 4095
            named = (a >> NAME_SHIFT) - 1
        else:
            c = a
            named = -1
        self.hs[seat][self.es[c]].remove(c)
        tc = self.tcards
        e = self._track(seat, c, named) if self.special else self.es[c]
        if tc:
            if e == self.led or e == self.trump:
                p = self.pw[c]
                if p >= self.best:  # >=: of two identical cards the later wins (Australian pack)
                    self.best = p
                    self.win = seat
        else:
            self.led = e
            self.best = self.pw[c]
            self.win = seat
        tc.append(c)
        if self.ev is not None:
            self.ev.append(
                Event(
                    "card_played",
                    {
                        "seat": seat,
                        "card": card_code(c),
                        "suit": _suit_letter(e) if c == JOKER and self.nt_joker else None,
                        "trick": self.tdone + 1,
                    },
                )
            )
        if len(tc) == self.np:
            self._end_trick()
        else:
            self.turn = self.nxt[seat]

    def _track(self, seat: int, c: int, named: int) -> int:
        """Bookkeeping for no-trump jokers and revokes; returns the suit the card counts as."""
        hand = self._hand(seat)  # c already removed
        tc = self.tcards
        led = self.led if tc else -1
        es = self.es
        revoke = -1
        if c == JOKER and self.nt_joker:
            e = led if tc else (named if named >= 0 else JOKER_SUIT)
            self.tj = e
            if self.K.penalize and e < 4 and not self._joker_ok(seat, e, hand):
                revoke = e
        else:
            e = es[c]
            if tc and e != led and self.K.penalize and self.hs[seat][led]:
                revoke = led
            if self.rev:
                for r in self.rev:
                    if r[0] == seat and r[1] == e and not r[3]:
                        self._reveal(r)
            if e < 4:
                self.played[seat] |= 1 << e
        if tc and e != led and led < 4:
            self.off[seat] |= 1 << led
        if revoke >= 0:
            self.revoked[seat] = True
            self.rev.append([seat, revoke, self.tdone + 1, 0])
        return e

    def _reveal(self, r: list[int]) -> None:
        r[3] = 1
        if self.ev is not None:
            self.ev.append(Event("revoke", {"seat": r[0], "suit": SUIT_LETTERS[r[1]], "trick": r[2]}))

    def _joker_ok(self, seat: int, s: int, hand: list[int]) -> bool:
        """Seed 000's three conditions for a no-trump joker played as suit ``s``."""
        if self.tdone == self.h - 1:
            return True
        if not (self.played[seat] >> s) & 1:
            return True
        if (self.off[seat] >> s) & 1:
            return False
        es = self.es
        return not any(es[x] == s for x in hand if x != JOKER)

    def _legal_plays(self, seat: int, proper: bool) -> list[int]:
        """Plays for ``seat``; ``proper`` leaves out revokes (always, in prevent mode)."""
        hand = self._hand(seat)
        es = self.es
        tc = self.tcards
        nt_joker = self.nt_joker and JOKER in hand
        if not proper:  # penalize mode: any card, the joker as any suit it may be played as
            if not nt_joker:
                return hand
            out = [c for c in hand if c != JOKER]
            if tc:
                out.append(JOKER | (self.led + 1) << NAME_SHIFT if self.led < 4 else JOKER)
            else:
                out += [JOKER | (s + 1) << NAME_SHIFT for s in range(4)]
            return out
        if not nt_joker:
            if tc:
                follow = self.hs[seat][self.led]
                if follow:
                    return follow[:]
            return hand
        others = [c for c in hand if c != JOKER]
        if not tc:
            return others + [JOKER | (s + 1) << NAME_SHIFT for s in range(4) if self._joker_ok(seat, s, others)]
        led = self.led
        if led >= 4:  # a blind joker lead (Devil's Bridge): one card left each
            return hand
        follow = [c for c in others if es[c] == led]
        out = follow or others
        if self._joker_ok(seat, led, others):
            out = out + [JOKER | (led + 1) << NAME_SHIFT]
        return out

    def _end_trick(self) -> None:
        w = self.win
        self.won[w] += 1
        self.tdone += 1
        self.last_trick = t = (self.leader, self.tcards, self.tj, w)
        self.dtricks.append(t)
        if self.ev is not None:
            self.ev.append(
                Event(
                    "trick_won",
                    {
                        "seat": w,
                        "trick": self.tdone,
                        "cards": self._trick_json(self.leader, self.tcards, self.tj),
                        "tricks": self.won[:],
                    },
                )
            )
        self.tcards = []
        self.tj = -1
        if self.tdone == self.h:
            self._score_deal()
        else:
            self.turn = self.leader = w

    def _score_deal(self) -> None:
        scorer = self.K.scorer
        bids = self.bids
        won = self.won
        revoked = self.revoked
        scores: list[int | None] = [None] * self.n
        playoff = self.kind == "playoff"
        for r in self.rev:
            if not r[3]:
                self._reveal(r)
        totals = self.totals
        for s in self.players:
            d = scorer(bids[s], won[s])
            if revoked[s] and d > REVOKE_SCORE:
                d = REVOKE_SCORE
            scores[s] = d
            if playoff:
                self.po[s].append(d)
            else:
                totals[s] += d
        # the deal's lists are never changed again (the next deal makes new ones): keep them
        self.records.append(
            (self.deal_no, self.kind, self.h, self.dealer, self.trump, bids, won, scores, revoked, self.rev)
        )
        self.deals_log.append((self.players, self.dbids, self.dtricks))
        if self.ev is not None:
            self.ev.append(Event("deal_scored", {**self._history_entry(self.records[-1]), "totals": totals[:]}))
        self._after_deal()

    def _history_entry(self, record: tuple[Any, ...]) -> dict[str, Any]:
        deal, kind, h, dealer, trump, bids, won, scores, revoked, _ = record
        n = self.n
        return {
            "deal": deal,
            "kind": kind,
            "hand_size": h,
            "dealer": dealer,
            "trump": _suit_letter(trump),
            "bids": [b if b >= 0 else None for b in bids],
            "tricks": [won[s] if scores[s] is not None else None for s in range(n)],
            "scores": scores[:],
            "revoked": [s for s in range(n) if revoked[s]],
        }

    @property
    def history(self) -> list[dict[str, Any]]:
        """One dict per scored deal: deal, kind, hand_size, dealer, trump, bids, tricks, scores
        (None for seats not in a play-off), revoked (seats)."""
        return [self._history_entry(r) for r in self.records]

    def _figures(self) -> list[dict[str, int]]:
        """Per-seat figures over the game's deals, play-offs excluded."""
        n = self.n
        figs = [
            {"exact": 0, "exact_winning": 0, "made_or_exceeded": 0, "revokes": 0, "tricks": 0, "deals": 0}
            for _ in range(n)
        ]
        for _, kind, _, _, _, bids, won, scores, _, rev in self.records:
            if kind == "playoff":
                continue
            for s in range(n):
                if scores[s] is None:
                    continue
                b, t, f = bids[s], won[s], figs[s]
                f["deals"] += 1
                f["tricks"] += t
                if b == t:
                    f["exact"] += 1
                    if b:
                        f["exact_winning"] += 1
                if t >= b:
                    f["made_or_exceeded"] += 1
            for r in rev:
                figs[r[0]]["revokes"] += 1
        return figs

    def _after_deal(self) -> None:
        K = self.K
        n = self.n
        if self.kind == "normal" and self.sched_idx + 1 < len(K.sizes):
            self.sched_idx += 1
            self._deal("normal", K.sizes[self.sched_idx], (self.dealer + 1) % n, K.orders[0])
            return
        rules = K.rules
        if rules.ties == "extra-hand":
            top = max(self.totals)
            leaders = [s for s in range(n) if self.totals[s] == top]
            if len(leaders) > 1 and self.extra_count < rules.max_tie_deals:
                self.extra_count += 1
                if self.ev is not None:
                    data = {"leaders": leaders, "total": top, "hand_size": K.sizes[-1]}
                    self.ev.append(Event("extra_deal", data))
                self._deal("extra", K.sizes[-1], (self.dealer + 1) % n, K.orders[0])
                return
        else:
            groups = self._tied_groups()
            if groups and self.playoff_count < rules.max_tie_deals:
                group = groups[0]
                self.playoff_count += 1
                h = min(PLAYOFF_HAND, K.deck_size // len(group))
                dealer = (self.dealer + 1) % n
                while dealer not in group:
                    dealer = (dealer + 1) % n
                if self.ev is not None:
                    data = {"seats": group, "total": self.totals[group[0]], "hand_size": h}
                    self.ev.append(Event("playoff_started", data))
                self._deal("playoff", h, dealer, group)
                return
        self._finish()

    def _finish(self) -> None:
        self.phase = OVER
        self.mode = 1
        self.turn = -1
        if self.ev is not None:
            self.ev.append(Event("game_over", {"standings": self.standings()}))

    # ------------------------------------------------------------------------------------
    # results

    def _keys(self) -> list[tuple[int, ...]]:
        if self.K.rules.ties == "extra-hand":
            return [(t,) for t in self.totals]
        figs = self._figures()
        return [
            (self.totals[s], f["exact"], f["exact_winning"], f["made_or_exceeded"], *self.po[s])
            for s, f in enumerate(figs)
        ]

    def _tied_groups(self) -> list[list[int]]:
        by_key: dict[tuple[int, ...], list[int]] = {}
        for s, key in enumerate(self._keys()):
            by_key.setdefault(key, []).append(s)
        return [g for k, g in sorted(by_key.items(), reverse=True) if len(g) > 1]

    def standings(self) -> list[dict[str, Any]]:
        """Seats best first: seat, rank (shared only when truly unbroken), total, the tie-breaker
        figures (exact, exact_winning, made_or_exceeded, playoff: the play-off deal scores) and
        decided_by (what separated the seat from an equal total: "total" when no one shared
        it, else the figure's name, e.g. "exact contracts" or "play-off 1"; "unbroken" when
        nothing did)."""
        all_keys = self._keys()
        figs = self._figures()
        order = sorted(range(self.n), key=lambda s: (all_keys[s], -s), reverse=True)
        keys = [all_keys[s] for s in order]
        out: list[dict[str, Any]] = []
        for i, s in enumerate(order):
            rank = out[-1]["rank"] if i and keys[i] == keys[i - 1] else i + 1
            neighbours = [j for j in (i - 1, i + 1) if 0 <= j < len(order) and keys[j][0] == keys[i][0]]
            if not neighbours:
                decided = "total"
            elif any(keys[j] == keys[i] for j in neighbours):
                decided = "unbroken"
            else:
                j = neighbours[0]
                idx = next(k for k in range(min(len(keys[i]), len(keys[j]))) if keys[i][k] != keys[j][k])
                decided = _TIE_FIGURES[idx] if idx < 4 else f"play-off {idx - 3}"
            out.append(
                {
                    "seat": s,
                    "rank": rank,
                    "total": self.totals[s],
                    "exact": figs[s]["exact"],
                    "exact_winning": figs[s]["exact_winning"],
                    "made_or_exceeded": figs[s]["made_or_exceeded"],
                    "playoff": self.po[s][:],
                    "decided_by": decided,
                }
            )
        return out

    def stats(self) -> list[dict[str, Any]]:
        """Per-seat figures for the bot to store: exact, exact_winning, made_or_exceeded,
        revokes, tricks, deals (play-off deals are not counted) and total."""
        return [{"seat": s, **f, "total": self.totals[s]} for s, f in enumerate(self._figures())]

    # ------------------------------------------------------------------------------------
    # checked API

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def seats(self) -> int:
        return self.n

    @property
    def rules(self) -> Rules:
        return self.K.rules

    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards, sorted as in the view (for tests and the engine's own users; the
        bot shows hands through :meth:`view`, which hides a Devil's Bridge card)."""
        return self._sorted_codes(self._hand(seat))

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.phase == BID and self.K.simultaneous:
            return [s for s in self.players if self.bids[s] < 0]
        return [self.turn]

    def _may_bid(self, seat: int) -> bool:
        if self.phase != BID or seat not in self.players or self.bids[seat] >= 0:
            return False
        return self.K.simultaneous or seat == self.turn

    def _hook_value(self) -> int:
        """The bid the dealer may not make now, or -1."""
        if self.phase == BID and self.K.hook and self.nbids == self.np - 1:
            f = self.h - self.bidsum
            return f if f >= 0 else -1
        return -1

    def bid_options(self, seat: int) -> list[tuple[int, bool, str | None]]:
        """Every bid 0..hand size for ``seat`` while it may bid: allowed or not, and why not."""
        if not self._may_bid(seat):
            return []
        f = self._hook_value()
        return [(b, False, self._hook_message(b)) if b == f else (b, True, None) for b in range(self.h + 1)]

    def _hook_message(self, b: int) -> str:
        tricks = "trick" if self.h == 1 else "tricks"
        return f"The dealer may not bid {b}: the bids would total the {self.h} {tricks}."

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == BID:
            if not self._may_bid(seat):
                return []
            f = self._hook_value()
            return [{"type": "bid", "bid": b} for b in range(self.h + 1) if b != f]
        if self.phase == PLAY and seat == self.turn:
            if self.bridge:
                return [{"type": "play", "card": "?"}]
            return [self._play_action(a) for a in self._legal_plays(seat, not self.K.penalize)]
        return []

    @staticmethod
    def _play_action(a: int) -> Action:
        if a >= 4096:
            return {"type": "play", "card": card_code(a & 4095), "suit": SUIT_LETTERS[(a >> NAME_SHIFT) - 1]}
        return {"type": "play", "card": card_code(a)}

    def action_to_id(self, seat: int, action: Action) -> int:
        """The fast id of a checked action (raises IllegalAction with a readable reason)."""
        return self._to_id(seat, action)

    def id_to_action(self, a: int) -> Action:
        """The action dict of a fast id in the current phase."""
        if self.phase == BID:
            return {"type": "bid", "bid": a}
        return self._play_action(a)

    def check(self, seat: int, action: Action) -> None:
        self._to_id(seat, action)

    def _to_id(self, seat: int, action: Action) -> int:
        if self.phase == OVER:
            raise IllegalAction("The game is over.")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction("There is no such seat.")
        if not isinstance(action, dict) or action.get("type") not in ("bid", "play"):
            raise IllegalAction("Unknown action: bid or play a card.")
        if seat not in self.players:
            raise IllegalAction("You are not in this play-off deal.")
        if action["type"] == "bid":
            if self.phase != BID:
                raise IllegalAction("The bidding is over: play a card.")
            if self.bids[seat] >= 0:
                raise IllegalAction("You have already bid.")
            if not self.K.simultaneous and seat != self.turn:
                raise IllegalAction("It is not your turn.")
            b = action.get("bid")
            if isinstance(b, str) and b.strip().isdigit():
                b = int(b)
            if not isinstance(b, int) or isinstance(b, bool):
                raise IllegalAction(f"Bid a whole number of tricks between 0 and {self.h}.")
            if not 0 <= b <= self.h:
                raise IllegalAction(f"Bid between 0 and {self.h}.")
            if b == self._hook_value():
                raise IllegalAction(self._hook_message(b))
            return b
        if self.phase != PLAY:
            if self._may_bid(seat):
                raise IllegalAction("Bid first: the play starts when everyone has bid.")
            raise IllegalAction("Wait: the play starts when everyone has bid.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")
        hand = self._hand(seat)
        code = action.get("card")
        if code == "?" and self.bridge:
            c = hand[0]
        else:
            try:
                c = parse_card(code) if isinstance(code, str) else int(code)
            except (ValueError, TypeError):
                raise IllegalAction(f"{code!r} is not a card.") from None
            if c not in hand:
                raise IllegalAction("You don't have that card.")
        suit = action.get("suit")
        if c == JOKER and self.nt_joker:
            if self.tcards:
                s = self.led
                if suit is not None and s < 4 and _parse_suit(suit) != s:
                    raise IllegalAction(f"The joker follows as {SUIT_NAMES[s]}, the suit led.")
            elif suit is None:
                if not self.bridge:
                    raise IllegalAction("Name the suit you lead the joker as: C, D, H or S.")
                s = -1
            else:
                s = _parse_suit(suit)
            a = JOKER | (s + 1) << NAME_SHIFT if 0 <= s < 4 else JOKER
        else:
            if suit is not None and not self.bridge:
                raise IllegalAction("Only a joker in a no-trump deal is played as a named suit.")
            a = c
        if not self.K.penalize and a not in self._legal_plays(seat, True):
            raise IllegalAction(self._why_illegal(c, a))
        return a

    def _why_illegal(self, c: int, a: int) -> str:
        if c == JOKER and self.nt_joker:
            s = (a >> NAME_SHIFT) - 1
            return (
                f"The joker can't be played as {SUIT_NAMES[s]} now: you have played a {_SINGULAR[s]} this "
                f"deal and still hold one or have failed to follow {SUIT_NAMES[s]}."
            )
        if self.tcards and self.led < 4:
            return f"You must follow {SUIT_NAMES[self.led]}."
        return "You can't play that card now."

    def apply(self, seat: int, action: Action) -> tuple[OhHell, list[Event]]:
        """Check then do ``action``; mutates this game and returns it with the events."""
        a = self._to_id(seat, action)
        self.ev = ev = []
        try:
            self._do(seat, a)
        finally:
            self.ev = None
        return self, ev

    # ------------------------------------------------------------------------------------
    # views

    def _sort_key(self, c: int) -> tuple[int, int]:
        e = self.es[c]
        group = 0 if e == self.trump or e == JOKER_SUIT else 1 + _DISPLAY_SUITS.index(e)
        return group, -self.pw[c]

    def _sorted_codes(self, cards: list[int]) -> list[str]:
        return [card_code(c) for c in sorted(cards, key=self._sort_key)]

    def _trick_json(self, leader: int, cards: list[int], tj: int, players: list[int] | None = None) -> list[list[Any]]:
        """[[seat, code, named suit], ...]; ``players``: the deal's seat order if not this deal's."""
        order = self.players if players is None else players
        seats = []
        if cards:
            i = order.index(leader)
            seats = [order[(i + k) % len(order)] for k in range(len(cards))]
        return [
            [s, card_code(c), _suit_letter(tj) if c == JOKER and tj >= 0 else None]
            for s, c in zip(seats, cards, strict=True)
        ]

    def view(self, seat: int | None) -> dict[str, Any]:
        K = self.K
        n = self.n
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise GameError("There is no such seat.")
        over = self.phase == OVER
        secret = self.phase == BID and K.simultaneous
        bids: list[int | None] = [None if (b < 0 or secret) else b for b in self.bids]
        last = None
        if self.last_trick is not None:
            ll, lc, lj, lw = self.last_trick
            # the previous deal's last trick stays on show until this deal's first trick is won
            if self.dtricks:
                deal, players = self.deal_no, self.players
            else:
                deal, players = self.deal_no - 1, self.deals_log[-1][0]
            last = {"cards": self._trick_json(ll, lc, lj, players), "winner": lw, "deal": deal}
        revokes = [{"seat": r[0], "suit": SUIT_LETTERS[r[1]], "trick": r[2]} for r in self.rev if r[3] or r[0] == seat]
        hook = self._hook_value()
        deal_tricks = [{"cards": self._trick_json(tl, tc, tj), "winner": tw} for tl, tc, tj, tw in self.dtricks]
        v: dict[str, Any] = {
            "rules": K.rules.to_json(),
            "game": self.GAME,
            "seats": n,
            "viewer": seat,
            "phase": PHASES[self.phase],
            "deal": self.deal_no,
            "deals": len(K.sizes),
            "deal_kind": self.kind,
            "extra_deals": self.extra_count,
            "playoffs": self.playoff_count,
            "hand_size": self.h,
            "dealer": self.dealer,
            "players": self.players[:],
            "trump": _suit_letter(self.trump),
            "turnup": card_code(self.turnup) if self.turnup >= 0 else None,
            "turnup_is_dealers": self.turnup_dealers,
            "devils_bridge": self.bridge,
            "bidding": K.rules.bidding,
            "hook": K.hook,
            "hook_forbidden": hook if hook >= 0 else None,
            "bids": bids,
            "has_bid": [b >= 0 for b in self.bids],
            "bid_total": sum(b for b in bids if b is not None),
            "tricks": self.won[:],
            "hand_counts": [sum(len(x) for x in g) for g in self.hs],
            "trick": self._trick_json(self.leader, self.tcards, self.tj),
            "deal_tricks": deal_tricks,
            "deal_plays": [p for t in deal_tricks for p in t["cards"]]
            + self._trick_json(self.leader, self.tcards, self.tj),
            "trick_no": min(self.tdone + 1, self.h),
            "led_suit": _suit_letter(self.led) if self.tcards else None,
            "leader": self.leader,
            "last_trick": last,
            "to_act": self.to_act(),
            "totals": self.totals[:],
            "history": self.history,
            "revokes": revokes,
            "standings": self.standings() if over else None,
        }
        if seat is not None:
            hidden = self.bridge and not over
            v["seat"] = seat
            v["hand"] = [] if hidden else self._sorted_codes(self._hand(seat))
            v["hand_hidden"] = hidden
            v["others_cards"] = (
                [self._sorted_codes(self._hand(o)) if o != seat and o in self.players else None for o in range(n)]
                if hidden
                else None
            )
            v["my_bid"] = self.bids[seat] if self.bids[seat] >= 0 else None
            v["legal"] = self.legal_actions(seat)
            if K.penalize and self.phase == PLAY and seat == self.turn and not self.bridge:
                v["proper"] = [self._play_action(a) for a in self._legal_plays(seat, True)]
            else:
                v["proper"] = v["legal"]
            v["bid_options"] = [list(o) for o in self.bid_options(seat)]
        return v

    # ------------------------------------------------------------------------------------
    # storage

    @property
    def log(self) -> list[tuple[int, Action]]:
        """Every accepted action in order, normalised (a Devil's Bridge "?" is logged as the
        card it was, a following no-trump joker with the led suit)."""
        out: list[tuple[int, Action]] = []
        deals = self.deals_log
        if self.phase != OVER:
            current = self.dtricks + ([(self.leader, self.tcards, self.tj, -1)] if self.tcards else [])
            deals = [*deals, (self.players, self.dbids, current)]
        for players, dbids, dtricks in deals:
            nxt = {s: players[(i + 1) % len(players)] for i, s in enumerate(players)}
            for seat, b in dbids:
                out.append((seat, {"type": "bid", "bid": b}))
            for leader, cards, tj, _ in dtricks:
                s = leader
                for c in cards:
                    if c == JOKER and 0 <= tj < 4:
                        out.append((s, {"type": "play", "card": card_code(c), "suit": SUIT_LETTERS[tj]}))
                    else:
                        out.append((s, {"type": "play", "card": card_code(c)}))
                    s = nxt[s]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.JSON_VERSION,
            "game": self.GAME,
            "rules": self.K.rules.to_json(),
            "seats": self.n,
            "seed": self.seed,
            "first_dealer": self.first_dealer_given,
            "rng_version": self.rng_version,
            "decks": [[card_code(c) for c in d] for d in self.decks] if self.decks is not None else None,
            "log": [[seat, action] for seat, action in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OhHell:
        version = data.get("version")
        if version != 1:
            raise GameError(f"Unknown Oh Hell save format version {version!r}.")
        if data.get("game", cls.GAME) != cls.GAME:
            raise GameError("This save is not an Oh Hell game.")
        return cls.replay(
            Rules.from_json(data["rules"]),
            data["seats"],
            data["seed"],
            [(seat, action) for seat, action in data["log"]],
            decks=data.get("decks"),
            first_dealer=data.get("first_dealer"),
            rng_version=data.get("rng_version", LEGACY_VERSION),
        )
