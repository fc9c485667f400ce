"""The rules of bidding and trick play, each written once, in readable form.

The checked engine (:mod:`games.ohhell.state`) calls these functions. The fast path
(:mod:`games.ohhell.fast`) carries specialised inline copies of some of them, because a
function call per card costs the computer players' search measurably; each such copy says which
rule it copies, and ``tests/games/ohhell/test_play_rules.py`` pins every copy to the rule here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from locales import Msg, msg

#: ``n.bit_length()`` for the list lengths a random choice is made among
BIT_LENGTH = tuple(n.bit_length() for n in range(257))


def hook_forbidden_bid(hand_size: int, bid_total: int) -> int | None:
    """The hook: the last bidder (the dealer) may not bid so that the bids total the tricks.

    ``bid_total`` is the sum of the other bids. None when no bid is forbidden (the others
    already bid more than there are tricks). Applies to the last bid of a sequential bidding
    only (``GameSetup.hook``)."""
    forbidden = hand_size - bid_total
    return forbidden if forbidden >= 0 else None


def hook_message(bid: int, hand_size: int) -> Msg:
    """Why the hook forbids ``bid``, said in the reader's language where it is shown (the refusal
    of the bid, the panel's line under the disabled button)."""
    if hand_size == 1:
        return msg("The dealer may not bid {bid}: the bids would total the 1 trick.", bid=bid)
    return msg("The dealer may not bid {bid}: the bids would total the {n} tricks.", bid=bid, n=hand_size)


def legal_bids(hand_size: int, forbidden: int | None) -> list[int]:
    """Every bid from 0 to the hand size, but the forbidden one (see :func:`hook_forbidden_bid`)."""
    return [bid for bid in range(hand_size + 1) if bid != forbidden]


def takes_the_lead(suit: int, power: int, led_suit: int, trump: int, best_power: int) -> bool:
    """Whether a card played to a begun trick beats the best card so far.

    Only a card of the suit led or a trump can win; among those the higher power wins (a trump
    has more power than any card of another suit, see :func:`games.ohhell.tables.card_tables`).
    ``>=``: of two identical cards (the Australian pack's two packs) the later one wins."""
    return (suit == led_suit or suit == trump) and power >= best_power


def trick_winner(
    seats: Sequence[int],
    cards: Sequence[int],
    effective_suit: Sequence[int],
    power: Sequence[int],
    trump: int,
    joker_suit: int = -1,
    joker: int = -1,
) -> int:
    """The seat that wins a finished trick (``seats[i]`` played ``cards[i]``, leader first).

    The leader's card sets the suit led; every later card that :func:`takes_the_lead` becomes
    the best. A joker in a no-trump deal counts as ``joker_suit``, the suit it was named as."""

    def suit_of(card: int) -> int:
        return joker_suit if card == joker and joker_suit >= 0 else effective_suit[card]

    led_suit = suit_of(cards[0])
    best_power, winner = power[cards[0]], seats[0]
    for seat, card in zip(seats[1:], cards[1:], strict=True):
        if takes_the_lead(suit_of(card), power[card], led_suit, trump, best_power):
            best_power, winner = power[card], seat
    return winner


def random_below(getrandbits: Callable[[int], int], n: int) -> int:
    """A uniform draw from ``0..n-1``, exactly as ``random.Random.choice`` makes it over a list
    of ``n`` items (``_randbelow``: draw ``n.bit_length()`` bits until the value is below ``n``),
    so that a draw made here leaves the generator as ``choice`` would."""
    bits = BIT_LENGTH[n]
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r
