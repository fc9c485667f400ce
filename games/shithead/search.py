"""Shithead's strong computer: flat Monte Carlo over sampled hidden worlds.

Why: the sensible player's rules of thumb are blind to what comes next (who is about to go out,
what the pile will cost the next seat, whether keeping a 10 back pays). The strong player tries
distinct legal plays in *worlds* consistent with what its seat can see, plays each world out, and
counts how often it ends the shithead.

Who plays the worlds out: itself as the sensible player (:func:`fast_move`), and the others as
*unknown* opponents: it does not know who it plays, so in each world every other seat is, with
even chances (``lowest_share``), a sensible player or a plain one that sheds its lowest cards
(:func:`lowest_move`), the two ends of how people play. Measured over 600 four-player games
against greedy players (seeds 21 and 22, 300 each), the share of 0.5 lost 0.135 of them and
sensible-only worlds 0.150 (noisy: ±0.04 each); it is kept because it is the honest model of not
knowing the table, and the playouts must not assume the opponents it happens to be measured on.
The moves of a playout are done by :func:`quiet_do`, the engine's steps without its events and
notes (which nobody reads there), about twice as fast.

Two stages, because a playout's result is one bit and the plain "best average" over a few dozen
playouts was measured to play *worse* than the sensible player (a 4-player loser rate of 0.256
against 0.171: the maximum of noisy estimates is mostly noise). So: a short screen of every
candidate finds the best challenger to the sensible player's own choice, then the two are
compared in fresh worlds, and the challenger is played only if its mean gain clears ``z``
standard errors of the paired differences; otherwise the sensible play stands. As the table
empties the playouts shorten, so the worlds grow up to ``endgame_scale`` times (at the same cost
a decision), and the endgame, where one play often decides, is compared more closely.

What is sampled, from the seat's own view only (never a hidden card): each other hand keeps the
cards it took in sight of the table and still holds (the view's ``known``, in the computer's view
:func:`games.shithead.views.ai_view`: the piles it picked up, the face-up cards it swapped in, as
a player at the table remembers them; about three quarters of the other hands' cards at a
four-player table of greedy players); every other card that is not in its hand, on the table face
up or on the pile is unknown, and is dealt at random to the rest of the other hands (their sizes
are public), every face-down slot (its own too: they are played blind), the stock and the burnt
cards (the view gives only how many were burnt). The same worlds are used for
every candidate (common random numbers), so the comparison is between plays, not between luck.

The swap (or choosing) phase, flips and single choices stay the sensible player's: there is
nothing to compare. Everything is drawn from the injected generator with fixed counts (no clock),
so a decision is a pure function of the view and the generator's state. Measured by
``python -m bench.shithead --strong --games 2400 --jobs 16 --seed 6 --players 4`` (one strong
against three greedy players): the shithead 0.050 ± 0.009 of the time, and 0.107 ± 0.018 without
the remembered cards (``--no-memory``, 1,200 of those games; 0.130 ± 0.019 for the first search,
whose worlds had only sensible opponents); 86.7% of 800 two-player games won; 75.6 ms median and
163.1 ms p99 a decision, a process a core. See that bench's docstring.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.common.cards import JOKER_RANK, Card, parse_card
from games.shithead.ai import (
    PATIENCE,
    RANK_PLACE,
    LowestPlayer,
    SensiblePlayer,
    choose_action,
    power_ranks,
    random_action,
)
from games.shithead.contracts import ShitheadAction, ShitheadView, Zone
from games.shithead.deal import full_deck
from games.shithead.game import Shithead
from games.shithead.hands import codes
from games.shithead.legal import legal_actions
from games.shithead.moves import Flip, Move, Pickup, Play, parse
from games.shithead.rules import make_rules
from games.shithead.turns import do, leave, turn_after_pickup


@dataclass(frozen=True)
class SearchConfig:
    """How much the strong player searches (fixed counts, so decisions repeat)."""

    #: worlds each candidate is tried in to find the best challenger to the sensible play
    screen_worlds: int = 6
    #: worlds the sensible play and its challenger are then compared in
    duel_worlds: int = 48
    #: how many standard errors the challenger's mean gain must reach to be played
    z: float = 1.0
    #: most candidates searched (the sensible player's favourites first)
    max_candidates: int = 6
    #: a playout longer than this many actions is scored by cards left instead
    max_actions: int = 300
    #: the chance each other seat of a sampled world sheds its lowest cards instead of playing
    #: sensibly: the strong player does not know who it plays, so its worlds hold both kinds
    lowest_share: float = 0.5
    #: at most this many times the worlds once few cards are left (see :meth:`StrongPlayer.scale`)
    endgame_scale: float = 2.0


#: the search of every strong computer the bot seats (a test of the bot's tables may put a smaller
#: one here, see tests/helpers.py's ``small_searches``: it checks the tables, not the search)
DEFAULT_SEARCH = SearchConfig()


def _key(action: ShitheadAction, runs: bool) -> tuple[Any, ...]:
    """Actions with the same key are the same move for the outcome (suits only matter for runs)."""
    if action["type"] == "play":
        if runs:
            return ("play", tuple(sorted(action["cards"])))
        return ("play", tuple(sorted(parse_card(c) & 31 for c in action["cards"])))
    if action["type"] == "pickup":
        add = action.get("add")
        return ("pickup", None if add is None else parse_card(add) & 31)
    return (action["type"], repr(sorted(action.items())))


def candidates(view: ShitheadView, rng: random.Random, limit: int) -> list[ShitheadAction]:
    """The distinct legal moves worth comparing, the sensible player's choice first."""
    legal = view["legal"]
    sensible = SensiblePlayer(rng)
    first = sensible.choose(view)
    runs = bool(view["rules"].get("runs"))
    plays = [a for a in legal if a["type"] == "play"]
    ranked = sorted(plays, key=lambda a: -sensible._score(a, view))
    seen = {_key(first, runs)}
    out = [first]
    others: list[ShitheadAction] = []
    for a in ranked + [a for a in legal if a["type"] != "play"]:
        k = _key(a, runs)
        if k not in seen:
            seen.add(k)
            (out if a["type"] == "play" else others).append(a)
    others.sort(key=lambda a: a["type"] != "pickup")  # taking the pile on purpose is always tried
    return (out[: max(1, limit - 1)] + others + out[max(1, limit - 1) :])[:limit]


def _remove(pool: list[Card], cards: list[Card]) -> None:
    for c in cards:
        try:
            pool.remove(c)
        except ValueError:  # a copy-less code for a multi-deck card: any copy of that face
            for i, p in enumerate(pool):
                if p & 0xFF == c & 0xFF:
                    del pool[i]
                    break


def base_table(view: ShitheadView) -> Shithead:
    """A game of the view's rules and seats, to be filled with a sampled world."""
    rules = make_rules("pagat", **view["rules"])
    return Shithead.from_deck(rules, view["seat_count"], full_deck(rules), view["dealer"])


def sample_world(view: ShitheadView, base: Shithead, rng: random.Random) -> Shithead:
    """A copy of ``base`` holding one world consistent with the view (see the module docstring)."""
    me = view["viewer"]
    assert me is not None
    hand = [parse_card(c) for c in view["hand"]]
    pile = [parse_card(c) for c in view["pile"]]
    ups = [[parse_card(c) for c in s["face_up"]] for s in view["seats"]]
    remembered = view.get("known") or [[] for _ in view["seats"]]  # (none in a plain seat view)
    known = [[] if s == me else [parse_card(c) for c in k] for s, k in enumerate(remembered)]
    pool = full_deck(base.rules)
    _remove(pool, hand)
    _remove(pool, pile)
    for cards in (*ups, *known):
        _remove(pool, cards)
    rng.shuffle(pool)
    t = clone_table(base)
    for s, seat in enumerate(view["seats"]):
        if s == me:
            t.hand[s] = list(hand)
        else:
            t.hand[s] = known[s] + [pool.pop() for _ in range(seat["hand_size"] - len(known[s])) if pool]
        t.up[s] = ups[s]
        slots = set(seat["face_down_slots"])
        width = max([len(base.down[s]), *(i + 1 for i in slots)])
        t.down[s] = [pool.pop() if i in slots and pool else None for i in range(width)]
        t.active[s] = not seat["out"]
        t.ready[s] = True
    t.stock = [pool.pop() for _ in range(view["stock"]) if pool]
    t.burnt = pool
    t.pile = pile
    t.free = set()
    t.phase = "play"  # searched only in the play phase
    t.turn = view["turn"]
    t.direction = view["direction"]
    t.finished = list(view["finished"])
    t.flush = view["flush"]
    t.last_player = view["recent"][-1]["seat"] if view["recent"] and view["recent"][-1]["kind"] == "play" else None
    t.loser, t.winner = view["loser"], view["winner"]
    return t


def clone_table(t: Shithead) -> Shithead:
    """A copy of the table a playout may change (its lists copied, not its rules or tables), with
    no events or log: a playout's copy costs far less than a deep copy of the engine (the strong
    computer's worlds and the coach's playouts). The action count is not kept in the copy's log:
    a playout passes it on itself."""
    c = object.__new__(type(t))
    c.__dict__.update(t.__dict__)
    c.down = [list(d) for d in t.down]
    c.up = [list(u) for u in t.up]
    c.hand = [list(h) for h in t.hand]
    c.known = [list(k) for k in t.known]
    c.stock, c.pile, c.burnt = list(t.stock), list(t.pile), list(t.burnt)
    c.free = set(t.free)
    c.ready, c.active, c.finished = list(t.ready), list(t.active), list(t.finished)
    c.pickups = list(t.pickups)
    c.recent = []
    c._log = []
    return c


def _value(rank: int, power: set[int]) -> int:
    """The sensible player's worth of keeping a card (see ``SensiblePlayer._value``)."""
    if rank in power:
        return 20 + {2: 1, 10: 3, JOKER_RANK: 2}.get(rank, 0)
    return RANK_PLACE[rank]


def _turn_cards(t: Shithead, seat: int) -> tuple[Zone, list[Card], frozenset[int]] | Flip:
    """What a playout's seat plays from (its hand, else its face-up cards) and the ranks the pile
    allows, or the flip of its first face-down card when both are empty."""
    hand = t.hand[seat]
    zone: Zone = "hand" if hand else "up"
    cards = hand or t.up[seat]
    if not cards:
        return Flip(next(i for i, c in enumerate(t.down[seat]) if c is not None))
    return zone, cards, t.pr.playable_set(t.pile, t.free)


def fast_move(t: Shithead, seat: int, count: int, rng: random.Random, power: set[int]) -> Move:
    """The sensible player's move straight from the table (no view, no codes): a playout's step.

    Same choices as :class:`SensiblePlayer` except that of one rank it always plays every copy
    (which the sensible player's score prefers anyway). Not for runs or stacking (see
    :func:`playout`)."""
    turn = _turn_cards(t, seat)
    if isinstance(turn, Flip):
        return turn
    zone, cards, allowed = turn
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        if c & 31 in allowed:
            by_rank.setdefault(c & 31, []).append(c)
    if not by_rank:
        if zone == "up" and t.rules.refusal == "add-one":
            return Pickup(min(cards, key=lambda c: _value(c & 31, power)))
        return Pickup(None)
    if count >= PATIENCE and rng.random() < min(0.5, count / 4000):
        return Play(by_rank[rng.choice(sorted(by_rank))], zone)
    pile = t.pile
    top_rank, top_run = _top_run(pile)
    best: list[Card] = []
    top = -1e9
    for rank, group in by_rank.items():
        score = -10.0 * _value(rank, power) + len(group)
        if rank in power:
            if rank == 10 and len(pile) >= 4:
                score += 40 + len(pile)
            if not pile:
                score -= 100
        elif rank != JOKER_RANK and len(group) + (top_run if rank == top_rank else 0) >= 4:
            score += 150  # four of a kind on top burns the pile
        if score > top:
            top, best = score, group
    return Play(list(best), zone)


def _top_run(pile: list[Card]) -> tuple[int, int]:
    """(the rank on top of ``pile``, how many cards of it lie there in a row), (-1, 0) if empty."""
    if not pile:
        return -1, 0
    rank = pile[-1] & 31
    run = 0
    for c in reversed(pile):
        if c & 31 != rank:
            break
        run += 1
    return rank, run


def quiet_do(t: Shithead, seat: int, move: Move) -> None:
    """:func:`games.shithead.turns.do` for a playout's play-phase move, without events or notes.

    Why: building the events and the recent-action texts was about a third of a playout's time,
    and a playout reads neither. The same steps as ``turns.play``, ``flip`` and ``pickup`` (the
    tests check the tables stay equal move for move); any other move goes through ``do``."""
    if isinstance(move, Play):
        source = t.hand[seat] if move.zone == "hand" else t.up[seat]
        for c in move.cards:
            source.remove(c)
        _quiet_play(t, seat, move.cards)
    elif isinstance(move, Flip):
        card = t.down[seat][move.index]
        assert card is not None
        t.down[seat][move.index] = None
        if t.pr.playable(card, t.pile, t.free):
            _quiet_play(t, seat, [card])
        else:
            t.pile.append(card)
            _quiet_pickup(t, seat)
    elif isinstance(move, Pickup):
        if move.add is not None:
            t.up[seat].remove(move.add)
            t.pile.append(move.add)
        _quiet_pickup(t, seat)
    else:
        do(t, seat, move, [])


def _quiet_play(t: Shithead, seat: int, cards: list[Card]) -> None:
    t.pile.extend(cards)
    t.last_player = seat
    pr = t.pr
    reversals = sum(1 for c in cards if pr.reverses(c))
    skips = sum(1 for c in cards if pr.skips(c))
    if skips and sum(t.active) == 2:
        t.free.update(c for c in cards if pr.skips(c))
    if reversals % 2:
        t.direction = -t.direction
    burnt = pr.burns(t.pile)
    if burnt:
        if t.rules.flush and t.flush is None:
            t.flush = seat
        t.burnt.extend(t.pile)
        t.pile.clear()
        t.free.clear()
    hand = t.hand[seat]
    need = t.rules.hand_size - len(hand)
    if need > 0 and t.stock:
        hand.extend([t.stock.pop() for _ in range(min(need, len(t.stock)))])
    if not hand and not t.up[seat] and all(c is None for c in t.down[seat]) and _quiet_out(t, seat):
        return
    if burnt and t.active[seat]:
        t.turn = seat
        return
    if skips and sum(t.active) == 2:  # the same order of checks as turns.play
        t.turn = seat
        return
    t.turn = t.next_seat(seat, 1 + skips, t.direction)


def _quiet_pickup(t: Shithead, seat: int) -> None:
    t.pickups[seat] += 1
    t.hand[seat].extend(t.pile)
    t.pile.clear()
    t.free.clear()
    turn_after_pickup(t, seat)


def _quiet_out(t: Shithead, seat: int) -> bool:
    if not leave(t, seat):
        return False
    t.phase = "over"
    t.turn = None
    return True


def lowest_move(t: Shithead, seat: int) -> Move:
    """The plain lowest-card player's move straight from the table (see :class:`LowestPlayer`):
    one of the unknown opponents a playout may seat (see :class:`SearchConfig`)."""
    turn = _turn_cards(t, seat)
    if isinstance(turn, Flip):
        return turn
    zone, cards, allowed = turn
    low = min((c & 31 for c in cards if c & 31 in allowed), key=RANK_PLACE.__getitem__, default=None)
    if low is None:
        return Pickup(cards[0] if zone == "up" and t.rules.refusal == "add-one" else None)
    return Play([c for c in cards if c & 31 == low], zone)


def light_view(t: Shithead, seat: int, count: int) -> Any:
    """What the view-based players read of a playout's table (the legal actions, the rules, the
    pile, the action count ``count``): their move under runs or stacking, where :func:`fast_move`
    does not go, without building the engine's whole view."""
    return {
        "phase": "play",
        "legal": legal_actions(t, seat),
        "rules": t.rules_json,
        "pile": codes(t.pile),
        "action_count": count,
    }


def playout(
    t: Shithead, me: int, count: int, rng: random.Random, limit: int, lowest: frozenset[int] = frozenset()
) -> float:
    """Play ``t`` out, 1 when ``me`` escapes (or wins), 0 when it loses: the seats in ``lowest``
    shed their lowest cards (:func:`lowest_move`), the others play sensibly (``me`` included)."""
    policy = SensiblePlayer(rng)
    plain = LowestPlayer(rng)
    rules = t.rules_json
    power = power_ranks(rules)
    fast = not (t.rules.runs or t.rules.stacking)
    n = 0
    while t.phase == "play" and n < limit:
        seat = t.turn
        assert seat is not None
        if fast:
            move = lowest_move(t, seat) if seat in lowest else fast_move(t, seat, count + n, rng, power)
        else:
            move = parse(t, seat, (plain if seat in lowest else policy).choose(light_view(t, seat, count + n)))
        quiet_do(t, seat, move)
        n += 1
    if t.phase == "over":
        if t.winner is not None:
            return 1.0 if t.winner == me else 0.0
        return 0.0 if t.loser == me else 1.0
    # unfinished (a long loop): fewer cards left than the others is better
    left = [len(t.hand[s]) + len(t.up[s]) + sum(c is not None for c in t.down[s]) for s in range(t.seats)]
    return sum(left[me] < x for s, x in enumerate(left) if s != me) / max(1, t.seats - 1)


class StrongPlayer:
    """Flat Monte Carlo over sampled worlds, sensible playouts (see the module docstring)."""

    def __init__(self, rng: random.Random, config: SearchConfig | None = None) -> None:
        self.rng = rng
        self.config = config or DEFAULT_SEARCH

    def choose(self, view: ShitheadView) -> ShitheadAction:
        if view["phase"] != "play" or view["legal"][0]["type"] == "flip":
            return SensiblePlayer(self.rng).choose(view)
        cfg = self.config
        moves = candidates(view, self.rng, cfg.max_candidates)
        if len(moves) == 1:
            return moves[0]
        base = base_table(view)
        scale = self.scale(view, len(full_deck(base.rules)))
        if len(moves) > 2:  # screen: the most promising challenger to the sensible play
            totals = self._scores(view, base, moves, round(cfg.screen_worlds * scale))
            challenger = max(range(1, len(moves)), key=lambda i: sum(totals[i]))
            moves = [moves[0], moves[challenger]]
        keep, other = self._scores(view, base, moves, round(cfg.duel_worlds * scale))
        diffs = [b - a for a, b in zip(keep, other, strict=True)]
        mean = sum(diffs) / len(diffs)
        spread = sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)
        # only a clear gain overturns the sensible play: a noisy maximum would play worse than it
        if mean > 0 and mean * mean * len(diffs) > cfg.z * cfg.z * max(spread, 1e-9):
            return moves[1]
        return moves[0]

    def scale(self, view: ShitheadView, deck: int) -> float:
        """How many times the configured worlds to use: a playout's length goes with the cards
        still in play, so as the table empties more worlds cost about what the first few did
        (up to ``endgame_scale`` times), and the endgame, where one play decides, is searched
        more closely. Only public counts are read, so the decision stays repeatable."""
        live = view["stock"] + len(view["pile"])
        live += sum(s["hand_size"] + len(s["face_up"]) + len(s["face_down_slots"]) for s in view["seats"])
        return min(self.config.endgame_scale, max(1.0, deck / max(1, live)))

    def _scores(
        self, view: ShitheadView, base: Shithead, moves: list[ShitheadAction], worlds: int
    ) -> list[list[float]]:
        """Each move's playout result in each of ``worlds`` sampled worlds (the same worlds)."""
        me = view["viewer"]
        assert me is not None
        out: list[list[float]] = [[] for _ in moves]
        for _ in range(worlds):
            world = sample_world(view, base, self.rng)
            seed = self.rng.getrandbits(32)
            share = self.config.lowest_share
            lowest = frozenset(s for s in range(world.seats) if s != me and share and self.rng.random() < share)
            for i, move in enumerate(moves):
                t = clone_table(world)
                quiet_do(t, me, parse(t, me, move))
                result = playout(t, me, view["action_count"] + 1, random.Random(seed), self.config.max_actions, lowest)
                out[i].append(result)
        return out


def decide(view: ShitheadView, level: str, rng: random.Random) -> ShitheadAction:
    """A computer seat's move at ``level``: "random", "strong" (this search), else sensible."""
    if level == "random":
        return random_action(view, rng)
    if level == "strong":
        return StrongPlayer(rng).choose(view)
    return choose_action(view, rng)
