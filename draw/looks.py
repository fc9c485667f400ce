"""Table options that change how the table looks, not how the game is played.

They are stored with the table's other options (so ``/<game> set``, the preset picker and
Rematch carry them like any rule), but every game kind strips them before it builds its rules:
the engine never sees them, the stored rules JSON stays the same, and stored games replay
exactly as before. Today there is one: ``four_colour`` (clubs green, diamonds blue on the
card pictures).

These are pure functions of the stored options (a plain mapping), and what they decide is how
cards are drawn, so they sit in the drawing toolkit: a game's adapter reads its table's look
from the options it already holds, as it reads a card's label, without a call into the runtime.
The runtime (the lobby's commands, the readable rewrite of every message) uses them too.
"""

from __future__ import annotations

from collections.abc import Mapping

from locales import N_, _, translate

FOUR_COLOUR = "four_colour"
#: a card's first press on the panel only picks it, the second plays it: how the panel behaves,
#: never the game's rules
CONFIRM_CARDS = "confirm_cards"
#: display option -> its values, the default first
DISPLAY_OPTIONS: dict[str, tuple[str, ...]] = {FOUR_COLOUR: ("off", "on"), CONFIRM_CARDS: ("off", "on")}
#: one line for the lobby and ``/<game> rules`` when an option is not at its default
DISPLAY_LINES = {
    FOUR_COLOUR: N_("Four-colour deck: clubs green, diamonds blue, on the pictures and the card emojis"),
    CONFIRM_CARDS: N_("Confirm cards: the first press on a card picks it, the second plays it"),
}


#: how long the table waits on a player who is not looking before it pings them (``/<game> set
#: ping_after 2m``; off by default): kept with the options like a display option, and like one
#: never part of the game's rules (the runtime's clock reads it: :mod:`bot.tables.pings`)
PING_AFTER = "ping_after"

#: the language the table's channel reads (``/<game> set language de``): like a display option
#: never part of the game's rules, changeable any time; absent, the server's preferred locale
LANGUAGE = "language"


def rule_options(options: Mapping[str, str]) -> dict[str, str]:
    """The options without the display ones (nor :data:`PING_AFTER`, :data:`LANGUAGE`): what the
    game's rules are built from."""
    return {k: v for k, v in options.items() if k not in DISPLAY_OPTIONS and k not in (PING_AFTER, LANGUAGE)}


def display_lines(options: Mapping[str, str]) -> list[str]:
    lines = [
        translate(DISPLAY_LINES[k]) for k, values in DISPLAY_OPTIONS.items() if options.get(k, values[0]) != values[0]
    ]
    if options.get(PING_AFTER, "off") != "off":
        lines.append(
            _(
                "Turn pings: a player the table waits on and not looking is pinged after {time}",
                time=options[PING_AFTER],
            )
        )
    return lines


def four_colour(options: Mapping[str, str]) -> bool:
    return options.get(FOUR_COLOUR) == "on"
