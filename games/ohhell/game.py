"""The Oh Hell engine's public face: :class:`OhHell`, the checked, event-producing API the bot
uses (and the tests, and the computer players through the views).

Where to read what:

- :mod:`games.ohhell.state`: the game state, which phase it is in and the steps between them;
- one module a phase, its state and its rules: :mod:`games.ohhell.deal` (dealing),
  :mod:`games.ohhell.bidding`, :mod:`games.ohhell.tricks` (trick play; the refusals in
  :mod:`games.ohhell.play_checks`, revokes and no-trump jokers in :mod:`games.ohhell.revokes`),
  :mod:`games.ohhell.record` (scoring a deal, the next deal or the game's end) and
  :mod:`games.ohhell.takeback` (taking a card back, changing a secret bid);
- :mod:`games.ohhell.play_rules`: the rules of bidding and trick play, each written once;
- :mod:`games.ohhell.fast`: the computer players' unchecked integer fast path (``fast_legal``,
  ``fast_apply``, ``playout``), with inline copies of those rules pinned to them by tests;
- :mod:`games.ohhell.results`: deal records, history, figures, tie-breaks and standings;
- :mod:`games.ohhell.views`: what each seat may see (``view``) and its types;
- :mod:`games.ohhell.display`: how cards and tricks are shown (sorted hands, trick plays);
- :mod:`games.ohhell.actions`: the actions' JSON forms and integer ids;
- :mod:`games.ohhell.tables`: what stays fixed for a game (card tables, seat orders).

The seed fixes the first dealer and every shuffle (nothing else is random), so ``(rules, seats,
seed, log)`` rebuilds the game exactly; :meth:`OhHell.from_decks` takes given deck orders and a
first dealer instead (:meth:`OhHell.stack_deck` builds a deck order from wanted hands).
:meth:`OhHell.apply` mutates the game and returns it with the events it caused;
:meth:`OhHell.clone` branches. In penalize mode every card is legal (a revoke is allowed and
scored); the view's ``proper`` lists the plays that are not revokes.

Event kinds (``Event.seat`` set = private to that seat)
    deal_started {deal, deals, kind, hand_size, dealer, players, trump, turnup,
    turnup_is_dealers, devils_bridge, first_lead}; hand_dealt (private) {deal, cards} (Devil's
    Bridge: cards [], hidden True, others [codes per seat or None]); extra_deal {leaders, total,
    hand_size}; playoff_started {seats, total, hand_size}; bid {seat, bid} (sequential);
    bid_placed {seat} (simultaneous: no number); bids_revealed {bids, total, tricks} (both
    modes, when the last bid is in); card_played {seat, card, suit (a no-trump joker's) , trick};
    revoke {seat, suit, trick} (when it becomes public); trick_won {seat, trick, cards, tricks};
    deal_scored {history entry + totals}; game_over {standings}. Taking a card back and
    changing a secret bid add their own (:mod:`games.ohhell.takeback`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, overload

from games.common.cards import Card, card_code
from games.common.engine import ActionData, Engine, Event, GameError, IllegalAction, RulesError
from games.common.rng import GENERATOR_VERSION, LEGACY_VERSION, GameRng, copy_rng, make_rng
from games.ohhell import play_checks, takeback
from games.ohhell.actions import (
    BidAction,
    LoggedAction,
    OhHellAction,
    PlayAction,
    bid_action,
    deal_actions,
    play_action,
)
from games.ohhell.deal import checked_deck, stack_deck
from games.ohhell.display import sorted_codes
from games.ohhell.fast import FastPath
from games.ohhell.play_checks import BRIDGE_REFUSAL
from games.ohhell.results import DealLog, HistoryEntry, SeatStats, stats
from games.ohhell.rules import Rules, make_rules
from games.ohhell.tables import BID, OVER, PLAY, game_setup
from games.ohhell.views import OhHellSeatView, OhHellView, check_viewer, public_view, seat_view
from locales import msg

__all__ = ["BRIDGE_REFUSAL", "BidAction", "OhHell", "OhHellAction", "OhHellSeatView", "OhHellView", "PlayAction"]


class OhHell(FastPath, Engine[OhHellView, OhHellSeatView]):
    GAME: ClassVar[str] = "ohhell"
    JSON_VERSION: ClassVar[int] = 1
    DRAWS_BEFORE_SHUFFLE: ClassVar[int] = 1  # the first dealer, then each deal's shuffle

    # ------------------------------------------------------------------------------------
    # building

    def __init__(
        self,
        rules: Rules | dict[str, Any] | str,
        seats: int,
        seed: int = 0,
        decks: Sequence[Sequence[Card | str]] | None = None,
        first_dealer: int | None = None,
        rng_version: int = GENERATOR_VERSION,
    ) -> None:
        if isinstance(rules, dict):
            rules = Rules.from_json(rules)
        elif isinstance(rules, str):
            rules = make_rules(rules)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise RulesError(msg("seats must be a number of players."))
        rules.check_players(seats)
        self.setup = game_setup(rules, seats)
        n = self.seat_count = seats
        self.seed = seed
        self.rng_version = rng_version
        self.rng = make_rng(seed, rng_version)
        self.decks = None
        if decks is not None:
            self.decks = [checked_deck(self.setup, d) for d in decks]
        if first_dealer is not None and not (
            isinstance(first_dealer, int) and not isinstance(first_dealer, bool) and 0 <= first_dealer < n
        ):
            raise RulesError(msg("first_dealer must be a seat from 0 to {last}.", last=n - 1))
        self.first_dealer_given = first_dealer
        self._start_events: list[Event] | None = None
        self._begin(None)

    @property
    def start_events(self) -> list[Event]:
        """The events of the first deal (dealt when the game was made). Built on first use by
        dealing the first deal again from the same seed (or decks) and first dealer: most games,
        and every copy a search makes, never need them."""
        if self._start_events is None:
            twin = object.__new__(type(self))
            twin.setup, twin.seat_count, twin.seed, twin.decks = self.setup, self.seat_count, self.seed, self.decks
            twin.first_dealer_given = self.first_dealer_given
            twin.rng = make_rng(self.seed, self.rng_version)
            events: list[Event] = []
            twin._begin(events)
            self._start_events = events
        return self._start_events

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(dict(data))

    def final_standings(self) -> list[dict[str, Any]]:
        return self.record.final_standings()

    def result_lines(self, names: Sequence[str]) -> list[str]:
        """Each deal's bids, tricks and scores, then the final ranks and totals."""
        return self.record.result_lines(names)

    @classmethod
    def new(cls, rules: Any, seats: int, seed: int, *, rng_version: int = GENERATOR_VERSION) -> OhHell:
        """A fresh game; raises RulesError before dealing if the rules cannot work."""
        return cls(rules, seats, seed, rng_version=rng_version)

    @classmethod
    def from_decks(
        cls,
        rules: Rules,
        seats: int,
        decks: Sequence[Sequence[Card | str]],
        first_dealer: int,
        seed: int = 0,
    ) -> OhHell:
        """A game whose deals use the given deck orders (cards or codes; deal ``i`` uses
        ``decks[i]``; later deals are shuffled from ``seed``) and first dealer. The dealer deals
        one card at a time from the top, starting on their left; the next card is the turn-up."""
        return cls(rules, seats, seed, decks=decks, first_dealer=first_dealer)

    #: a deck order that deals given hands (:func:`games.ohhell.deal.stack_deck`), for :meth:`from_decks`
    stack_deck = staticmethod(stack_deck)

    @classmethod
    def replay(
        cls,
        rules: Any,
        seats: int,
        seed: int,
        log: Sequence[tuple[int, ActionData]],
        decks: Sequence[Sequence[Card | str]] | None = None,
        first_dealer: int | None = None,
        *,
        rng_version: int = GENERATOR_VERSION,
    ) -> OhHell:
        """Rebuild a game from its seed (or decks and first dealer) and its action log."""
        game = cls(rules, seats, seed, decks=decks, first_dealer=first_dealer, rng_version=rng_version)
        for seat, action in log:
            # a log names a Devil's Bridge card (see :attr:`log`), which a player may not do
            game._do_checked(seat, action, from_log=True)
        return game

    def clone(self, rng: GameRng | None = None) -> OhHell:
        """An independent copy. Later deals of the copy are shuffled from ``rng`` if given (a
        searcher should pass its own, so that it cannot peek at the real game's next deal), else
        from a copy of this game's generator (an exact twin). The deal as dealt is shared: it
        never changes; so is the bidding once it is over (the next deal makes a new one)."""
        g = object.__new__(OhHell)
        g.__dict__.update(self.__dict__)
        if self.phase == BID:
            g.bidding = self.bidding.copy()
        g.tricks = self.tricks.copy()
        g.record = self.record.copy()
        g.takeback = self.takeback.copy()
        g.rng = copy_rng(self.rng) if rng is None else rng
        return g

    # ------------------------------------------------------------------------------------
    # reading the game

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def deal_number(self) -> int:
        return self.deal.number

    def dealt_deck(self) -> list[Card]:
        return self.deal.deck

    def pack(self) -> list[Card]:
        return list(self.setup.deck)

    def last_deal_hands(self) -> dict[int, list[Card]] | None:
        """The finished deal's hands, rebuilt from its tricks (every card of a hand is played)."""
        return self.record.last_deal_hands()

    @property
    def seats(self) -> int:
        """How many seats the game has (the engine constructor's word; ``seat_count``)."""
        return self.seat_count

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def history(self) -> list[HistoryEntry]:
        """One dict per scored deal: deal, kind, hand_size, dealer, trump, bids, tricks, scores
        (None for seats not in a play-off), revoked (seats); read-only, shared with the views."""
        return list(self.record.history_entries())

    def stats(self) -> list[SeatStats]:
        """Per-seat figures for the bot to store (see :func:`games.ohhell.results.stats`)."""
        return stats(self.record.totals, self.record.deal_records)

    def hand(self, seat: int) -> list[str]:
        """``seat``'s cards, sorted as in the view (for tests and the engine's own users; the
        bot shows hands through :meth:`view`, which hides a Devil's Bridge card)."""
        return sorted_codes(self.deal, self.tricks.hand(seat))

    @overload
    def view(self, seat: int) -> OhHellSeatView: ...
    @overload
    def view(self, seat: None) -> OhHellView: ...
    def view(self, seat: int | None) -> OhHellView | OhHellSeatView:
        check_viewer(self, seat)
        public = public_view(self, seat, self.GAME, self.to_act())
        if seat is None:
            return public
        legal = self.legal_actions(seat)
        proper = legal
        if self.setup.penalize and self.phase == PLAY and seat == self.turn and not self.deal.devils_bridge:
            proper = self.proper_plays(seat)
        return seat_view(self, seat, public, legal, proper, self.bid_options(seat))

    # ------------------------------------------------------------------------------------
    # whose turn, and what they may do

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.phase == BID and self.setup.simultaneous:
            bids = self.bidding.bids
            return [s for s in self.deal.players if bids[s] < 0]
        return [self.turn]

    def bid_options(self, seat: int) -> list[tuple[int, bool, str | None]]:
        """Every bid 0..hand size for ``seat`` while it may bid: allowed or not, and why not."""
        if self.phase != BID or not self.bidding.may_bid(seat, self.turn):
            return []
        return self.bidding.options()

    def legal_actions(self, seat: int) -> list[OhHellAction]:
        if self.phase == BID:
            return self.bidding.legal() if self.bidding.may_bid(seat, self.turn) else []
        if self.phase == PLAY and seat == self.turn:
            if self.deal.devils_bridge:
                return [{"type": "play", "card": "?"}]
            return [play_action(a) for a in self.tricks.legal_plays(seat, not self.setup.penalize)]
        return []

    def proper_plays(self, seat: int) -> list[OhHellAction]:
        """The plays of ``seat`` that are not revokes (its turn, a deal's card play); in a Devil's
        Bridge deal only the blind "?" (the card itself is not the seat's to know)."""
        if self.deal.devils_bridge and self.phase != OVER:
            return [{"type": "play", "card": "?"}] if self.phase == PLAY and seat == self.turn else []
        return [play_action(a) for a in self.tricks.legal_plays(seat, True)]

    def action_to_id(self, seat: int, action: ActionData) -> int:
        """The fast id of a checked action (raises IllegalAction with a readable reason). A
        Devil's Bridge card has none to give: its id would name the card to its own seat."""
        action_id = self._to_id(seat, action)
        if self.deal.devils_bridge and self.phase == PLAY:
            raise IllegalAction(msg('Your own card is hidden in this deal: apply the play "?" itself.'))
        return action_id

    def id_to_action(self, action_id: int) -> OhHellAction:
        """The action dict of a fast id in the current phase."""
        if self.phase == BID:
            return bid_action(action_id)
        return play_action(action_id)

    def check(self, seat: int, action: ActionData) -> None:
        if takeback.is_takeback(action):
            takeback.check(self, seat, action)
        elif takeback.is_bid_change(self, seat, action):
            self.bidding.value(action)
        else:
            self._to_id(seat, action)

    def undo_options(self, seat: int) -> list[str]:
        """The take-back actions ``seat`` may take now (:mod:`games.ohhell.takeback`)."""
        return takeback.undo_options(self, seat)

    def undo_request(self) -> tuple[int, str, list[int]] | None:
        """(asker, card, seats still to answer) while a take-back is asked, else None."""
        return takeback.pending_request(self)

    def undo_card(self) -> str | None:
        """The card a take-back asks for or would ask for now (the trick's latest card), without
        building the whole :attr:`log`; None when there is none."""
        return takeback.live_card(self)

    def bid_options_to_change(self, seat: int) -> list[tuple[int, bool, str | None]]:
        """The bids ``seat`` may change its secret bid to (every one: no hook in a secret
        bidding), or [] when it may not (:meth:`may_change_bid`)."""
        return [(b, True, None) for b in range(self.deal.hand_size + 1)] if self.may_change_bid(seat) else []

    def may_change_bid(self, seat: int) -> bool:
        """``seat`` has bid in a secret bidding that is still open: it may bid again."""
        return takeback.is_bid_change(self, seat, {"type": "bid"})

    def _to_id(self, seat: int, action: ActionData, from_log: bool = False) -> int:
        """The checked id of a bid or a card play, or IllegalAction: the checks every action
        shares here, then the phase's own (:meth:`Bidding.check`, :func:`play_checks.play_id`)."""
        if self.phase == OVER:
            raise IllegalAction(msg("The game is over."))
        if not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise IllegalAction(msg("There is no such seat."))
        if not isinstance(action, dict) or action.get("type") not in ("bid", "play"):
            raise IllegalAction(msg("Unknown action: bid or play a card."))
        if seat not in self.deal.players:
            raise IllegalAction(msg("You are not in this play-off deal."))
        if action["type"] == "bid":
            if self.phase != BID:
                raise IllegalAction(msg("The bidding is over: play a card."))
            return self.bidding.check(seat, action, self.turn)
        if self.phase != PLAY:
            if self.bidding.may_bid(seat, self.turn):
                raise IllegalAction(msg("Bid first: the play starts when everyone has bid."))
            raise IllegalAction(msg("Wait: the play starts when everyone has bid."))
        if seat != self.turn:
            raise IllegalAction(msg("It is not your turn."))
        return play_checks.play_id(self.tricks, seat, action, self.setup.penalize, from_log)

    def apply(self, seat: int, action: ActionData) -> tuple[OhHell, list[Event]]:
        """Check then do ``action``; mutates this game and returns it with the events."""
        return self._do_checked(seat, action)

    def _do_checked(self, seat: int, action: ActionData, from_log: bool = False) -> tuple[OhHell, list[Event]]:
        events: list[Event] = []
        if takeback.is_takeback(action):
            takeback.check(self, seat, action)
            takeback.do(self, seat, action, events)
            return self, events
        if takeback.is_bid_change(self, seat, action):
            takeback.change_bid(self, seat, self.bidding.value(action), events)
            return self, events
        action_id = self._to_id(seat, action, from_log)
        point = takeback.before_play(self, seat, action_id) if self.phase == PLAY else None
        if point is None and self.setup.simultaneous:
            self.takeback.bid_at[seat] = self.actions_done
        self._do(seat, action_id, events)
        if point is not None:
            takeback.after_play(self, point, events)
        return self, events

    # ------------------------------------------------------------------------------------
    # storage

    @property
    def action_count(self) -> int:
        return self.actions_done

    @property
    def log(self) -> list[tuple[int, LoggedAction]]:
        """Every accepted action in order, normalised (a Devil's Bridge "?" is logged as the
        card it was, a following no-trump joker with the led suit); the take-backs and replaced
        secret bids (:mod:`games.ohhell.takeback`) in their places."""
        return takeback.merged_log(self.effective_log, self.takeback.side_log)

    @property
    def effective_log(self) -> list[tuple[int, LoggedAction]]:
        """The actions the game stands on: :attr:`log` without the cards taken back, the
        requests and answers, and the secret bids replaced (what a computer or the coach reads
        as this game's bids and plays)."""
        deals = self.record.deal_logs
        if self.phase != OVER:
            t = self.tricks
            current = t.finished + ([(t.leader, tuple(t.cards), t.joker_suit, -1)] if t.cards else [])
            deals = [*deals, DealLog(self.deal.players, self.bidding.order, current)]
        return deal_actions(deals)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.JSON_VERSION,
            "game": self.GAME,
            "rules": self.setup.rules.to_json(),
            "seats": self.seat_count,
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
            raise GameError(msg("Unknown Oh Hell save format version {version}.", version=repr(version)))
        if data.get("game", cls.GAME) != cls.GAME:
            raise GameError(msg("This save is not an Oh Hell game."))
        return cls.replay(
            Rules.from_json(data["rules"]),
            data["seats"],
            data["seed"],
            [(seat, action) for seat, action in data["log"]],
            decks=data.get("decks"),
            first_dealer=data.get("first_dealer"),
            rng_version=data.get("rng_version", LEGACY_VERSION),
        )
