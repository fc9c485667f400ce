"""The four named Oh Hell presets of RULES.md part 1, each the full set of option values its seed
plays (``../shared/seeds/``): a preset changes when its seed is read again or a preset is added, never with
the options themselves (:mod:`games.ohhell.options`). :func:`games.ohhell.rules.make_rules`
builds the rules of one, with the host's overrides.
"""

from __future__ import annotations

from typing import Any

_BASE: dict[str, Any] = {
    "deck": "standard52",
    "sequence": "down-up",
    "peak": "auto",
    "fixed_hands": (),
    "half_game": False,
    "trump": "turn-up",
    "trump_suit": "S",
    "trump_rotation": ("S", "H", "D", "C", "NT"),
    "no_trump_turnup": False,
    "bowers": False,
    "bidding": "sequential",
    "hook": True,
    "revokes": "prevent",
    "devils_bridge": False,
    "ties": "extra-hand",
    "pack63_for_6_7": False,
}

PRESETS: dict[str, dict[str, Any]] = {
    # seed 001
    "classic": {**_BASE, "min_players": 3, "max_players": 7, "first_lead": "dealer", "scoring": "e2"},
    # seed 000
    "oh-shit": {
        **_BASE,
        "min_players": 3,
        "max_players": 7,
        "sequence": "up-down",
        "peak": 9,
        "no_trump_turnup": True,
        "bidding": "simultaneous",
        "hook": False,
        "first_lead": "left-of-dealer",
        "revokes": "penalize",
        "scoring": "misere",
        "ties": "misere-tiebreak",
        # seed 000: "If six or seven play, a 63-card pack ... should be used"
        "pack63_for_6_7": True,
    },
    # seed 002
    "bowers": {
        **_BASE,
        "min_players": 2,
        "max_players": 5,
        "peak": 10,
        "bowers": True,
        "first_lead": "left-of-dealer",
        "scoring": "trick+10",
    },
    # seed 004
    "spades": {
        **_BASE,
        "min_players": 3,
        "max_players": 8,
        "sequence": "down",
        "peak": "max",
        "trump": "fixed",
        "trump_suit": "S",
        "first_lead": "left-of-dealer",
        "scoring": "spades",
    },
}
