"""The rating model, pure: openskill's Plackett–Luce over each finished game's places.

No I/O here: :class:`Ledger` is the ratings of one server and game in memory, and
:func:`rate_game` moves it on by one finished game. The live path (after each game) and the
rebuild (from every stored game) both run games through :func:`rate_game` in finishing order,
so a rebuild gives the live ratings back to the last bit.

- A person is ``u:<user id>``; a computer is ``ai:<level>``, one identity per level, so people
  see where they stand against each level.
- The places are the stored results' (Oh Hell: the final ranks, ties shared; Shithead: the
  going-out order with the shithead last, or, played for a winner, everyone else shares second).
- Each seat of a game is its own entry: two seats of one identity (two computers of one level)
  are rated as two players from the level's prior, and each seat's change (what the standings
  show) is its own result's, so a computer tied with a person moves as the person does. The
  level's rating then moves once for the game, to the mean of its seats' posteriors.
- A shared place is rated as the mean of the strict orders it could stand for (each group of
  seats sharing a place in every rotation of its order, forwards and backwards): openskill 6.2's
  own handling of ties let a player placed below a shared place gain more than those sharing it
  (openskill.py #155). A game without shared places is the model's own rating, bit for bit.
- A game counts in the all-time season (``'all'``) and in its own season (``'2026-11'`` for a
  monthly server, ``'2026-Q4'`` quarterly, ``'2026'`` yearly; none when seasons are off).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from openskill.models import PlackettLuce

from db.records import FinishedGame, RatingChange, RatingRow, ResultRow

MODEL = PlackettLuce()
ALL_TIME = "all"
SEASON_LENGTHS = ("monthly", "quarterly", "yearly", "none")


def identity(result: ResultRow, ai_levels: dict[int, str]) -> str:
    """Who a result row rates: the member in the seat, else the computer's level."""
    if result.user_id is not None:
        return f"u:{result.user_id}"
    return f"ai:{ai_levels.get(result.seat, 'quick')}"


def identity_name(ident: str, result_name: str) -> str:
    return f"Computer ({ident[3:]})" if ident.startswith("ai:") else result_name


def season_of(finished_at: str, length: str) -> str | None:
    """The season a game finished at ``finished_at`` (ISO-8601) counts in, or None (no seasons)."""
    year, month = finished_at[:4], finished_at[5:7]
    if length == "monthly":
        return f"{year}-{month}"
    if length == "quarterly":
        return f"{year}-Q{(int(month) - 1) // 3 + 1}"
    if length == "yearly":
        return year
    return None


def display(mu: float, sigma: float) -> int:
    """The number people see: 1000 + 40 × the conservative estimate (μ − 3σ), 1000 for a newcomer."""
    return round(1000 + 40 * (mu - 3 * sigma))


@dataclass
class Ledger:
    """The ratings of one server and game, every season, by (season, identity)."""

    guild_id: int
    kind: str
    rows: dict[tuple[str, str], RatingRow] = field(default_factory=dict)
    #: rows changed since the ledger was made (what the live path writes back)
    touched: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, guild_id: int, kind: str, rows: list[RatingRow]) -> Ledger:
        return cls(guild_id, kind, {(r.season, r.identity): r for r in rows})

    def get(self, season: str, ident: str, name: str) -> RatingRow:
        row = self.rows.get((season, ident))
        if row is None:
            fresh = MODEL.rating()
            row = RatingRow(self.guild_id, self.kind, season, ident, name, fresh.mu, fresh.sigma, 0, 0, 0)
        return row

    def changed(self) -> list[RatingRow]:
        return [self.rows[key] for key in sorted(self.touched)]


def tie_orders(places: list[float]) -> list[list[float]]:
    """The strict orders a game's ``places`` (one a seat) stand for: ``[places]`` itself when no
    place is shared, else each group of seats sharing a place in every rotation of its order, and
    every rotation of its reverse. Each seat of a group takes each of its places equally often and
    comes before each other seat of it as often as after, so equal players sharing a place are
    rated alike; a group of k seats costs 2k orders (the groups step together: the least common
    multiple of their sizes), not k! (a Shithead game played for a winner shares second among up
    to seven)."""
    groups: dict[float, list[int]] = {}
    for seat, place in enumerate(places):
        groups.setdefault(place, []).append(seat)
    shared = [seats for seats in groups.values() if len(seats) > 1]
    if not shared:
        return [list(places)]
    count = 2 * math.lcm(*(len(seats) for seats in shared))
    orders = []
    for step in range(count):
        order = [0.0] * len(places)
        first = 1  # the group's best strict place, whether places skip shared ones (1, 1, 3) or not
        for place in sorted(groups):
            seats = groups[place]
            k = len(seats)
            ring = seats if step % 2 == 0 else seats[::-1]
            for offset, seat in enumerate(ring):
                order[seat] = float(first + (offset + step // 2) % k)
            first += k
        orders.append(order)
    return orders


def _rate(teams: list[list[Any]], places: list[float]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after the game: the model's, or the mean over :func:`tie_orders`."""
    orders = tie_orders(places)
    rated = [MODEL.rate(teams, ranks=order) for order in orders]
    if len(rated) == 1:
        return [(team[0].mu, team[0].sigma) for team in rated[0]]
    return [
        (sum(r[i][0].mu for r in rated) / len(rated), sum(r[i][0].sigma for r in rated) / len(rated))
        for i in range(len(teams))
    ]


def rate_game(ledger: Ledger, game: FinishedGame, season_length: str) -> list[RatingChange]:
    """Move ``ledger`` on by one finished game; returns the game's all-time change per seat."""
    results = sorted(game.results, key=lambda r: r.seat)
    idents = [identity(r, game.ai_levels) for r in results]
    seasons = [ALL_TIME]
    season = season_of(game.finished_at, season_length)
    if season is not None:
        seasons.append(season)
    changes: list[RatingChange] = []
    for season_key in seasons:
        priors = {i: ledger.get(season_key, i, identity_name(i, r.name)) for i, r in zip(idents, results, strict=True)}
        teams = [[MODEL.rating(mu=priors[i].mu, sigma=priors[i].sigma)] for i in idents]
        if len(set(idents)) > 1:
            rated = _rate(teams, [float(r.place) for r in results])
        else:  # nobody to be measured against: the game counts, the rating stays
            rated = [(team[0].mu, team[0].sigma) for team in teams]
        posterior: dict[str, list[tuple[float, float]]] = {}
        for i, after in zip(idents, rated, strict=True):
            posterior.setdefault(i, []).append(after)
        for i, values in posterior.items():
            prior = priors[i]
            won = any(r.place == 1 and not r.is_loser for j, r in zip(idents, results, strict=True) if j == i)
            name = next(identity_name(i, r.name) for j, r in zip(idents, results, strict=True) if j == i)
            ledger.rows[(season_key, i)] = replace(
                prior,
                name=name,
                mu=sum(v[0] for v in values) / len(values),
                sigma=sum(v[1] for v in values) / len(values),
                games=prior.games + 1,
                wins=prior.wins + int(won),
                last_game=game.id,
            )
            ledger.touched.add((season_key, i))
        if season_key == ALL_TIME:
            for i, r, (mu, sigma) in zip(idents, results, rated, strict=True):
                before = priors[i]
                changes.append(RatingChange(game.id, r.seat, i, before.mu, before.sigma, mu, sigma))
    return changes


def rebuild(
    guild_id: int, kind: str, games: list[FinishedGame], season_length: str
) -> tuple[Ledger, list[RatingChange]]:
    """Every rating of a server and game from its finished games (in finishing order)."""
    ledger = Ledger(guild_id, kind)
    found = rate_games(ledger, games, season_length)
    return ledger, [change for changes in found.values() for change in changes]


def rate_games(ledger: Ledger, games: list[FinishedGame], season_length: str) -> dict[int, list[RatingChange]]:
    """Move ``ledger`` on by ``games`` in order (:func:`rate_game`); their changes by game id."""
    return {game.id: rate_game(ledger, game, season_length) for game in games}
