"""What a press on Shithead's panel asks for: the action it makes, and whether the panel it came
from is out of date (whether it is the second click of a move that already counted is the
runtime's one rule for both games: :func:`bot.panels.refused_note`).

Kept apart from the panel's drawing and dispatch (:mod:`cogs.shithead.panel`) because it decides
what the player meant, from the custom id alone, and touches no Discord message.
"""

from __future__ import annotations

from bot.contract import Action, LiveTable
from bot.errors import Refusal
from cogs.shithead.panel_choices import cards_of, play_options
from cogs.shithead.render import game_view
from games.shithead.game import Shithead

PLAY_ACTS = frozenset({"play", "put", "pick", "add", "flip"})  # turn controls: refused from an out-of-date panel


def press_action(table: LiveTable, seat: int, key: str, act: str, arg: str, values: list[str]) -> Action:
    """The action a press asks for; :class:`Refusal` if its panel is out of date or it asks for nothing."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    # Checked before the mask is read: it indexes the options the panel was drawn with.
    if act in PLAY_ACTS and key != table.kind.decision_digest(engine, seat):
        raise Refusal("The table has moved on since this was shown; nothing was changed. Here it is now.")
    if act == "play":
        cards = cards_of(play_options(game_view(engine, seat)), int(arg, 16))
        if not cards:
            raise Refusal("Choose the cards to play first.")
        return {"type": "play", "cards": cards}
    if act == "put":
        return {"type": "play", "cards": arg.split(".")}
    if act == "pick":
        return {"type": "pickup"}
    if act == "add":
        return {"type": "pickup", "add": values[0]}
    if act == "flip":
        return {"type": "flip", "index": int(arg, 16)}
    if act == "swap" and values and values[0].endswith("+"):
        return {"type": "stack", "card": values[0][:-1]}
    if act == "swap":
        hand, _, up = values[0].partition(">")
        return {"type": "swap", "hand": hand, "up": up}
    if act == "ready":
        return {"type": "ready"}
    if act == "confirm":
        mask = int(arg, 16)
        in_hand = game_view(engine, seat)["hand"]
        return {"type": "choose_up", "cards": [c for i, c in enumerate(in_hand) if mask >> i & 1]}
    raise Refusal("That control is not known any more; press **My cards** again.")
