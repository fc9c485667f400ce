"""The pack, the deal order, and stacked decks for tests.

003 deals one card at a time around the table from the dealer's left: a row of face-down cards,
then the face-up row on them, then the hand (or, in the choosing deal, the face-down row and then
a hand holding the face-up cards too). ``deck[0]`` is dealt first and the undealt rest, in order,
is the stock, so a test can say exactly who gets what with :func:`stack_deck`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.common.cards import Card, joker, parse_card, standard52
from games.common.engine import RulesError
from games.shithead.rules import Rules


def full_deck(rules: Rules) -> list[Card]:
    """Every card of the game in a fixed order: the packs, then the jokers."""
    cards = [c for copy in range(rules.decks) for c in standard52(copy)]
    cards += [joker(i) for i in range(rules.jokers)]
    return cards


def seats_from_left(seats: int, dealer: int) -> list[int]:
    """Seats in deal (and first-turn) order: the dealer's left first, the dealer last."""
    return [(dealer + 1 + i) % seats for i in range(seats)]


@dataclass
class Deal:
    down: list[list[Card]]
    up: list[list[Card]]
    hand: list[list[Card]]
    stock: list[Card]


def deal_positions(rules: Rules, seats: int, dealer: int) -> list[tuple[int, str, int]]:
    """``(seat, zone, index)`` for each dealt card in deal order; zone is down, up or hand."""
    order = seats_from_left(seats, dealer)
    out = [(s, "down", i) for i in range(rules.table_cards) for s in order]
    if rules.deal == "swap":
        out += [(s, "up", i) for i in range(rules.table_cards) for s in order]
        hand = rules.hand_size
    else:
        hand = rules.hand_size + rules.table_cards
    out += [(s, "hand", i) for i in range(hand) for s in order]
    return out


def deal(rules: Rules, seats: int, dealer: int, deck: Sequence[Card]) -> Deal:
    result = Deal([[] for _ in range(seats)], [[] for _ in range(seats)], [[] for _ in range(seats)], [])
    positions = deal_positions(rules, seats, dealer)
    for (seat, zone, _), card in zip(positions, deck, strict=False):
        getattr(result, zone)[seat].append(card)
    result.stock = list(deck[len(positions) :])
    return result


def _cards(items: Iterable[Card | str]) -> list[Card]:
    return [parse_card(c) if isinstance(c, str) else c for c in items]


def stack_deck(
    rules: Rules,
    seats: int,
    dealer: int,
    *,
    down: dict[int, Sequence[Card | str]] | None = None,
    up: dict[int, Sequence[Card | str]] | None = None,
    hands: dict[int, Sequence[Card | str]] | None = None,
    stock: Sequence[Card | str] = (),
) -> list[Card]:
    """A deck order that deals the given cards to the given seats (missing ones filled in order).

    ``stock`` lists the first cards of the stock, top first; unused cards follow it. In the
    choosing deal ``hands`` holds the whole dealt hand (face-up cards to be chosen included).
    """
    wanted: dict[tuple[int, str, int], Card] = {}
    for zone, given in (("down", down), ("up", up), ("hand", hands)):
        for seat, cards in (given or {}).items():
            for i, card in enumerate(_cards(cards)):
                wanted[(seat, zone, i)] = card
    positions = deal_positions(rules, seats, dealer)
    missing = set(wanted) - set(positions)
    if missing:
        raise RulesError(f"These rules deal no card to {sorted(missing)}.")
    stock_cards = _cards(stock)
    used = list(wanted.values()) + stock_cards
    if len(set(used)) != len(used):
        raise RulesError("A stacked deck names the same card twice.")
    pack = full_deck(rules)
    if not set(used) <= set(pack):
        raise RulesError("A stacked deck names a card that is not in the pack.")
    spare = iter([c for c in pack if c not in set(used)])
    deck = [wanted[p] if p in wanted else next(spare) for p in positions]
    return deck + stock_cards + list(spare)
