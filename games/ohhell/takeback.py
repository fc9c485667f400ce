"""Taking a card back with the table's consent, and changing a secret bid: moves of the log.

Why moves and not a side door: a game is its seed and its log (:mod:`games.common.engine`), so
anything that changes the state must be a logged action, or a replay, the coach, the shuffle
file's check and a restarted bot would all see another game.

- ``{"type": "undo_ask"}``: the seat that played the latest card of an unfinished trick asks to
  take it back (once per card; never in a Devil's Bridge deal, whose card is blind).
  ``"auto_accept": [seats]`` names the seats whose answer the table gives at once (the bot's
  computer seats: computers accept).
- ``{"type": "undo_accept"}`` / ``{"type": "undo_refuse"}``: every other player of the deal
  answers; when all have accepted the card returns to the hand and its player is to play again.
  A refusal ends the request (the asker's own "refuse" withdraws it), and so does the next card
  played (the request lapses).
- A ``bid`` from a seat that has already bid in a simultaneous (secret) bidding replaces its bid,
  until the last bid is in.

The state keeps the rule steps' own fields as they were, so the fast path and the views know
nothing of this: an undone card is put back exactly where it was (its hand list and index), and
the scalar fields a card play changes are restored from :class:`UndoPoint`. The actions that left
no trace in that state (an undone card, the requests and answers, a replaced bid) are kept in
:attr:`Takeback.side_log` with their place in the whole log, so :attr:`OhHell.log` gives back
every action in order and ``len(log) == action_count`` still holds.

Events: ``undo_asked`` {seat, card, waiting (the players to answer, not those in
auto_accept)}; ``undo_answered`` {seat, asker, accept}; ``undo_done`` {seat, card, trick};
``undo_refused`` {seat, asker, card}; ``undo_lapsed`` {seat, card} (the next card was played
first); ``bid_placed`` {seat, changed: True}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.common.cards import card_code
from games.common.engine import ActionData, Event, IllegalAction
from games.ohhell.actions import LoggedAction, UndoAction, bid_action, play_action, split_play_id
from games.ohhell.tables import BID, PLAY
from games.ohhell.takeback_state import Request, UndoPoint
from locales import msg

if TYPE_CHECKING:
    from games.ohhell.state import DealState

#: the action types of this module (a ``bid`` that replaces one is a plain bid)
UNDO_TYPES = ("undo_ask", "undo_accept", "undo_refuse")


def merged_log(
    effective: list[tuple[int, LoggedAction]], side: list[tuple[int, int, LoggedAction]]
) -> list[tuple[int, LoggedAction]]:
    """The whole log: ``effective`` (the actions the state keeps, in order) with each side
    action put back at its own place."""
    out: list[tuple[int, LoggedAction]] = []
    pending = sorted(side, key=lambda entry: entry[0])
    k = 0
    for entry in effective:
        while k < len(pending) and pending[k][0] == len(out):
            out.append((pending[k][1], pending[k][2]))
            k += 1
        out.append(entry)
    out += [(seat, action) for _, seat, action in pending[k:]]
    return out


def is_takeback(action: ActionData) -> bool:
    return isinstance(action, Mapping) and action.get("type") in UNDO_TYPES


def is_bid_change(game: DealState, seat: int, action: ActionData) -> bool:
    return (
        isinstance(action, Mapping)
        and action.get("type") == "bid"
        and game.phase == BID
        and game.setup.simultaneous
        and 0 <= seat < game.seat_count
        and seat in game.deal.players
        and game.bidding.bids[seat] >= 0
    )


def undo_options(game: DealState, seat: int) -> list[str]:
    """What ``seat`` may do about a take-back now: "undo_ask", or "undo_accept" and
    "undo_refuse"; empty for nothing."""
    tb = game.takeback
    if game.phase != PLAY:
        return []
    request = tb.request
    if request is not None:
        if seat == request.asker:
            return ["undo_refuse"]  # withdrawn: a request nobody answers must not hold the table
        if seat in game.deal.players and seat not in request.accepted:
            return ["undo_accept", "undo_refuse"]
        return []
    point = _live_point(game)
    if point is not None and point.seat == seat and not point.refused and not game.deal.devils_bridge:
        return ["undo_ask"]
    return []


def pending_request(game: DealState) -> tuple[int, str, list[int]] | None:
    """(asker, card, the seats still to answer) while a take-back is asked, else None."""
    request, point = game.takeback.request, _live_point(game)
    if request is None or point is None:
        return None
    waiting = [s for s in game.deal.players if s != request.asker and s not in request.accepted]
    return request.asker, card_code(split_play_id(point.play_id)[0]), waiting


def live_card(game: DealState) -> str | None:
    """The card a take-back would take back now (the trick's latest card, as the log names it),
    or None when there is none to take back."""
    point = _live_point(game)
    return None if point is None else card_code(split_play_id(point.play_id)[0])


def _live_point(game: DealState) -> UndoPoint | None:
    """The undo point if the state is still the one right after its card (a search's unchecked
    moves leave it behind; they never ask)."""
    point = game.takeback.point
    if point is None or point.deal_no != game.deal.number or point.tricks_done != game.tricks.done:
        return None
    if game.phase != PLAY or len(game.tricks.cards) != point.trick_len:
        return None
    return point


def check(game: DealState, seat: int, action: Mapping[str, Any]) -> None:
    kind = action.get("type")
    if not isinstance(seat, int) or not 0 <= seat < game.seat_count:
        raise IllegalAction(msg("There is no such seat."))
    allowed = undo_options(game, seat)
    if kind in allowed:
        if kind == "undo_ask":
            auto = action.get("auto_accept", [])
            if not isinstance(auto, list) or any(
                not isinstance(s, int) or s == seat or s not in game.deal.players for s in auto
            ):
                raise IllegalAction(msg("auto_accept lists other players of this deal."))
        return
    if game.phase != PLAY:
        raise IllegalAction(msg("Only a card of the trick on the table can be taken back."))
    if kind == "undo_ask":
        point = _live_point(game)
        if game.takeback.request is not None:
            raise IllegalAction(msg("A take-back is already asked: wait for the answers."))
        if point is None or point.seat != seat:
            raise IllegalAction(msg("You can only take back your own card while it is the trick's latest."))
        if game.deal.devils_bridge:
            raise IllegalAction(msg("In a Devil's Bridge deal your card is blind: there is none other to play."))
        raise IllegalAction(msg("The table has already refused to give that card back."))
    if game.takeback.request is None:
        raise IllegalAction(msg("Nobody is asking to take a card back now."))
    raise IllegalAction(msg("You have already answered, or it is your own request."))


def do(game: DealState, seat: int, action: Mapping[str, Any], events: list[Event] | None) -> None:
    """Apply a checked take-back action (counted in the log like any other)."""
    tb = game.takeback
    raw = game.actions_done
    game.actions_done += 1
    kind = action["type"]
    logged: UndoAction = {"type": kind}
    point = _live_point(game)
    assert point is not None
    card = card_code(split_play_id(point.play_id)[0])
    if kind == "undo_ask":
        auto = sorted(set(action.get("auto_accept", [])))
        if auto:
            logged["auto_accept"] = auto
        tb.side_log.append((raw, seat, logged))
        tb.request = Request(seat, set())
        waiting = [s for s in game.deal.players if s != seat and s not in auto]  # (people: computers accept)
        _emit(events, "undo_asked", {"seat": seat, "card": card, "waiting": waiting})
        for other in auto:
            _accept(game, other, events)
        return
    tb.side_log.append((raw, seat, logged))
    request = tb.request
    assert request is not None
    if kind == "undo_refuse":
        tb.request = None
        tb.point = replace(point, refused=True)
        _emit(events, "undo_answered", {"seat": seat, "asker": request.asker, "accept": False})
        _emit(events, "undo_refused", {"seat": seat, "asker": request.asker, "card": card})
        return
    _accept(game, seat, events)


def _accept(game: DealState, seat: int, events: list[Event] | None) -> None:
    request = game.takeback.request
    assert request is not None
    request.accepted.add(seat)
    _emit(events, "undo_answered", {"seat": seat, "asker": request.asker, "accept": True})
    if all(s == request.asker or s in request.accepted for s in game.deal.players):
        _take_back(game, events)


def _take_back(game: DealState, events: list[Event] | None) -> None:
    """Every other player accepted: the card goes back to its place in the hand and its player
    is to play again; the card's play moves to the side log."""
    tb = game.takeback
    point = tb.point
    assert point is not None
    seat = point.seat
    card, _ = split_play_id(point.play_id)
    game.tricks.put_back(point)
    game.turn = seat
    tb.side_log.append((point.raw_index, seat, play_action(point.play_id)))
    tb.request = None
    tb.point = None
    _emit(events, "undo_done", {"seat": seat, "card": card_code(card), "trick": game.tricks.done + 1})


def before_play(game: DealState, seat: int, play_id: int) -> UndoPoint:
    """What a card play is about to change (taken before :meth:`Tricks.play`)."""
    card, _ = split_play_id(play_id)
    tricks, books = game.tricks, game.tricks.books
    group = game.deal.effective_suit[card]
    return UndoPoint(
        seat=seat,
        play_id=play_id,
        group=group,
        index=tricks.hands[seat][group].index(card),
        raw_index=game.actions_done,
        deal_no=game.deal.number,
        tricks_done=tricks.done,
        trick_len=len(tricks.cards) + 1,
        led_suit=tricks.led_suit,
        best_power=tricks.best_power,
        winning_seat=tricks.winning_seat,
        trick_joker_suit=tricks.joker_suit,
        suits_played=books.played[seat],
        suits_failed=books.failed[seat],
        revoked=books.revoked[seat],
        revokes=len(books.revokes),
    )


def after_play(game: DealState, point: UndoPoint, events: list[Event] | None) -> None:
    """A card was played: a pending request for the card before it lapses; this card may be
    asked back while its trick is open."""
    tb = game.takeback
    if tb.request is not None:
        old = tb.point
        if events is not None and old is not None:
            lapsed = {"seat": tb.request.asker, "card": card_code(split_play_id(old.play_id)[0])}
            events.insert(0, Event("undo_lapsed", lapsed))
        tb.request = None
    tb.point = point if game.deal.number == point.deal_no and game.tricks.done == point.tricks_done else None


def change_bid(game: DealState, seat: int, bid: int, events: list[Event] | None) -> None:
    """A secret bid replaced before the last bid is in: the old one goes to the side log."""
    tb = game.takeback
    old = game.bidding.replace(seat, bid)
    tb.side_log.append((tb.bid_at[seat], seat, bid_action(old)))
    tb.bid_at[seat] = game.actions_done
    game.actions_done += 1
    _emit(events, "bid_placed", {"seat": seat, "changed": True})


def _emit(events: list[Event] | None, kind: str, data: dict[str, Any]) -> None:
    if events is not None:
        events.append(Event(kind, data))
