"""Who may close a duplicate match (bot.duplicate.may_close), and when a match is over
(bot.fairness.match_done), as pure rules; the SimCord tests in tests/cogs/test_duplicate.py play
them through the bot."""

from __future__ import annotations

from bot.duplicate import may_close
from bot.fairness import match_done
from db.store import GameRecord, MatchRecord

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
