"""What a press on Shithead's panel asks for (:meth:`~bot.seam.contract.GameKind.press_action`): the
move it makes, or a redraw with the player's choice marked (choosing cards acts on nothing).

Only the mapping: who may press, a press from an out-of-date panel, the computer playing the seat,
a double press and the answer are the runtime's, one rule for every game (:mod:`bot.tables.interaction`).
Kept apart from the panel's drawing (:mod:`cogs.shithead.panel`) because it decides what the
player meant, from the custom id alone, and touches no Discord message.
"""

from __future__ import annotations

from bot.messages.errors import Refusal
from bot.seam.contract import Action, Explicit, LiveTable, PanelRedraw, Press, Rendered
from cogs.shithead.panel import panel
from cogs.shithead.panel_choices import cards_of, mask_of, play_options
from cogs.shithead.render import game_view
from games.shithead.game import Shithead
from locales import _

#: presses that only redraw the panel (a choice marked, a play picked): they act on nothing
PANEL_ONLY = frozenset({"refresh", "tap", "sel", "choose", "arm"})
#: presses in the play: a move, judged by the runtime against the panel it was drawn on
PLAYS = frozenset({"play", "put", "pick", "add", "flip"})
#: the swap phase's presses: they name their cards, so they mean the same from an older panel
SWAPS = frozenset({"stack", "swap", "ready", "confirm"})


def press_action(table: LiveTable, seat: int, press: Press) -> Action | Explicit | PanelRedraw:
    """The action a press asks for, or the redraw it asks for; :class:`Refusal` if it asks for nothing."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    if press.act in PANEL_ONLY:
        return _redraw(table, engine, seat, press)
    if press.act in PLAYS:
        return _play(engine, seat, press)
    if press.act in SWAPS:
        return _swap(engine, seat, press)
    raise Refusal(_("That control is not known any more; press **My cards** again."))


def _redraw(table: LiveTable, engine: Shithead, seat: int, press: Press) -> PanelRedraw:
    """A press of :data:`PANEL_ONLY`: the panel redrawn, with the player's choice marked."""
    act, arg = press.act, press.arg
    if act == "tap":  # choosing face-up cards by buttons: the new choice mask is the argument
        in_hand = game_view(engine, seat)["hand"]
        mask = int(arg, 16)
        return PanelRedraw(rendered=_chosen(table, seat, "choose", [c for i, c in enumerate(in_hand) if mask >> i & 1]))
    if act in ("sel", "choose"):
        return PanelRedraw(rendered=_chosen(table, seat, act, list(press.values)))
    if act == "arm":  # confirm_cards: the first press only picks the play (the panel's, not a move)
        if press.key != table.kind.decision_digest(engine, seat):
            return PanelRedraw(warning=_("The table has moved on since you opened that; nothing was changed."))
        return PanelRedraw(rendered=panel(table, seat, armed=arg))
    return PanelRedraw()  # refresh


def _play(engine: Shithead, seat: int, press: Press) -> Action:
    """A press of :data:`PLAYS`: the move it makes."""
    act, arg = press.act, press.arg
    if act == "play":  # (the mask indexes the options the panel was drawn with)
        cards = cards_of(play_options(game_view(engine, seat)), int(arg, 16))
        if not cards:
            raise Refusal(_("Choose the cards to play first."))
        return {"type": "play", "cards": cards}
    if act == "put":
        return {"type": "play", "cards": arg.split(".")}
    if act == "pick":
        return {"type": "pickup"}
    if act == "add":
        return {"type": "pickup", "add": arg}
    return {"type": "flip", "index": int(arg, 16)}  # flip


def _swap(engine: Shithead, seat: int, press: Press) -> Explicit:
    """A press of :data:`SWAPS`: from an older panel it means the same (another player's swap or
    Ready never makes it stale), and the engine says why it no longer can."""
    act, arg, values = press.act, press.arg, list(press.values)
    if act == "stack":
        return Explicit({"type": "stack", "card": arg})
    if act == "swap" and values and values[0].endswith("+"):  # the list's stacks
        return Explicit({"type": "stack", "card": values[0][:-1]})
    if act == "swap":
        hand, _sep, up = (values[0] if values else arg).partition(">")
        return Explicit({"type": "swap", "hand": hand, "up": up})
    if act == "ready":
        return Explicit({"type": "ready"})
    mask = int(arg, 16)  # confirm
    in_hand = game_view(engine, seat)["hand"]
    return Explicit({"type": "choose_up", "cards": [c for i, c in enumerate(in_hand) if mask >> i & 1]})


def _chosen(table: LiveTable, seat: int, act: str, values: list[str]) -> Rendered:
    """The panel redrawn from the current table with the player's choice marked (acts on nothing)."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    view = game_view(engine, seat)
    if act == "choose":
        if view["phase"] != "swap" or view["rules"]["deal"] != "choose":
            return panel(table, seat, warning=_("Choosing the face-up cards is over."))
        chosen = set(values)
        return panel(table, seat, mask=sum(1 << i for i, c in enumerate(view["hand"]) if c in chosen))
    if view["phase"] != "play":
        return panel(table, seat, warning=_("There is nothing to play now."))
    if view["turn"] != seat:  # (no name: this panel stays up after the turn moves on)
        return panel(table, seat, warning=_("It is not your turn yet."))
    options = play_options(view)
    mask = mask_of(options, values)
    warning = None
    if len(values) != bin(mask).count("1"):
        warning = _("Some of those cards cannot be played any more; they were left out.")
    return panel(table, seat, mask=mask, warning=warning)
