"""What stays fixed for a whole Oh Hell game, computed once and shared by every copy of it.

The engine works on integer cards (:mod:`games.common.cards`). For each possible trump it keeps
two lookup tables indexed by card: the card's *effective suit* (a bower counts as a trump, a
joker as the trump suit or, in a no-trump deal, as :data:`JOKER_SUIT` until it is played as a
named suit) and its *power* in a trick (see :func:`card_tables`). :class:`GameSetup` holds
those tables with the rest of what a rule set and a table size fix: the deck, the hand sizes,
the seat orders. Games with the same rules and table share one setup (:func:`game_setup`).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.common.cards import JACK, JOKER_SUIT, SUIT_LETTERS, Card, is_joker, joker, rank_of, suit_of
from games.ohhell.decks import build_deck, deck_size, has_joker
from games.ohhell.rules import PLAYOFF_HAND, Rules
from games.ohhell.scoring import score_table

#: the game's phases, as stored in ``phase`` and as named in the view
BID, PLAY, OVER = 0, 1, 2
PHASES = ("bidding", "playing", "over")
#: internal trump value of a no-trump deal: never equal to a card's effective suit
NO_TRUMP = 9
JOKER = joker()
#: a joker's power in a no-trump deal (it beats everything) and as the highest trump
NO_TRUMP_JOKER_POWER = 1000
TRUMP_JOKER_POWER = 140
#: the bowers' powers: above the ace of trumps (100 + ACE), the right bower above the left
RIGHT_BOWER_POWER, LEFT_BOWER_POWER = 130, 129
#: what being a trump adds to a card's rank
TRUMP_BONUS = 100
#: size of the per-card lookup tables (every card int is below it)
TABLE_SIZE = 1024

#: effective suit and power per card int, for one trump
CardTables = tuple[list[int], list[int]]


def card_tables(trump: int, bowers: bool, cards: Sequence[Card]) -> CardTables:
    """Effective suit and trick power of every card for one trump suit (``NO_TRUMP``: none).

    Power is the card's rank within its suit, +100 for a trump; the bowers (the jacks of the
    trump suit and of the other suit of its colour) and the joker sit above the ace of trumps,
    and a joker in a no-trump deal (effective suit ``JOKER_SUIT`` until it is played as a suit)
    beats everything. Only cards of the suit led or trumps can win a trick
    (:func:`games.ohhell.play_rules.takes_the_lead`), so powers compare only within those.
    """
    effective_suit = [-1] * TABLE_SIZE
    power = [-1] * TABLE_SIZE
    has_trump = trump != NO_TRUMP
    for card in cards:
        suit, rank = suit_of(card), rank_of(card)
        if is_joker(card):
            if has_trump:
                effective_suit[card], power[card] = trump, TRUMP_JOKER_POWER
            else:
                effective_suit[card], power[card] = JOKER_SUIT, NO_TRUMP_JOKER_POWER
        elif bowers and has_trump and rank == JACK and suit == trump:
            effective_suit[card], power[card] = trump, RIGHT_BOWER_POWER
        elif bowers and has_trump and rank == JACK and suit == 3 - trump:  # same colour
            effective_suit[card], power[card] = trump, LEFT_BOWER_POWER
        else:
            effective_suit[card], power[card] = suit, rank + (TRUMP_BONUS if suit == trump else 0)
    return effective_suit, power


def trump_of(name: str) -> int:
    """The trump value of a rule's suit name ("C", "D", "H", "S" or "NT")."""
    return NO_TRUMP if name == "NT" else "CDHS".find(name)


def suit_letter(suit: int) -> str | None:
    """ "C"/"D"/"H"/"S" for a suit, None for no trumps or a joker's own suit."""
    return SUIT_LETTERS[suit] if 0 <= suit < 4 else None


class GameSetup:
    """What stays fixed for the whole game; immutable, shared by clones and by games with the
    same rules and table size."""

    def __init__(self, rules: Rules, seat_count: int) -> None:
        self.rules = rules
        self.seat_count = seat_count
        #: the hand size of each scheduled deal
        self.hand_sizes: list[int] = rules.hand_sizes(seat_count)
        #: the pack this table plays with (``Rules.deck_for``: 6-7 players may get the 63-card pack)
        self.deck_name = rules.deck_for(seat_count)
        self.deck: list[Card] = build_deck(self.deck_name, seat_count)
        self.sorted_deck = sorted(self.deck)
        self.deck_size = deck_size(self.deck_name, seat_count)
        # for the deal's shuffle: one empty argument tuple per card, and the card indices
        self.shuffle_no_args: tuple[tuple[()], ...] = ((),) * len(self.deck)
        self.deck_indices = range(len(self.deck))
        self.has_joker = has_joker(self.deck_name)
        self.penalize = rules.revokes == "penalize"
        self.simultaneous = rules.bidding == "simultaneous"
        #: the hook applies only to sequential bidding (the dealer must see the other bids)
        self.hook = rules.hook and not self.simultaneous
        self.dealer_leads = rules.first_lead == "dealer"
        #: the scorer's figure for every (bid, tricks taken) a deal of this game can end with,
        #: ``[bid][tricks]`` up to the largest hand (scheduled, extra or play-off): the compiled
        #: scoring (:func:`games.ohhell.fast_loops.score_seats`) reads it instead of calling back
        largest = max(max(self.hand_sizes), min(PLAYOFF_HAND, self.deck_size // 2))
        self.score_table = score_table(rules.scoring, largest)
        #: the index in the schedule of the Devil's Bridge deal (see ``Rules.bridge_deal``)
        self.bridge_deal: int | None = rules.bridge_deal(seat_count)
        #: card tables for every trump value
        self.tables: dict[int, CardTables] = {
            t: card_tables(t, rules.bowers, self.deck) for t in (0, 1, 2, 3, NO_TRUMP)
        }
        #: the whole table's seat order for each dealer (dealer last)
        self.seat_orders = [[(d + 1 + k) % seat_count for k in range(seat_count)] for d in range(seat_count)]
        #: each seat's left-hand neighbour
        self.left_of = [(s + 1) % seat_count for s in range(seat_count)]
        #: the seats after each leader, in playing order (the whole table)
        self.followers = [tuple((s + 1 + k) % seat_count for k in range(seat_count - 1)) for s in range(seat_count)]


_SETUPS: dict[tuple[Rules, int], GameSetup] = {}


def game_setup(rules: Rules, seat_count: int) -> GameSetup:
    """Setups are immutable, so games with the same rules and table share one."""
    key = (rules, seat_count)
    setup = _SETUPS.get(key)
    if setup is None:
        if len(_SETUPS) > 256:
            _SETUPS.clear()
        setup = _SETUPS[key] = GameSetup(rules, seat_count)
    return setup
