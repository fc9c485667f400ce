"""The Shithead engine: the common :class:`~games.common.engine.Engine` interface over a
:class:`~games.shithead.table.Table`.

State changes only through :meth:`Shithead.apply`, which checks first
(:func:`games.shithead.moves.parse`) and then mutates the game in place
(:func:`games.shithead.turns.do`, returning ``self``), so a refused action leaves nothing half
done. A game is ``(rules, seats, deck order, dealer)`` plus its log: :meth:`Shithead.to_json`
stores exactly that and :meth:`Shithead.from_json` replays it.

Where the rest lives:

* the actions, the view and the events' data as types: :mod:`games.shithead.contracts`
  (actions are ``{"type": "swap" | "ready" | "choose_up" | "play" | "flip" | "pickup", ...}``);
* which actions are legal now: :mod:`games.shithead.legal`; checking one:
  :mod:`games.shithead.moves`; doing it: :mod:`games.shithead.turns`;
* what each seat sees: :mod:`games.shithead.views`; the events, who sends which:
  :mod:`games.shithead.events`;
* the deal and stacked decks for tests: :mod:`games.shithead.deal`; the beating rules:
  :mod:`games.shithead.pile`; the options: :mod:`games.shithead.rules`.

Building: ``Shithead.new(rules, seats, seed, dealer=None)`` (dealer drawn from the seed unless
given: the last shithead deals), ``Shithead.from_deck(rules, seats, deck, dealer)`` for tests
(``games.shithead.deal.stack_deck`` arranges a deck), ``Shithead.replay(rules, seats, seed, log,
dealer=None)``, ``Shithead.from_json(data)``. ``deal_events()`` gives the deal's events; every
other event comes from ``apply``. ``results()`` gives the finishing order, loser/winner and
the next dealer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import games.shithead.events as ev
from games.common.cards import Card, parse_card
from games.common.engine import Action, ActionData, Engine, Event, RulesError
from games.common.rng import GENERATOR_VERSION, make_rng
from games.shithead.contracts import ShitheadAction, ShitheadView
from games.shithead.deal import full_deck
from games.shithead.hands import codes, sort_key
from games.shithead.legal import legal_actions
from games.shithead.moves import parse
from games.shithead.rules import Rules, make_rules, validate
from games.shithead.table import Table
from games.shithead.turns import do, start
from games.shithead.views import ai_view, view

__all__ = ["Shithead", "sort_key"]


class Shithead(Table, Engine[ShitheadView, ShitheadView]):
    GAME = "shithead"
    LEGACY_SHUFFLE = "python"  # one random.shuffle of the whole deck, then the dealer is drawn
    JSON_VERSION = 1

    def __init__(self, rules: Rules, seats: int, deck: Sequence[Card], dealer: int, seed: int | None = None):
        super().__init__(rules, seats, deck, dealer, seed)
        self.rng_version = GENERATOR_VERSION  # the generator the deck was shuffled with (new() sets it)
        events = [ev.dealt_hand(s, {"hand": codes(sorted(h, key=sort_key))}) for s, h in enumerate(self.hand)]
        events.append(ev.dealt_face_up({"face_up": {str(s): codes(u) for s, u in enumerate(self.up)}}))
        self._deal_events = events

    # -- building -------------------------------------------------------------------------
    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(dict(data))

    def final_standings(self) -> list[dict[str, Any]]:
        res = self.results()
        order: list[int] = res["order"]
        return [
            {
                "seat": seat,
                "place": order.index(seat) + 1 if seat in order else len(order) + 1,
                "total": None,
                "is_loser": seat == res["loser"],
            }
            for seat in range(self.seats)
        ]

    def result_lines(self, names: Sequence[str]) -> list[str]:
        """The going-out order, the shithead marked."""
        res = self.results()
        return [
            f"{place}. {names[seat]}" + (" (the shithead)" if seat == res["loser"] else "")
            for place, seat in enumerate(res["order"], start=1)
        ]

    @classmethod
    def new(
        cls, rules: Rules, seats: int, seed: int, dealer: int | None = None, *, rng_version: int = GENERATOR_VERSION
    ) -> Shithead:
        """A shuffled game; the dealer is drawn from the seed unless given (the last loser deals)."""
        validate(rules)
        rules.check_players(seats)
        rng = make_rng(seed, rng_version)
        deck = full_deck(rules)
        rng.shuffle(deck)
        if dealer is None:
            dealer = rng.randrange(seats)
        game = cls(rules, seats, deck, dealer, seed)
        game.rng_version = rng_version
        return game

    @classmethod
    def from_deck(cls, rules: Rules, seats: int, deck: Sequence[Card | str], dealer: int) -> Shithead:
        """A game dealt from this exact deck order (``deck[0]`` dealt first); for tests."""
        cards = [parse_card(c) if isinstance(c, str) else c for c in deck]
        return cls(rules, seats, cards, dealer)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seats: int,
        seed: int,
        log: Sequence[tuple[int, ActionData]],
        dealer: int | None = None,
        *,
        rng_version: int = GENERATOR_VERSION,
    ) -> Shithead:
        game = cls.new(rules, seats, seed, dealer, rng_version=rng_version)
        for seat, action in log:
            game.apply(seat, action)
        return game

    def deal_events(self) -> list[Event]:
        """The events of the deal (each hand privately, the face-up cards publicly)."""
        return list(self._deal_events)

    # -- the engine interface ---------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def dealt_deck(self) -> list[Card]:
        return self.deck

    def pack(self) -> list[Card]:
        return full_deck(self.rules)

    @property
    def log(self) -> list[tuple[int, Action]]:
        return list(self._log)

    def legal_actions(self, seat: int) -> list[ShitheadAction]:
        return legal_actions(self, seat)

    def check(self, seat: int, action: ActionData) -> None:
        parse(self, seat, action)

    def apply(self, seat: int, action: ActionData) -> tuple[Shithead, list[Event]]:
        move = parse(self, seat, action)
        events: list[Event] = []
        logged = do(self, seat, move, events)
        self._log.append((seat, cast(Action, logged)))  # a TypedDict is a plain dict
        if self.phase == "swap" and all(self.ready):
            start(self, events)
        if self.phase == "play":
            events.append(ev.turn({"seat": self.turn}))
        return self, events

    def view(self, seat: int | None) -> ShitheadView:
        return view(self, seat, self.GAME)

    def ai_view(self, seat: int) -> ShitheadView:
        """What a computer in ``seat`` decides from (:func:`games.shithead.views.ai_view`)."""
        return ai_view(self, seat, self.GAME)

    # -- storage --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.JSON_VERSION,
            "game": self.GAME,
            "rules": self.rules.to_json(),
            "seats": self.seats,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": codes(self.deck),
            "log": [[seat, dict(action)] for seat, action in self._log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shithead:
        version = data.get("version")
        if version != 1 or data.get("game") != cls.GAME:
            raise RulesError(f"Cannot read a saved {data.get('game')!r} game of version {version!r}.")
        rules = make_rules("pagat", **data["rules"])
        game = cls.from_deck(rules, data["seats"], data["deck"], data["dealer"])
        game.seed = data.get("seed")
        for seat, action in data["log"]:
            game.apply(seat, action)
        return game
