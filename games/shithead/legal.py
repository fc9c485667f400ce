"""Every action a seat may take now, listed once each by what the player sees.

The bot builds its buttons and menus from these lists and the computer players choose among
them, so each choice is listed once: one of two identical 5♠s (several packs), every set of one
rank that may go on the pile (all copies, or fewer), and with the ``runs`` option every run of one
suit whose cards are each legal in turn (stopping where the pile would burn).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from games.common.cards import JOKER_RANK, Card, card_code, face_of
from games.shithead.contracts import ChooseUpAction, ShitheadAction
from games.shithead.hands import codes, distinct, sort_key
from games.shithead.pile import NEXT_IN_RUN
from games.shithead.table import Table


def legal_actions(table: Table, seat: int) -> list[ShitheadAction]:
    """Every action ``seat`` may take now (empty if it is not to act)."""
    if seat not in table.to_act():
        return []
    if table.phase == "swap":
        return swap_actions(table, seat)
    zone = table.zone(seat)
    if zone == "down":
        return [{"type": "flip", "index": i} for i, c in enumerate(table.down[seat]) if c is not None]
    cards = table.hand[seat] if zone == "hand" else table.up[seat]
    found = plays(table, cards)
    if zone == "up" and table.rules.stacking:  # Karma: a face-up group goes down whole
        whole = {r: sum(1 for c in cards if c & 31 == r) for r in {c & 31 for c in cards}}
        found = [p for p in found if all(sum(1 for c in p if c & 31 == r) == whole[r] for r in {c & 31 for c in p})]
    actions: list[ShitheadAction] = [{"type": "play", "cards": codes(p)} for p in found]
    if table.pile:
        if zone == "up" and table.rules.refusal == "add-one":
            actions += [{"type": "pickup", "add": card_code(c)} for c in distinct(table.up[seat])]
        else:
            actions.append({"type": "pickup"})
    return actions


def swap_actions(table: Table, seat: int) -> list[ShitheadAction]:
    """The swap phase: each face-up choice (choosing deal), or each swap and ready."""
    if table.rules.deal == "choose":
        hand = sorted(table.hand[seat], key=sort_key)
        seen: set[tuple[int, ...]] = set()
        chosen: list[ShitheadAction] = []
        for combo in itertools.combinations(hand, table.rules.table_cards):
            faces = tuple(face_of(c) for c in combo)
            if faces not in seen:
                seen.add(faces)
                choice: ChooseUpAction = {"type": "choose_up", "cards": codes(combo)}
                chosen.append(choice)
        return chosen
    out: list[ShitheadAction] = [
        {"type": "swap", "hand": card_code(h), "up": card_code(u)}
        for h in distinct(sorted(table.hand[seat], key=sort_key))
        for u in distinct(table.up[seat])
        if face_of(h) != face_of(u)
    ]
    if table.rules.stacking:
        up_ranks = {u & 31 for u in table.up[seat]}
        out += [
            {"type": "stack", "card": card_code(h)}
            for h in distinct(sorted(table.hand[seat], key=sort_key))
            if h & 31 in up_ranks
        ]
    out.append({"type": "ready"})
    return out


def plays(table: Table, cards: Sequence[Card]) -> list[list[Card]]:
    """Every legal play from ``cards``: sets of one rank (distinct by face), then runs."""
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(cards, key=sort_key):
        by_rank.setdefault(c & 31, []).append(c)
    out: list[list[Card]] = []
    allowed = table.pr.playable_set(table.pile, table.free)
    for rank, group in by_rank.items():
        if rank not in allowed:
            continue
        by_face: dict[Card, list[Card]] = {}
        for c in group:
            by_face.setdefault(face_of(c), []).append(c)
        copies = list(by_face.values())
        if len(copies) == 1 and len(copies[0]) == 1:
            out.append([copies[0][0]])
            continue
        for counts in itertools.product(*(range(len(cs) + 1) for cs in copies)):
            if any(counts):
                out.append([c for cs, k in zip(copies, counts, strict=True) for c in cs[:k]])
    if table.rules.runs:
        out += runs(table, cards)
    return out


def runs(table: Table, cards: Sequence[Card]) -> list[list[Card]]:
    """Every run of two or more consecutive cards of one suit, each legal in turn on the pile."""
    faces: dict[Card, Card] = {}
    for c in sorted(cards, key=lambda c: c >> 8, reverse=True):
        if c & 31 != JOKER_RANK:
            faces[face_of(c)] = c
    found = []
    for face, start in faces.items():
        pile = list(table.pile)
        if not table.pr.playable(start, pile, table.free):
            continue
        run = [start]
        pile.append(start)
        rank = face & 31
        while not table.pr.burns(pile) and rank in NEXT_IN_RUN:
            rank = NEXT_IN_RUN[rank]
            nxt = faces.get((face & ~31) | rank)
            if nxt is None or not table.pr.playable(nxt, pile, table.free):
                break
            run.append(nxt)
            pile.append(nxt)
            found.append(list(run))
    return found
