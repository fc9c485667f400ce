"""What each seat sees: :func:`view` builds the :class:`~games.shithead.contracts.ShitheadView`.

This is the only way the bot's renderers and the computer players learn about a game, so it is
also where hidden information is kept hidden: no view holds a face-down card (not even its
owner's, which is played blind) or another seat's hand.
"""

from __future__ import annotations

from games.common.cards import JOKER_RANK, card_code
from games.shithead.contracts import ShitheadView
from games.shithead.hands import codes, sort_key
from games.shithead.legal import legal_actions
from games.shithead.pile import short_rank
from games.shithead.table import Table


def view(table: Table, viewer: int | None, game: str) -> ShitheadView:
    """Everything ``viewer`` may see (``None``: the public view)."""
    pr = table.pr
    ranks = pr.playable_ranks(table.pile, table.free)
    if not table.rules.jokers:
        ranks = [r for r in ranks if r != JOKER_RANK]
    top = pr.effective(table.pile, table.free)
    places = {s: i + 1 for i, s in enumerate(table.finished)}
    out: ShitheadView = {
        "game": game,
        "phase": table.phase,
        "viewer": viewer,
        "seat_count": table.seats,
        "dealer": table.dealer,
        "rules": dict(table.rules_json),
        "action_count": table.action_count,
        "to_act": table.to_act(),
        "turn": table.turn,
        "direction": table.direction,
        "pile": codes(table.pile),
        "pile_size": len(table.pile),
        "pile_top": card_code(table.pile[-1]) if table.pile else None,
        "to_beat": card_code(top) if top is not None else None,
        "playable_ranks": [short_rank(r) for r in ranks],
        "need": pr.describe_need(table.pile, table.free).to_json(),
        "burnt": len(table.burnt),
        "stock": len(table.stock),
        "seats": [
            {
                "seat": s,
                "face_up": codes(table.up[s]),
                "face_down": sum(1 for c in table.down[s] if c is not None),
                "face_down_slots": [i for i, c in enumerate(table.down[s]) if c is not None],
                "hand_size": len(table.hand[s]),
                "zone": table.zone(s),
                "ready": table.ready[s],
                "out": not table.active[s],
                "place": places.get(s),
            }
            for s in range(table.seats)
        ],
        "finished": list(table.finished),
        "first_player": table.first_player,
        "first_reason": table.first_reason.to_json() if table.first_reason is not None else None,
        "flush": table.flush,
        "recent": [{**r, "cards": list(r["cards"])} for r in table.recent],
        "loser": table.loser,
        "winner": table.winner,
    }
    if viewer is not None:
        out["hand"] = codes(sorted(table.hand[viewer], key=sort_key))
        out["zone"] = table.zone(viewer)
        out["legal"] = legal_actions(table, viewer)
    return out


def ai_view(table: Table, seat: int, game: str) -> ShitheadView:
    """``seat``'s view plus what a player at the table remembers (``known``: the cards each hand
    took in sight of everyone and still holds). All of it was shown publicly as it happened, so a
    computer reading it learns nothing a person sitting there could not; the view itself keeps
    only the present, as the channel shows it."""
    out = view(table, seat, game)
    out["known"] = [codes(k) for k in table.known]
    return out
