"""The engine's random playout (:meth:`OhHell.playout`) is the same game as deciding one action at
a time, and its choices are uniform among the legal actions.

``playout`` draws its random numbers without building the legal lists (see its docstring), so
the tests pin it to what it stands for: ``rng.choice(fast_legal())`` at every decision, applied
with ``fast_apply``. Equal logs, views, records and *generator states* after the game mean
that every decision drew the same bits and took the same action. The playout's log, replayed
through the checked API, must rebuild the identical game; and the choices, counted over many
playouts from fixed positions, must pass a chi-square test against the uniform distribution.
"""

from __future__ import annotations

import gc
import math
import random
from collections import Counter
from typing import Any

import pytest

import games.ohhell.deal
import games.ohhell.fast
import games.ohhell.record
from games.common.cards import parse_card
from games.common.rng import GENERATOR_VERSION, HMAC_VERSION, LEGACY_VERSION, make_rng
from games.common.shuffle import shuffled
from games.compiled import source_module
from games.ohhell.game import OhHell
from games.ohhell.rules import Rules, make_rules
from tests.games.ohhell.test_game_properties import ALL_RULES
from tests.games.test_compiled import require_compiled

RULE_IDS = [f"{r.preset}-{n}-{i}" for i, (r, n) in enumerate(ALL_RULES)]
LOOPS = "games.ohhell.fast_loops"


@pytest.fixture(params=["compiled", "source"])
def loops(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The playout through each copy of its loops (games.compiled): the C one, then the source
    (the deal and its scoring too, which the state calls)."""
    if request.param == "compiled":
        require_compiled(LOOPS)
    else:
        source = source_module(LOOPS)
        # every module that calls the loops: the fast path, the deal (dealing), the record (scoring)
        for module in (games.ohhell.fast, games.ohhell.deal, games.ohhell.record):
            monkeypatch.setattr(module, "fast_loops", source)
    return str(request.param)


def stepped(game: OhHell, rng: random.Random, deal_only: bool = False) -> None:
    """What ``playout`` stands for: ``rng.choice`` over ``fast_legal`` at every decision."""
    start = game.deal_no
    legal = game.fast_legal()
    while legal and not (deal_only and game.deal_no != start):
        legal = game.fast_apply(rng.choice(legal))


def state(game: OhHell) -> dict[str, Any]:
    """Everything a game shows: the log, every view, the records and the results."""
    out: dict[str, Any] = {
        "log": game.log,
        "views": [game.view(s) for s in (None, *range(game.seats))],
        "records": game.record.deal_records,
        "totals": game.totals,
        "stats": game.stats(),
        "json": game.to_json(),
        "deal_rng": game.rng.getstate(),
    }
    if game.is_over:
        out["standings"] = game.standings()
    return out


@pytest.mark.parametrize(("rules", "n"), ALL_RULES, ids=RULE_IDS)
@pytest.mark.usefixtures("loops")
def test_playout_is_choice_at_every_decision(rules: Rules, n: int) -> None:
    for seed in (11, 2024, 987654):
        a, b = OhHell.new(rules, n, seed), OhHell.new(rules, n, seed)
        ra, rb = random.Random(seed), random.Random(seed)
        a.playout(ra)
        stepped(b, rb)
        assert a.is_over
        assert state(a) == state(b)
        assert ra.getstate() == rb.getstate()  # the same bits were drawn


@pytest.mark.usefixtures("loops")
def test_a_games_kept_tricks_drop_out_of_the_garbage_collectors_sight() -> None:
    """A finished trick is a tuple of ints with its cards in a tuple, however it was played (the
    playout's loops, the fast path a card at a time, the checked API): the garbage collector
    stops tracking its cards at its first pass over them and the trick at the next (a tuple is
    let go once nothing in it is tracked), so a long game's kept tricks cost its passes nothing.
    (With the cards in a list every kept trick stayed tracked for the game's life: the
    collector's passes took about 8 % of a random hand's time, ``python bench/engine.py``.)"""
    rules = make_rules("classic")
    played = [OhHell.new(rules, 4, seed) for seed in (1, 2, 3)]
    played[0].playout(random.Random(1))
    stepped(played[1], random.Random(2))
    rng = random.Random(3)
    checked = played[2]
    while not checked.is_over:
        seat = checked.to_act()[0]
        checked.apply(seat, rng.choice(checked.legal_actions(seat)))
    gc.collect()
    gc.collect()
    for game in played:
        tricks = [trick for deal in game.record.deal_logs for trick in deal.tricks]
        assert len(tricks) == sum(game.setup.hand_sizes)
        assert not [trick for trick in tricks if gc.is_tracked(trick) or gc.is_tracked(trick[1])]


@pytest.mark.parametrize(("rules", "n"), ALL_RULES, ids=RULE_IDS)
def test_playout_log_replays_through_the_checked_api(rules: Rules, n: int) -> None:
    seed = 31337
    game = OhHell.new(rules, n, seed)
    game.playout(random.Random(seed + 1))
    again = OhHell.replay(rules, n, seed, game.log)
    assert state(again) == state(game)
    assert state(OhHell.from_json(game.to_json())) == state(game)


@pytest.mark.parametrize(("rules", "n"), ALL_RULES[::2], ids=RULE_IDS[::2])
@pytest.mark.usefixtures("loops")
def test_playout_from_any_point_and_deal_only(rules: Rules, n: int) -> None:
    """Started mid-bidding, mid-trick or between tricks, whole game or one deal."""
    pick = random.Random(5)
    for seed in range(6):
        game = OhHell.new(rules, n, seed)
        steps = pick.randrange(60)
        legal = game.fast_legal()
        for _ in range(steps):
            if not legal:
                break
            legal = game.fast_apply(pick.choice(legal))
        for deal_only in (True, False):
            a, b = game.clone(), game.clone()
            ra, rb = random.Random(seed), random.Random(seed)
            a.playout(ra, deal_only)
            stepped(b, rb, deal_only)
            assert state(a) == state(b)
            assert ra.getstate() == rb.getstate()
            if deal_only and not game.is_over:
                assert a.deal_no == game.deal_no + 1 or a.is_over


class CountingRandom(random.Random):
    """A generator that is not a plain ``random.Random``: playout must use its ``choice``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.choices = 0

    def choice(self, seq: Any) -> Any:
        self.choices += 1
        return super().choice(seq)


def test_other_generators_go_through_their_choice() -> None:
    rules, n = make_rules("bowers"), 4
    a, b = OhHell.new(rules, n, 3), OhHell.new(rules, n, 3)
    ra = CountingRandom(8)
    a.playout(ra)
    stepped(b, random.Random(8))
    assert state(a) == state(b)
    assert ra.choices == len(a.log)


@pytest.mark.parametrize(
    ("rules", "n"),
    [
        (make_rules("classic"), 4),
        (make_rules("classic", deck="australian"), 6),
        (make_rules("oh-shit", deck="pack63"), 6),
        (make_rules("bowers", joker=True), 5),
    ],
)
@pytest.mark.parametrize("version", [LEGACY_VERSION, HMAC_VERSION, GENERATOR_VERSION])
def test_deals_are_the_common_shuffle(rules: Rules, n: int, version: int) -> None:
    """The deal shuffles inline for speed; it must stay exactly ``shuffled`` from the game's
    generator (saved games replay from their seed), hand order included (it is
    ``fast_legal``'s order), and leave the generator where ``shuffled`` leaves it."""
    for seed in range(20):
        game = OhHell.new(rules, n, seed, rng_version=version)
        ref = make_rng(seed, version)
        assert game.deal.dealer == ref.randrange(n)
        for deal in (1, 2):
            assert game.deal_no == deal
            deck = shuffled(game.setup.deck, ref)
            order = game.deal.players
            need = len(order) * game.view(None)["hand_size"]
            for k, seat in enumerate(order):
                # the hand is its suit groups one after another, each in the order dealt; on
                # the second deal this also shows that the emptied hands were refilled clean
                expected = sorted(deck[k : need : len(order)], key=lambda c: game.deal.effective_suit[c])
                assert game.tricks.hand(seat) == expected
            assert game.rng.getstate() == ref.getstate()
            game.playout(random.Random(seed), deal_only=True)
            if game.is_over:
                break


def test_start_events_are_the_first_deals_and_change_nothing() -> None:
    """They are built on first use, from a twin dealt from the same seed or decks."""
    rules = make_rules("classic")
    fresh = OhHell.new(rules, 4, 9)
    first = [(e.kind, e.seat, e.data) for e in fresh.start_events]
    assert [k for k, _, _ in first] == ["deal_started"] + ["hand_dealt"] * 4
    for _, seat, data in first[1:]:
        assert data["cards"] == fresh.view(seat)["hand"]
    played = OhHell.new(rules, 4, 9)
    played.playout(random.Random(1), deal_only=True)
    before = state(played)
    assert [(e.kind, e.seat, e.data) for e in played.start_events] == first
    assert state(played) == before
    hands = {0: ["AS"], 1: ["KS"], 2: ["QS"], 3: ["JS"]}
    one = make_rules("classic", sequence="fixed", fixed_hands="1,1")
    given = OhHell.from_decks(one, 4, [OhHell.stack_deck(one, 4, 2, hands)], first_dealer=2)
    given.playout(random.Random(2))
    events = given.start_events
    assert events[0].data["dealer"] == 2
    assert {e.seat: e.data["cards"] for e in events[1:]} == hands


# ---------------------------------------------------------------------------------------------
# uniformity


def chi2_limit(df: int, z: float = 4.0) -> float:
    """The chi-square value exceeded with probability about Φ(-z) (Wilson–Hilferty): z = 4 is
    roughly 3e-5, a generous margin for fixed-seed tests that must never flake."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def assert_uniform(counts: Counter[Any], options: list[Any], trials: int) -> None:
    assert set(counts) == set(options), "every legal option is chosen, and nothing else"
    expected = trials / len(options)
    chi2 = sum((counts[o] - expected) ** 2 / expected for o in options)
    assert chi2 < chi2_limit(len(options) - 1), (chi2, counts)


def stacked_game(hands: dict[int, list[str]], turnup: str) -> OhHell:
    rules = make_rules("bowers", scoring="trick+10", sequence="fixed", fixed_hands="5,5")
    deck = OhHell.stack_deck(rules, 4, 3, hands, turnup=turnup)
    return OhHell.from_decks(rules, 4, [deck], first_dealer=3, seed=4)


HANDS = {
    0: ["AS", "KS", "QS", "2D", "3H"],  # leads (left of dealer 3)
    1: ["5S", "6S", "7S", "8S", "4D"],  # follows spades with four
    2: ["2C", "3C", "4C", "9D", "10H"],  # void in spades: any card
    3: ["5C", "6C", "7C", "8C", "9C"],
}


def first_trick_choices(game: OhHell, trials: int, seed: int, position: int) -> Counter[int]:
    rng = random.Random(seed)
    out: Counter[int] = Counter()
    for _ in range(trials):
        g = game.clone()
        g.playout(rng, deal_only=True)
        _, _, tricks = g.record.deal_logs[0]
        out[tricks[0][1][position]] += 1
    return out


def test_lead_follow_and_void_choices_are_uniform() -> None:
    game = stacked_game(HANDS, turnup="JH")
    for b in (1, 1, 1, 1):  # dealer 3 bids last: 1+1+1+1 = 4 != 5
        game.fast_apply(b)
    assert game.current_seat() == 0
    trials = 3000
    lead = first_trick_choices(game, trials, 1, 0)
    assert_uniform(lead, [parse_card(c) for c in HANDS[0]], trials)
    game.fast_apply(parse_card("AS"))
    follow = first_trick_choices(game, trials, 2, 1)
    assert_uniform(follow, [parse_card(c) for c in HANDS[1][:4]], trials)
    game.fast_apply(parse_card("5S"))
    void = first_trick_choices(game, trials, 3, 2)
    assert_uniform(void, [parse_card(c) for c in HANDS[2]], trials)


def test_bids_are_uniform_and_the_hook_is_left_out() -> None:
    game = stacked_game(HANDS, turnup="JH")
    for b in (2, 0, 1):
        game.fast_apply(b)
    assert game.fast_legal() == [0, 1, 3, 4, 5]  # the dealer may not bid 2
    trials = 3000
    rng = random.Random(6)
    counts: Counter[int] = Counter()
    for _ in range(trials):
        g = game.clone()
        g.playout(rng, deal_only=True)
        counts[g.record.deal_records[0].bids[3]] += 1
    assert_uniform(counts, [0, 1, 3, 4, 5], trials)
    first = OhHell.new(make_rules("classic", sequence="fixed", fixed_hands="7"), 4, 2)
    counts = Counter()
    for _ in range(trials):
        g = first.clone()
        g.playout(rng, deal_only=True)
        seat = g.record.deal_records[0].dealer + 1
        counts[g.record.deal_records[0].bids[seat % 4]] += 1
    assert_uniform(counts, list(range(first.view(None)["hand_size"] + 1)), trials)
