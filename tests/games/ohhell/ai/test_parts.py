"""The search's parts: scores, the card table, the deal simulator, the worlds it samples."""

from __future__ import annotations

import random

import pytest

from games.common.cards import JACK, parse_card
from games.compiled import source_module
from games.ohhell.ai import info_from_view
from games.ohhell.ai.estimate import Estimator, nearest_bid
from games.ohhell.ai.infostate import BID, InfoState
from games.ohhell.ai.players import StrongConfig
from games.ohhell.ai.sampling import Knowledge, _voids, bid_likelihood
from games.ohhell.ai.scoring import SCORINGS, score_table
from games.ohhell.ai.table import DealTable, bits
from games.ohhell.decks import build_deck
from games.ohhell.scoring import SCORERS

from .helpers import bid_weight_by_hand, last_bidder_view, views_along_a_game


@pytest.mark.parametrize("scoring", SCORINGS)
def test_score_tables_match_the_engine(scoring: str) -> None:
    table = score_table(scoring, 13)
    for bid in range(14):
        for tricks in range(14):
            assert table[bid][tricks] == SCORERS[scoring](bid, tricks)


def test_bowers_and_joker_order_in_the_table() -> None:
    deck = build_deck("standard52+joker", 4)
    t = DealTable.build(deck, 3, True)  # spades trumps, bowers
    order = [t.cards[i] for i in sorted(range(t.n), key=lambda i: (t.esuit[i], t.power[i]))]
    spades = [c for c in order if t.esuit[t.index[c]] == 3]
    assert spades[-3:] == [parse_card("JC"), parse_card("JS"), parse_card("X")]
    assert t.esuit[t.index[parse_card("JC")]] == 3  # the left bower is a spade
    assert parse_card("AS") == spades[-4]
    assert all((c & 31) != JACK or c in (parse_card("JC"), parse_card("JS")) for c in spades)


def test_a_packs_table_is_built_once_and_shared_unchangeable() -> None:
    """Each decision asks for its deal's table: the same pack under the same trump gets the same
    table, which no decision can change for the next."""
    import dataclasses

    deck = build_deck("standard52+joker", 4)
    t = DealTable.build(deck, 3, True)
    assert DealTable.build(tuple(deck), 3, True) is t
    assert DealTable.build(deck, 2, True) is not t
    assert DealTable.build(deck, 3, False) is not t
    fresh = DealTable._fresh(tuple(deck), 3, True)
    assert fresh == t and fresh is not t  # shared, yet what a new build gives
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.trump = 1  # type: ignore[misc]


def test_australian_duplicates_later_card_wins() -> None:
    deck = build_deck("australian", 5)
    t = DealTable.build(deck, 0, False)
    a, b = t.index[parse_card("2H")], t.index[parse_card("2H#1")]
    assert (t.beats[a] >> b) & 1 and (t.beats[b] >> a) & 1


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [
        ("classic", 4, {"sequence": "fixed", "fixed_hands": "9,4"}),
        ("oh-shit", 5, {"sequence": "fixed", "fixed_hands": "7,3", "deck": "standard52+joker"}),
        ("bowers", 3, {"sequence": "fixed", "fixed_hands": "10"}),
        ("classic", 6, {"sequence": "fixed", "fixed_hands": "10", "deck": "australian"}),
    ],
)
def test_sampled_worlds_agree_with_everything_shown(preset: str, players: int, overrides: dict) -> None:
    rng = random.Random(3)
    checked = 0
    for view, true_hands in views_along_a_game(preset, players, 5, **overrides):
        if view["phase"] == "over" or view.get("hand_hidden"):
            continue
        info = info_from_view(view)
        k = Knowledge.build(info)
        t = k.table
        order = view["players"]
        played = {p.card for _, p in info.all_plays()}
        voids = _voids(info, t)
        for hands, weight in k.worlds(rng, 4):
            assert weight > 0
            seen = 0
            for local, seat in enumerate(order):
                cards = set(t.cards_of(hands[local]))
                truth = {parse_card(c) for c in true_hands[seat]}
                assert len(cards) == len(truth)  # each seat holds as many cards as it really does
                assert not cards & played and not cards & set(info.dead)
                if local == info.seat:
                    assert cards == truth  # the seat's own hand is never resampled
                for s in range(5):
                    if (voids[local] >> s) & 1:
                        assert not hands[local] & t.suit_mask[s]
                assert not seen & hands[local]
                seen |= hands[local]
            checked += 1
    assert checked > 20


def test_a_seat_that_sees_every_hand_samples_only_the_true_deal() -> None:
    """bench/ai.py's perfect-information arm (the ceiling of better sampling) rests on this: with
    the others' cards in ``others_known`` on top of its own, every world is the deal itself."""
    import dataclasses

    rng = random.Random(4)
    checked = 0
    for view, true_hands in views_along_a_game("classic", 4, 6, sequence="fixed", fixed_hands="8"):
        if view["phase"] == "over":
            continue
        info = info_from_view(view)
        order = view["players"]
        truth = [frozenset(parse_card(c) for c in true_hands[seat]) for seat in order]
        seen = {p: tuple(truth[p]) for p in range(len(order)) if p != info.seat}
        k = Knowledge.build(dataclasses.replace(info, others_known=seen))
        for hands, _ in k.worlds(rng, 6, oversample=4):
            assert [frozenset(k.table.cards_of(h)) for h in hands] == truth
        blind = Knowledge.build(info)  # without them the others' hands are sampled
        if any(
            h != tuple(truth)
            for h in ([frozenset(blind.table.cards_of(m)) for m in hs] for hs, _ in blind.worlds(rng, 6))
        ):
            checked += 1
    assert checked > 10


def test_estimate_grows_with_card_strength() -> None:
    deck = build_deck("standard52", 4)
    t = DealTable.build(deck, 3, False)
    est = Estimator(t, 0, 4, 5)
    weak = t.mask([parse_card(c) for c in ("2C", "3D", "4H", "5C", "6D")])
    strong = t.mask([parse_card(c) for c in ("AS", "KS", "AH", "AD", "AC")])
    middle = t.mask([parse_card(c) for c in ("QS", "KH", "QD", "5C", "6D")])
    assert est.tricks(weak) < est.tricks(middle) < est.tricks(strong) <= 5
    assert est.tricks(strong) > 3.5 and est.tricks(weak) < 0.5


def test_opponent_bid_model_stretches_around_the_fair_share() -> None:
    """A bid is explained by the hand's estimate stretched away from the fair share of tricks
    (hand size / players): unchanged at stretch 1, a fixed point at the share, and a high bid
    then fits a strong hand better than the bare estimate does."""
    view = next(v for v, _ in views_along_a_game("classic", 4, 2, sequence="fixed", fixed_hands="10"))
    k = Knowledge.build(info_from_view(view))
    assert k.expected_bid(4.0) == 4.0
    k.stretch = 1.4
    share = 10 / 4
    assert k.expected_bid(share) == pytest.approx(share)
    assert k.expected_bid(4.0) == pytest.approx(share + 1.4 * 1.5)
    assert k.expected_bid(1.0) == pytest.approx(share - 1.4 * 1.5)
    allowed = list(range(11))
    assert bid_likelihood(6, k.expected_bid(4.0), allowed, 0.7) > bid_likelihood(6, 4.0, allowed, 0.7)


def test_the_opponent_bid_model_reads_the_trumps_held_and_the_bids_before() -> None:
    """With the leans set, a bidder is expected to bid up a trump held over its fair share and
    to bid down a trick bid before it over those bidders' fair share; the seats after it in the
    bid order do not count, and with the leans off the context is (0, 0)."""
    import dataclasses

    view = next(v for v, _ in views_along_a_game("classic", 4, 2, sequence="fixed", fixed_hands="8"))
    info = info_from_view(view)
    k = Knowledge.build(info)
    t = k.table
    order = info.bid_order()
    first, second, third = order[0], order[1], order[2]
    hand = k.known[info.seat]
    assert k.bid_context(third, hand, [3, 3, 3, 3]) == (0.0, 0.0)
    k.trump_lean, k.table_lean = 0.25, -0.1
    share = 8 / 4
    trumps = t.suit_mask[t.trump] & t.all_mask
    long_trumps = sum(1 << b for b in sorted(t.cards.index(c) for c in t.cards_of(trumps))[:5])
    fair = 8 * t.trump_mask.bit_count() / t.n
    bids: list[int | None] = [None] * 4
    bids[first], bids[second] = 4, 3
    over, before = k.bid_context(third, long_trumps, bids)
    assert over == pytest.approx(5 - fair)
    assert before == pytest.approx(4 + 3 - 2 * share)
    assert k.bid_context(first, long_trumps, bids)[1] == 0.0  # nobody bid before the first
    bids[third] = 8  # a later seat's bid is not read
    assert k.bid_context(second, long_trumps, bids)[1] == pytest.approx(4 - share)
    base = k.expected_bid(2.0)
    assert k.expected_bid(2.0, over, 0.0) == pytest.approx(base + 0.25 * (5 - fair))
    assert k.expected_bid(2.0, 0.0, before) == pytest.approx(base - 0.1 * (7 - 2 * share))
    no_trumps = dataclasses.replace(info, trump=None)
    kn = Knowledge.build(no_trumps)
    kn.trump_lean = 0.25
    assert kn.bid_context(third, long_trumps, bids)[0] == 0.0


def test_a_world_is_weighed_by_the_bid_model_with_its_leans() -> None:
    """The worlds' weights read the bids made through the same model the bid search predicts
    bids with: each bid made scores its likelihood around :meth:`expected_bid` in its context."""
    info = info_from_view(last_bidder_view(9))
    k = Knowledge.build(info)
    k.stretch, k.trump_lean, k.table_lean = 1.2, 0.3, -0.15
    sigma = 0.7

    def mean_of(p: int, hand: int) -> float:
        return k.expected_bid(k.estimator.tricks(hand), *k.bid_context(p, hand, info.bids))

    for hands, _ in k.worlds(random.Random(8), 5, oversample=0):
        assert k.bid_weight(hands, sigma) == pytest.approx(bid_weight_by_hand(k, hands, sigma, mean_of), rel=1e-12)


def test_the_seats_yet_to_bid_answer_the_candidate_bid_when_the_table_lean_is_set() -> None:
    """The bid search predicts the later bidders' bids in each world: with ``table_lean`` they
    bid less after a higher candidate bid, as ISMCTS does; without it they ignore it."""
    from games.ohhell.ai.players import _predicted_bids

    view = next(v for v, _ in views_along_a_game("classic", 4, 2, sequence="fixed", fixed_hands="10"))
    info = info_from_view(view)
    assert info.phase == BID and all(b is None for b in info.bids)  # the first bidder
    k = Knowledge.build(info)
    rng = random.Random(5)
    later = [p for p in info.bid_order() if p not in (info.seat, info.dealer)]  # the hook aside
    worlds = [h for h, _ in k.worlds(rng, 40)]

    def total_later(my_bid: int) -> int:
        return sum(sum(_predicted_bids(info, k, h, my_bid)[p] for p in later) for h in worlds)

    assert total_later(0) == total_later(6)
    k.table_lean = -0.3
    assert total_later(6) < total_later(0)


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("classic", {"sequence": "fixed", "fixed_hands": "9"}),
        ("oh-shit", {"sequence": "fixed", "fixed_hands": "7", "deck": "standard52+joker"}),
    ],
)
def test_noisy_playouts_stay_legal_and_follow_their_dice(preset: str, overrides: dict) -> None:
    """Opponents' random cards in a playout are legal ones, the seat searching still plays the
    policy's cards, and the same dice give the same playout (options compared in one world meet
    the same surprises)."""
    from games.ohhell.ai.sim import Sim

    def stepped(sim: Sim, noise: float, me: int, dice: list[float]) -> list[int]:
        """What ``rollout(noise, me, dice)`` stands for, a card at a time, each one checked: an
        opponent whose die falls under ``noise`` plays the legal card the next die picks, every
        other play is the policy's (the simulator may be compiled, so it is not subclassed)."""
        played = []
        i = 0
        while sim.tricks_left:
            p = sim.to_play
            legal = sim.legal(p)
            c, named = sim.choose(p)
            if p != me and dice[i] < noise and legal & (legal - 1):
                cards = [b for b in range(legal.bit_length()) if (legal >> b) & 1]
                c = cards[int(dice[i + 1] * len(cards))]
                joker_led = sim.t.joker_nt and c == sim.t.joker and not sim.trick
                named = sim._name_joker(p) if joker_led else -1
            assert (legal >> c) & 1, "a playout played an illegal card"
            played.append(c)
            sim.play(c, named)
            i += 2
        return played

    rng = random.Random(7)
    outcomes: set[tuple[int, ...]] = set()
    for view, _ in views_along_a_game(preset, 4, 9, **overrides):
        if view["phase"] == "over" or view.get("hand_hidden"):
            continue
        info = info_from_view(view)
        if info.phase == BID or len(info.legal_plays) < 2:
            continue
        me = info.seat
        k = Knowledge.build(info)
        hands = k.sample_hands(rng)
        for _ in range(6):
            dice = [rng.random() for _ in range(2 * info.players * info.hand_size)]
            runs = []
            for _ in range(2):
                sim = k.sim_for(hands, [1] * info.players)
                sim.to_play = me
                by_hand = sim.clone()
                sim.rollout(1.0, me, dice)
                assert sim.tricks_left == 0 and not any(sim.hands)
                played = stepped(by_hand, 1.0, me, dice)
                assert (by_hand.won, by_hand.hands, by_hand.to_play) == (sim.won, sim.hands, sim.to_play)
                runs.append(tuple(played))
            assert runs[0] == runs[1]
            outcomes.add(runs[0])
        break
    assert len(outcomes) > 1  # the dice do change the opponents' cards


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("classic", {"sequence": "fixed", "fixed_hands": "9"}),
        ("oh-shit", {"sequence": "fixed", "fixed_hands": "7", "deck": "standard52+joker"}),
    ],
)
def test_the_compiled_simulator_plays_as_its_source(preset: str, overrides: dict) -> None:
    """The simulator may run compiled (games.compiled): from the same worlds and dice, its
    source run as Python plays every playout to the same end, with and without noise."""
    from tests.games.test_compiled import require_compiled

    require_compiled("games.ohhell.ai.sim")
    source = source_module("games.ohhell.ai.sim").Sim
    fields = ("t", "hands", "bids", "won", "to_play", "trick", "led", "win", "win_seat", "tricks_left", "live")
    rng = random.Random(3)
    compared = 0
    for view, _ in views_along_a_game(preset, 4, 9, **overrides):
        if view["phase"] == "over" or view.get("hand_hidden") or view["phase"] == "bidding":
            continue
        k = Knowledge.build(info_from_view(view))
        for _ in range(4):
            hands = k.sample_hands(rng)
            sim = k.sim_for(hands, [rng.randrange(3) for _ in hands])  # a play-off deal has fewer seats
            twin = source(
                *(getattr(sim, f) for f in fields), sim.played_suits, sim.failed, sim.score_tab, sim.over_good
            )
            twin.hands, twin.trick = sim.hands[:], sim.trick[:]
            twin.won, twin.played_suits, twin.failed = sim.won[:], sim.played_suits[:], sim.failed[:]
            assert type(twin) is not type(sim)
            dice = [rng.random() for _ in range(2 * 4 * 9)]
            noise = rng.choice([0.0, 0.5])
            sim.rollout(noise, 0, dice)
            twin.rollout(noise, 0, dice)
            assert (twin.won, twin.hands, twin.scores()) == (sim.won, sim.hands, sim.scores())
            compared += 1
    assert compared > 20


def test_worlds_that_explain_the_plays_weigh_more() -> None:
    """Inference from the plays: in a game of players who play the policy, the true
    deal explains every card played, so it outweighs most sampled worlds; with ``play_noise`` 0
    the plays weigh nothing."""
    rng = random.Random(5)
    above = decisions = 0
    for view, true_hands in views_along_a_game("classic", 4, 7, sequence="fixed", fixed_hands="10"):
        if view["phase"] == "over" or view.get("hand_hidden"):
            continue
        info = info_from_view(view)
        if info.phase == BID or sum(p.seat != info.seat for _, p in info.all_plays()) < 6:
            continue
        k = Knowledge.build(info)
        t = k.table
        truth = [t.mask([parse_card(c) for c in true_hands[seat]]) for seat in view["players"]]
        assert k.play_weight(truth) == 1.0  # off by default
        k.play_noise = 0.84
        true_weight = k.play_weight(truth)
        sampled = sorted(k.play_weight(k.sample_hands(rng)) for _ in range(40))
        decisions += 1
        above += true_weight > sampled[len(sampled) // 2]
        assert true_weight <= 1.0 and sampled[0] > 0
    assert decisions >= 10 and above >= 0.8 * decisions, (above, decisions)


def test_bit_positions_from_the_byte_table_match_a_bit_by_bit_walk() -> None:
    rng = random.Random(5)
    for size in (0, 1, 8, 52, 63, 104, 128, 129, 200):
        for _ in range(200):
            mask = rng.getrandbits(size) if size else 0
            walked = []
            m = mask
            while m:
                walked.append((m & -m).bit_length() - 1)
                m &= m - 1
            assert bits(mask) == walked, (size, mask)


@pytest.mark.parametrize(
    ("deck", "trump", "bowers"),
    [
        ("standard52", 2, False),
        ("standard52+joker", None, False),
        ("standard52+joker", 3, True),
        ("australian", 0, False),
    ],
)
def test_the_cards_that_take_a_trick_from_each_card(deck: str, trump: int | None, bowers: bool) -> None:
    """``tops`` is the rule the simulator used to spell out: a card of the same effective suit
    and at least its power (a later equal card wins), any trump over a plain card, and a
    no-trump joker over anything."""
    t = DealTable.build(build_deck(deck, 5), trump, bowers)
    for w in range(t.n):
        for c in range(t.n):
            if c == w:
                continue
            takes = (
                (t.beats[w] >> c) & 1
                or (t.esuit[c] == t.trump and t.esuit[w] != t.trump)
                or (t.joker_nt and c == t.joker)
            )
            assert bool((t.tops[w] >> c) & 1) == bool(takes), (t.cards[w], t.cards[c])


def test_the_nearest_bid_is_the_closest_allowed_one_ties_to_the_lower() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        hand = rng.randint(0, 13)
        forbidden = rng.randint(-1, hand)
        allowed = [b for b in range(hand + 1) if b != forbidden] or [0]
        estimate = rng.choice([rng.uniform(-1.0, hand + 1.0), rng.randint(0, 2 * hand + 1) / 2])
        assert nearest_bid(estimate, allowed) == min(allowed, key=lambda b: (abs(b - estimate), b))


def _bid_traces(
    monkeypatch: pytest.MonkeyPatch, fixed_hands: str, seed: int, configs: list[StrongConfig]
) -> tuple[InfoState, list[dict]]:
    """The strong bid's trace (candidates, utilities, playout make rates) for each of ``configs``
    on the first bid of a classic game of four with ``fixed_hands`` cards, each from the same
    generator seed: the same worlds and dice wherever the settings draw alike."""
    from games.ohhell.ai import players
    from games.ohhell.ai.players import _legal_bids, strong_bid

    view = next(v for v, _ in views_along_a_game("classic", 4, 2, sequence="fixed", fixed_hands=fixed_hands))
    info = info_from_view(view)
    traces: list[dict] = []
    monkeypatch.setattr(players, "TRACE", traces)
    for cfg in configs:
        k = Knowledge.build(info)
        cfg.fit(k)
        strong_bid(info, k, _legal_bids(info), random.Random(seed), cfg)
    return info, traces


def test_the_bid_edge_lifts_each_bid_by_its_share_of_the_playouts_it_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bid_edge`` (off in the bot): the search expects its own play to make good a share of
    each bid's playout failures, each worth the made score over one trick short; a zero bid is
    left as it was. The same worlds and playouts with and without it, read from the trace."""
    configs = [StrongConfig(bid_budget=8000, bid_edge=edge) for edge in (0.0, 0.5)]
    info, (plain, lifted) = _bid_traces(monkeypatch, "10", 3, configs)
    tab = score_table(info.scoring, info.hand_size)
    assert plain["cands"] == lifted["cands"] and plain["made"] == lifted["made"] and 0 in plain["cands"]
    for b, was, now, made in zip(plain["cands"], plain["util"], lifted["util"], plain["made"], strict=True):
        expected = 0.0 if b == 0 else 0.5 * (1 - made) * (tab[b][b] - tab[b][b - 1])
        assert now - was == pytest.approx(expected)
    assert any(now > was for now, was in zip(lifted["util"], plain["util"], strict=True))


def test_the_bids_playouts_take_the_bid_noise_and_only_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bid_noise`` (off in the bot: negative, the play's ``opponent_noise``): a bid searched
    with the play's noise at 0.5 and the bid's at 0 is searched exactly as with both at 0, and the
    other way round; off, the bid takes the play's noise. Read from the trace (the candidates'
    utilities and playout make rates)."""
    settings = [(0.5, 0.0), (0.0, -1.0), (0.0, 0.5), (0.5, -1.0)]
    configs = [StrongConfig(bid_budget=6000, opponent_noise=play, bid_noise=bid) for play, bid in settings]
    _, (bid_quiet, both_quiet, bid_noisy, both_noisy) = _bid_traces(monkeypatch, "8", 5, configs)
    assert bid_quiet == both_quiet and bid_noisy == both_noisy
    assert both_quiet["made"] != both_noisy["made"]  # the noise changes what the playouts make


def test_the_late_weight_weighs_the_opponents_in_the_deals_last_tricks_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """``late_weight`` (off in the bot): a play among the deal's last ``late_tricks`` tricks
    weighs the opponents' mean by it, an earlier one by ``opponent_weight``; off, every play by
    ``opponent_weight``. Read from the weights the playouts' utility is asked for."""
    from games.ohhell.ai import players
    from games.ohhell.ai.players import StrongConfig, strong_play

    views = [v for v, _ in views_along_a_game("classic", 4, 2, sequence="fixed", fixed_hands="6")]
    plays = [info_from_view(v) for v in views if v["phase"] == "playing" and len(v["legal"]) > 1]
    early = next(i for i in plays if i.tricks_left == 6)
    late = next(i for i in plays if i.tricks_left <= 3)
    asked: list[float] = []
    real_utility = players.utility

    def spy(scores: list[int], me: int, weight: float) -> float:
        asked.append(weight)
        return real_utility(scores, me, weight)

    monkeypatch.setattr(players, "utility", spy)
    seen = {}
    for name, cfg in (
        ("off", StrongConfig(budget=600)),
        ("on", StrongConfig(budget=600, late_weight=1.0, late_tricks=3)),
    ):
        for when, info in (("early", early), ("late", late)):
            asked.clear()
            k = Knowledge.build(info)
            cfg.fit(k)
            strong_play(info, k, random.Random(1), cfg)
            seen[name, when] = set(asked)
    assert seen["off", "early"] == seen["off", "late"] == seen["on", "early"] == {0.5}
    assert seen["on", "late"] == {1.0}
