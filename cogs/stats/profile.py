"""A member's profile for one game, from their finished games (pure: no I/O, no Discord)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.seam.profiles import Profile
from cogs.stats.ratings import display
from db.records import MemberGame, RatingChange, RatingRow
from locales import ngettext

#: how many recent games the rating trend spans
TREND_GAMES = 5


def won(game: MemberGame) -> bool:
    return game.place == 1 and not game.is_loser


def profile(kind: str, games: list[MemberGame], rating: RatingRow | None, changes: list[RatingChange]) -> Profile:
    """``games`` oldest first; ``changes`` the member's all-time rating changes, oldest first."""
    mine = [g for g in games if g.kind == kind]
    trend = None
    if changes:
        recent = changes[-TREND_GAMES:]
        first, last = recent[0], recent[-1]
        trend = display(last.mu_after, last.sigma_after) - display(first.mu_before, first.sigma_before)
    return Profile(
        kind=kind,
        games=len(mine),
        wins=sum(won(g) for g in mine),
        average_place=sum(g.place for g in mine) / len(mine) if mine else 0.0,
        rating=display(rating.mu, rating.sigma) if rating is not None else None,
        trend=trend,
        deals=sum(g.deals for g in mine),
        bids_made=sum(g.bids_made for g in mine),
        losses=sum(g.is_loser for g in mine),
        best=best_game(mine),
        streak=streak(mine),
        favourite_preset=Counter(g.preset for g in mine).most_common(1)[0][0] if mine else "—",
    )


def best_game(games: list[MemberGame]) -> MemberGame | None:
    """A game of points: the highest total; otherwise the best place among the most players (the
    earliest first)."""
    if not games:
        return None
    if all(g.total is not None for g in games):
        return max(games, key=lambda g: (g.total or 0, -g.game_id))
    return min(games, key=lambda g: (g.place, -g.players, g.game_id))


def streak(games: list[MemberGame]) -> str:
    """The current run: wins in a row, or games without a win, counted back from the last game."""
    if not games:
        return "—"
    last = won(games[-1])
    run = 0
    for game in reversed(games):
        if won(game) != last:
            break
        run += 1
    if last:
        return ngettext("{n} win in a row", "{n} wins in a row", run)
    return ngettext("{n} game without a win", "{n} games without a win", run)


@dataclass(slots=True)
class HeadToHead:
    together: int
    ahead: int
    behind: int
    level: int


def head_to_head(mine: list[MemberGame], theirs: list[MemberGame], kind: str) -> HeadToHead:
    """The games both played (of ``kind``), and who finished ahead in them."""
    places = {g.game_id: g.place for g in theirs if g.kind == kind}
    shared = [(g.place, places[g.game_id]) for g in mine if g.kind == kind and g.game_id in places]
    return HeadToHead(
        together=len(shared),
        ahead=sum(a < b for a, b in shared),
        behind=sum(a > b for a, b in shared),
        level=sum(a == b for a, b in shared),
    )
