"""Doing a checked move: swapping, the start of play, playing on the pile, burning, picking up,
going out and the end, with the events each sends.

Every function here mutates the :class:`~games.shithead.table.Table` it is given and trusts its
:data:`~games.shithead.moves.Move` (checked by :func:`games.shithead.moves.parse`), so a refused
action never reaches this module and leaves nothing half done.
"""

from __future__ import annotations

from typing import Literal

import games.shithead.events as ev
from games.common.cards import Card, card_code, card_label, cards_label
from games.common.engine import Event
from games.shithead.contracts import ShitheadAction, Zone
from games.shithead.deal import seats_from_left
from games.shithead.hands import codes
from games.shithead.moves import Choose, Flip, Move, Play, Ready, Stack, Swap
from games.shithead.pile import RANK_ORDER, a_rank, short_rank
from games.shithead.table import Table
from locales import N_, Msg, msg, nmsg


def do(table: Table, seat: int, move: Move, events: list[Event]) -> ShitheadAction:
    """Do ``move`` for ``seat``, appending its events; returns the action as the log stores it."""
    logged: ShitheadAction
    if isinstance(move, Swap):
        h, u = move.hand, move.up
        slot = table.up[seat].index(u)
        table.up[seat][slot] = h
        table.hand[seat].remove(h)
        table.hand[seat].append(u)
        table.forget(seat, [h])
        table.known[seat].append(u)
        logged = {"type": "swap", "hand": card_code(h), "up": card_code(u)}
        events.append(ev.swapped({"seat": seat, "to_up": card_code(h), "to_hand": card_code(u)}))
        table.note(
            seat, "swap", [h, u], msg("swapped {hand} onto the table for {up}", hand=card_label(h), up=card_label(u))
        )
    elif isinstance(move, Stack):
        card = move.card
        table.hand[seat].remove(card)
        table.up[seat].append(card)
        table.forget(seat, [card])
        logged = {"type": "stack", "card": card_code(card)}
        events.append(ev.stacked({"seat": seat, "card": card_code(card)}))
        table.note(seat, "stack", [card], msg("stacked {card} face up on its rank", card=card_label(card)))
        draw_up(table, seat, events)
    elif isinstance(move, Ready):
        logged = {"type": "ready"}
        table.ready[seat] = True
        events.append(ev.ready({"seat": seat}))
        table.note(seat, "ready", [], msg("is ready"))
    elif isinstance(move, Choose):
        cards = move.cards
        for c in cards:
            table.hand[seat].remove(c)
        table.forget(seat, cards)
        table.up[seat] = list(cards)
        table.ready[seat] = True
        logged = {"type": "choose_up", "cards": codes(cards)}
        events.append(ev.chose_up({"seat": seat, "cards": codes(cards)}))
        table.note(seat, "choose_up", cards, msg("put {cards} face up", cards=cards_label(cards)))
    elif isinstance(move, Play):
        cards = move.cards
        logged = {"type": "play", "cards": codes(cards)}
        source = table.hand[seat] if move.zone == "hand" else table.up[seat]
        for c in cards:
            source.remove(c)
        if move.zone == "hand":
            table.forget(seat, cards)
        play(table, seat, cards, move.zone, events)
    elif isinstance(move, Flip):
        logged = {"type": "flip", "index": move.index}
        flip(table, seat, move.index, events)
    else:
        add = move.add
        logged = {"type": "pickup"} if add is None else {"type": "pickup", "add": card_code(add)}
        if add is not None:
            table.up[seat].remove(add)
            table.pile.append(add)
        pickup(table, seat, add, events)
    return logged


def start(table: Table, events: list[Event]) -> None:
    """End the swap: find who starts. 003: "the person who receives the first 3 dealt face-up",
    so in the swapping deal the face-up cards as dealt decide (a 3 swapped face up takes nothing
    from it), in deal order (slot by slot round the table from the dealer's left); in the
    choosing deal the chosen face-up cards, seat by seat from the dealer's left whatever order
    they were listed in. Else the first from the dealer's left with a 3 in hand; then 4s …"""
    order = seats_from_left(table.seats, table.dealer)
    table.phase = "play"
    for rank in RANK_ORDER:
        if table.rules.deal == "swap":
            face_up = [
                (slot, i, s) for i, s in enumerate(order) for slot, c in enumerate(table.dealt_up[s]) if c & 31 == rank
            ]
        else:
            face_up = [(0, i, s) for i, s in enumerate(order) if any(c & 31 == rank for c in table.up[s])]
        if face_up:
            seat = min(face_up)[2]
            reason = msg("the first face-up {rank}", rank=short_rank(rank))
            break
        holders = [s for s in order if any(c & 31 == rank for c in table.hand[s])]
        if holders:
            seat = holders[0]
            reason = msg("{rank} in hand", rank=a_rank(rank))
            break
    else:  # pragma: no cover - a deal always holds some rank
        seat, reason = order[0], msg("the dealer's left")
    table.turn = table.first_player = seat
    table.first_reason = reason
    events.append(ev.first_player({"seat": seat, "reason": reason.to_json()}))


def flip(table: Table, seat: int, index: int, events: list[Event]) -> None:
    """Turn a face-down card over: it is played if it fits, else it goes on the pile and the
    seat picks the pile up."""
    card = table.down[seat][index]
    assert card is not None
    table.down[seat][index] = None
    ok = table.pr.playable(card, table.pile, table.free)
    events.append(ev.flipped({"seat": seat, "index": index, "card": card_code(card), "playable": ok}))
    if ok:
        play(table, seat, [card], "down", events)
    else:
        table.note(seat, "flip", [card], msg("flipped {card}, which does not fit", card=card_label(card)))
        table.pile.append(card)
        pickup(table, seat, None, events)


def play(table: Table, seat: int, cards: list[Card], zone: Zone, events: list[Event]) -> None:
    """``cards`` (already out of ``zone``) go on the pile: reverse, skip, burn, draw back up,
    go out, and pass the turn."""
    table.pile.extend(cards)
    table.last_player = seat
    events.append(ev.played({"seat": seat, "cards": codes(cards), "zone": zone}))
    said = {"hand": N_("played {cards}"), "up": N_("played face-up {cards}"), "down": N_("flipped {cards}")}[zone]
    table.note(seat, "play", cards, Msg(said, {"cards": cards_label(cards)}))
    pr = table.pr
    reversals = sum(1 for c in cards if pr.reverses(c))
    skips = sum(1 for c in cards if pr.skips(c))
    if skips and sum(table.active) == 2:
        table.free.update(c for c in cards if pr.skips(c))
    if reversals % 2:
        table.direction = -table.direction
        events.append(ev.reversed_direction({"seat": seat, "direction": table.direction}))
    burnt = pr.burns(table.pile)
    if burnt:
        reason: Literal["ten", "four"] = "ten" if table.pile[-1] & 31 == 10 else "four"
        events.append(ev.burnt({"seat": seat, "count": len(table.pile), "reason": reason}))
        table.note(seat, "burn", [], nmsg("burnt {n} card", "burnt {n} cards", len(table.pile)))
        if table.rules.flush and table.flush is None:
            table.flush = seat
            events.append(ev.flush({"seat": seat}))
            table.note(seat, "flush", [], msg('is the "flush" person: the first to clear the pile'))
        table.burnt.extend(table.pile)
        table.pile.clear()
        table.free.clear()
    draw_up(table, seat, events)
    if table.zone(seat) is None and out(table, seat, events):
        return
    if burnt and table.active[seat]:
        table.turn = seat
        return
    if skips and sum(table.active) == 2:
        # Guarducci: with two players "the player of the joker immediately plays another card",
        # however many jokers went down together (two must not come round to the opponent)
        skipped = [table.next_seat(seat, 1, table.direction)]
        events.append(ev.skipped({"seat": seat, "skipped": skipped}))
        table.turn = seat
        return
    if skips:
        skipped = table.walk(seat, skips, table.direction)
        events.append(ev.skipped({"seat": seat, "skipped": skipped}))
    table.turn = table.next_seat(seat, 1 + skips, table.direction)


def draw_up(table: Table, seat: int, events: list[Event]) -> None:
    """Draw back up to the hand size while the stock lasts."""
    hand = table.hand[seat]
    need = table.rules.hand_size - len(hand)
    if need > 0 and table.stock:
        drawn = [table.stock.pop() for _ in range(min(need, len(table.stock)))]
        hand.extend(drawn)
        events.append(ev.drew({"seat": seat, "count": len(drawn)}))
        events.append(ev.drew_cards(seat, {"seat": seat, "cards": codes(drawn)}))


def pickup(table: Table, seat: int, added: Card | None, events: list[Event]) -> None:
    """``seat`` takes the pile (``added`` already on it); then the next seat leads, or under
    ``after_pickup="previous"`` whoever played the last card."""
    taken = list(table.pile)
    table.pickups[seat] += 1
    table.hand[seat].extend(taken)
    table.known[seat].extend(taken)
    table.pile.clear()
    table.free.clear()
    events.append(
        ev.picked_up(
            {
                "seat": seat,
                "count": len(taken),
                "cards": codes(taken),
                "added": card_code(added) if added is not None else None,
            }
        )
    )
    if added is None:
        said = nmsg("picked up {n} card", "picked up {n} cards", len(taken))
    else:
        said = nmsg(
            "picked up {n} card (adding {card})",
            "picked up {n} cards (adding {card})",
            len(taken),
            card=card_label(added),
        )
    table.note(seat, "pickup", taken, said)
    turn_after_pickup(table, seat)


def turn_after_pickup(table: Table, seat: int) -> None:
    """Who plays after ``seat`` picked the pile up (the rule the engine and the strong
    computer's quiet playouts share)."""
    leader = None
    if table.rules.after_pickup == "previous":
        last = table.last_player
        if last is not None and last != seat and table.active[last]:
            leader = last
        else:
            leader = table.next_seat(seat, 1, -table.direction)
    table.last_player = None
    table.turn = leader if leader is not None else table.next_seat(seat, 1, table.direction)


def leave(table: Table, seat: int) -> bool:
    """``seat`` goes out (no cards left): its place, and the winner or the loser when that ends
    the game; returns True then (shared with the quiet playouts, which build no events)."""
    table.active[seat] = False
    table.finished.append(seat)
    if table.rules.goal == "winner":
        table.winner = seat
        return True
    left = [s for s in range(table.seats) if table.active[s]]
    if len(left) == 1:
        table.loser = left[0]
        return True
    return False


def out(table: Table, seat: int, events: list[Event]) -> bool:
    """``seat`` has no cards left; returns True when that ends the game."""
    ended = leave(table, seat)
    events.append(ev.player_out({"seat": seat, "place": len(table.finished)}))
    table.note(seat, "out", [], msg("is out (place {place})", place=len(table.finished)))
    if ended:
        over(table, events)
    return ended


def over(table: Table, events: list[Event]) -> None:
    table.phase = "over"
    table.turn = None
    order = table.results()["order"]
    events.append(ev.game_over({"order": order, "loser": table.loser, "winner": table.winner}))
