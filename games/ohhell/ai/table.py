"""One deal's cards as bit positions, so the search can treat a hand as one Python ``int``.

The search plays hundreds of thousands of cards a decision. Renumbering the deal's pack once so
that each card is a bit, ordered by *effective* suit (bowers and the joker moved into trumps) and
then by power, turns the inner loops into integer masks: "the cards of the led suit" is one
``&``, "the lowest card that beats the trick" is the lowest set bit of one mask.

Duplicate cards (Australian packs) get adjacent bits with equal power; the later of two equal
cards in one trick wins, which :attr:`DealTable.beats` encodes by counting equal power as beating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from games.common.cards import JACK, Card, face_of, is_joker, rank_of, suit_of

NT_JOKER_SUIT = 4  # the no-trump joker's own "suit": it is never the led suit itself
RIGHT_BOWER_POWER = 30
LEFT_BOWER_POWER = 29
JOKER_POWER = 40


def same_colour_suit(suit: int) -> int:
    """Clubs pair with spades, diamonds with hearts (the left bower's suit)."""
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


def effective(card: Card, trump: int | None, bowers: bool) -> tuple[int, int]:
    """(effective suit, power within it) of ``card`` in a deal with ``trump`` (None: no trumps)."""
    if is_joker(card):
        return (trump if trump is not None else NT_JOKER_SUIT), JOKER_POWER
    suit, rank = suit_of(card), rank_of(card)
    if bowers and trump is not None and rank == JACK:
        if suit == trump:
            return trump, RIGHT_BOWER_POWER
        if suit == same_colour_suit(trump):
            return trump, LEFT_BOWER_POWER
    return suit, rank


@dataclass(frozen=True, slots=True)
class DealTable:
    cards: list[Card]  # bit i -> engine card
    index: dict[Card, int]  # engine card -> bit
    esuit: list[int]
    power: list[int]
    suit_mask: list[int]  # 5 masks: effective suits 0..3 and the no-trump joker
    beats: list[int]  # same effective suit, power >= mine, not me
    #: the cards that take a trick from card i when it is winning it: ``beats``, every trump if
    #: i is not one, and a no-trump joker (the test the search makes for every card it plays)
    tops: list[int]
    trump: int  # -1 for no trumps
    trump_mask: int
    joker: int  # bit of the joker, -1 if none
    joker_nt: bool  # a joker in a no-trump deal (000's special rules)
    all_mask: int
    n: int

    @classmethod
    def build(cls, deck: tuple[Card, ...] | list[Card], trump: int | None, bowers: bool) -> DealTable:
        """The table of a pack under a trump, built once and then shared (it is frozen): every
        decision of a computer seat asks for its deal's table, and building it each time was a
        twelfth of the computer players' legality tests under a profiler (6 % of their processor
        time without); the same object also lets the search keep the deal's bid estimator from
        one decision to the next (:func:`.sampling._deal_tools`)."""
        return _shared_table(tuple(deck), trump, bowers)

    @classmethod
    def _fresh(cls, deck: tuple[Card, ...], trump: int | None, bowers: bool) -> DealTable:
        keyed = []
        for card in deck:
            es, pw = effective(card, trump, bowers)
            keyed.append((es, pw, card >> 8, card))
        keyed.sort()
        cards = [k[3] for k in keyed]
        esuit = [k[0] for k in keyed]
        power = [k[1] for k in keyed]
        n = len(cards)
        suit_mask = [0] * 5
        for i, es in enumerate(esuit):
            suit_mask[es] |= 1 << i
        beats = [0] * n
        for i in range(n):
            first = i
            while first > 0 and esuit[first - 1] == esuit[i] and power[first - 1] == power[i]:
                first -= 1
            beats[i] = suit_mask[esuit[i]] & ~((1 << first) - 1) & ~(1 << i)
        joker = next((i for i, c in enumerate(cards) if is_joker(c)), -1)
        # the playout policy packs a power into the last two decimal digits of its sort keys
        assert max(power, default=0) < 100, "a card power of 100 or more"
        t = -1 if trump is None else trump
        trump_mask = suit_mask[t] if t >= 0 else 0
        joker_nt = joker >= 0 and t < 0
        tops = []
        for i in range(n):
            top = beats[i] | (trump_mask if esuit[i] != t else 0)
            if joker_nt and i != joker:
                top |= 1 << joker
            tops.append(top)
        return cls(
            cards=cards,
            index={c: i for i, c in enumerate(cards)},
            esuit=esuit,
            power=power,
            suit_mask=suit_mask,
            beats=beats,
            tops=tops,
            trump=t,
            trump_mask=trump_mask,
            joker=joker,
            joker_nt=joker_nt,
            all_mask=(1 << n) - 1,
            n=n,
        )

    def mask(self, cards: Iterable[int]) -> int:
        m = 0
        for c in cards:
            m |= 1 << self.index[c]
        return m

    def cards_of(self, mask: int) -> list[Card]:
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cards[low.bit_length() - 1])
            mask ^= low
        return out

    def face_key(self, i: int) -> Card:
        return face_of(self.cards[i])


@lru_cache(maxsize=64)
def _shared_table(deck: tuple[Card, ...], trump: int | None, bowers: bool) -> DealTable:
    return DealTable._fresh(deck, trump, bowers)


#: the set bit positions of each byte value, as absolute positions for each of the first 16 bytes
_BYTE_BITS = [[[8 * k + i for i in range(8) if (b >> i) & 1] for b in range(256)] for k in range(16)]


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first. A byte at a time from a table: the
    search's sampler lists a hand's possible cards tens of thousands of times a decision, and
    a loop over the bits was a tenth of its time."""
    out: list[int] = []
    for positions in _BYTE_BITS:
        if not mask:
            return out
        byte = mask & 255
        if byte:
            out += positions[byte]
        mask >>= 8
    while mask:  # beyond 128 cards: bit by bit
        low = mask & -mask
        out.append(low.bit_length() + 127)
        mask ^= low
    return out
