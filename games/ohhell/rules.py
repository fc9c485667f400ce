"""Every Oh Hell option of RULES.md part 1, the four presets, and their validation.

A :class:`Rules` is immutable and validated when built, so a rule set that cannot work (the hook
with secret bids, a joker-less 63-card pack, too many players for the deck...) is refused before
any card is dealt, with a message that says why and what would work. The bot builds one with
:func:`make_rules` from a preset name plus the host's overrides (strings from slash commands are
fine), stores it with :meth:`Rules.to_json`; :func:`games.ohhell.rules_text.describe` puts it
in words. The settings UI is generated from :data:`OPTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from games.common.engine import RulesError
from games.common.text import quoted
from games.ohhell.decks import DECK_PLAYERS, DECKS, deck_size, has_joker
from locales import N_, Msg, msg

SEQUENCES = ("up-down", "down", "down-up", "up", "fixed")
TRUMP_MODES = ("turn-up", "fixed", "rotate")
TRUMP_SUITS = ("C", "D", "H", "S", "NT")
BIDDINGS = ("sequential", "simultaneous")
FIRST_LEADS = ("dealer", "left-of-dealer")
REVOKE_MODES = ("prevent", "penalize")
SCORINGS = ("e2", "trick+10", "5+10", "square", "spades", "misere")
TIE_RULES = ("extra-hand", "misere-tiebreak")
PEAK_WORDS = ("auto", "max")

#: seed 001's table of first-hand sizes (2 and 8 players extend it the obvious way)
AUTO_PEAK = {2: 10, 3: 10, 4: 10, 5: 10, 6: 8, 7: 7, 8: 6}
#: seed 000: a tie still unbroken after the tie-breakers is settled by "one final deal with five cards"
PLAYOFF_HAND = 5

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

PRESET_SOURCES = {"classic": "seed 001", "oh-shit": "seed 000", "bowers": "seed 002", "spades": "seed 004"}


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
        return _apply_overrides(self.to_json() | {"preset": self.preset}, overrides)


#: the fields :meth:`Rules.to_json` writes, read once: ``fields()`` walks the class each call,
#: and every view of a game writes its rules
_FIELD_NAMES = tuple(f.name for f in fields(Rules))


# ---------------------------------------------------------------------------------------------
# parsing and validation


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


def _apply_overrides(values: dict[str, Any], overrides: dict[str, Any]) -> Rules:
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
    return Rules(**values)


def make_rules(preset: str = "classic", **overrides: str | int | bool) -> Rules:
    """A preset with the host's overrides, checked as a whole. Raises :class:`RulesError`."""
    key = str(preset).strip().lower()
    if key not in PRESETS:
        raise RulesError(
            msg("Unknown preset {name}. Presets: {presets}.", name=quoted(preset), presets=", ".join(PRESETS))
        )
    return _apply_overrides({**PRESETS[key], "preset": key}, overrides)


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


def rules_with(rules: Rules, **changes: Any) -> Rules:
    """``dataclasses.replace`` for already-parsed values (validated again)."""
    return replace(rules, **changes)
