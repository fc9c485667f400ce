"""An Oh Hell rule set (:class:`Rules`): every option of RULES.md part 1 set, checked as a whole,
and what follows from it at a table (the pack, the players it seats, the hand sizes).

A :class:`Rules` is immutable and validated when built, so a rule set that cannot work (the hook
with secret bids, a joker-less 63-card pack, too many players for the deck...) is refused before
any card is dealt, with a message that says why and what would work. The bot builds one with
:func:`make_rules` from a preset name (:mod:`games.ohhell.presets`) plus the host's overrides
(read by :mod:`games.ohhell.options`: strings from slash commands are fine), stores it with
:meth:`Rules.to_json`; :func:`games.ohhell.rules_text.describe` puts it in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from games.common.engine import RulesError
from games.common.text import quoted
from games.ohhell.decks import DECK_PLAYERS, DECKS, deck_size, has_joker
from games.ohhell.options import (
    BIDDINGS,
    FIRST_LEADS,
    PEAK_WORDS,
    REVOKE_MODES,
    SCORINGS,
    SEQUENCES,
    TIE_RULES,
    TRUMP_MODES,
    TRUMP_SUITS,
    apply_overrides,
)
from games.ohhell.presets import PRESETS
from locales import Msg, msg

#: seed 001's table of first-hand sizes (2 and 8 players extend it the obvious way)
AUTO_PEAK = {2: 10, 3: 10, 4: 10, 5: 10, 6: 8, 7: 7, 8: 6}
#: seed 000: a tie still unbroken after the tie-breakers is settled by "one final deal with five cards"
PLAYOFF_HAND = 5


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete, validated rule set (build with :func:`make_rules`)."""

    preset: str = "classic"
    deck: str = "standard52"
    min_players: int = 3
    max_players: int = 7
    sequence: str = "down-up"
    peak: int | str = "auto"
    fixed_hands: tuple[int, ...] = ()
    half_game: bool = False
    trump: str = "turn-up"
    trump_suit: str = "S"
    trump_rotation: tuple[str, ...] = ("S", "H", "D", "C", "NT")
    no_trump_turnup: bool = False
    bowers: bool = False
    bidding: str = "sequential"
    hook: bool = True
    first_lead: str = "dealer"
    revokes: str = "prevent"
    scoring: str = "e2"
    devils_bridge: bool = False
    ties: str = "extra-hand"
    #: with 6 or 7 players a 52-card deck (with or without joker) becomes the 63-card pack (000);
    #: stored rules from before this option lack it and keep their 52 cards
    pack63_for_6_7: bool = False
    # not an option: how many deals a tie may add before the tied players share the place
    max_tie_deals: int = field(default=20, compare=True)

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived -------------------------------------------------------------------------
    @property
    def has_joker(self) -> bool:
        """The deck named by ``deck`` has a joker (see :meth:`deck_for` for a given table)."""
        return has_joker(self.deck)

    def deck_for(self, n_players: int) -> str:
        """The pack ``n_players`` actually play with: ``deck``, except that with
        ``pack63_for_6_7`` six or seven players play a 52-card deck's game with the 63-card pack."""
        if self.pack63_for_6_7 and n_players in (6, 7) and self.deck in ("standard52", "standard52+joker"):
            return "pack63"
        return self.deck

    def player_range(self) -> tuple[int, int]:
        """Players these rules seat: the preset's bounds narrowed to what the deck can hold."""
        lo, hi = DECK_PLAYERS[self.deck]
        return max(lo, self.min_players), min(hi, self.max_players)

    def check_players(self, n: int) -> None:
        """Raise :class:`RulesError` saying what would work if ``n`` players cannot play."""
        lo, hi = self.player_range()
        deck_lo, deck_hi = DECK_PLAYERS[self.deck]
        if n > hi:
            if n > deck_hi:
                fits = [d for d in DECKS if DECK_PLAYERS[d][0] <= n <= DECK_PLAYERS[d][1]]
                if fits:
                    raise RulesError(
                        msg(
                            "Too many players for the deck: {deck} seats at most {most}; "
                            "play with at most {hi} players or use deck={fits}.",
                            deck=self.deck,
                            most=deck_hi,
                            hi=hi,
                            fits=fits[0],
                        )
                    )
                raise RulesError(
                    msg(
                        "Too many players for the deck: {deck} seats at most {most}; "
                        "play with at most {hi} players or no pack seats that many.",
                        deck=self.deck,
                        most=deck_hi,
                        hi=hi,
                    )
                )
            raise RulesError(
                msg("Too many players: these rules allow at most {hi}; set max_players={n} to allow {n}.", hi=hi, n=n)
            )
        if n < lo:
            if n < deck_lo:
                fits = [d for d in DECKS if DECK_PLAYERS[d][0] <= n <= DECK_PLAYERS[d][1]]
                if fits:
                    raise RulesError(
                        msg(
                            "Too few players for the deck: {deck} needs at least {least}; "
                            "play with at least {lo} players or use deck={fits}.",
                            deck=self.deck,
                            least=deck_lo,
                            lo=lo,
                            fits=fits[0],
                        )
                    )
                raise RulesError(
                    msg(
                        "Too few players for the deck: {deck} needs at least {least}; play with at least {lo} players.",
                        deck=self.deck,
                        least=deck_lo,
                        lo=lo,
                    )
                )
            raise RulesError(
                msg("Too few players: these rules need at least {lo}; set min_players={n} to allow {n}.", lo=lo, n=n)
            )
        if self.sequence == "fixed":
            deck = self.deck_for(n)
            size = deck_size(deck, n)
            for h in self.fixed_hands:
                if h * n > size:
                    raise RulesError(
                        msg(
                            "A {h}-card hand for {n} players needs {needed} cards but the {deck} deck "
                            "has {size}: use hands of at most {most}.",
                            h=h,
                            n=n,
                            needed=h * n,
                            deck=deck,
                            size=size,
                            most=size // n,
                        )
                    )

    def max_hand(self, n_players: int) -> int:
        return deck_size(self.deck_for(n_players), n_players) // n_players

    def peak_for(self, n_players: int) -> int:
        cap = self.max_hand(n_players)
        if self.peak == "auto":
            if self.deck_for(n_players) == "australian":  # 001: the added cards make "the first deal ... 13"
                return cap
            return min(AUTO_PEAK.get(n_players, cap), cap)
        if self.peak == "max":
            return cap
        return min(int(self.peak), cap)

    def hand_sizes(self, n_players: int) -> list[int]:
        """The hand size of every scheduled deal (tie deals come on top)."""
        if self.sequence == "fixed":
            return list(self.fixed_hands)
        p = self.peak_for(n_players)
        down = list(range(p, 0, -1))
        up = list(range(1, p + 1))
        if self.half_game or self.sequence == "down":
            return down
        if self.sequence == "up-down":
            return up + down[1:]
        if self.sequence == "down-up":
            return down + up[1:]
        return up

    def bridge_deal(self, n_players: int) -> int | None:
        """Index of the Devil's Bridge deal: the last scheduled 1-card deal (None if off)."""
        if not self.devils_bridge:
            return None
        sizes = self.hand_sizes(n_players)
        ones = [i for i, h in enumerate(sizes) if h == 1]
        return ones[-1] if ones else None

    # -- storage ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        # every field is a scalar but these two tuples: no need for asdict's deep copy, which
        # every view of the game paid for
        out = {name: getattr(self, name) for name in _FIELD_NAMES}
        out["fixed_hands"] = list(self.fixed_hands)
        out["trump_rotation"] = list(self.trump_rotation)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesError(msg("Unknown rule field(s) in stored rules: {fields}.", fields=", ".join(sorted(unknown))))
        values = dict(data)
        if "fixed_hands" in values:
            values["fixed_hands"] = tuple(values["fixed_hands"])
        if "trump_rotation" in values:
            values["trump_rotation"] = tuple(values["trump_rotation"])
        return cls(**values)

    def with_options(self, **overrides: str | int | bool) -> Rules:
        """These rules with more host overrides, parsed and validated like :func:`make_rules`."""
        return Rules(**apply_overrides(self.to_json() | {"preset": self.preset}, overrides))


#: the fields :meth:`Rules.to_json` writes, read once: ``fields()`` walks the class each call,
#: and every view of a game writes its rules
_FIELD_NAMES = tuple(f.name for f in fields(Rules))


def make_rules(preset: str = "classic", **overrides: str | int | bool) -> Rules:
    """A preset with the host's overrides, checked as a whole. Raises :class:`RulesError`."""
    key = str(preset).strip().lower()
    if key not in PRESETS:
        raise RulesError(
            msg("Unknown preset {name}. Presets: {presets}.", name=quoted(preset), presets=", ".join(PRESETS))
        )
    return Rules(**apply_overrides({**PRESETS[key], "preset": key}, overrides))


def _validate(r: Rules) -> None:
    def need(cond: bool, message: Msg) -> None:
        if not cond:
            raise RulesError(message)

    for name, value, allowed in (
        ("deck", r.deck, DECKS),
        ("sequence", r.sequence, SEQUENCES),
        ("trump", r.trump, TRUMP_MODES),
        ("trump_suit", r.trump_suit, TRUMP_SUITS),
        ("bidding", r.bidding, BIDDINGS),
        ("first_lead", r.first_lead, FIRST_LEADS),
        ("revokes", r.revokes, REVOKE_MODES),
        ("scoring", r.scoring, SCORINGS),
        ("ties", r.ties, TIE_RULES),
    ):
        if value not in allowed:
            raise RulesError(
                msg(
                    "{name} must be one of {allowed} (got {value}).",
                    name=name,
                    allowed=", ".join(allowed),
                    value=repr(value),
                )
            )
    need(
        isinstance(r.peak, int) and not isinstance(r.peak, bool) and r.peak >= 1 or r.peak in PEAK_WORDS,
        msg("peak must be a number of cards (1 or more), auto or max (got {value}).", value=repr(r.peak)),
    )
    need(
        isinstance(r.min_players, int) and isinstance(r.max_players, int) and 2 <= r.min_players,
        msg("min_players must be at least 2."),
    )
    need(
        r.min_players <= r.max_players,
        msg("min_players ({low}) is more than max_players ({high}).", low=r.min_players, high=r.max_players),
    )
    lo, hi = r.player_range()
    deck_lo, deck_hi = DECK_PLAYERS[r.deck]
    need(
        lo <= hi,
        msg(
            "The {deck} deck seats {deck_lo}–{deck_hi} players but these rules allow "
            "{low}–{high}: change min_players/max_players or use deck=standard52.",
            deck=r.deck,
            deck_lo=deck_lo,
            deck_hi=deck_hi,
            low=r.min_players,
            high=r.max_players,
        ),
    )
    if r.sequence == "fixed":
        need(
            bool(r.fixed_hands),
            msg(
                "sequence=fixed needs its hand sizes: type /ohhell set fixed_hands 5,4,3 (your sizes, in "
                "order); that alone also sets sequence=fixed."
            ),
        )
        need(all(isinstance(h, int) and h >= 1 for h in r.fixed_hands), msg("fixed_hands must be 1 or more each."))
    need(
        not r.half_game or r.sequence in ("up-down", "down-up"),
        msg("half_game halves an up-down or down-up game; with this sequence use sequence=down instead."),
    )
    if r.trump == "rotate":
        need(bool(r.trump_rotation), msg("trump=rotate needs trump_rotation, e.g. S,H,D,C,NT."))
        need(all(s in TRUMP_SUITS for s in r.trump_rotation), msg("trump_rotation takes C, D, H, S and NT."))
    need(
        not (r.hook and r.bidding == "simultaneous"),
        msg(
            "The hook (the dealer may not make the bids total the tricks) needs bids made in turn: "
            "with bidding=simultaneous set hook=off, or use bidding=sequential."
        ),
    )
    need(
        not (r.devils_bridge and r.sequence == "fixed" and 1 not in r.fixed_hands),
        msg("Devil's Bridge is played on a 1-card deal: add a 1 to fixed_hands or set devils_bridge=off."),
    )
    need(r.max_tie_deals >= 0, msg("max_tie_deals must be 0 or more."))
