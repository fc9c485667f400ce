"""The engine's inner loops, on plain lists and ints: dealing the hands, and the random
playout's bids and tricks. The part of the engine that is compiled to C where a compiler is at
hand.

Why a module of their own: a random hand through :meth:`games.ohhell.fast.FastPath.playout`
spends most of its time in these loops (forty cards dealt, four bids, forty cards drawn and
played), and Python pays for every bytecode of them. This module imports nothing of the game's
state (only the rules' table of bit lengths), so mypyc (part of mypy, the type checker the
project already runs) can compile it alone, unchanged: ``pip install -e .`` builds it where a C
compiler is at hand (``setup.py``), and :mod:`games.compiled` loads the compiled copy only when
it was built from this very source; otherwise this file runs as plain Python, with the same
results (the playout's tests in ``tests/games/ohhell/test_game_playout.py`` run through both
copies, and the deal through whichever is loaded: every test of the engine deals).

The loops draw exactly what ``random.Random.choice`` would over the legal list they never build
(see :meth:`FastPath.playout`): ``gb`` is the generator's ``getrandbits``, and each draw is an
inline copy of :func:`games.ohhell.play_rules.random_below`; who takes the lead is an inline copy
of :func:`games.ohhell.play_rules.takes_the_lead`, the hook one of ``hook_forbidden_bid``.
"""

from __future__ import annotations

from collections.abc import Callable

from games.ohhell import play_rules

#: the rules' bit lengths as a list, which compiled code indexes natively (a tuple read from an
#: interpreted module measured about 5 % slower playouts)
BIT_LENGTH: list[int] = list(play_rules.BIT_LENGTH)


def deal_hands(deck: list[int], order: list[int], hands: list[list[list[int]]], es: list[int], dealt: int) -> None:
    """Deal ``deck``'s first ``dealt`` cards one at a time to the seats of ``order`` in turn,
    each card into its seat's group of its effective suit ``es[card]`` (the groups are empty)."""
    players = len(order)
    for k in range(players):
        groups = hands[order[k]]
        for card in deck[k:dealt:players]:
            groups[es[card]].append(card)


def score_seats(
    players: list[int],
    bids: list[int],
    won: list[int],
    revoked: list[bool],
    table: list[list[int]],
    revoke_score: int,
    seat_count: int,
    playoff_scores: list[list[int]] | None,
    totals: list[int],
) -> list[int | None]:
    """A scored deal's score for each seat (None for a seat outside it): ``table[bid][tricks]``
    (the rules' scorer, :attr:`GameSetup.score_table`), at most ``revoke_score`` for a seat that
    revoked. Each is added to the seat's total, or for a play-off deal (``playoff_scores``
    given) appended to the seat's play-off scores. (Every deal is scored here, the checked API's
    and the playouts': a loop in C, where Python paid for a call to the scorer and a dozen
    bytecodes a seat, about 0.6 µs a deal of four, 3 % of a random hand's time.)"""
    scores: list[int | None] = [None] * seat_count
    for s in players:
        score = table[bids[s]][won[s]]
        if revoked[s] and score > revoke_score:
            score = revoke_score
        scores[s] = score
        if playoff_scores is not None:
            playoff_scores[s].append(score)
        else:
            totals[s] += score
    return scores


def random_bids(
    gb: Callable[[int], int],
    h: int,
    hook: bool,
    seat: int,
    next_seat: list[int],
    bids: list[int],
    deal_bids: list[tuple[int, int]],
    bid_count: int,
    bid_total: int,
    player_count: int,
) -> tuple[int, int]:
    """The rest of a sequential bidding, each bid drawn as ``rng.choice`` over the legal bids
    would: writes ``bids`` and ``deal_bids``, returns ``(bid_count, bid_total)``."""
    bl = BIT_LENGTH
    while True:
        n = h + 1
        forbidden = -1
        if hook and bid_count == player_count - 1:
            # the hook: the legal bids are 0..h without ``forbidden``, so the r-th is r, or
            # r + 1 from ``forbidden`` on
            forbidden = h - bid_total
            if forbidden >= 0:
                n = h
        b = bl[n]
        r = gb(b)
        while r >= n:
            r = gb(b)
        if 0 <= forbidden <= r:
            r += 1
        bids[seat] = r
        deal_bids.append((seat, r))
        bid_count += 1
        bid_total += r
        if bid_count == player_count:
            return bid_count, bid_total
        seat = next_seat[seat]


def any_card(gb: Callable[[int], int], g: list[list[int]], n: int) -> int:
    """Take out and return a uniformly drawn card of the hand ``g`` (its ``n`` cards by suit
    group): the legal list of a leader or a void follower is the groups one after another, so
    the r-th card is found by walking the groups."""
    b = BIT_LENGTH[n]
    r = gb(b)
    while r >= n:
        r = gb(b)
    for f in g:
        m = len(f)
        if r < m:
            return f.pop(r)
        r -= m
    raise IndexError(f"a hand of {n} cards holds fewer")


def random_tricks(
    gb: Callable[[int], int],
    hs: list[list[list[int]]],
    es: list[int],
    pw: list[int],
    follow: list[tuple[int, ...]],
    h: int,
    trump: int,
    won: list[int],
    deal_tricks: list[tuple[int, tuple[int, ...], int, int]],
    tc: list[int],
    tdone: int,
    leader: int,
    led: int,
    best: int,
    win: int,
) -> tuple[int, int, int, int, int]:
    """Play the deal's tricks to the end with random legal cards (see the module's text).

    ``hs``: each seat's hand by effective suit; ``es``/``pw``: each card's effective suit and
    power; ``follow[s]``: the seats after ``s`` in a trick; ``tc``: the current trick's cards
    so far (``leader``, ``led``, ``best`` and ``win`` describe it when it is not empty).
    Appends each trick to ``deal_tricks`` and counts it in ``won``; returns ``(last seat to
    play, leader, led, best, win)`` of the last trick. A follower with cards of the suit led
    picks among them; a leader or a void follower among the whole hand (:func:`any_card`)."""
    bl = BIT_LENGTH
    seat = leader
    played = len(tc)
    # the trick's cards, in one list of the trick's length for every trick (a list grown card by
    # card was allocated and grown again each trick, for the tuple it is copied into anyway)
    cards = [0] * (len(follow[leader]) + 1)
    for k in range(played):
        cards[k] = tc[k]
    # a trick already begun: its remaining seats first
    rest: tuple[int, ...] = follow[leader][played - 1 :] if played else ()
    begun = played > 0
    while True:
        if not begun:  # lead: any card
            a = any_card(gb, hs[leader], h - tdone)
            led = es[a]
            best = pw[a]
            win = leader
            cards[0] = a
            played = 1
            rest = follow[leader]
        begun = False
        for seat in rest:
            g = hs[seat]
            f = g[led]
            if f:  # following suit: one of the led suit's cards
                n = len(f)
                if n == 1:
                    while gb(1):  # random_below(gb, 1) draws one bit until it is 0
                        pass
                    a = f.pop()
                else:
                    b = bl[n]
                    r = gb(b)
                    while r >= n:
                        r = gb(b)
                    a = f.pop(r)
                p = pw[a]  # takes_the_lead: the card is of the suit led
                if p >= best:  # >=: of two identical cards the later wins (Australian pack)
                    best = p
                    win = seat
            else:  # void: any card
                a = any_card(gb, g, h - tdone)
                if es[a] == trump:  # takes_the_lead: the card is not of the suit led
                    p = pw[a]
                    if p >= best:
                        best = p
                        win = seat
            cards[played] = a
            played += 1
        won[win] += 1
        tdone += 1
        deal_tricks.append((leader, tuple(cards), -1, win))  # a tuple: see results.PlayedTrick
        if tdone == h:
            return seat, leader, led, best, win
        leader = win
