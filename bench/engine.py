"""Random full Oh Hell hands per second: our engine against OpenSpiel, measured in one run.

A hand is a deal, four bids, ten tricks and the scoring, with 4 players and trick+10 scoring
(1 a trick, +10 for an exact bid: OpenSpiel's oh_hell default scoring). Every decision picks
uniformly among the legal actions from an injected ``random.Random``, on both sides.

OpenSpiel (``oh_hell(players=4,num_tricks_fixed=10)``) is driven from Python one decision at a
time: ``rng.choice(state.legal_actions())`` then ``state.apply_action``, chance nodes included
(the dealer, each dealt card, the trump card: uniform, so ``choice`` samples them exactly).

Our engine is measured three ways, each a fresh 50-deal game at a time, counting deals:

- ``playout``: :meth:`OhHell.playout` plays the game out with random legal choices made inside
  the engine: the computer players' random rollout. It is, decision for decision, the same as
  the next line (``rng.choice`` over ``fast_legal`` applied with ``fast_apply``; the tests
  check equal games and equal generator states), without building the legal lists. **This is
  the figure on the last line.**
- ``fast_apply`` per decision: ``legal = g.fast_apply(rng.choice(legal))`` from Python, the
  form a searching player uses to apply its own choices (printed above the last line).
- the checked dict API the bot uses (``legal_actions``/``apply`` with events), for information.

The engine deals from its own seeded generator (every shuffle of the game's seed), OpenSpiel
through its chance nodes; both are in the timed loop.

Above them, the deal generator alone: microseconds per 52-card shuffle of each version the bot
deals with (games/common/rng.py; new games use the current one), best of several timed runs.

The engine's inner loops (the deal, the playout's bids and tricks, a deal's scores, version 3's shuffle steps) are
compiled to C by mypyc when the project is installed on a machine with a C compiler
(``games/compiled.py``); the first line says which copies ran. ``CARDTABLE_COMPILED=0 python
bench/engine.py`` runs the Python sources instead, as on a machine without a compiler.

Run: ``python bench/engine.py [total seconds, default 12]``. The rounds are short and
interleaved and the best round of each side is kept: on a shared machine other work slows
whichever side it lands on, and the best round is the closest to the undisturbed speed. The
last line is ``engine hands/s=N openspiel hands/s=M ratio=R`` with N the ``playout`` figure.
``--quick``: 0.6 s in all (the suite runs it); without OpenSpiel its last line says it skipped.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

# this checkout's engine, not whichever one the environment has installed (``python
# bench/engine.py`` puts bench/ first on the path, not the checkout)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quick import require_openspiel  # noqa: E402
from games.common.rng import GENERATOR_VERSION, HMAC_VERSION, make_rng  # noqa: E402
from games.compiled import in_use  # noqa: E402
from games.ohhell.game import OhHell  # noqa: E402
from games.ohhell.rules import make_rules  # noqa: E402

DEALS_PER_GAME = 50


def bench_engine(seconds: float, seed: int = 1) -> float:
    """Hands per second with the fast API: one game of many 10-card deals, counting deals."""
    rules = make_rules("classic", scoring="trick+10", sequence="fixed", fixed_hands=",".join(["10"] * DEALS_PER_GAME))
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    game_seed = seed
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        g = OhHell.new(rules, 4, game_seed)
        game_seed += 1
        step = g.fast_apply
        legal = g.fast_legal()
        while legal:  # fast_apply returns the next decision's legal ids, [] when over
            legal = step(choice(legal))
        hands += g.deal_no
    return hands / (time.perf_counter() - start)


def bench_engine_playout(seconds: float, seed: int = 1) -> float:
    """Hands per second with :meth:`OhHell.playout`: the same choices as :func:`bench_engine`'s,
    drawn inside the engine without building the legal lists."""
    rules = make_rules("classic", scoring="trick+10", sequence="fixed", fixed_hands=",".join(["10"] * DEALS_PER_GAME))
    rng = random.Random(seed)
    hands = 0
    game_seed = seed
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        g = OhHell.new(rules, 4, game_seed)
        game_seed += 1
        g.playout(rng)
        hands += g.deal_no
    return hands / (time.perf_counter() - start)


def bench_engine_checked(seconds: float, seed: int = 1) -> float:
    """Hands per second through the bot's checked API (dict actions, events, checks)."""
    rules = make_rules("classic", scoring="trick+10", sequence="fixed", fixed_hands=",".join(["10"] * DEALS_PER_GAME))
    rng = random.Random(seed)
    hands = 0
    game_seed = seed
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        g = OhHell.new(rules, 4, game_seed)
        game_seed += 1
        while not g.is_over:
            seat = g.to_act()[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        hands += g.deal_no
    return hands / (time.perf_counter() - start)


def bench_openspiel(seconds: float, seed: int = 1) -> float:
    import pyspiel

    game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)")
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(DEALS_PER_GAME):
            state = game.new_initial_state()
            apply_action = state.apply_action
            legal_actions = state.legal_actions
            legal = legal_actions()
            while legal:  # [] at the terminal state; the fastest loop we found for pyspiel
                apply_action(choice(legal))
                legal = legal_actions()
        hands += DEALS_PER_GAME
    return hands / (time.perf_counter() - start)


def shuffle_us(version: int, shuffles: int = 2000, repeats: int = 5) -> float:
    """Microseconds per 52-card shuffle with generator ``version`` (best of ``repeats`` runs)."""
    best = float("inf")
    for r in range(repeats):
        rng = make_rng(r, version)
        shuffle = rng.shuffle
        deck = list(range(52))
        start = time.perf_counter()
        for _ in range(shuffles):
            shuffle(deck)
        best = min(best, (time.perf_counter() - start) / shuffles)
    return best * 1e6


def main() -> None:
    require_openspiel()
    quick = "--quick" in sys.argv[1:]
    argv = [a for a in sys.argv[1:] if a != "--quick"]
    seconds = 0.6 if quick else float(argv[0]) if argv else 12.0
    # Short rounds, interleaved, best of each: other work on a shared machine slows whichever
    # side it lands on, and the best round is the closest to the undisturbed speed.
    print(f"the engine's inner loops: {in_use()} (games/compiled.py; CARDTABLE_COMPILED=0 runs the sources)")
    old, new = shuffle_us(HMAC_VERSION), shuffle_us(GENERATOR_VERSION)
    print(f"generator version {HMAC_VERSION} (games stored before version 3): {old:.1f} µs per shuffle")
    print(f"generator µs per 52-card shuffle={new:.1f} (version {GENERATOR_VERSION}, new games)")
    rounds = max(6, round(seconds))
    share = seconds / rounds / 3
    step, play, osp = [], [], []
    for _ in range(rounds):
        osp.append(bench_openspiel(share))
        play.append(bench_engine_playout(share))
        step.append(bench_engine(share))
    checked = bench_engine_checked(min(2.0, seconds / 6))
    e, o, p = max(step), max(osp), max(play)

    def fmt(xs: list[float]) -> str:
        return ", ".join(f"{x:.0f}" for x in xs)

    print(f"rounds of {share:.2f} s each, interleaved; best round of each kept")
    print(f"openspiel oh_hell, rng.choice(legal_actions()) + apply_action per decision: {fmt(osp)} hands/s")
    print(f"engine fast_apply(rng.choice(legal)) per decision: {fmt(step)} hands/s, ratio {e / o:.2f}")
    print(f"engine checked dict API (the bot's; events and checks): {checked:.0f} hands/s, ratio {checked / o:.2f}")
    print(f"engine playout (the same choices, drawn inside the engine): {fmt(play)} hands/s")
    print(f"engine hands/s={p:.0f} openspiel hands/s={o:.0f} ratio={p / o:.2f}")


if __name__ == "__main__":
    main()
