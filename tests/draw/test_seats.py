"""draw/seats.py: the seats' names and mentions as plain data, written as the live table writes
them (a person pinged, a computer or a seat it stands in for in bold)."""

from __future__ import annotations

from bot.seam.contract import LiveTable
from db.records import GameRecord, SeatRecord
from draw.seats import Faces, mention

SEATS = [
    SeatRecord(0, 11, "ann"),
    SeatRecord(1, None, "Computer 1 (quick)", "quick"),
    SeatRecord(2, 33, "cat", "quick"),  # a computer stands in for cat
]


def test_faces_name_mention_and_the_seats_people_play() -> None:
    faces = Faces.of(SEATS)
    assert faces.names == ("ann", "Computer 1 (quick)", "cat")
    assert faces.mentions == ("<@11>", "**Computer 1 (quick)**", "**cat**")
    assert faces.people == frozenset({0})
    assert [faces.computer(s) for s in range(3)] == [False, True, True]
    assert faces.name(2) == "cat" and faces.mention(0) == "<@11>"


def test_the_live_table_writes_a_mention_the_same_way() -> None:
    record = GameRecord(7, "game", None, 1, 11, "playing", "p", {}, None, None, None, None, seats=SEATS)
    table = LiveTable(record=record, kind=None)  # type: ignore[arg-type]
    assert [table.mention(s) for s in range(3)] == [mention(s) for s in SEATS] == list(Faces.of(SEATS).mentions)
    assert table.id == 7
