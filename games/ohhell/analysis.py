"""The coach: how much of an Oh Hell result was the deal and how much was the play.

For every deal and seat, from the stored game alone (rules, seed, actions):

- ``expected_tricks``: the strong computer's bid for the dealt hand, asked from the seat's own
  view at the moment the seat bid (the same earlier bids in front of it);
- ``expected_score``: the hand's worth, the mean score the seat takes over ``luck_rollouts`` replays
  of the deal from its start with the same cards, every seat bid and played by the computer of
  ``rollout_level`` (the luck of the deal: what a computer would have made of these cards);
- ``score``: the points actually taken (the play, bids included);
- ``decisions``: the points the seat's choices won or lost against the quick computer's: at each
  bid and card where it chose otherwise than the quick computer would have, both choices are played
  out in the same ``skill_worlds`` worlds sampled from the seat's own view (hidden cards dealt to fit
  the bids and plays, as the strong computer samples them) with the same random numbers, and the
  difference of the seat's mean points is counted (:func:`games.ohhell.ai.action_values`); a
  choice equal to the computer's counts 0, and nothing the seat could not see enters it.

Over the game, ``luck`` is ``luck_weight`` times the part of a seat's lead over the table's mean
total that its choices do not explain (its lead less its choices' lead over their mean): the
cards and the others' play. The luck-adjusted score, the total minus the luck, ranks the summary;
the seats' luck sums to zero. Why not the hand's worth alone (the first coach): between equal
players it explained a tenth of the spread of their scores (``bench/analysis.py``: adjusted
variance 0.90 of the raw one), because a deal's points hang on making the bid exactly, which the
play decides more than the cards; weighing each decision, the way backgammon programs split
luck from skill, leaves 0.60. ``bench/analysis.py`` measures it between players unlike the quick
computer, with a placebo.

``misbids`` are the bids that missed where the strong computer bid otherwise (farthest from its
bid first; a made bid is no misbid); ``costly_cards`` the cards after which the deal's replays
(``rollouts`` each, the same random numbers for both) scored less on average for that seat than
after the strong computer's choice at the same point.

Each deal is analysed on its own (:func:`analyse_deal`, a plain function of plain data), so a
caller can spread the deals over worker processes; :func:`analyse` runs them in turn and
:func:`summarise` puts them together. Nothing here reads a clock or does I/O: the same game and
config give the same analysis.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.common.engine import ActionData
from games.ohhell.ai import StrongConfig, action_values, choose_action, computer_move
from games.ohhell.ai.view_adapter import ai_view
from games.ohhell.game import OhHell
from games.ohhell.rules import Rules

#: bump when the analysis changes meaning: a stored analysis of an older version is redone
VERSION = 3


@dataclass(frozen=True, slots=True)
class AnalysisConfig:
    rollouts: int = 6
    #: replays of each deal for the hand's worth (the luck), and the share of it taken off
    luck_rollouts: int = 8
    #: the share of the luck (what was not the seat's decisions) taken off the total
    luck_weight: float = 0.8
    #: worlds each decision that differs from the quick computer's is weighed in, and how often
    #: the other seats play a random card in those playouts
    skill_worlds: int = 48
    skill_noise: float = 0.1
    rollout_level: str = "quick"
    #: the strong computer's work per bid (StrongConfig.bid_budget; the bot's own bids use 100000)
    bid_budget: int = 10000
    #: how often a replay's seat plays a random legal action instead of the computer's: play is
    #: not all alike, and a computer alone would replay a computers' game exactly
    noise: float = 0.1
    #: the computer whose choice each card is compared with, and its work per card (StrongConfig.budget)
    card_level: str = "strong"
    card_budget: int = 2000
    check_cards: bool = True
    #: ask the strong computer's bid for each hand (``expected_tricks``, the misbids)
    check_bids: bool = True
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: (rules JSON, seats, seed, rng_version, the actions before the deal, the deal's actions, config JSON)
DealTask = tuple[
    dict[str, Any], int, int, int, list[tuple[int, dict[str, Any]]], list[tuple[int, dict[str, Any]]], dict[str, Any]
]


def deal_tasks(
    rules: dict[str, Any],
    seats: int,
    seed: int,
    rng_version: int,
    log: Sequence[tuple[int, ActionData]],
    config: AnalysisConfig,
) -> list[DealTask]:
    """One task per deal: the actions before it and its own (plain, picklable data)."""
    game = OhHell.new(Rules.from_json(rules), seats, seed, rng_version=rng_version)
    ends = []
    for index, (seat, action) in enumerate(log):
        game, events = game.apply(seat, action)
        if _deal_over(events):
            ends.append(index + 1)
    # a card taken back, the requests and a replaced secret bid were never the seat's choice:
    # each deal is judged on the actions that stood (games.ohhell.takeback)
    dropped = {index for index, _, _ in game.takeback.side_log}
    kept = [i for i in range(len(log)) if i not in dropped]
    starts = [0] + [sum(1 for i in kept if i < end) for end in ends]
    plain = [(log[i][0], dict(log[i][1])) for i in kept]
    return [
        (rules, seats, seed, rng_version, plain[:start], plain[start:end], config.to_json())
        for start, end in zip(starts, starts[1:], strict=False)
    ]


def _deal_over(events: Iterable[Any]) -> bool:
    return any(e.kind in ("deal_scored", "game_over") for e in events)


def _finish_deal(game: OhHell, rng: random.Random, level: str, noise: float) -> list[int]:
    """The deal played out by computers from ``game`` (a random legal action with probability
    ``noise``); returns each seat's points for it."""
    before = game.totals[:]
    g = game.clone()
    while not g.is_over:
        seat = g.to_act()[0]
        if rng.random() < noise:
            action = rng.choice(g.legal_actions(seat))
        else:
            action = computer_move(g, seat, level, rng)
        g, events = g.apply(seat, action)
        if _deal_over(events):
            break
    return [after - b for after, b in zip(g.totals, before, strict=True)]


def analyse_deal(task: DealTask) -> dict[str, Any]:
    """One deal's figures (see the module's docstring)."""
    rules_json, seats, seed, rng_version, before, own, config_json = task
    config = AnalysisConfig(**config_json)
    game = OhHell.replay(Rules.from_json(rules_json), seats, seed, before, rng_version=rng_version)
    view = game.view(None)
    deal_no, hand_size, players = view["deal"], view["hand_size"], list(view["players"])
    base = config.seed * 1_000_003 + deal_no * 7919
    # the hand's worth: the deal replayed by computers from the same cards
    worth = [0.0] * seats
    for k in range(config.luck_rollouts):
        for seat, points in enumerate(_finish_deal(game, random.Random(base + k), config.rollout_level, config.noise)):
            worth[seat] += points / config.luck_rollouts
    strong = StrongConfig(bid_budget=config.bid_budget)
    expected_tricks: dict[int, int] = {}
    bids: dict[int, int] = {}
    costly: list[dict[str, Any]] = []
    skill = [0.0] * seats
    for index, (seat, action) in enumerate(own):
        skill[seat] += _decision_points(game, seat, action, config, base + 5003 * (index + 1))
        if action.get("type") == "bid" and not config.check_bids:
            bids[seat] = int(action["bid"])
        elif action.get("type") == "bid":
            choice = choose_action(ai_view(game, seat), "strong", random.Random(base + 101 + seat), config=strong)
            chosen_bid = choice.get("bid")
            expected_tricks[seat] = chosen_bid if isinstance(chosen_bid, int) else 0
            bids[seat] = int(action["bid"])
        elif config.check_cards and action.get("type") == "play" and len(game.legal_actions(seat)) > 1:
            card_rng = random.Random(base + 211 + seat)
            adviser = StrongConfig(budget=config.card_budget)
            alternative = dict(choose_action(ai_view(game, seat), config.card_level, card_rng, config=adviser))
            if (alternative.get("card"), alternative.get("suit")) != (action.get("card"), action.get("suit")):
                loss = _card_loss(game, seat, action, alternative, config, base + 1009 * (len(costly) + 1))
                if loss > 0:
                    costly.append(
                        {
                            "seat": seat,
                            "card": action.get("card"),
                            "better": alternative.get("card"),
                            "loss": round(loss, 2),
                        }
                    )
        game, _ = game.apply(seat, action)
    record = next((h for h in reversed(game.history) if h["deal"] == deal_no), None)
    rows = [
        {
            "seat": seat,
            "bid": bids.get(seat),
            "tricks": record["tricks"][seat] if record else None,
            "score": record["scores"][seat] if record else None,
            "expected_tricks": expected_tricks.get(seat),
            "expected_score": round(worth[seat], 2),
            "decisions": round(skill[seat], 2),
        }
        for seat in players
    ]
    return {"deal": deal_no, "hand_size": hand_size, "rows": rows, "costly_cards": costly}


def _decision_points(game: OhHell, seat: int, action: dict[str, Any], config: AnalysisConfig, base: int) -> float:
    """Deal points the seat's choice won (or lost, negative) against the quick computer's choice
    at the same point, judged from the seat's own view (:func:`action_values`); 0 where it did
    the computer's choice or had none."""
    legal = game.legal_actions(seat)
    if len(legal) < 2 or config.skill_worlds <= 0:
        return 0.0
    taken = next((a for a in legal if dict(a) == dict(action)), None)
    reference = computer_move(game, seat, "quick", random.Random(base))
    if taken is None or dict(reference) == dict(taken):
        return 0.0
    mine, computers = action_values(
        game, seat, [taken, reference], random.Random(base + 1), config.skill_worlds, config.skill_noise
    )
    return mine - computers


def _card_loss(
    game: OhHell, seat: int, played: dict[str, Any], alternative: dict[str, Any], config: AnalysisConfig, base: int
) -> float:
    """Mean deal points for ``seat`` after the computer's card minus after the card played
    (the same random numbers on both sides, so only the card differs)."""
    after_alt, _ = game.clone().apply(seat, alternative)
    after_real, _ = game.clone().apply(seat, played)
    total = 0.0
    for k in range(config.rollouts):
        alt = _finish_deal(after_alt, random.Random(base + k), config.rollout_level, config.noise)[seat]
        real = _finish_deal(after_real, random.Random(base + k), config.rollout_level, config.noise)[seat]
        total += (alt - real) / config.rollouts
    return total


def _misbid(row: dict[str, Any]) -> bool:
    """A bid that missed where the strong computer bid otherwise (a made bid is no misbid, and a
    bid the computer would have made too missed by the cards, not the bidder)."""
    bid, tricks, computer = row["bid"], row["tricks"], row["expected_tricks"]
    return bid is not None and tricks is not None and computer is not None and bid != tricks and bid != computer


def summarise(deals: list[dict[str, Any]], seats: int, config: AnalysisConfig) -> dict[str, Any]:
    """The game's analysis from its deals' (in deal order)."""
    total = [0] * seats
    expected = [0.0] * seats
    skill = [0.0] * seats
    misbids = []
    costly = []
    for deal in deals:
        for row in deal["rows"]:
            total[row["seat"]] += row["score"] or 0
            expected[row["seat"]] += row["expected_score"]
            skill[row["seat"]] += row.get("decisions", 0.0)
            if _misbid(row):
                misbids.append(
                    {
                        "deal": deal["deal"],
                        "seat": row["seat"],
                        "bid": row["bid"],
                        "tricks": row["tricks"],
                        "expected_tricks": row["expected_tricks"],
                        "score": row["score"],
                    }
                )
        costly += [{"deal": deal["deal"], **c} for c in deal["costly_cards"]]
    mean_total, mean_skill = sum(total) / seats, sum(skill) / seats
    luck = [config.luck_weight * ((total[s] - mean_total) - (skill[s] - mean_skill)) for s in range(seats)]
    players = [
        {
            "seat": seat,
            "total": total[seat],
            "expected": round(expected[seat], 2),
            "decisions": round(skill[seat], 2),
            "luck": round(luck[seat], 2),
            "adjusted": round(total[seat] - luck[seat], 2),
        }
        for seat in range(seats)
    ]
    players.sort(key=lambda p: (-p["adjusted"], p["seat"]))
    misbids.sort(key=lambda m: (-abs(m["bid"] - m["expected_tricks"]), m["deal"], m["seat"]))
    costly.sort(key=lambda c: (-c["loss"], c["deal"], c["seat"]))
    return {
        "version": VERSION,
        "config": config.to_json(),
        "deals": deals,
        "players": players,
        "misbids": misbids[:5],
        "costly_cards": costly[:5],
    }


def analyse(
    rules: dict[str, Any],
    seats: int,
    seed: int,
    rng_version: int,
    log: Sequence[tuple[int, ActionData]],
    config: AnalysisConfig | None = None,
    run: Callable[[Callable[[DealTask], dict[str, Any]], list[DealTask]], Iterable[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A finished game's analysis; ``run`` maps :func:`analyse_deal` over the tasks (a process
    pool's ``map`` spreads the deals over workers; by default they run here, in turn)."""
    config = config or AnalysisConfig()
    tasks = deal_tasks(rules, seats, seed, rng_version, log, config)
    deals = list(run(analyse_deal, tasks) if run is not None else map(analyse_deal, tasks))
    return summarise(deals, seats, config)
