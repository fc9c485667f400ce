"""The rating model (pure) and the rating book on a real store: the order a game finished in
moves ratings the right way, computers are one identity per level, seasons, and live ratings
always equal a rebuild from the stored games, even when games finish out of order."""

from __future__ import annotations

import pytest

from cogs.stats.book import RatingBook
from cogs.stats.profile import head_to_head, profile, streak
from cogs.stats.ratings import ALL_TIME, Ledger, display, rate_game, rebuild, season_of
from db.records import FinishedGame, MemberGame, ResultRow, SeatRecord
from db.sqlite import SqliteStore


def game(
    gid: int,
    places: list[tuple[int | None, int]],
    finished_at: str = "2026-11-24T06:00:00Z",
    loser: int | None = None,
    levels: dict[int, str] | None = None,
) -> FinishedGame:
    results = [
        ResultRow(seat, user, f"p{seat}", place, None, seat == loser, {}) for seat, (user, place) in enumerate(places)
    ]
    return FinishedGame(gid, "shithead", 1, "classic", finished_at, results, levels or {})


def test_the_winner_gains_and_the_last_loses_and_ties_share() -> None:
    ledger = Ledger(1, "ohhell")
    changes = rate_game(ledger, game(1, [(10, 1), (20, 2), (30, 3)]), "monthly")
    after = {c.identity: display(c.mu_after, c.sigma_after) for c in changes}
    assert all(display(c.mu_before, c.sigma_before) == 1000 for c in changes)
    assert after["u:10"] > after["u:20"] > after["u:30"]
    assert ledger.rows[(ALL_TIME, "u:10")].wins == 1 and ledger.rows[(ALL_TIME, "u:30")].wins == 0
    assert ledger.rows[("2026-11", "u:10")].mu == ledger.rows[(ALL_TIME, "u:10")].mu  # one game: same in its season
    tied = Ledger(1, "ohhell")
    changes = rate_game(tied, game(2, [(10, 2), (20, 1), (30, 2)]), "none")
    moved = {c.identity: c.mu_after for c in changes}
    assert moved["u:10"] == pytest.approx(moved["u:30"]) and moved["u:20"] > moved["u:10"]
    assert {s for s, _ in tied.rows} == {ALL_TIME}  # no seasons: all-time only


def _place_patterns(most: int) -> list[list[int]]:
    """Every way ``2..most`` players can share places, as final places (``[1, 1, 3]``)."""

    def groups(n: int) -> list[list[int]]:
        return [[]] if n == 0 else [[k, *rest] for k in range(1, n + 1) for rest in groups(n - k)]

    patterns = []
    for n in range(2, most + 1):
        for sizes in groups(n):
            places, at = [], 1
            for k in sizes:
                places += [at] * k
                at += k
            patterns.append(places)
    return patterns


@pytest.mark.parametrize("places", [p for p in _place_patterns(8) if len(set(p)) < len(p)], ids=str)
def test_a_shared_place_never_gains_less_than_a_place_below_it(places: list[int]) -> None:
    """openskill 6.2's Plackett-Luce rates ties so that, among equal players, the one placed
    just below a shared place could gain more than those sharing it (two share first of five:
    +1.0 each, the third +1.56; openskill.py #155), in 41 of the 119 ways 3 to 7 players can tie.
    A shared place is rated as the mean of its orders, so that equal players who share a place move
    alike and a better place never moves less."""
    ledger = Ledger(1, "ohhell")
    changes = rate_game(ledger, game(1, [(10 + seat, place) for seat, place in enumerate(places)]), "none")
    moved = [c.mu_after - c.mu_before for c in sorted(changes, key=lambda c: c.seat)]
    for a in range(len(places)):
        for b in range(len(places)):
            if places[a] == places[b]:
                assert moved[a] == pytest.approx(moved[b], abs=1e-9), (places, moved)
            elif places[a] < places[b]:
                assert moved[a] > moved[b], (places, moved)
    assert sum(moved) == pytest.approx(0, abs=1e-6)  # equal players: what one gains another loses


def test_a_game_without_shared_places_is_rated_by_the_model_itself() -> None:
    """Only shared places are rated differently: every other game's ratings stay bit for bit."""
    from cogs.stats.ratings import MODEL

    ledger = Ledger(1, "ohhell")
    rate_game(ledger, game(1, [(10, 1), (20, 2), (30, 3), (40, 4)]), "none")
    changes = rate_game(ledger, game(2, [(10, 4), (20, 1), (30, 3), (40, 2)]), "none")
    before = [MODEL.rating(mu=c.mu_before, sigma=c.sigma_before) for c in changes]
    expected = MODEL.rate([[r] for r in before], ranks=[4.0, 1.0, 3.0, 2.0])
    assert [(c.mu_after, c.sigma_after) for c in changes] == [(t[0].mu, t[0].sigma) for t in expected]


def test_the_shithead_comes_last_and_computers_are_one_identity_per_level() -> None:
    ledger = Ledger(1, "shithead")
    # seat 0 went out first, seat 2 second, the computer in seat 1 is the shithead
    g = game(1, [(10, 1), (None, 3), (20, 2)], loser=1, levels={1: "quick"})
    changes = rate_game(ledger, g, "monthly")
    assert {c.identity for c in changes} == {"u:10", "u:20", "ai:quick"}
    assert ledger.rows[(ALL_TIME, "ai:quick")].name == "Computer (quick)"
    assert min(changes, key=lambda c: c.mu_after).identity == "ai:quick"
    # two computers of one level in one game: one identity, rated once, one game more
    two = game(2, [(None, 1), (None, 2), (10, 3)], levels={0: "quick", 1: "quick"})
    changes = rate_game(ledger, two, "monthly")
    assert len(changes) == 3 and ledger.rows[(ALL_TIME, "ai:quick")].games == 2


def test_seasons() -> None:
    assert season_of("2026-11-24T06:00:00Z", "monthly") == "2026-11"
    assert season_of("2026-11-24T06:00:00Z", "quarterly") == "2026-Q4"
    assert season_of("2026-02-01T00:00:00Z", "quarterly") == "2026-Q1"
    assert season_of("2026-11-24T06:00:00Z", "yearly") == "2026"
    assert season_of("2026-11-24T06:00:00Z", "none") is None


def test_a_rebuild_is_the_games_rated_one_by_one() -> None:
    games = [game(i, [(10, 1 + i % 3), (20, 1 + (i + 1) % 3), (30, 1 + (i + 2) % 3)]) for i in range(1, 8)]
    ledger = Ledger(1, "shithead")
    one_by_one = [c for g in games for c in rate_game(ledger, g, "monthly")]
    rebuilt, changes = rebuild(1, "shithead", games, "monthly")
    assert changes == one_by_one and rebuilt.rows == ledger.rows


async def _finish(store: SqliteStore, channel: int) -> int:
    gid = await store.create_game("ohhell", 1, channel, 10, "classic", {})
    await store.start_game(gid, {}, 1, [SeatRecord(s, 10 * (s + 1), f"p{s}") for s in range(3)], 2)
    return gid


async def _end(store: SqliteStore, gid: int, places: list[int]) -> None:
    rows = [ResultRow(s, 10 * (s + 1), f"p{s}", p, 0, False, {}) for s, p in enumerate(places)]
    await store.record_action(gid, 0, 0, {"type": "bid", "bid": 0}, results=rows)


async def test_live_ratings_equal_a_rebuild_even_when_games_finish_out_of_order(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "r.sqlite3"))
    await store.open()
    try:
        book = RatingBook(store)
        early = await _finish(store, 1)
        late = await _finish(store, 2)
        await _end(store, late, [3, 2, 1])  # the later game ends first and is rated
        assert set(await book.catch_up(1, "ohhell")) == {late}
        await _end(store, early, [1, 2, 3])  # in the same second, it sorts before the rated game
        rebuilds: list[str] = []
        inner = book._rebuild

        async def counted(guild_id: int | None, kind: str, held: frozenset[int]):  # type: ignore[no-untyped-def]
            rebuilds.append(kind)
            return await inner(guild_id, kind, held)

        book._rebuild = counted  # type: ignore[method-assign]
        rated = await book.catch_up(1, "ohhell")
        stamps = {g.id: g.finished_at for g in await store.finished_games(1, "ohhell")}
        assert rebuilds == (["ohhell"] if stamps[early] == stamps[late] else [])
        assert early in rated and len(rated[early]) == 3
        live = (await store.ratings(1, "ohhell"), await store.rating_changes(1, "ohhell"))
        assert book.note(1, "ohhell", "u:10") is not None
        await book.rebuild(1, "ohhell")
        assert (await store.ratings(1, "ohhell"), await store.rating_changes(1, "ohhell")) == live
        assert await book.catch_up(1, "ohhell") == {}  # nothing left to rate
    finally:
        await store.close()


def _mg(gid: int, place: int, kind: str = "ohhell", preset: str = "classic", total: int | None = 10) -> MemberGame:
    return MemberGame(gid, kind, preset, "2026-11-24", 0, place, total, False, 3, 2, 1)


def test_profile_streak_best_and_head_to_head() -> None:
    games = [_mg(1, 2, total=30), _mg(2, 1, preset="bowers", total=50), _mg(3, 1, preset="bowers", total=20)]
    p = profile("ohhell", games, None, [])
    assert (p.games, p.wins, p.average_place) == (3, 2, pytest.approx(4 / 3))
    assert p.best is not None and p.best.game_id == 2 and p.favourite_preset == "bowers"
    assert p.streak == "2 wins in a row" and (p.deals, p.bids_made) == (6, 3) and p.rating is None
    assert streak([_mg(1, 1), _mg(2, 3), _mg(3, 2)]) == "2 games without a win"
    theirs = [_mg(1, 1), _mg(2, 2), _mg(3, 1), _mg(9, 1)]
    h = head_to_head(games, theirs, "ohhell")
    assert (h.together, h.ahead, h.behind, h.level) == (3, 1, 1, 1)


async def test_a_computer_tied_with_a_person_moves_as_the_person_does(tmp_path) -> None:
    """Two computers of one level in one game. Each seat is rated as its own
    entry, so the computer that tied the person shows the person's change (the level's other
    seat, last, does not drag it), and the level's rating moves once, by its seats' mean."""
    store = SqliteStore(str(tmp_path / "r.sqlite3"))
    await store.open()
    try:
        book = RatingBook(store)
        gid = await store.create_game("ohhell", 1, 1, 10, "classic", {})
        seats = [SeatRecord(0, 10, "ann"), SeatRecord(1, None, "c1", "quick"), SeatRecord(2, None, "c2", "quick")]
        seats.append(SeatRecord(3, 20, "bob"))
        await store.start_game(gid, {}, 1, seats, 2)
        places = {0: 1, 1: 1, 2: 4, 3: 3}  # ann and computer 1 share first, bob third, computer 2 last
        rows = [ResultRow(s.seat, s.user_id, s.name, places[s.seat], 0, False, {}) for s in seats]
        await store.record_action(gid, 0, 0, {"type": "bid", "bid": 0}, results=rows)
        changes = {c.seat: c for c in (await book.catch_up(1, "ohhell"))[gid]}
        moved = {
            s: display(c.mu_after, c.sigma_after) - display(c.mu_before, c.sigma_before) for s, c in changes.items()
        }
        assert moved[0] > 0 and moved[1] == moved[0], moved
        assert moved[2] < 0
        level = next(r for r in await store.ratings(1, "ohhell", ALL_TIME) if r.identity == "ai:quick")
        assert level.games == 1 and level.wins == 1
        assert level.mu == pytest.approx((changes[1].mu_after + changes[2].mu_after) / 2)
        assert level.sigma == pytest.approx((changes[1].sigma_after + changes[2].sigma_after) / 2)
        live = (await store.ratings(1, "ohhell"), await store.rating_changes(1, "ohhell"))
        await book.rebuild(1, "ohhell")
        assert (await store.ratings(1, "ohhell"), await store.rating_changes(1, "ohhell")) == live
    finally:
        await store.close()


def test_the_orders_of_shared_places_are_strict_and_balanced() -> None:
    from cogs.stats.ratings import tie_orders

    assert tie_orders([2.0, 1.0, 3.0]) == [[2.0, 1.0, 3.0]]
    for places in ([1.0, 1.0, 3.0], [1.0, 1.0, 2.0]):  # shared places skipped or not: the same orders
        orders = tie_orders(places)
        assert all(sorted(o) == [1.0, 2.0, 3.0] and o[2] == 3.0 for o in orders)
    orders = tie_orders([2.0, 1.0, 2.0, 2.0, 5.0, 5.0])
    assert len(orders) == 2 * 6  # groups of 3 and 2 step together: lcm 6, forwards and backwards
    for a, b in ((0, 2), (0, 3), (2, 3), (4, 5)):
        assert sum(o[a] < o[b] for o in orders) == len(orders) / 2  # before as often as after
    for seat in (0, 2, 3):
        assert sorted(o[seat] for o in orders) == sorted([2.0, 3.0, 4.0] * 4)  # each place as often


async def test_ratings_stored_before_shared_places_were_rated_anew_are_worked_out_again(tmp_path) -> None:
    """Migration 0011: the ratings a store kept from the old handling of shared places go, and the
    next read (here the bot's start: RatingBook.warm) rates every stored game again, as a rebuild."""
    import sqlite3

    path = str(tmp_path / "r.sqlite3")
    store = SqliteStore(path)
    await store.open()
    try:
        seats = [SeatRecord(0, 10, "ann"), SeatRecord(1, 20, "bob"), SeatRecord(2, 30, "cat"), SeatRecord(3, 40, "dan")]
        for places in ({0: 1, 1: 1, 2: 3, 3: 4}, {0: 4, 1: 1, 2: 2, 3: 3}):
            gid = await store.create_game("ohhell", 1, 1, 10, "classic", {})
            await store.start_game(gid, {}, 1, seats, 2)
            rows = [ResultRow(s.seat, s.user_id, s.name, places[s.seat], 0, False, {}) for s in seats]
            await store.record_action(gid, 0, 0, {"type": "bid", "bid": 0}, results=rows)
        await RatingBook(store).catch_up(1, "ohhell")
        rated = (await store.ratings(1, "ohhell"), await store.rating_changes(1, "ohhell"))
    finally:
        await store.close()
    with sqlite3.connect(path) as db:  # as a store of the schema before 0011 left it: other figures
        db.execute("UPDATE ratings SET mu = mu + 1")
        db.execute("UPDATE rating_changes SET mu_after = mu_after + 1")
        db.execute("ALTER TABLE matches DROP COLUMN closed_at")  # (added by 0012, after it)
        db.execute("ALTER TABLE matches DROP COLUMN compared_at")  # (0013)
        db.execute("DROP INDEX games_by_match")  # (0014)
        db.execute("ALTER TABLE matches DROP COLUMN expires_at")  # (0016)
        db.execute("DROP TABLE ping_optouts")  # (0017; its timers table is rebuilt as it is)
        for table, column in (("games", "round"), ("games", "signature"), ("games", "note")) + (
            ("games", "message_id"),
            ("matches", "round"),
            ("matches", "message_id"),
            ("matches", "signature"),
            ("matches", "note"),
        ):
            db.execute(f"ALTER TABLE {table} DROP COLUMN beacon_{column}")  # (0018)
        db.execute("DROP TABLE seat_handovers")  # (0019)
        db.execute("ALTER TABLE panels DROP COLUMN language")  # (0020)
        db.execute("DROP TABLE member_languages")  # (0021)
        db.execute("PRAGMA user_version=10")
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.rating_changes(1, "ohhell") == []  # the migration took them away
        await RatingBook(store).warm(1, ["ohhell"])
        assert (await store.ratings(1, "ohhell"), await store.rating_changes(1, "ohhell")) == rated
    finally:
        await store.close()
