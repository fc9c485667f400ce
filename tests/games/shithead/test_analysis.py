"""The Shithead coach (games/shithead/analysis.py): reproducible, its luck sums as documented,
and what it compares is what happened."""

from __future__ import annotations

import copy
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from games.shithead.ai import choose_action
from games.shithead.analysis import (
    AnalysisConfig,
    _outcome,
    _playout,
    _redeal,
    analyse,
    plan,
    run_task,
    summarise,
)
from games.shithead.game import Shithead
from games.shithead.rules import make_rules

LIGHT = AnalysisConfig(rollouts=3, luck_rollouts=6)


def _played(seed: int, preset: str = "pagat", seats: int = 3, pick_up_every: int = 0) -> tuple[dict, Shithead]:
    """A game between sensible computers; seat 0 picks up every ``pick_up_every``-th turn it could play."""
    rules = make_rules(preset)
    game = Shithead.new(rules, seats, seed)
    rng = random.Random(seed)
    turns = 0
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = choose_action(game.view(seat), rng)
        if seat == 0 and game.phase == "play" and pick_up_every:
            turns += 1
            pickups = [a for a in legal if a["type"] == "pickup"]
            if pickups and any(a["type"] == "play" for a in legal) and turns % pick_up_every == 0:
                action = pickups[0]
        game.apply(seat, action)
    return rules.to_json(), game


def test_the_analysis_is_reproducible_and_does_not_depend_on_the_order_the_tasks_ran_in() -> None:
    rules, game = _played(3, pick_up_every=4)
    first = analyse(rules, game.seats, 3, game.rng_version, game.log, LIGHT)
    # the same figures again: its tasks run backwards here, then analysed again in worker processes
    # (a plain second analyse() in this process checked nothing these two do not)
    todo, order, goal = plan(rules, game.seats, 3, game.rng_version, game.log, LIGHT)
    backwards = [run_task(t) for t in reversed(todo)]
    assert summarise(backwards, game.seats, order, goal, LIGHT) == first
    # worker processes (spawned: each with its own string hashing) give the same figures
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert analyse(rules, game.seats, 3, game.rng_version, game.log, LIGHT, run=pool.map) == first
    other = analyse(
        rules, game.seats, 3, game.rng_version, game.log, AnalysisConfig(rollouts=3, luck_rollouts=6, seed=1)
    )
    assert other != first  # the config's seed is the only source of randomness


@pytest.mark.parametrize(("preset", "seed"), [("pagat", 5), ("winner", 6)])
def test_the_luck_sums_to_nothing_and_the_adjusted_results_to_the_results(preset: str, seed: int) -> None:
    rules, game = _played(seed, preset, seats=4)
    data = analyse(rules, game.seats, seed, game.rng_version, game.log, LIGHT)
    players = data["players"]
    assert sum(p["luck"] for p in players) == pytest.approx(0, abs=1e-3)
    good = 1 if preset == "winner" else game.seats - 1
    assert sum(p["result"] for p in players) == good
    assert sum(p["adjusted"] for p in players) == pytest.approx(good, abs=1e-3)
    for p in players:
        assert p["adjusted"] == pytest.approx(p["result"] - p["luck"], abs=1e-3)
    results = game.results()
    shithead = results["loser"] if preset == "pagat" else None
    for p in players:
        assert p["result"] == (p["seat"] != shithead if shithead is not None else p["seat"] == results["winner"])
    # listed in finishing order (the adjusted result beside each)
    order = results["order"]
    assert [p["seat"] for p in players] == order + sorted(set(range(game.seats)) - set(order))


def test_the_swap_compares_the_face_up_cards_chosen_with_the_computers() -> None:
    rules = make_rules("pagat")
    # seat 0 keeps the face-up cards it was dealt (Ready at once); the others swap as computers
    game = Shithead.new(rules, 3, 11)
    rng = random.Random(0)
    while not game.is_over:
        seat = game.to_act()[0]
        action = {"type": "ready"} if game.phase == "swap" and seat == 0 else choose_action(game.view(seat), rng)
        game.apply(seat, action)
    dealt_up = Shithead.new(rules, 3, 11).view(None)["seats"][0]["face_up"]
    data = analyse(rules.to_json(), 3, 11, game.rng_version, game.log, LIGHT)
    swap = next(s for s in data["swaps"] if s["seat"] == 0)
    assert sorted(swap["dealt"]) == sorted(dealt_up) and sorted(swap["chosen"]) == sorted(dealt_up)
    computer = Shithead.new(rules, 3, 11)
    while not computer.ready[0]:
        computer.apply(0, choose_action(computer.view(0), random.Random(0)))
    assert sorted(swap["computer"]) == sorted(computer.view(None)["seats"][0]["face_up"])
    if swap["computer"] == swap["chosen"]:
        assert swap["worth"] == 0 and swap["chance"] is None
    else:
        assert swap["worth"] == pytest.approx(swap["chance"] - swap["computer_chance"], abs=1e-3)


def test_the_pickups_listed_are_the_pickups_made_with_a_play_in_hand() -> None:
    rules, game = _played(8, pick_up_every=3)
    data = analyse(rules, game.seats, 8, game.rng_version, game.log, LIGHT, coached=[0])
    replay = Shithead.new(make_rules("pagat"), game.seats, 8)
    made = {}
    for index, (seat, action) in enumerate(game.log, start=1):
        if seat == 0 and replay.phase == "play" and action["type"] == "pickup":
            if any(a["type"] == "play" for a in replay.legal_actions(0)):
                made[index] = len(replay.pile)
        replay.apply(seat, action)
    assert made and data["pickups"]
    for d in data["pickups"]:
        assert d["seat"] == 0 and made[d["index"]] == d["pile"] and d["better"]["type"] == "play"
        assert d["loss"] == pytest.approx(d["better_chance"] - d["chance"], abs=1e-3)
    # only seat 0 was coached; every seat is still ranked
    assert {s["seat"] for s in data["swaps"]} == {0} and len(data["players"]) == game.seats
    for d in data["costly"]:
        assert d["loss"] > 0 and d["seat"] == 0


def test_the_luck_is_all_but_the_seats_own_decisions_against_the_computers() -> None:
    """Skill is what a seat's swap and decisions gained against the computer's choices;
    the luck is the weight times the result less the skill, each above the table's mean."""
    config = AnalysisConfig(luck_weight=0.8)

    def row(index: int, seat: int, chance: float, computer: float) -> dict:
        action = {"type": "play", "cards": ["5H"]}
        return {"index": index, "seat": seat, "kind": "play", "action": action, "pile": 2, "top": "4S",
                "chance": chance, "computer_chance": computer, "better": action, "better_chance": computer,
                "loss": computer - chance}  # fmt: skip

    parts = [
        {"kind": "luck", "worth": [0.7, 0.7, 0.7, 0.7]},
        {"kind": "swap", "seat": 0, "worth": 0.0},
        {"kind": "swap", "seat": 1, "worth": 0.05},
        # seat 0 did the computer's choice everywhere; seat 1 played worse than the computer twice
        {"kind": "decisions", "seat": 0, "rows": [row(3, 0, 0.6, 0.6), row(7, 0, 0.4, 0.4)]},
        {"kind": "decisions", "seat": 1, "rows": [row(4, 1, 0.5, 0.7), row(8, 1, 0.3, 0.35)]},
        # seat 2 weighed nothing (no choice), seat 3 not coached (a computer): both count 0
        {"kind": "decisions", "seat": 2, "rows": []},
    ]
    data = summarise(parts, 4, [0, 1, 3, 2], "loser", config)
    players = {p["seat"]: p for p in data["players"]}
    assert players[0]["skill"] == 0 and players[2]["skill"] == 0 and players[3]["skill"] == 0
    assert players[1]["skill"] == pytest.approx(0.05 - 0.2 - 0.05)
    assert sum(p["luck"] for p in players.values()) == pytest.approx(0, abs=1e-3)
    mean_skill = -0.2 / 4
    for p in players.values():
        expected = 0.8 * ((p["result"] - 0.75) - (p["skill"] - mean_skill))
        assert p["luck"] == pytest.approx(expected, abs=1e-3)
        assert p["adjusted"] == pytest.approx(p["result"] - p["luck"], abs=1e-3)
    # seats 0 and 1 both went out; seat 1's choices lost: its adjusted result is the lower
    assert players[1]["adjusted"] < players[0]["adjusted"]


def test_computers_gain_nothing_against_themselves_and_worse_choices_lose() -> None:
    # a game of sensible computers: every choice is the computer's own, so no skill and the luck
    # is the weighted result above the table's mean
    rules, game = _played(5, seats=4)
    config = AnalysisConfig(rollouts=4, luck_rollouts=0, check_pickups=False)
    data = analyse(rules, game.seats, 5, game.rng_version, game.log, config)
    assert data["decisions"] == 0
    for p in data["players"]:
        assert p["skill"] == 0 and p["worth"] is None
        assert p["luck"] == pytest.approx(config.luck_weight * (p["result"] - 0.75), abs=1e-3)
    # seat 0 picks up every other turn it could play instead: its choices lose against the computer's
    rules, game = _played(8, seats=4, pick_up_every=2)
    data = analyse(rules, game.seats, 8, game.rng_version, game.log, AnalysisConfig(rollouts=6, luck_rollouts=0))
    players = {p["seat"]: p for p in data["players"]}
    assert players[0]["skill"] < -0.1 and players[0]["decisions"] > 0
    assert all(players[s]["skill"] == 0 for s in (1, 2, 3))
    assert sum(p["luck"] for p in players.values()) == pytest.approx(0, abs=1e-3)


def _engine_playout(game: Shithead, rng: random.Random, config: AnalysisConfig) -> list[float]:
    """The coach's playout as it was before the fast one (a deep copy of the engine, a view and
    the sensible player's choice for each move): the reference the fast playout must repeat."""
    g = copy.deepcopy(game)
    _redeal(g, rng, True)
    for _ in range(config.max_actions):
        if g.is_over:
            break
        seat = g.to_act()[0]
        view = g.view(seat)
        g.apply(seat, rng.choice(view["legal"]) if rng.random() < config.noise else choose_action(view, rng))
    return _outcome(g)


@pytest.mark.parametrize(("preset", "seats"), [("pagat", 4), ("winner", 3), ("guarducci", 4)])
def test_a_fast_playout_plays_the_engines_game_from_the_same_random_numbers(preset: str, seats: int) -> None:
    """The coach's playouts run on a table copy with the strong computer's fast moves; from the same
    generator they must end as the engine-based playout did, random moves (``noise``) included,
    from the deal (the swap through the engine) and from positions in play (guarducci: the runs
    rule's light-view path). The position played from is left as it was."""
    config = AnalysisConfig(noise=0.2)
    rules, game = _played(seats + 10, preset, seats=seats)
    replay = Shithead.new(make_rules(preset), seats, seats + 10)
    starts = [copy.deepcopy(replay)]
    for index, (seat, action) in enumerate(game.log):
        replay.apply(seat, action)
        if replay.phase == "play" and index % 12 == 0 and len(starts) < 5:
            starts.append(copy.deepcopy(replay))
    assert len(starts) == 5
    results = set()
    for start in starts:
        before = start.to_json(), start.view(None), [list(d) for d in start.down], list(start.stock)
        for k in range(8):
            fast = _playout(start, random.Random(k), config)
            assert fast == _engine_playout(start, random.Random(k), config), (preset, start.action_count, k)
            results.add(tuple(fast))
        assert (start.to_json(), start.view(None), [list(d) for d in start.down], list(start.stock)) == before
    assert len(results) > 1  # the redeals and random moves do change the ends


def _position_with_a_remembered_and_an_unseen_card(seed: int) -> tuple[Shithead, int]:
    """A position in play from a game between computers (seat 0 picking up now and then) where
    another seat holds both a card the table saw go into its hand and one it did not, and the
    stock is not empty: (the position, that seat)."""
    _, game = _played(seed, seats=3, pick_up_every=3)
    replay = Shithead.new(game.rules, game.seats, seed)
    for seat, action in game.log:
        replay.apply(seat, action)
        if replay.phase != "play" or not replay.stock:
            continue
        for other in (1, 2):
            hand, known = replay.hand[other], replay.known[other]
            if known and any(c not in known for c in hand):
                return copy.deepcopy(replay), other
    raise AssertionError("no such position in this game")


def test_a_seats_choice_is_judged_without_the_other_hands_it_did_not_see() -> None:
    """The coach weighs a seat's swap and plays in playouts from what that seat could know: a card
    in another hand that it never saw go in (dealt, drawn) is dealt again with the stock and the
    face-down cards in every playout, while the cards the whole table saw go in (a picked-up pile,
    a face-up card taken) stay in that hand. So two positions that differ only in which unseen card
    the other hand holds are judged the same, playout for playout; with every hand known they are
    not."""
    config = AnalysisConfig(noise=0.2)
    start, other = _position_with_a_remembered_and_an_unseen_card(21)
    unseen = next(c for c in start.hand[other] if c not in start.known[other])
    swapped = copy.deepcopy(start)  # that card and the stock's top card change places
    hand = swapped.hand[other]
    hand[hand.index(unseen)], swapped.stock[-1] = swapped.stock[-1], unseen
    assert sorted(swapped.hand[other]) != sorted(start.hand[other])
    judged = [
        (_playout(start, random.Random(k), config, viewer=0), _playout(swapped, random.Random(k), config, viewer=0))
        for k in range(40)
    ]
    assert all(a == b for a, b in judged)
    known_all = [
        (_playout(start, random.Random(k), config), _playout(swapped, random.Random(k), config)) for k in range(40)
    ]
    assert any(a != b for a, b in known_all)
    # the redeal itself: the remembered cards stay, every hand keeps its size, no card is lost or made
    world = copy.deepcopy(start)
    _redeal(world, random.Random(3), True, viewer=0)
    for card in start.known[other]:
        assert card in world.hand[other]
    assert [len(h) for h in world.hand] == [len(h) for h in start.hand]
    assert world.hand[0] == start.hand[0]

    def every_card(g: Shithead) -> list[int]:
        return sorted([*g.stock, *(c for h in g.hand for c in h), *(c for d in g.down for c in d if c is not None)])

    assert every_card(world) == every_card(start)
    assert sorted(world.hand[other]) != sorted(start.hand[other])  # (seed 3 deals it other cards)
