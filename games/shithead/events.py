"""The events the Shithead engine sends, one typed builder per kind.

An :class:`~games.common.engine.Event` carries a plain ``dict`` so that the bot can store and show
any game's events; building each one here from a TypedDict of
:mod:`games.shithead.contracts` keeps the keys of every kind in one checked place. ``seat`` set
on an event means only that seat may see it.

======================  ==========================================  ==============================
kind                    data                                        sent by
======================  ==========================================  ==============================
dealt                   private ``hand``; public ``face_up``        the deal (``deal_events()``)
swap                    seat, to_up, to_hand                        a swap
ready                   seat                                        ready
stacked                 seat, card                                  Karma: a hand card stacked face up
chose_up                seat, cards                                 choosing the face-up cards
first_player            seat, reason                                the end of the swap
played                  seat, cards, zone                           a play (or a flip that stands)
flipped                 seat, index, card, playable                 a flip
reversed                seat, direction                             an 8 or a joker that reverses
skipped                 seat, skipped (seats)                       a skipping joker
burnt                   seat, count, reason (ten / four)            a burn
flush                   seat                                        the first burn (rules.flush)
picked_up               seat, count, cards, added                   a pick-up (or a flip that fails)
drew                    public seat, count; private seat, cards     drawing back up from the stock
player_out              seat, place                                 a seat running out of cards
turn                    seat                                        every action of the play phase
game_over               order, loser, winner                        the end
======================  ==========================================  ==============================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from games.common.engine import Event
from games.shithead.contracts import (
    BurntData,
    ChoseUpData,
    DealtFaceUpData,
    DealtHandData,
    DrewCardsData,
    DrewData,
    FirstPlayerData,
    FlippedData,
    GameOverData,
    PickedUpData,
    PlayedData,
    PlayerOutData,
    ReversedData,
    SeatData,
    SkippedData,
    StackedData,
    SwapData,
)


def _event(kind: str, data: Mapping[str, object], seat: int | None = None) -> Event:
    # a TypedDict is a plain dict at run time: no copy
    return Event(kind, cast(dict[str, Any], data), seat)


def dealt_hand(seat: int, data: DealtHandData) -> Event:
    return _event("dealt", data, seat)


def dealt_face_up(data: DealtFaceUpData) -> Event:
    return _event("dealt", data)


def swapped(data: SwapData) -> Event:
    return _event("swap", data)


def stacked(data: StackedData) -> Event:
    return _event("stacked", data)


def ready(data: SeatData) -> Event:
    return _event("ready", data)


def chose_up(data: ChoseUpData) -> Event:
    return _event("chose_up", data)


def first_player(data: FirstPlayerData) -> Event:
    return _event("first_player", data)


def played(data: PlayedData) -> Event:
    return _event("played", data)


def flipped(data: FlippedData) -> Event:
    return _event("flipped", data)


def reversed_direction(data: ReversedData) -> Event:
    return _event("reversed", data)


def skipped(data: SkippedData) -> Event:
    return _event("skipped", data)


def burnt(data: BurntData) -> Event:
    return _event("burnt", data)


def flush(data: SeatData) -> Event:
    return _event("flush", data)


def picked_up(data: PickedUpData) -> Event:
    return _event("picked_up", data)


def drew(data: DrewData) -> Event:
    return _event("drew", data)


def drew_cards(seat: int, data: DrewCardsData) -> Event:
    return _event("drew", data, seat)


def player_out(data: PlayerOutData) -> Event:
    return _event("player_out", data)


def turn(data: SeatData) -> Event:
    return _event("turn", data)


def game_over(data: GameOverData) -> Event:
    return _event("game_over", data)
