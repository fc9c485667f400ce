"""Each Oh Hell rule is written once, readably, in :mod:`games.ohhell.play_rules`; the fast path
(:mod:`games.ohhell.fast`) and the computer players keep specialised copies for speed. These
tests pin every copy to the readable rule, over every preset and player count and random
positions reached three ways (the checked API, ``fast_apply`` one decision at a time, and
``playout``):

- who wins a trick: every recorded trick's winner (the engine's incremental copies in
  ``Tricks.play``, ``FastPath.fast_apply`` and ``fast_loops.random_tricks``, and the
  computer's ``_trick_winner`` and ``Sim.play``) equals :func:`play_rules.trick_winner` over the trick's cards;
- the hook: the bids offered (``fast_legal``, ``legal_actions``, ``bid_options``, the view's
  ``hook_forbidden``) and the bids drawn in a playout (``fast_loops.random_bids``) leave out exactly
  :func:`play_rules.hook_forbidden_bid`;
- the legal plays: ``fast_legal``'s inline "follow suit if you can" (and ``fast_apply``'s
  returned list) equals ``Tricks.legal_plays``;
- the draw: :func:`play_rules.random_below` is ``random.Random.choice``'s draw;
- the card tables: the computer's ``effective`` agrees with :func:`tables.card_tables`.
"""

from __future__ import annotations

import random

import pytest

from games.common.cards import SUITS
from games.ohhell.ai.infostate import Play
from games.ohhell.ai.sim import Sim
from games.ohhell.ai.table import DealTable, effective
from games.ohhell.ai.view_adapter import _trick_winner
from games.ohhell.game import OhHell
from games.ohhell.play_rules import hook_forbidden_bid, legal_bids, random_below, trick_winner
from games.ohhell.rules import Rules
from games.ohhell.tables import JOKER, NO_TRUMP, PLAY, card_tables
from tests.games.ohhell.test_game_properties import ALL_RULES

RULE_IDS = [f"{r.preset}-{n}-{i}" for i, (r, n) in enumerate(ALL_RULES)]


def _games(rules: Rules, n: int, seed: int) -> list[OhHell]:
    """Three finished games: through the checked API, fast_apply and playout."""
    rng = random.Random(seed)
    checked = OhHell.new(rules, n, seed)
    while not checked.is_over:
        seat = checked.to_act()[0]
        checked.apply(seat, rng.choice(checked.legal_actions(seat)))
    stepped = OhHell.new(rules, n, seed + 1)
    legal = stepped.fast_legal()
    while legal:
        legal = stepped.fast_apply(rng.choice(legal))
    played_out = OhHell.new(rules, n, seed + 2)
    played_out.playout(rng)
    return [checked, stepped, played_out]


def _sim_trick_winner(
    table: DealTable, players: list[int], seats: list[int], cards: list[int], named: list[int | None]
) -> int:
    """The trick played out in the computer's simulator (seats numbered in playing order)."""
    local = [players.index(s) for s in seats]
    hands = [0] * len(players)
    for p, c in zip(local, cards, strict=True):
        hands[p] |= 1 << table.index[c]
    won = [0] * len(players)
    sim = Sim(table, hands, [0] * len(players), won, local[0], [], -1, -1, -1, 1, (1 << table.n) - 1,
              [0] * len(players), [0] * len(players), [[0]], False)  # fmt: skip
    for c, x in zip(cards, named, strict=True):
        sim.play(table.index[c], -1 if x is None else x)
    assert sum(won) == 1
    return players[won.index(1)]


@pytest.mark.parametrize(("rules", "n"), ALL_RULES, ids=RULE_IDS)
def test_every_trick_winner_is_the_readable_rule(rules: Rules, n: int) -> None:
    for game in _games(rules, n, 7):
        for record, (players, _, tricks) in zip(game.record.deal_records, game.record.deal_logs, strict=True):
            effective_suit, power = game.setup.tables[record.trump]
            table = DealTable.build(game.setup.deck, None if record.trump == NO_TRUMP else record.trump, rules.bowers)
            for leader, cards, joker_suit, winner in tricks:
                start = players.index(leader)
                seats = [players[(start + k) % len(players)] for k in range(len(cards))]
                assert winner == trick_winner(seats, cards, effective_suit, power, record.trump, joker_suit, JOKER)
                # the computer's copy, on its own card tables
                named = [joker_suit if c == JOKER and 0 <= joker_suit < 4 else None for c in cards]
                plays = [Play(s, c, x) for s, c, x in zip(seats, cards, named, strict=True)]
                assert _trick_winner(table, plays) == winner
                assert _sim_trick_winner(table, players, seats, cards, named) == winner


@pytest.mark.parametrize(("rules", "n"), ALL_RULES, ids=RULE_IDS)
def test_offered_bids_and_plays_are_the_readable_rules(rules: Rules, n: int) -> None:
    rng = random.Random(11)
    for seed in range(3):
        game = OhHell.new(rules, n, seed)
        legal = game.fast_legal()
        while legal:
            seat = game.current_seat()
            if game.phase == PLAY:
                proper = game.tricks.legal_plays(seat, True)
                assert legal == proper
            else:
                last_bid = game.setup.hook and game.bidding.count == game.deal.player_count - 1
                forbidden = hook_forbidden_bid(game.deal.hand_size, game.bidding.total) if last_bid else None
                assert legal == legal_bids(game.deal.hand_size, forbidden)
                assert game.view(seat)["hook_forbidden"] == forbidden
                allowed = [b for b, ok, _ in game.bid_options(seat) if ok]
                assert allowed == [a["bid"] for a in game.legal_actions(seat) if a["type"] == "bid"]
                if not game.setup.simultaneous:
                    assert allowed == legal
            legal = game.fast_apply(rng.choice(legal))
            assert legal == game.fast_legal()


@pytest.mark.parametrize(("rules", "n"), [(r, n) for r, n in ALL_RULES if r.hook and r.bidding == "sequential"][:6])
def test_playout_bids_never_hit_the_hook(rules: Rules, n: int) -> None:
    for seed in range(20):
        game = OhHell.new(rules, n, seed)
        game.playout(random.Random(seed))
        for record, log in zip(game.record.deal_records, game.record.deal_logs, strict=True):
            *others, (last_seat, last_bid) = log.bids
            assert last_bid != hook_forbidden_bid(record.hand_size, sum(b for _, b in others))


def test_random_below_is_the_choice_draw() -> None:
    for n in range(1, 257):
        a, b = random.Random(n), random.Random(n)
        for _ in range(5):
            assert random_below(a.getrandbits, n) == b.choice(range(n))
        assert a.getstate() == b.getstate()


@pytest.mark.parametrize("bowers", [False, True])
def test_the_computers_card_tables_agree_with_the_engines(bowers: bool) -> None:
    game = OhHell.new("classic", 4, 0)
    deck = [*game.setup.deck, JOKER]
    for trump in (*SUITS, NO_TRUMP):
        effective_suit, power = card_tables(trump, bowers, deck)
        theirs = {c: effective(c, None if trump == NO_TRUMP else trump, bowers) for c in deck}
        for c in deck:
            if c == JOKER and trump == NO_TRUMP:
                continue  # the joker's own suit: numbered differently, beats everything in both
            assert theirs[c][0] == effective_suit[c]
        for a in deck:
            for b in deck:
                if effective_suit[a] == effective_suit[b]:
                    assert (power[a] < power[b]) == (theirs[a][1] < theirs[b][1]), (a, b, trump)
