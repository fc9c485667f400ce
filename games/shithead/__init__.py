"""Shithead (Palace, Karma): seed 003, Pagat's rules with every variation as an option."""

from games.shithead.contracts import ShitheadAction, ShitheadView
from games.shithead.game import Shithead
from games.shithead.rules import OPTIONS, PRESETS, Rules, make_rules

__all__ = ["OPTIONS", "PRESETS", "Rules", "Shithead", "ShitheadAction", "ShitheadView", "make_rules"]
