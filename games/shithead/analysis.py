"""The Shithead coach: the luck, the swap and the decisions to pick up.

Everything is measured in one currency, a seat's **chance of a good result**: of not being the
shithead (or, playing for a winner, of being the winner), estimated by *playouts*: the game
played on to its end from a position by the sensible computer in every seat
(:func:`games.shithead.ai.choose_action`, a random legal action with probability ``noise``, so
that the playouts differ). Before each playout the cards nobody has seen are dealt again at
random: the stock and, except for the deal's worth, the face-down cards; and where a seat's swap
or decision is judged, the cards in the other hands that this seat did not see go in too (a dealt
or drawn card; what the whole table saw go in, a picked-up pile or a face-up card taken, stays in
its hand: ``Table.known``), so a choice is judged from what the seat could know, not from the
hidden hands (version 5; the coaches before it judged with every hand known). A playout runs on a cheap
copy of the table with the strong computer's playout moves (:mod:`games.shithead.search`: the
sensible player's move read straight from the table, done without the engine's events): from the
same random numbers it plays the same game the engine would, about ten times faster, which buys
ten times the playouts at about the old cost. Two positions are compared with the same random
numbers for each playout (the same redeal, the same noise), so only the difference between them
shows.

From the stored game alone (rules, seed, actions), for each seat:

- ``result``: 1 for a good result, else 0;
- ``skill``: what the seat's own choices gained against the computer's in its place: the sum
  over its decisions in play of the chance after what it did less the chance after the
  computer's choice there (0 where it made the computer's choice, or had no other), plus its
  ``swap_worth``. A seat left out of ``coached`` (the bot leaves its computers out) has no
  decisions weighed: its skill counts 0, as it played as the computer would;
- ``luck``: **everything that was not the seat's own decisions**, ``luck_weight`` times the
  result less the skill, each above the table's mean, so **the seats' luck sums to zero**; the
  luck-adjusted result ``adjusted = result - luck`` is shown beside the result, the players
  listed in finishing order (the adjusted results sum to the results: one fewer than the seats
  when playing to find the shithead, one when playing for a winner). Why not the deal's worth:
  measured over games between equal players unlike the coach's computer (bench/analysis.py),
  the worth of the dealt position removed only about 10 % of the results' variance; what falls
  between the deal and the end (the stock, the face-down cards, the others' play) is luck too.
  Measuring the seat's decisions against a reference player and calling the rest luck is the
  approach of decision-based luck analysis, as in GNU Backgammon's split of a match into luck
  and skill. The weight below 1 keeps some of the result, as the playouts' estimate of the
  skill is noisy (the spread of a seat's skill between analyses with other seeds, measured on two
  4-player games: about 0.07 at 120 playouts a position, 0.18 to 0.32 at the former 12); it was
  chosen by that measurement (over 80 games a set, the variance ratio 0.51 at 0.8 against 0.63
  at 0.7 with 12 playouts, and about 0.9 with the deal's worth). Over the same 80 games ten
  times the playouts took the unequal check's gap/sd from x1.36 to x1.50 (at 1.0: x1.39); over
  200 games a set it is x1.89 at 0.8, and the stronger pair leads in 129 games adjusted against
  123 raw (bench/analysis.py, every check passing);
- ``worth``: the chance of a good result from the **dealt** position (every seat swapping and
  playing as the computer, only the stock dealt again: the seat's own dealt cards, face-down
  ones included, are what the seat was dealt), shown for what the deal gave; it no longer
  enters the luck (``None`` with ``luck_rollouts=0``);
- ``swap``: the face-up cards the seat chose and those the computer would have chosen from the
  same dealt cards, and the chances of a good result from the position once play starts with
  each (``swap_worth``: the seat's minus the computer's; 0 when they chose the same faces);
- ``decisions``: every turn of the seat in play with a choice (a face-down flip is blind and is
  skipped) is compared by playouts with the computer's choice (``computer_chance``) and, when
  the seat played while it could pick up, with picking up. ``loss`` is the best alternative's
  chance less the chance after what the seat did (negative: the seat did better than both).
  The pick-ups made while a legal play existed are listed (``pickups``), the plays after which
  picking up did better (``plays_to_pick_up``) and the costliest decisions of all (``costly``,
  those not listed already).

The work is split into tasks (:func:`tasks`: the deal's worth, one swap per seat, one seat's
decisions), each a plain function of plain data (:func:`run_task`), so a caller can spread them
over worker processes; :func:`summarise` puts them together and :func:`analyse` does it all in
turn. Nothing here reads a clock or does I/O, and every random number comes from a generator
seeded from the config's ``seed`` and the task: the same game and config give the same analysis.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, cast

from games.common.cards import Card, card_code, face_of, parse_card
from games.common.engine import ActionData
from games.shithead.ai import choose_action, power_ranks
from games.shithead.contracts import ShitheadAction
from games.shithead.game import Shithead
from games.shithead.legal import legal_actions
from games.shithead.moves import Move, parse
from games.shithead.rules import Rules
from games.shithead.search import clone_table, fast_move, light_view, quiet_do

#: bump when the analysis changes meaning: a stored analysis of an older version is redone
VERSION = 5


@dataclass(frozen=True, slots=True)
class AnalysisConfig:
    #: playouts for each compared position (a swap, a decision's alternatives): the playouts run
    #: about ten times faster than the engine-based ones did (see :func:`_playout`), spent on ten
    #: times as many at about the same cost (the timed 4-player game: 22 s of processor time at 12
    #: engine-based playouts, 14 s at 120 fast ones)
    rollouts: int = 120
    #: playouts from the dealt position (the deal's ``worth``, shown beside the luck; one set
    #: serves every seat; 0: not measured)
    luck_rollouts: int = 192
    #: the share of (the result less the skill, each above the table's mean) counted as luck;
    #: chosen by bench/analysis.py over 80 games a set at 120 playouts a position, where the
    #: equal-other variance ratio is lowest (0.6: 0.533, 0.7: 0.513, 0.8: 0.509, 0.9: 0.522,
    #: 1: 0.552; gap/sd x1.42, x1.47, x1.50, x1.47, x1.39; the stronger pair ahead in 53, 52, 56,
    #: 55, 53 games adjusted against 52 raw). Over 200 games a set (seeds 2000 on) at 0.7, 0.8 and
    #: 0.9: ratio 0.570, 0.573, 0.592; gap/sd x1.78, x1.89, x1.96; ahead 122, 129, 135 against 123
    #: raw (0.7 fails that check). At 12 playouts 0.7 was best (200 games a set: 0.731 against
    #: 0.787 at 0.8): the sharper the skill's estimate, the more of the rest is luck
    luck_weight: float = 0.8
    #: how often a playout's seat takes a random legal action instead of the computer's
    noise: float = 0.05
    #: a playout still going after this many actions ends without a result (see :func:`_outcome`)
    max_actions: int = 1500
    check_swaps: bool = True
    check_decisions: bool = True
    #: weigh a play against picking up too (what the page lists; the luck needs only the
    #: computer's choice: without this a decision that was the computer's own costs no playouts)
    check_pickups: bool = True
    #: a play is listed among ``plays_to_pick_up`` when picking up did at least this much better
    min_loss: float = 0.05
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: (kind: "luck" | "swap" | "decisions", seat or -1, the part of the game's actions whose
#: decisions it weighs (first, end), rules JSON, seats, seed, rng_version, the game's actions,
#: config JSON)
Task = tuple[str, int, tuple[int, int], dict[str, Any], int, int, int, list[tuple[int, dict[str, Any]]], dict[str, Any]]

#: a seat's decisions are weighed in this many parts of the game (so the workers share the load)
PARTS = 3


def tasks(
    rules: dict[str, Any],
    seats: int,
    seed: int,
    rng_version: int,
    log: Sequence[tuple[int, ActionData]],
    config: AnalysisConfig,
    coached: Sequence[int] | None = None,
) -> list[Task]:
    """The deal's worth, then a swap and a decisions task for each coached seat (every seat by
    default; the bot coaches the people and leaves its computers out, whose skill then counts 0
    in the luck: they played as the computer would)."""
    plain = [(seat, dict(action)) for seat, action in log]
    base = (rules, seats, seed, rng_version, plain, config.to_json())
    chosen = list(range(seats)) if coached is None else sorted(set(coached))
    whole = (0, len(plain))
    out: list[Task] = [("luck", -1, whole, *base)] if config.luck_rollouts else []
    if config.check_swaps:
        out += [("swap", s, whole, *base) for s in chosen]
    if config.check_decisions:
        cuts = [len(plain) * k // PARTS for k in range(PARTS + 1)]
        out += [("decisions", s, (a, b), *base) for a, b in zip(cuts, cuts[1:], strict=False) for s in chosen if b > a]
    return out


# -- playouts ------------------------------------------------------------------------------------
def _start(rules: dict[str, Any], seats: int, seed: int, rng_version: int) -> Shithead:
    return Shithead.new(Rules.from_json(rules), seats, seed, rng_version=rng_version)


def _outcome(game: Shithead) -> list[float]:
    """Each seat's result: 1 good, 0 not; a playout cut short counts the table's average for all."""
    n = game.seats
    if not game.is_over:
        return [1 / n if game.rules.goal == "winner" else (n - 1) / n] * n
    if game.rules.goal == "winner":
        return [1.0 if s == game.winner else 0.0 for s in range(n)]
    return [0.0 if s == game.loser else 1.0 for s in range(n)]


def _redeal(game: Shithead, rng: random.Random, face_down: bool, viewer: int | None = None) -> None:
    """Deal the unseen cards again: the stock, and the face-down cards too if ``face_down``; with a
    ``viewer``, also the cards in the other hands that ``viewer`` did not see go in (all but the
    table's memory of each hand, ``Table.known``: picked-up piles, face-up cards taken), so a
    playout judging ``viewer``'s choice knows no more of the others' hands than ``viewer`` could."""
    slots = (
        [(s, i) for s in range(game.seats) for i, c in enumerate(game.down[s]) if c is not None] if face_down else []
    )
    pool: list[Card] = list(game.stock) + [cast(Card, game.down[s][i]) for s, i in slots]
    unseen: list[tuple[int, list[Card], int]] = []  # (seat, the cards it keeps, how many it is dealt)
    if viewer is not None:
        for s in range(game.seats):
            if s == viewer or not game.hand[s]:
                continue
            # (every remembered card is in the hand, and no two cards of a game are the same int)
            known = game.known[s]
            rest = [c for c in game.hand[s] if c not in known]
            pool += rest
            unseen.append((s, [c for c in game.hand[s] if c in known], len(rest)))
    pool.sort()
    rng.shuffle(pool)
    for s, i in slots:
        game.down[s][i] = pool.pop()
    for s, keep, count in unseen:
        game.hand[s] = keep + [pool.pop() for _ in range(count)]
    game.stock = pool


def _playout(
    game: Shithead, rng: random.Random, config: AnalysisConfig, face_down: bool = True, viewer: int | None = None
) -> list[float]:
    """One playout from ``game`` (left as it is): each seat's result, the unseen cards dealt again
    first (:func:`_redeal`; with ``viewer``, what that seat could not know of the other hands too).

    Played on a cheap copy of the table (:func:`games.shithead.search.clone_table`) with the strong
    computer's playout machinery: the swap phase (the deal's worth only) through the engine, then
    each move of play straight from the table, the sensible player's (:func:`fast_move`, or from
    a light view under runs or stacking, as :func:`games.shithead.search.playout` does) or with
    chance ``noise`` a random legal action, done by :func:`quiet_do` (the engine's steps without
    its events and notes). The random numbers are drawn as the engine-based playout drew them (one
    for the noise, the same choice among the same legal actions), so from the same generator it
    plays the same game (the tests check it) in about a tenth of the time."""
    g = clone_table(game)
    _redeal(g, rng, face_down, viewer)
    noise, limit, count = config.noise, config.max_actions, game.action_count
    n = 0
    while g.phase == "swap" and n < limit:
        seat = g.to_act()[0]
        view = g.view(seat)
        g.apply(seat, rng.choice(view["legal"]) if rng.random() < noise else choose_action(view, rng))
        n += 1
    rules = g.rules_json
    power = power_ranks(rules)
    fast = not (g.rules.runs or g.rules.stacking)
    while g.phase == "play" and n < limit:
        seat = cast(int, g.turn)
        move: Move
        if rng.random() < noise:
            move = parse(g, seat, rng.choice(legal_actions(g, seat)))
        elif fast:
            move = fast_move(g, seat, count + n, rng, power)
        else:
            move = parse(g, seat, choose_action(light_view(g, seat, count + n), rng))
        quiet_do(g, seat, move)
        n += 1
    return _outcome(g)


def _chances(starts: Sequence[Shithead], seat: int, base: int, config: AnalysisConfig) -> list[float]:
    """``seat``'s chance of a good result from each position, with the same random numbers for
    each playout across the positions, judged from what ``seat`` could know: the other hands' cards
    it did not see go in are dealt again in every playout."""
    totals = [0.0] * len(starts)
    for k in range(config.rollouts):
        for i, game in enumerate(starts):
            totals[i] += _playout(game, random.Random(base + k), config, viewer=seat)[seat]
    return [t / config.rollouts for t in totals]


# -- the tasks -----------------------------------------------------------------------------------
def run_task(task: Task) -> dict[str, Any]:
    """One task's figures (see the module's docstring)."""
    kind, seat, span, rules, seats, seed, rng_version, log, config_json = task
    config = AnalysisConfig(**config_json)
    if kind == "luck":
        return _luck(_start(rules, seats, seed, rng_version), config)
    if kind == "swap":
        return _swap(_start(rules, seats, seed, rng_version), seat, log, config)
    return _decisions(_start(rules, seats, seed, rng_version), seat, log, span, config)


def _luck(game: Shithead, config: AnalysisConfig) -> dict[str, Any]:
    worth = [0.0] * game.seats
    for k in range(config.luck_rollouts):
        rng = random.Random(config.seed * 1_000_003 + k)
        for s, result in enumerate(_playout(game, rng, config, face_down=False)):
            worth[s] += result / config.luck_rollouts
    return {"kind": "luck", "worth": worth}


def _faces(cards: Iterable[Card]) -> list[str]:
    return sorted((card_code(face_of(c)) for c in cards), key=lambda c: (parse_card(c) & 31, c))


def _swap(
    start: Shithead, seat: int, log: Sequence[tuple[int, dict[str, Any]]], config: AnalysisConfig
) -> dict[str, Any]:
    """The seat's swap against the computer's from the same dealt cards."""
    dealt = _faces(start.up[seat]) if start.rules.deal == "swap" else []
    swap_phase = []
    real = copy.deepcopy(start)
    for s, action in log:
        if real.phase != "swap":
            break
        swap_phase.append((s, action))
        real.apply(s, action)
    if real.phase == "swap":  # the game never got past the swap (it cannot be finished then)
        return {"kind": "swap", "seat": seat, "dealt": dealt, "chosen": [], "computer": [], "worth": 0.0}
    other = start
    for s, action in swap_phase:
        if s != seat:
            other.apply(s, action)
    rng = random.Random(config.seed * 1_000_003 + 500_009 + seat)
    for _ in range(100):
        if other.phase != "swap" or other.ready[seat]:
            break
        other.apply(seat, choose_action(other.view(seat), rng))
    chosen, computer = _faces(real.up[seat]), _faces(other.up[seat])
    row: dict[str, Any] = {"kind": "swap", "seat": seat, "dealt": dealt, "chosen": chosen, "computer": computer}
    if chosen == computer:
        row.update(worth=0.0, chance=None, computer_chance=None)
        return row
    mine, theirs = _chances([real, other], seat, config.seed * 1_000_003 + 700_001 + 1009 * seat, config)
    row.update(chance=round(mine, 4), computer_chance=round(theirs, 4), worth=round(mine - theirs, 4))
    return row


def _same(a: ActionData, b: ActionData) -> bool:
    if a.get("type") != b.get("type"):
        return False
    if a.get("type") == "play":
        return _faces(parse_card(c) for c in a["cards"]) == _faces(parse_card(c) for c in b["cards"])
    if a.get("type") == "pickup":
        x, y = a.get("add"), b.get("add")
        return (x is None and y is None) or (
            x is not None and y is not None and face_of(parse_card(x)) == face_of(parse_card(y))
        )
    return dict(a) == dict(b)


def _decisions(
    game: Shithead,
    seat: int,
    log: Sequence[tuple[int, dict[str, Any]]],
    span: tuple[int, int],
    config: AnalysisConfig,
) -> dict[str, Any]:
    """Every choice the seat made in play among ``log[first:end]``, against the computer's and
    against picking up."""
    rows = []
    for index, (s, action) in enumerate(log[: span[1]], start=1):
        if index > span[0] and s == seat and game.phase == "play" and action.get("type") in ("play", "pickup"):
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                row = _decision(game, seat, action, legal, index, config)
                if row is not None:
                    rows.append(row)
        game.apply(s, action)
    return {"kind": "decisions", "seat": seat, "rows": rows}


def _decision(
    game: Shithead,
    seat: int,
    action: dict[str, Any],
    legal: list[ShitheadAction],
    index: int,
    config: AnalysisConfig,
) -> dict[str, Any] | None:
    base = config.seed * 1_000_003 + 900_007 * (index + 1)
    view = game.view(seat)
    computer = dict(choose_action(view, random.Random(base)))
    pickups = [a for a in legal if a["type"] == "pickup"]
    plays = [a for a in legal if a["type"] == "play"]
    pickup: dict[str, Any] | None = None
    if action["type"] == "play" and pickups and config.check_pickups:
        only = view.copy()
        only["legal"] = list(pickups)
        pickup = dict(choose_action(only, random.Random(base)))
    alternatives = [a for a in (computer, pickup) if a is not None and not _same(a, action)]
    if action["type"] == "pickup" and not plays:
        return None  # a refusal: nothing else could be done (which face-up card to add is minor)
    if not alternatives:
        return None
    positions = [copy.deepcopy(game).apply(seat, a)[0] for a in [action, *alternatives]]
    chances = _chances(positions, seat, base, config)
    mine = chances[0]
    best = max(range(1, len(chances)), key=lambda i: (chances[i], -i))
    # the computer's choice is the first alternative unless the seat made it
    theirs = mine if _same(computer, action) else chances[1]
    row: dict[str, Any] = {
        "index": index,
        "seat": seat,
        "action": action,
        "pile": len(game.pile),
        "top": card_code(game.pile[-1]) if game.pile else None,
        "chance": round(mine, 4),
        "computer_chance": round(theirs, 4),
        "better": alternatives[best - 1],
        "better_chance": round(chances[best], 4),
        "loss": round(chances[best] - mine, 4),
    }
    if action["type"] == "pickup":
        row["kind"] = "pickup"
    elif pickup is not None and any(_same(a, pickup) for a in alternatives):
        chance_pickup = chances[1 + next(i for i, a in enumerate(alternatives) if _same(a, pickup))]
        row["pickup_loss"] = round(chance_pickup - mine, 4)
        row["kind"] = "play"
    else:
        row["kind"] = "play"
    return row


# -- the whole game --------------------------------------------------------------------------------
def summarise(
    parts: Sequence[dict[str, Any]], seats: int, order: Sequence[int], goal: str, config: AnalysisConfig
) -> dict[str, Any]:
    """The game's analysis from its tasks' results; ``order`` is the finishing order (the
    shithead last) and ``goal`` the rules' (``loser`` or ``winner``)."""
    dealt = next((p["worth"] for p in parts if p["kind"] == "luck"), None)
    swaps = {p["seat"]: p for p in parts if p["kind"] == "swap"}
    decisions = [row for p in parts if p["kind"] == "decisions" for row in p["rows"]]
    if goal == "winner":
        results = [1 if order and s == order[0] else 0 for s in range(seats)]
    else:
        results = [0 if order and s == order[-1] else 1 for s in range(seats)]
    mine = [[d for d in decisions if d["seat"] == s] for s in range(seats)]
    skill = [
        sum(d["chance"] - d["computer_chance"] for d in mine[s]) + (swaps[s]["worth"] if s in swaps else 0.0)
        for s in range(seats)
    ]
    mean_result, mean_skill = sum(results) / seats, sum(skill) / seats
    luck = [config.luck_weight * ((results[s] - mean_result) - (skill[s] - mean_skill)) for s in range(seats)]
    players = []
    for s in range(seats):
        players.append(
            {
                "seat": s,
                "place": order.index(s) + 1 if s in order else None,
                "result": results[s],
                "worth": round(dealt[s], 4) if dealt is not None else None,
                "skill": round(skill[s], 4),
                "luck": round(luck[s], 4),
                "adjusted": round(results[s] - luck[s], 4),
                "swap_worth": swaps[s]["worth"] if s in swaps else None,
                "decisions": len(mine[s]),
                "lost": round(sum(max(0.0, d["loss"]) for d in mine[s]), 4),
            }
        )
    # in finishing order: a result is 1 or 0, so ranking by it less the luck would put a lucky
    # first-out behind an unlucky second-out, which reads as ranking the winner second
    players.sort(key=lambda p: (p["place"] if p["place"] is not None else seats + 1, p["seat"]))
    pickups = sorted((d for d in decisions if d["kind"] == "pickup"), key=lambda d: (-d["loss"], d["index"]))[:8]
    to_pick = sorted(
        (d for d in decisions if d.get("pickup_loss", 0.0) >= config.min_loss),
        key=lambda d: (-d["pickup_loss"], d["index"]),
    )[:5]
    listed = {(d["seat"], d["index"]) for d in pickups + to_pick}
    costly = sorted(
        (d for d in decisions if d["loss"] > 0 and (d["seat"], d["index"]) not in listed),
        key=lambda d: (-d["loss"], d["index"]),
    )
    return {
        "version": VERSION,
        "game": "shithead",
        "config": config.to_json(),
        "goal": goal,
        "players": players,
        "swaps": [swaps[s] for s in sorted(swaps)],
        "pickups": pickups,
        "plays_to_pick_up": to_pick,
        "costly": costly[:5],
        "decisions": len(decisions),
    }


def plan(
    rules: dict[str, Any],
    seats: int,
    seed: int,
    rng_version: int,
    log: Sequence[tuple[int, ActionData]],
    config: AnalysisConfig,
    coached: Sequence[int] | None = None,
) -> tuple[list[Task], list[int], str]:
    """The tasks, the finishing order and the goal: what :func:`summarise` needs besides the
    tasks' results (the game replayed once, quickly)."""
    game = Shithead.replay(Rules.from_json(rules), seats, seed, log, rng_version=rng_version)
    return tasks(rules, seats, seed, rng_version, log, config, coached), game.results()["order"], game.rules.goal


def analyse(
    rules: dict[str, Any],
    seats: int,
    seed: int,
    rng_version: int,
    log: Sequence[tuple[int, ActionData]],
    config: AnalysisConfig | None = None,
    coached: Sequence[int] | None = None,
    run: Callable[[Callable[[Task], dict[str, Any]], list[Task]], Iterable[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A finished game's analysis; ``run`` maps :func:`run_task` over the tasks (a process
    pool's ``map`` spreads them over workers; by default they run here, in turn)."""
    config = config or AnalysisConfig()
    todo, order, goal = plan(rules, seats, seed, rng_version, log, config, coached)
    parts = list(run(run_task, todo) if run is not None else map(run_task, todo))
    return summarise(parts, seats, order, goal, config)
