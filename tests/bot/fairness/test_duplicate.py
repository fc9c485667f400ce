"""Who may close a duplicate match (bot.fairness.duplicate.may_close), and when a match is over
(bot.fairness.shuffles.match_done), as pure rules; the SimCord tests in tests/cogs/fairness/test_duplicate.py play
them through the bot."""

from __future__ import annotations

from types import SimpleNamespace

from bot.fairness.duplicate import may_close
from bot.fairness.shuffles import match_done
from db.records import DealScore, GameRecord, MatchRecord, ResultRow, SeatRecord

HOST, OTHER, HOME, AWAY = 1, 2, 100, 200


def _match(closed: str | None = None) -> MatchRecord:
    return MatchRecord(7, "ohhell", "ABC234", HOME, HOST, 3, 1, "00", closed_at=closed)


def _game(status: str) -> GameRecord:
    return GameRecord(1, "ohhell", HOME, 1, HOST, status, "classic", {}, None, None, None, 3)


def test_the_host_or_a_manager_of_the_matchs_own_server_may_close_it() -> None:
    match = _match()
    assert may_close(match, HOST, AWAY, manager=False)  # the host, wherever they ask from
    assert may_close(match, OTHER, HOME, manager=True)
    assert not may_close(match, OTHER, HOME, manager=False)
    assert not may_close(match, OTHER, AWAY, manager=True)  # a manager of another table's server
    assert not may_close(match, OTHER, None, manager=True)  # (a DM has no server)


def test_a_match_is_over_once_every_table_it_will_have_is_over() -> None:
    over, playing = _game("finished"), _game("playing")
    assert not match_done(_match(), [over, over])  # two tables of three
    assert match_done(_match(), [over, over, _game("cancelled")])
    assert not match_done(_match("2026-11-27T12:00:00Z"), [over, playing])
    assert match_done(_match("2026-11-27T12:00:00Z"), [over, over])
    assert not match_done(_match("2026-11-27T12:00:00Z"), [])
    assert not match_done(None, [over])


class _Scores:
    """The two reads the comparison makes of the store: each table's deal scores and results."""

    def __init__(self, deals: dict[int, list[DealScore]], results: dict[int, list[ResultRow]]) -> None:
        self._deals, self._results = deals, results

    async def deal_scores(self, game_id: int) -> list[DealScore]:
        return self._deals.get(game_id, [])

    async def results(self, game_id: int) -> list[ResultRow]:
        return self._results.get(game_id, [])


def _table(game_id: int, status: str = "finished") -> GameRecord:
    record = GameRecord(game_id, "ohhell", HOME, game_id, HOST, status, "classic", {}, None, None, None, 3, match_id=7)
    record.seats = [SeatRecord(0, None, f"a{game_id}"), SeatRecord(1, None, f"b{game_id}")]
    return record


def _deals(*rows: tuple[int, int, int]) -> list[DealScore]:
    """(deal, seat, delta) rows, with running totals as the store keeps them."""
    totals: dict[int, int] = {}
    out = []
    for deal, seat, delta in rows:
        totals[seat] = totals.get(seat, 0) + delta
        out.append(DealScore(deal, seat, 0, 0, delta, totals[seat]))
    return out


def _results(scores: list[DealScore]) -> list[ResultRow]:
    totals = {d.seat: d.total for d in scores}
    return [ResultRow(s, None, "", 1, t, False, {}) for s, t in totals.items()]


async def test_only_the_deals_every_whole_table_played_compare_and_an_early_end_shrinks_nothing() -> None:
    """A (game 1) tied for first and played an extra deal 3; B (2) did not; C (3) was ended early
    after deal 1. Every seat of A and B is ranked on deals 1 and 2 (not on A's deal 3, nor on
    deal 1 alone because C stopped there), A's deal 3 is apart with A's own total, and C is shown
    with what it played, unranked."""
    from bot.fairness.duplicate import _entries, comparison_embed
    from bot.seam.comparison import BY_POINTS

    a = _deals((1, 0, 10), (1, 1, 5), (2, 0, 5), (2, 1, 10), (3, 0, 30), (3, 1, 0))
    b = _deals((1, 0, 10), (1, 1, 5), (2, 0, 0), (2, 1, 20))
    c = _deals((1, 0, -10), (1, 1, 15))
    store = _Scores({1: a, 2: b, 3: c}, {1: _results(a), 2: _results(b)})
    kind = SimpleNamespace(comparison=BY_POINTS)
    games = [_table(1), _table(2), _table(3, "cancelled")]
    entries = {(e.game.id, e.seat): e for e in await _entries(store, kind, games)}
    assert {k: (e.score, e.deals, e.extra, e.total) for k, e in entries.items() if k[0] < 3} == {
        (1, 0): (15, [10, 5], [30], 45),
        (1, 1): (15, [5, 10], [0], 15),
        (2, 0): (10, [10, 0], [], None),
        (2, 1): (25, [5, 20], [], None),
    }
    assert {k: e.against for k, e in entries.items()} == {
        (1, 0): 5, (1, 1): -10, (2, 0): -5, (2, 1): 10, (3, 0): None, (3, 1): None,
    }  # fmt: skip
    assert not entries[(3, 0)].complete and entries[(3, 0)].deals == [-10] and entries[(3, 0)].score == -10
    fields = {f.name: f.value for f in comparison_embed(kind, games, list(entries.values())).fields}
    apart = next(v for k, v in fields.items() if "extra deals" in k)
    assert apart.splitlines() == ["a1 (#1, seat 1): +30 → total **45**", "b1 (#1, seat 2): +0 → total **15**"]
    assert "#1 a1: **15** (+5.0) · deals +10, +5" in fields["Seat 1's cards"]
    early = next(v for k, v in fields.items() if "ended early" in k)
    assert "a3 (#3, seat 1): **ended early**, -10 after 1 deal" in early


async def test_a_play_off_deal_counts_only_for_its_seats_and_places_compare_as_before() -> None:
    """A play-off deal (misere-tiebreak) is on the sheet of its seats only and adds to no total:
    played at both tables by seat 1 it compares, by seat 2 at one table only it is apart and the
    score stays the total. A game that compares places keeps comparing them."""
    from bot.fairness.duplicate import _entries
    from bot.seam.comparison import BY_PLACE, BY_POINTS

    a = _deals((1, 0, 10), (1, 1, 10), (2, 0, 3))
    b = _deals((1, 0, 10), (1, 1, 20), (2, 0, 1), (2, 1, 4))
    a_results, b_results = _results(a[:2]), _results(b[:2])  # a play-off adds to no total
    store = _Scores({1: a, 2: b}, {1: a_results, 2: b_results})
    games = [_table(1), _table(2)]
    entries = {(e.game.id, e.seat): e for e in await _entries(store, SimpleNamespace(comparison=BY_POINTS), games)}
    assert {k: (e.score, e.deals, e.extra) for k, e in entries.items()} == {
        (1, 0): (10, [10, 3], []),
        (1, 1): (10, [10], []),
        (2, 0): (10, [10, 1], []),
        (2, 1): (20, [20], [4]),
    }

    def placed(*places: int) -> list[ResultRow]:
        return [ResultRow(seat, None, "", place, None, False, {}) for seat, place in enumerate(places)]

    places = _Scores({}, {1: placed(2, 1), 2: placed(1, 2)})
    ranked = {
        (e.game.id, e.seat): e.against for e in await _entries(places, SimpleNamespace(comparison=BY_PLACE), games)
    }
    assert ranked == {(1, 0): -1, (1, 1): 1, (2, 0): 1, (2, 1): -1}
