"""Computer players for Shithead. They decide from a seat's view only (never a hidden card).

Three players, all deterministic for a given ``random.Random``:

* :class:`RandomPlayer` picks uniformly among the legal actions (the benchmark's reference).
* :class:`LowestPlayer`, a plain baseline: no swap, always its lowest legal play.
* :class:`SensiblePlayer` plays the usual human strategy: put the strongest cards face up
  (power cards first, then aces, kings…), shed the lowest cards first (all copies at once),
  keep the "power" cards (those playable on anything: 2s, free 10s, Gultnieks' 8s, glass 7s,
  jokers) until nothing else goes, use a 10 rather than a 2 on a big pile, burn a pile by
  completing four of a kind when it can, and on a refusal move its weakest face-up card into
  the hand. (Playing high against a neighbour about to go out was tried and measured worse.)

Loops: a game can only go round for ever if the same cards keep being played and picked up.
Measured, it happens: with Gultnieks' 7 ("7 or lower next") five sensible players once passed
7s round an empty pile for ever, each next player unable to go lower and picking up. So from
:data:`PATIENCE` actions on, the sensible player chooses among its legal plays at random now
and then (with the injected generator, so still deterministic), which breaks any cycle; the
rules stay as they are. ``bench/shithead.py`` reports the longest game measured.

Use ``choose_action(view, rng)`` (stateless), or a player object's ``choose(view)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from games.common.cards import JOKER_RANK, parse_card, rank_of
from games.shithead.contracts import ChooseUpAction, PickupAction, PlayAction, ShitheadAction, ShitheadView
from games.shithead.pile import RANK_ORDER

#: after this many actions in a game the sensible player starts to vary its plays
PATIENCE = 400
#: each rank's place from lowest (3) to highest (2, then the joker): the order cards are shed in
RANK_PLACE = {r: i for i, r in enumerate(RANK_ORDER)}


class Player(Protocol):
    """What the bench, the tests and the bot need from a computer player."""

    def choose(self, view: ShitheadView) -> ShitheadAction:
        """The action to take, from the seat's own view (with ``legal`` and ``hand``)."""
        ...


def power_ranks(rules: dict[str, Any]) -> set[int]:
    """Ranks that may go on anything under these rules (worth keeping for emergencies)."""
    power = {2, JOKER_RANK}
    if rules["ten"] == "any":
        power.add(10)
    if rules["eight"] == "reverse":
        power.add(8)
    if rules["seven"] == "glass":
        power.add(7)
    return power


def _rank(code: str) -> int:
    return rank_of(parse_card(code))


def _plays(legal: list[ShitheadAction]) -> list[PlayAction]:
    return [a for a in legal if a["type"] == "play"]


def _pickups(legal: list[ShitheadAction]) -> list[PickupAction]:
    return [a for a in legal if a["type"] == "pickup"]


def _choices(legal: list[ShitheadAction]) -> list[ChooseUpAction]:
    return [a for a in legal if a["type"] == "choose_up"]


class RandomPlayer:
    """Uniformly random among the legal actions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: ShitheadView) -> ShitheadAction:
        return self.rng.choice(view["legal"])


def random_action(view: ShitheadView, rng: random.Random) -> ShitheadAction:
    return rng.choice(view["legal"])


class LowestPlayer:
    """A plain baseline: no swapping, always the lowest legal play (all copies), never a voluntary
    pick-up, the first face-down card, the first face-up card added on a refusal."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: ShitheadView) -> ShitheadAction:
        legal = view["legal"]
        if view["phase"] == "swap":
            return {"type": "ready"} if {"type": "ready"} in legal else legal[0]
        plays = _plays(legal)
        if not plays:
            return legal[0]
        return min(plays, key=lambda a: (min(RANK_PLACE[_rank(c)] for c in a["cards"]), -len(a["cards"])))


class SensiblePlayer:
    """A steady human-like strategy; see the module docstring."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- values ---------------------------------------------------------------------------
    def _value(self, rank: int, power: set[int]) -> int:
        """How much a card is worth keeping: low ranks 0…11, power cards 20+ (a 10 highest)."""
        if rank in power:
            return 20 + {2: 1, 10: 3, JOKER_RANK: 2}.get(rank, 0)
        return RANK_PLACE[rank]

    # -- the swap -------------------------------------------------------------------------
    def _swap(self, view: ShitheadView) -> ShitheadAction:
        legal = view["legal"]
        power = power_ranks(view["rules"])
        if legal[0]["type"] == "choose_up":
            choices = _choices(legal)
            return max(choices, key=lambda a: sorted((self._value(_rank(c), power) for c in a["cards"]), reverse=True))
        viewer = view["viewer"]
        assert viewer is not None  # a seat's own view
        me = view["seats"][viewer]
        up = sorted(me["face_up"], key=lambda c: self._value(_rank(c), power))
        hand = sorted(view["hand"], key=lambda c: self._value(_rank(c), power), reverse=True)
        if up and hand and self._value(_rank(hand[0]), power) > self._value(_rank(up[0]), power):
            wanted: ShitheadAction = {"type": "swap", "hand": hand[0], "up": up[0]}
            if wanted in legal:
                return wanted
        stacks = [a for a in legal if a["type"] == "stack"]  # Karma: more cards on the table, a fresh draw
        if stacks:
            return stacks[0]
        return {"type": "ready"}

    # -- the play -------------------------------------------------------------------------
    def choose(self, view: ShitheadView) -> ShitheadAction:
        legal = view["legal"]
        if view["phase"] == "swap":
            return self._swap(view)
        if legal[0]["type"] == "flip":
            return legal[0]
        plays = _plays(legal)
        pickups = _pickups(legal)
        if not plays:
            power = power_ranks(view["rules"])
            if len(pickups) > 1:  # refusing with face-up cards: move the weakest into the hand
                return min(pickups, key=lambda a: self._value(_rank(a["add"]), power))
            return pickups[0]
        if view["action_count"] >= PATIENCE and self.rng.random() < min(0.5, view["action_count"] / 4000):
            return self.rng.choice(plays)
        return max(plays, key=lambda a: self._score(a, view))

    def _score(self, action: PlayAction, view: ShitheadView) -> float:
        power = power_ranks(view["rules"])
        cards = action["cards"]
        ranks = [_rank(c) for c in cards]
        low = min(ranks, key=lambda r: RANK_PLACE[r])
        value = self._value(low, power)
        pile = view["pile"]
        score = -10.0 * value + len(cards)
        # complete four of a kind: the pile burns and we go again
        if len(set(ranks)) == 1 and low != JOKER_RANK:
            same = 0
            for code in reversed(pile):
                if _rank(code) != low:
                    break
                same += 1
            if same + len(cards) >= 4 and low not in power:
                score += 150
        if low in power:
            if low == 10 and len(pile) >= 4:
                score += 40 + len(pile)
            if not pile:
                score -= 100
        return score


def choose_action(view: ShitheadView, rng: random.Random) -> ShitheadAction:
    """The sensible player's choice for ``view`` (a seat's view), stateless."""
    return SensiblePlayer(rng).choose(view)


#: the computer players by level name, each built from its random generator
PLAYERS: dict[str, Callable[[random.Random], Player]] = {
    "sensible": SensiblePlayer,
    "lowest": LowestPlayer,
    "random": RandomPlayer,
}
