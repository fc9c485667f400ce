"""OpenSpiel's ``oh_hell`` seen through one seat: the adapter that lets our computer players sit
at OpenSpiel's table (``bench/ai.py``). It lives in ``bench/`` because it imports ``pyspiel``;
``games/`` never needs OpenSpiel.

OpenSpiel's rules for ``oh_hell``: 52 cards, the card after the deal turned up for trumps (never
no trumps), bids from the dealer's left with the hook on the last bidder, the dealer's left leads,
1 a trick + 10 for an exact bid (our ``trick+10``). Its card ``a`` is rank ``a // 4`` (2..A) of
suit ``a % 4`` in the order clubs, diamonds, spades, hearts.

The info state is built from the state's history, keeping only what the seat may see: its own
dealt cards, the turned-up card, the bids and the played cards.
"""

from __future__ import annotations

from games.common.cards import ACE, JACK, KING, QUEEN, Card, make_card, standard52
from games.ohhell.ai.infostate import BID, PLAY, InfoState, Play, Trick
from games.ohhell.ai.table import DealTable

NUM_CARDS = 52
_OS_SUIT_TO_OURS = (0, 1, 3, 2)  # C, D, S, H -> clubs, diamonds, spades, hearts
_OS_RANK_TO_OURS = (2, 3, 4, 5, 6, 7, 8, 9, 10, JACK, QUEEN, KING, ACE)
DECK = tuple(standard52())


def os_card(action: int) -> Card:
    return make_card(_OS_RANK_TO_OURS[action // 4], _OS_SUIT_TO_OURS[action % 4])


_OURS_TO_OS = {os_card(a): a for a in range(NUM_CARDS)}


def os_action(card: Card) -> int:
    return _OURS_TO_OS[card]


def trick_winner(table: DealTable, plays: list[tuple[int, Card]]) -> int:
    """Seat winning a complete trick of (seat, card) plays (no joker in OpenSpiel's game)."""
    win_seat, win = plays[0][0], table.index[plays[0][1]]
    for seat, card in plays[1:]:
        c = table.index[card]
        if (table.beats[win] >> c) & 1 or (table.esuit[c] == table.trump and table.esuit[win] != table.trump):
            win, win_seat = c, seat
    return win_seat


def info_state(state, seat: int | None = None) -> InfoState:
    """The acting seat's :class:`InfoState` in a bid or play node of an OpenSpiel oh_hell state."""
    game = state.get_game()
    n = game.num_players()
    me = state.current_player() if seat is None else seat
    history = state.history()
    num_tricks, dealer = history[0], history[1]
    dealt = history[2 : 2 + n * num_tricks]
    trump_card = os_card(history[2 + n * num_tricks])
    rest = history[3 + n * num_tricks :]
    my_dealt = [os_card(a) for i, a in enumerate(dealt) if i % n == me]
    trump = next(s for s in range(4) if (trump_card >> 5) & 7 == s)
    table = DealTable.build(DECK, trump, False)
    bids: list[int | None] = [None] * n
    plays = []
    for i, a in enumerate(rest):
        if i < n:
            bids[(dealer + 1 + i) % n] = a - NUM_CARDS
        else:
            plays.append(os_card(a))
    tricks: list[Trick] = []
    won = [0] * n
    leader = (dealer + 1) % n
    current: list[Play] = []
    for card in plays:
        seat_now = (leader + len(current)) % n
        current.append(Play(seat_now, card))
        if len(current) == n:
            w = trick_winner(table, [(p.seat, p.card) for p in current])
            tricks.append(Trick(leader, tuple(current), w))
            won[w] += 1
            leader = w
            current = []
    mine_played = {p.card for t in tricks for p in t.plays if p.seat == me} | {p.card for p in current if p.seat == me}
    hand = tuple(c for c in my_dealt if c not in mine_played)
    phase = BID if len(rest) < n else PLAY
    legal = state.legal_actions()
    return InfoState(
        players=n,
        seat=me,
        dealer=dealer,
        hand_size=num_tricks,
        deck=DECK,
        trump=trump,
        phase=phase,
        hand=hand,
        bids=tuple(bids),
        won=tuple(won),
        tricks=tuple(tricks),
        current=tuple(current),
        leader=leader,
        scoring="trick+10",
        bowers=False,
        hook=True,
        simultaneous=False,
        first_lead="left-of-dealer",
        revokes="prevent",
        dead=(trump_card,),
        legal_bids=tuple(a - NUM_CARDS for a in legal) if phase == BID else (),
        legal_plays=tuple((os_card(a), None) for a in legal) if phase == PLAY else (),
    )
