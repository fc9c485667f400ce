"""What passes between the Shithead engine and its readers, as types: the actions a seat may send,
the view each seat sees, and the data of each event.

The words are those of :mod:`games.common.contracts` (``seat``, ``seat_count``, ``viewer``,
``seats``, ``to_act``, ``hand``, ``legal``), so a reader that knows Oh Hell's view knows where to
look in this one. Cards are always card codes (``"QH"``, ``"10S"``, ``"X"``, ``"AS#1"``) as
:func:`games.common.cards.card_code` writes them; the engine's own int cards never leave it.

These types describe what the engine *sends*. What it *receives* is untrusted (a button, a stored
log, a test), so :meth:`games.shithead.game.Shithead.check` takes any mapping and says in words
what is wrong with it.

No ``from __future__ import annotations`` here: the TypedDicts' ``__optional_keys__`` are only
right with real annotations, and the tests check every view, action and event against them.
"""

from typing import Literal, NotRequired, TypedDict

from games.common.contracts import BaseView
from locales import MsgData

#: where a seat plays from: its hand, then its face-up cards, then its face-down cards (blind)
Zone = Literal["hand", "up", "down"]
#: the phases, in order: swapping (or choosing) the face-up cards, playing, over
Phase = Literal["swap", "play", "over"]

# -- actions ----------------------------------------------------------------------------------


class SwapAction(TypedDict):
    """Swap phase: exchange a hand card and a face-up card."""

    type: Literal["swap"]
    hand: str
    up: str


class StackAction(TypedDict):
    """Swap phase, Karma's stacking: put a hand card on the face-up cards of its rank and draw
    back up from the stock."""

    type: Literal["stack"]
    card: str


class ReadyAction(TypedDict):
    """Swap phase: done swapping."""

    type: Literal["ready"]


class ChooseUpAction(TypedDict):
    """Choosing deal: the cards to put face up (this also means ready)."""

    type: Literal["choose_up"]
    cards: list[str]


class PlayAction(TypedDict):
    """Hand cards, or face-up cards once the hand is empty: one rank, or a run of one suit with
    the ``runs`` option. A code without ``#copy`` names any copy the player holds."""

    type: Literal["play"]
    cards: list[str]


class FlipAction(TypedDict):
    """Play a face-down card blind, by its position."""

    type: Literal["flip"]
    index: int


class PickupAction(TypedDict):
    """Take the pile; refusing with face-up cards under ``refusal="add-one"``, ``add`` names the
    face-up card put on the pile first."""

    type: Literal["pickup"]
    add: NotRequired[str]


#: every action a seat may send (``legal`` lists them in this form)
ShitheadAction = SwapAction | StackAction | ReadyAction | ChooseUpAction | PlayAction | FlipAction | PickupAction

# -- the view ---------------------------------------------------------------------------------


class TableSeat(TypedDict):
    """One entry of the view's ``seats``: what everyone may see of that seat."""

    seat: int
    face_up: list[str]
    #: how many face-down cards are left (never which)
    face_down: int
    #: the positions of the face-down cards still there (what a flip names)
    face_down_slots: list[int]
    hand_size: int
    #: where the seat plays from now, ``None`` once out
    zone: Zone | None
    #: done swapping (swap phase)
    ready: bool
    out: bool
    #: 1-based finishing place, ``None`` while still playing
    place: int | None


class RecentAction(TypedDict):
    """One of the last few public actions, for the table message."""

    seat: int
    #: swap, ready, choose_up, play, flip, burn, pickup, out
    kind: str
    cards: list[str]
    #: the action in words, after the player's name ("played 7♥ 7♠"): a sentence as data
    #: (:meth:`locales.Msg.to_json`) that each reader words in their own language (one state is
    #: read in many)
    text: MsgData


class ShitheadView(BaseView):
    """Everything one seat may see (``viewer``), or the public view (``viewer`` is ``None``).

    No view ever holds a face-down card (not even its owner's) or another seat's hand.
    ``hand``, ``zone`` and ``legal`` are only in a seat's own view.
    """

    dealer: int
    #: actions taken so far (the log's length)
    action_count: int
    #: the seat to play (``None`` during the swap and when over)
    turn: int | None
    #: 1 (clockwise, to higher seats) or -1
    direction: int
    #: the pile's cards, bottom first (every one was played face up)
    pile: list[str]
    pile_size: int
    pile_top: str | None
    #: the card the next play must answer (under 8s / glass), or ``None`` for anything
    to_beat: str | None
    #: rank labels that may be played now ("3".."10", "J", "Q", "K", "A", "2", "Joker")
    playable_ranks: list[str]
    #: the same in words, in the reader's language: "Any card." / "Beat the king: K, A, 2 or 10."
    need: MsgData
    #: how many cards are burnt
    burnt: int
    #: how many cards are left in the stock
    stock: int
    seats: list[TableSeat]
    #: seats in the order they went out
    finished: list[int]
    #: the seat that started play (``None`` during the swap), and why, in words
    first_player: int | None
    first_reason: MsgData | None
    #: Smeghead's "flush" person, the first seat to clear the pile (``None`` until then / off)
    flush: int | None
    recent: list[RecentAction]
    #: when over (the other is ``None``); the shithead is the loser
    loser: int | None
    winner: int | None
    #: the viewer's hand, low to high (3 … A, then 2s, then jokers)
    hand: NotRequired[list[str]]
    #: where the viewer plays from now
    zone: NotRequired[Zone | None]
    #: every legal action for the viewer now (``[]`` if not to act)
    legal: NotRequired[list[ShitheadAction]]
    #: only in a computer's view (:func:`games.shithead.views.ai_view`): each seat's hand cards
    #: the whole table saw go in (picked up, swapped in) and not come out, as a player remembers
    known: NotRequired[list[list[str]]]


class Results(TypedDict):
    """:meth:`games.shithead.game.Shithead.results`: how a game ended."""

    #: seats in the order they went out, the loser last
    order: list[int]
    loser: int | None
    winner: int | None
    #: the shithead deals the next hand; playing for a winner, the deal passes to the left
    next_dealer: int


# -- events' data (``Event.data``; see games/shithead/events.py for who sends which) ---------


class DealtHandData(TypedDict):
    hand: list[str]


class DealtFaceUpData(TypedDict):
    #: per seat (the key is the seat as a string, JSON-style): its face-up cards
    face_up: dict[str, list[str]]


class SeatData(TypedDict):
    """``ready``, and ``turn`` (whose turn it is after an action in the play phase)."""

    seat: int | None


class SwapData(TypedDict):
    seat: int
    to_up: str
    to_hand: str


class StackedData(TypedDict):
    seat: int
    #: the hand card put on the face-up cards of its rank
    card: str


class ChoseUpData(TypedDict):
    seat: int
    cards: list[str]


class FirstPlayerData(TypedDict):
    seat: int
    reason: MsgData


class PlayedData(TypedDict):
    seat: int
    cards: list[str]
    #: hand, up, or down for a flip that stands
    zone: Zone


class FlippedData(TypedDict):
    seat: int
    index: int
    card: str
    playable: bool


class ReversedData(TypedDict):
    seat: int
    direction: int


class SkippedData(TypedDict):
    seat: int
    skipped: list[int]


class BurntData(TypedDict):
    seat: int
    count: int
    reason: Literal["ten", "four"]


class PickedUpData(TypedDict):
    seat: int
    count: int
    cards: list[str]
    #: the face-up card put on the pile first, or ``None``
    added: str | None


class DrewData(TypedDict):
    """Public: how many cards a seat drew."""

    seat: int
    count: int


class DrewCardsData(TypedDict):
    """Private to the seat: which cards it drew."""

    seat: int
    cards: list[str]


class PlayerOutData(TypedDict):
    seat: int
    place: int


class GameOverData(TypedDict):
    order: list[int]
    loser: int | None
    winner: int | None
