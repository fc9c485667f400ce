"""The Oh Hell options a host may set: RULES.md part 1's option matrix, each option's values and
help line (the settings UI and the slash commands' choices are built from :data:`OPTIONS`), and
how a host's words for them are read (:func:`apply_overrides`: strings from slash commands, suit
names in any case or as symbols, the ``trump=fixed:S`` shorthand).

An option added or reworded, or a new way of typing one, changes this module; which values a
preset fills in is :mod:`games.ohhell.presets`, and whether a whole rule set can work is
:class:`games.ohhell.rules.Rules`'s own check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.common.engine import RulesError
from games.common.text import quoted
from games.ohhell.decks import DECKS
from locales import N_, msg

SEQUENCES = ("up-down", "down", "down-up", "up", "fixed")
TRUMP_MODES = ("turn-up", "fixed", "rotate")
TRUMP_SUITS = ("C", "D", "H", "S", "NT")
BIDDINGS = ("sequential", "simultaneous")
FIRST_LEADS = ("dealer", "left-of-dealer")
REVOKE_MODES = ("prevent", "penalize")
SCORINGS = ("e2", "trick+10", "5+10", "square", "spades", "misere")
TIE_RULES = ("extra-hand", "misere-tiebreak")
PEAK_WORDS = ("auto", "max")

_SUIT_WORDS = {
    "C": "C", "CLUBS": "C", "♣": "C", "CLUB": "C",
    "D": "D", "DIAMONDS": "D", "♦": "D", "DIAMOND": "D",
    "H": "H", "HEARTS": "H", "♥": "H", "HEART": "H",
    "S": "S", "SPADES": "S", "♠": "S", "SPADE": "S",
    "NT": "NT", "NO-TRUMPS": "NT", "NO-TRUMP": "NT", "NOTRUMP": "NT", "NOTRUMPS": "NT", "NONE": "NT",
    "NO TRUMPS": "NT", "NO TRUMP": "NT",
}  # fmt: skip
#: a suit (or none) in the rules' words, marked for the catalogue (translated where shown)
SUIT_TEXT = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades"), "NT": N_("no trumps")}


@dataclass(frozen=True, slots=True)
class Option:
    """One setting the host may change: enough for a slash-command choice list and a help line."""

    name: str
    kind: str  # "choice" | "bool" | "int" | "list"
    values: tuple[str, ...]
    help: str


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("deck", "choice", DECKS, N_("The pack: 52 cards, 52 + joker, the 63-card 500 pack, or Australian.")),
        Option("min_players", "int", tuple(str(i) for i in range(2, 9)), N_("Fewest players allowed.")),
        Option("max_players", "int", tuple(str(i) for i in range(2, 9)), N_("Most players allowed.")),
        Option("sequence", "choice", SEQUENCES, N_("Hand sizes: up-down 1..peak..1, down peak..1, "
               "down-up peak..1..peak, up 1..peak, or a fixed list.")),
        Option("peak", "int", PEAK_WORDS + tuple(str(i) for i in range(1, 14)),
               N_("Largest hand: a number, auto (10 for 3-5 players, 8 for 6, 7 for 7; Australian pack: 13) "
               "or max (deck / players).")),
        Option("fixed_hands", "list", (), N_("Hand sizes for sequence=fixed, comma-separated, e.g. 5,4,3.")),
        Option("half_game", "bool", ("on", "off"), N_("Play only from the peak down to 1 (Oh Shit's half game).")),
        Option("trump", "choice", TRUMP_MODES, N_("Trumps: the turned-up card, a fixed suit, or a rotating list.")),
        Option("trump_suit", "choice", TRUMP_SUITS, N_("The suit for trump=fixed (NT: always no trumps).")),
        Option("trump_rotation", "list", TRUMP_SUITS,
               N_("Suits for trump=rotate, one a deal, comma-separated, e.g. S,H,D,C,NT.")),
        Option("no_trump_turnup", "bool", ("on", "off"), N_("An ace or the joker turned up means no trumps.")),
        Option("bowers", "bool", ("on", "off"),
               N_("Jack of trumps highest, the other jack of its colour second and a trump.")),
        Option("bidding", "choice", BIDDINGS, N_("Bid in turn from the dealer's left, or all in secret at once.")),
        Option("hook", "bool", ("on", "off"),
               N_("The dealer may not bid so that the bids total the tricks (sequential bidding only).")),
        Option("first_lead", "choice", FIRST_LEADS, N_("Who leads the first trick of a deal.")),
        Option("revokes", "choice", REVOKE_MODES,
               N_("prevent: only legal cards can be played; penalize: a revoke scores at most -5 for the deal.")),
        Option("scoring", "choice", SCORINGS, N_("How a deal scores (see the rules summary).")),
        Option("devils_bridge", "bool", ("on", "off"),
               N_("On the final 1-card deal you see everyone's card but your own.")),
        Option("ties", "choice", TIE_RULES,
               N_("extra-hand: more deals until one leader; misere-tiebreak: contracts, then a 5-card play-off.")),
        Option("joker", "bool", ("on", "off"), N_("Add the joker to a 52-card pack (the 63-card pack always has it).")),
        Option("pack63_for_6_7", "bool", ("on", "off"),
               N_("With 6 or 7 players, play with the 63-card pack instead of the 52-card deck (seed 000).")),
    )
}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# reading a host's words


def _choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    for a in allowed:
        if text == a.lower():
            return a
    raise RulesError(
        msg(
            "{name} must be one of {allowed} (got {value}).", name=name, allowed=", ".join(allowed), value=quoted(value)
        )
    )


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("on", "yes", "true", "1"):
        return True
    if text in ("off", "no", "false", "0"):
        return False
    raise RulesError(msg("{name} must be on or off (got {value}).", name=name, value=quoted(value)))


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise RulesError(msg("{name} must be a whole number (got {value}).", name=name, value=quoted(value)))
    try:
        return int(str(value).strip())
    except ValueError:
        raise RulesError(msg("{name} must be a whole number (got {value}).", name=name, value=quoted(value))) from None


def _suit(name: str, value: Any) -> str:
    suit = _SUIT_WORDS.get(str(value).strip().upper())
    if suit is None:
        raise RulesError(msg("{name}: {value} is not a suit; use C, D, H, S or NT.", name=name, value=quoted(value)))
    return suit


def _list(value: Any) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value]
    return [p.strip() for p in str(value).replace(";", ",").split(",") if p.strip()]


def _parse(name: str, value: Any) -> Any:
    if name == "deck":
        return _choice(name, value, DECKS)
    if name in ("min_players", "max_players"):
        return _int(name, value)
    if name == "sequence":
        return _choice(name, value, SEQUENCES)
    if name == "peak":
        text = str(value).strip().lower()
        return text if text in PEAK_WORDS else _int(name, value)
    if name == "fixed_hands":
        return tuple(_int(name, v) for v in _list(value))
    if name == "trump":
        return _choice(name, value, TRUMP_MODES)
    if name == "trump_suit":
        return _suit(name, value)
    if name == "trump_rotation":
        return tuple(_suit(name, v) for v in _list(value))
    if name == "bidding":
        return _choice(name, value, BIDDINGS)
    if name == "first_lead":
        return _choice(name, value, FIRST_LEADS)
    if name == "revokes":
        return _choice(name, value, REVOKE_MODES)
    if name == "scoring":
        return _choice(name, value, SCORINGS)
    if name == "ties":
        return _choice(name, value, TIE_RULES)
    return _bool(name, value)  # half_game, no_trump_turnup, bowers, hook, devils_bridge, joker


def apply_overrides(values: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """The option values ``values`` with the host's ``overrides`` read into them, in the order the
    host set them; raises :class:`RulesError` for an option or a value it cannot read (the whole
    is checked when the :class:`~games.ohhell.rules.Rules` is built from it)."""
    values = dict(values)
    joker: bool | None = None
    explicit: set[str] = set()
    explicit_order: list[str] = []  # overrides arrive in the order the host set them
    for raw_name, raw in overrides.items():
        name = raw_name.strip().lower().replace("-", "_")
        if name not in OPTIONS:
            raise RulesError(
                msg("Unknown option {name}. Options: {options}.", name=quoted(raw_name), options=", ".join(OPTIONS))
            )
        if name == "trump" and isinstance(raw, str) and ":" in raw:
            # shorthand: "fixed:S", "rotate:S,H,NT"
            mode, _, rest = raw.partition(":")
            values["trump"] = _choice("trump", mode, TRUMP_MODES)
            if values["trump"] == "fixed":
                values["trump_suit"] = _suit("trump", rest)
            elif values["trump"] == "rotate":
                values["trump_rotation"] = tuple(_suit("trump", v) for v in _list(rest))
            else:
                raise RulesError(msg("trump=turn-up takes no suit; use trump=fixed:S for a fixed suit."))
            explicit.add("trump")
            explicit_order.append("trump")
            continue
        parsed = _parse(name, raw)
        if name == "joker":
            joker = parsed
            continue
        values[name] = parsed
        explicit.add(name)
        explicit_order.append(name)
    order = list(explicit_order)
    if "fixed_hands" in explicit and (
        "sequence" not in explicit or order.index("fixed_hands") > order.index("sequence")
    ):
        # hand sizes given after (or without) a sequence mean "play these hands": one step
        values["sequence"] = "fixed"
    if "deck" in explicit and "pack63_for_6_7" not in explicit:
        # a host who names the deck gets that deck whatever the table size
        values["pack63_for_6_7"] = False
    if joker is not None:
        deck = values["deck"]
        if joker and deck == "standard52":
            values["deck"] = "standard52+joker"
        elif not joker and deck == "standard52+joker":
            values["deck"] = "standard52"
        elif not joker and deck == "pack63":
            raise RulesError(msg("The 63-card pack always has its joker: use deck=standard52 to play without it."))
        elif joker and deck == "australian":
            raise RulesError(msg("The Australian pack has no joker: use deck=standard52+joker for a joker."))
    return values
