"""The engine's per-seat view -> :class:`InfoState`, and a :class:`Decision` -> the engine's action.

The computer needs two public facts that the engine's view (``OhHell.view``) does not carry:
the rules in force (deck, scoring, bowers, revokes, first lead) and the cards played in this
deal's finished tricks (the view shows only the current and the last trick, but every seat saw
them all on the table). :func:`ai_view` adds both from the game's public state, under the keys
``"rules"`` (``Rules.to_json()``) and ``"deal_plays"`` (this deal's plays in order, as
``[seat, card code, named suit or None]``). If the engine's view ever carries these keys itself,
:func:`choose_action` uses them as they are.

A play-off deal seats only some players; the info state numbers the seats of the deal
``0..k-1`` in playing order (the view's ``players``), so the search never meets an empty seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.common.cards import SUIT_LETTERS, Card, card_code, parse_card
from games.ohhell.actions import OhHellAction
from games.ohhell.decks import build_deck
from games.ohhell.display import TablePlay
from games.ohhell.rules import Rules
from games.ohhell.views import OhHellSeatView

from .infostate import BID, PLAY, InfoState, Play, Trick
from .players import Decision
from .table import DealTable

if TYPE_CHECKING:
    from games.ohhell.game import OhHell


def ai_view(game: OhHell, seat: int) -> OhHellSeatView:
    """``game.view(seat)`` plus the rules and this deal's plays (both public at the table)."""
    view = game.view(seat)
    if "rules" not in view:
        view["rules"] = game.rules.to_json()
    if "deal_plays" not in view:
        played = sum(view["hand_size"] - view["hand_counts"][s] for s in view["players"])
        log = game.effective_log if played else []  # (never a card taken back)
        plays: list[TablePlay] = []
        for s, action in log[len(log) - played :] if played else []:
            plays.append([s, action["card"], action.get("suit")])
        view["deal_plays"] = plays
    return view


def _suit(letter: str | None) -> int | None:
    if letter is None:
        return None
    return SUIT_LETTERS.index(letter)


def _rules_of(view: OhHellSeatView, rules: Rules | dict[str, Any] | None) -> Rules:
    r = view.get("rules") if rules is None else rules
    if r is None:
        raise ValueError("the computer needs the rules: pass ai_view(game, seat), or rules=...")
    if isinstance(r, Rules):
        return r
    if isinstance(r, dict):
        return Rules.from_json(r)
    raise TypeError(f"rules must be a Rules or its JSON form, not {type(r).__name__}")


def info_from_view(view: OhHellSeatView, rules: Rules | dict[str, Any] | None = None) -> InfoState:
    """The acting seat's knowledge, from its view (see :func:`ai_view`)."""
    r = _rules_of(view, rules)
    seat = view.get("viewer")
    if seat is None:
        raise ValueError("a computer decides from a seat's own view, not the public view")
    order: list[int] = list(view["players"])
    local = {s: i for i, s in enumerate(order)}
    n = len(order)
    me = local[seat]
    trump = _suit(view["trump"])
    deck = tuple(build_deck(r.deck_for(view["seat_count"]), view["seat_count"]))
    table = DealTable.build(deck, trump, r.bowers)

    # this deal's plays, cut into tricks; each trick's leader is the previous trick's winner
    plays_raw = view.get("deal_plays")
    if plays_raw is None:
        plays_raw = [] if view["phase"] != "playing" else [list(x) for x in view["trick"]]
    dealer_local = local[view["dealer"]]
    leader = dealer_local if r.first_lead == "dealer" else (dealer_local + 1) % n
    tricks: list[Trick] = []
    current: list[Play] = []
    for s, code, named in plays_raw:
        current.append(Play(local[s], parse_card(code), _suit(named)))
        if len(current) == n:
            w = _trick_winner(table, current)
            tricks.append(Trick(leader, tuple(current), w))
            leader = w
            current = []
    phase = BID if view["phase"] == "bidding" else PLAY
    if phase == PLAY and view.get("leader") is not None:
        leader = local.get(view["leader"], leader)

    bids: list[int | None] = [view["bids"][s] for s in order]
    if view.get("my_bid") is not None:
        bids[me] = view["my_bid"]
    hidden = bool(view.get("hand_hidden"))
    others_known: dict[int, tuple[Card, ...]] = {}
    others_cards = view.get("others_cards")
    if hidden and others_cards:
        for s, cards in enumerate(others_cards):
            if cards is not None and s in local and s != seat:
                others_known[local[s]] = tuple(parse_card(c) for c in cards)
    shown: dict[int, tuple[Card, ...]] = {}
    dead: tuple[Card, ...] = ()
    turnup = view.get("turnup")
    if turnup:
        up = parse_card(turnup)
        if view.get("turnup_is_dealers"):
            shown[dealer_local] = (up,)
        else:
            dead = (up,)

    legal_bids: tuple[int, ...] = ()
    legal_plays: tuple[tuple[Card, int | None], ...] = ()
    if phase == BID:
        legal_bids = tuple(a["bid"] for a in view["legal"] if a["type"] == "bid")
    else:
        source = view.get("proper", view["legal"])
        out = []
        for a in source:
            if a["type"] != "play" or a["card"] == "?":
                continue
            out.append((parse_card(a["card"]), _suit(a.get("suit"))))
        legal_plays = tuple(out)

    return InfoState(
        players=n,
        seat=me,
        dealer=dealer_local,
        hand_size=view["hand_size"],
        deck=deck,
        trump=trump,
        phase=phase,
        hand=tuple(parse_card(c) for c in view["hand"]),
        bids=tuple(bids),
        won=tuple(view["tricks"][s] for s in order),
        tricks=tuple(tricks),
        current=tuple(current),
        leader=leader,
        scoring=r.scoring,
        bowers=r.bowers,
        hook=bool(view["hook"]),
        simultaneous=view["bidding"] == "simultaneous",
        first_lead=r.first_lead,
        revokes=r.revokes,
        hand_known=not hidden,
        others_known=others_known,
        shown=shown,
        dead=dead,
        legal_bids=legal_bids,
        legal_plays=legal_plays,
    )


def _trick_winner(table: DealTable, plays: list[Play]) -> int:
    """The seat winning a finished trick, by the engine's rules (the later of equal cards wins)."""
    first = plays[0]
    i0 = table.index[first.card]
    nt_joker = table.joker_nt
    if nt_joker and i0 == table.joker:
        return first.seat
    win, win_seat = i0, first.seat
    for p in plays[1:]:
        c = table.index[p.card]
        if nt_joker and c == table.joker:
            return p.seat
        if (table.beats[win] >> c) & 1 or (table.esuit[c] == table.trump and table.esuit[win] != table.trump):
            win, win_seat = c, p.seat
    return win_seat


def decision_for(action: OhHellAction) -> Decision:
    """The decision an engine action carries (the inverse of :func:`action_for`)."""
    if action["type"] == "bid":
        return Decision(bid=int(action["bid"]))
    return Decision(card=parse_card(str(action["card"])), suit=_suit(action.get("suit")))


def action_for(view: OhHellSeatView, decision: Decision) -> OhHellAction:
    """The engine action (one of the view's own legal actions) carrying ``decision``."""
    legal = view["legal"]
    if decision.bid is not None:
        for a in legal:
            if a["type"] == "bid" and a["bid"] == decision.bid:
                return a.copy()
        raise ValueError(f"bid {decision.bid} is not legal here")
    if len(legal) == 1 and legal[0].get("card") == "?":
        return legal[0].copy()
    if decision.card is None:
        raise ValueError("a decision carries a bid or a card")
    code = card_code(decision.card)
    letter = None if decision.suit is None else SUIT_LETTERS[decision.suit]
    for a in view.get("proper", legal):
        if a["type"] == "play" and a["card"] == code and a.get("suit") == letter:
            return a.copy()
    for a in view.get("proper", legal):
        if a["type"] == "play" and a["card"] == code:
            return a.copy()
    raise ValueError(f"{code} is not a legal play here")
