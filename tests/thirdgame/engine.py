"""High Card, a tiny test-only game: the third game that shows a game plugs into the bot through
the seam alone (:class:`bot.seam.contract.GameKind`), with no edit to the runtime or the two games.

Each of 2 to 4 players is dealt ``cards`` cards from the thirteen spades, shuffled by the game's
own generator (:func:`games.common.rng.make_rng`), so the shuffle commitment and its check work
as for any game. Players play one card a turn, the leader first; the highest card wins the
trick and leads the next. When the hands are empty the most tricks wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from games.common.cards import SPADES, STANDARD_RANKS, Card, card_code, make_card, parse_card, rank_of
from games.common.contracts import BaseView
from games.common.engine import ActionData, Engine, Event, IllegalAction, RulesError
from games.common.rng import GENERATOR_VERSION, make_rng

GAME = "highcard"
#: the pack, in the order the generator shuffles it: the thirteen spades, two up to the ace
PACK: tuple[Card, ...] = tuple(make_card(rank, SPADES) for rank in STANDARD_RANKS)


@dataclass(frozen=True, slots=True)
class Rules:
    """How many cards each player is dealt (and so how many tricks are played)."""

    cards: int = 3

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        return cls(cards=int(data.get("cards", 3)))

    def player_range(self) -> tuple[int, int]:
        return 2, min(4, len(PACK) // self.cards)

    def describe(self) -> list[str]:
        return [f"Each player is dealt {self.cards} spades; the highest card wins each trick."]


def make_rules(preset: str, options: Mapping[str, str]) -> Rules:
    """The rules of ``preset`` ("standard") with a host's options (``cards``: 1 to 6)."""
    if preset != "standard":
        raise RulesError(f"High Card has one preset, standard, not {preset!r}.")
    text = options.get("cards", "3")
    if not text.isdigit() or not 1 <= int(text) <= 6:
        raise RulesError(f"cards must be a number from 1 to 6, not {text!r}.")
    return Rules(cards=int(text))


class HighCardView(BaseView, total=False):
    """What a seat (or, without ``hand`` and ``legal``, anyone) may see."""

    trick: list[dict[str, Any]]
    tricks: list[int]
    last_trick: list[dict[str, Any]]
    turn: int | None
    hand: list[str]
    legal: list[dict[str, Any]]
    winners: list[int]


class HighCard(Engine[HighCardView, HighCardView]):
    GAME = GAME

    def __init__(self, rules: Rules, seats: int, deck: list[Card], seed: int, rng_version: int) -> None:
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.rng_version = rng_version
        self.deck = deck
        self.hands = [sorted(deck[s * rules.cards : (s + 1) * rules.cards]) for s in range(seats)]
        self.tricks = [0] * seats
        self.trick: list[tuple[int, Card]] = []
        self.last_trick: list[tuple[int, Card]] = []
        self.turn = 0
        self._log: list[tuple[int, dict[str, Any]]] = []

    @classmethod
    def rules_from_json(cls, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(data)

    def final_standings(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "place": self.place(seat), "total": self.tricks[seat], "is_loser": False}
            for seat in range(self.seats)
        ]

    @classmethod
    def new(cls, rules: Any, seats: int, seed: int, *, rng_version: int = GENERATOR_VERSION) -> HighCard:
        if not isinstance(rules, Rules):
            raise RulesError("High Card needs its own rules.")
        low, high = rules.player_range()
        if not low <= seats <= high:
            raise RulesError(f"High Card with {rules.cards} cards each takes {low} to {high} players.")
        deck = list(PACK)
        make_rng(seed, rng_version).shuffle(deck)
        return cls(rules, seats, deck, seed, rng_version)

    def deal_events(self) -> list[Event]:
        return [Event("dealt", {"hand": [card_code(c) for c in hand]}, seat=s) for s, hand in enumerate(self.hands)]

    # -- whose turn ---------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act():
            return []
        return [{"type": "play", "card": card_code(c)} for c in self.hands[seat]]

    def check(self, seat: int, action: ActionData) -> None:
        if self.is_over:
            raise IllegalAction("The game is over.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")
        if action.get("type") != "play" or not isinstance(action.get("card"), str):
            raise IllegalAction("Play one of your cards.")
        try:
            card = parse_card(action["card"])
        except ValueError:
            raise IllegalAction(f"{action['card']!r} is not a card.") from None
        if card not in self.hands[seat]:
            raise IllegalAction("You do not hold that card.")

    def apply(self, seat: int, action: ActionData) -> tuple[HighCard, list[Event]]:
        self.check(seat, action)
        card = parse_card(action["card"])
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self._log.append((seat, {"type": "play", "card": card_code(card)}))
        events = [Event("played", {"seat": seat, "card": card_code(card)})]
        if len(self.trick) < self.seats:
            self.turn = (seat + 1) % self.seats
            return self, events
        winner = max(self.trick, key=lambda played: rank_of(played[1]))[0]
        self.tricks[winner] += 1
        self.last_trick, self.trick, self.turn = self.trick, [], winner
        events.append(Event("trick", {"winner": winner, "cards": [card_code(c) for _, c in self.last_trick]}))
        if self.is_over:
            events.append(Event("game_over", {"tricks": list(self.tricks), "winners": self.winners()}))
        return self, events

    def winners(self) -> list[int]:
        best = max(self.tricks)
        return [s for s in range(self.seats) if self.tricks[s] == best]

    def place(self, seat: int) -> int:
        """1 for the most tricks; players with as many tricks share a place."""
        return 1 + sum(1 for t in self.tricks if t > self.tricks[seat])

    # -- what each seat may see ---------------------------------------------------------------
    def view(self, seat: int | None) -> HighCardView:
        view: HighCardView = {
            "game": GAME,
            "phase": "over" if self.is_over else "play",
            "viewer": seat,
            "seat_count": self.seats,
            "to_act": self.to_act(),
            "rules": self.rules.to_json(),
            "trick": [{"seat": s, "card": card_code(c)} for s, c in self.trick],
            "last_trick": [{"seat": s, "card": card_code(c)} for s, c in self.last_trick],
            "tricks": list(self.tricks),
            "turn": None if self.is_over else self.turn,
            "winners": self.winners() if self.is_over else [],
        }
        if seat is not None:
            view["hand"] = [card_code(c) for c in self.hands[seat]]
            view["legal"] = self.legal_actions(seat)
        return view

    # -- the deal, for the shuffle's check -----------------------------------------------------
    def dealt_deck(self) -> Sequence[Card]:
        return list(self.deck)

    def pack(self) -> Sequence[Card]:
        return PACK

    # -- storage ------------------------------------------------------------------------------
    @property
    def log(self) -> Sequence[tuple[int, ActionData]]:
        return list(self._log)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.JSON_VERSION,
            "rules": self.rules.to_json(),
            "seats": self.seats,
            "seed": self.seed,
            "rng_version": self.rng_version,
            "log": [[seat, action] for seat, action in self._log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HighCard:
        rules = Rules.from_json(data["rules"])
        game = cls.new(rules, data["seats"], data["seed"], rng_version=data["rng_version"])
        for seat, action in data["log"]:
            game.apply(seat, action)
        return game


class HighCardAction(TypedDict):
    type: str
    card: str
