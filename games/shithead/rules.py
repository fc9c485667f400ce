"""Shithead's rule options: one frozen :class:`Rules`, the presets, and the menu the bot shows.

Pagat's main description (seed 003, read through RULES.md part 2) is the default; every variation
of 003 that changes play is an option. Where 003 contradicts itself the choice is written next to
the option: 003's variation text says "in the main description a ten cannot be played on a jack,
queen, king or ace", but its main text says a ten may be played on any turn, and RULES.md makes
"ten on anything" the main rule, so ``ten="any"`` is the default and ``"not-on-face"`` the option.

Options arrive from a settings UI as strings, so :func:`make_rules` parses strings as well as
typed values, and every refusal is a :class:`RulesError` that says why and what would work.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from games.common.engine import RulesError
from games.common.text import quoted
from locales import N_, _, msg, ngettext

#: more seats than this make the table message unreadable, whatever the decks allow
MAX_PLAYERS = 10
MIN_PLAYERS = 2


@dataclass(frozen=True, slots=True)
class Option:
    """One line of the settings menu: the bot builds its select menus from these."""

    name: str
    values: tuple[str, ...]
    help: str


OPTIONS: tuple[Option, ...] = (
    Option("decks", ("1", "2", "3"), N_("Packs of 52 shuffled together (Smeghead plays with several).")),
    Option(
        "jokers",
        ("0", "1", "2", "3", "4", "5", "6"),
        N_("Jokers added (two make a six-player game with one pack); at most two per pack."),
    ),
    Option(
        "joker_rule",
        ("reverse", "skip-glass", "skip-7", "skip-2"),
        N_("Jokers reverse the direction (Pagat), or skip the next player and count as glass, a 7 or a 2 (Guarducci)."),
    ),
    Option("table_cards", ("3", "4", "5"), N_("Face-down cards, and as many face-up on them, per player.")),
    Option("hand_size", ("3", "4", "5"), N_("Cards in hand, and what you draw back up to while the stock lasts.")),
    Option(
        "deal",
        ("swap", "choose"),
        N_(
            "swap: deal face-up cards, then swap with the hand; choose: deal them into the hand and pick which go"
            " face-up."
        ),
    ),
    Option("ten", ("any", "not-on-face"), N_("A ten burns the pile on anything, or not on a J, Q, K or A.")),
    Option(
        "seven",
        ("normal", "lower", "glass"),
        N_(
            "A 7 is plain; or the next play must be 7 or lower (Gultnieks); or it is glass, played on"
            " anything and seen through (Guarducci)."
        ),
    ),
    Option(
        "eight",
        ("normal", "reverse", "lower"),
        N_(
            "An 8 is plain; or it goes on anything, reverses the direction and is seen through (Gultnieks);"
            " or the next card must be lower than 8 or another 8 (Guarducci)."
        ),
    ),
    Option("runs", ("off", "on"), N_("Also play a run of consecutive cards of one suit, each card legal in turn.")),
    Option(
        "refusal",
        ("add-one", "keep-up"),
        N_("Refusing with face-up cards: add one of them to the pile and take it all, or just take the pile."),
    ),
    Option(
        "after_pickup",
        ("next", "previous"),
        N_("After a pick-up the next player starts the new pile, or the one who played the last card."),
    ),
    Option("goal", ("loser", "winner"), N_("Play on to find the shithead, or stop at the first player out.")),
    Option(
        "stacking",
        ("off", "on"),
        N_(
            "Karma: before play, put hand cards on face-up cards of their rank and draw again; "
            "equal face-up cards are then played together."
        ),
    ),
    Option(
        "flush",
        ("off", "on"),
        N_('Smeghead: the first player to burn the pile is named the "flush" person, shown on the table.'),
    ),
)

_OPTION_BY_NAME = {o.name: o for o in OPTIONS}
_INT_OPTIONS = frozenset({"decks", "jokers", "table_cards", "hand_size"})
_BOOL_OPTIONS = frozenset({"runs", "flush", "stacking"})


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule a game is played by. Build one with :func:`make_rules`, which validates it."""

    decks: int = 1
    jokers: int = 0
    joker_rule: str = "reverse"
    table_cards: int = 3
    hand_size: int = 3
    deal: str = "swap"
    ten: str = "any"
    seven: str = "normal"
    eight: str = "normal"
    runs: bool = False
    refusal: str = "add-one"
    after_pickup: str = "next"
    goal: str = "loser"
    #: Karma's stacking (Sean Daly); stored rules from before it lack it and played without
    stacking: bool = False
    #: stored rules from before this option lack it: no flush person, as they were played
    flush: bool = False

    def __post_init__(self) -> None:
        # every way of building rules (a preset, make_rules, from_json, Rules(...) or replace)
        # passes here, so no rule set escapes the checks
        validate(self)

    # -- sizes --------------------------------------------------------------------------
    @property
    def deck_size(self) -> int:
        return 52 * self.decks + self.jokers

    @property
    def cards_per_player(self) -> int:
        return 2 * self.table_cards + self.hand_size

    def player_range(self) -> tuple[int, int]:
        """The smallest and largest number of players these rules can deal to."""
        return MIN_PLAYERS, max(MIN_PLAYERS - 1, min(MAX_PLAYERS, self.deck_size // self.cards_per_player))

    def check_players(self, n: int) -> None:
        """Raise :class:`RulesError` saying why ``n`` players cannot play and what would work."""
        low, high = self.player_range()
        if n < low:
            raise RulesError(msg("Shithead needs at least {low} players.", low=low))
        if n > MAX_PLAYERS:
            raise RulesError(msg("At most {n} players can sit at one table.", n=MAX_PLAYERS))
        need = n * self.cards_per_player
        if need <= self.deck_size:
            return
        if self.jokers:
            have = ngettext(
                "{n} pack and {jokers} holds {size}",
                "{n} packs and {jokers} hold {size}",
                self.decks,
                jokers=ngettext("{n} joker", "{n} jokers", self.jokers),
                size=self.deck_size,
            )
        else:
            have = ngettext(
                "{n} pack without jokers holds {size}",
                "{n} packs without jokers hold {size}",
                self.decks,
                size=self.deck_size,
            )
        hints = []
        spare_jokers = 2 * self.decks - self.jokers
        if 0 < need - self.deck_size <= spare_jokers:
            hints.append(_("add jokers (jokers={n})", n=need - 52 * self.decks))
        if self.decks < 3:
            more = -(-(need - self.jokers) // 52)
            if more <= 3:
                hints.append(_("use more packs (decks={n})", n=more))
        if self.table_cards > 3 or self.hand_size > 3:
            hints.append(_("deal fewer cards (table_cards=3, hand_size=3)"))
        hints.append(_("play with at most {n} players", n=high))
        raise RulesError(
            _(
                "{n} players need {need} cards ({each} each) but {have}: {hints}.",
                n=n,
                need=need,
                each=self.cards_per_player,
                have=have,
                hints=_(", or ").join(hints),
            )
        )

    # -- storage ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        return make_rules("pagat", **data)

    # -- words --------------------------------------------------------------------------
    def describe(self) -> list[str]:
        """The rules in short sentences, main rules first, then what differs from Pagat's: in
        the order of a game (the deal, what goes on the pile, how a player goes out)."""
        return [*self._deal_lines(), *self._pile_lines(), *self._going_out_lines()]

    def _deal_lines(self) -> list[str]:
        """The players and the pack, the deal, and who starts."""
        lines = []
        pack = _("one 52-card pack") if self.decks == 1 else _("{n} packs of 52", n=self.decks)
        if self.jokers:
            pack = ngettext("{pack} and {n} joker", "{pack} and {n} jokers", self.jokers, pack=pack)
        low, high = self.player_range()
        lines.append(
            _(
                "{low}–{high} players, {pack}. Ranks low to high: 3 … K, A; 2s are special.",
                low=low,
                high=high,
                pack=pack,
            )
        )
        if self.deal == "swap":
            lines.append(
                _(
                    "Each player gets {table} face-down, {table} face-up and {hand} in hand, and may swap hand"
                    " cards with face-up cards before play.",
                    table=self.table_cards,
                    hand=self.hand_size,
                )
            )
        else:
            lines.append(
                _(
                    "Each player gets {table} face-down and {hand} in hand, and puts {table} of them face-up"
                    " before play.",
                    table=self.table_cards,
                    hand=self.table_cards + self.hand_size,
                )
            )
        if self.deal == "swap":
            lines.append(
                _(
                    "Whoever is dealt the first face-up 3 starts (before any swap; else a 3 in hand from the "
                    "dealer's left, then 4s …)."
                )
            )
        else:
            lines.append(
                _("The first player from the dealer's left with a face-up 3 starts (else a 3 in hand, then 4s …).")
            )
        return lines

    def _pile_lines(self) -> list[str]:
        """What a play is, and what each special card (2, 10, 7, 8, joker) and a run do on the pile."""
        lines = []
        lines.append(
            _(
                "Play one card or several of one rank, equal or higher than the pile, then draw back to {hand}"
                " while the stock lasts; or pick up the whole pile.",
                hand=self.hand_size,
            )
        )
        lines.append(_("A 2 goes on anything and anything goes on a 2."))
        if self.ten == "any":
            lines.append(_("A 10 goes on anything (even an empty pile), burns the pile, and you play again."))
        else:
            lines.append(_("A 10 burns the pile and you play again, but it cannot go on a J, Q, K or A."))
        lines.append(_("Four of a rank on top of the pile (in one play or several) burn it, and you play again."))
        if self.seven == "lower":
            lines.append(_("After a 7 the next play must be a 7 or lower (or a 2 or 10)."))
        elif self.seven == "glass":
            lines.append(
                _(
                    "A 7 goes on anything and is glass: the next play must beat the card under it "
                    "(a 7 on the empty table counts as 7)."
                )
            )
        if self.eight == "reverse":
            lines.append(_("An 8 goes on anything, reverses the direction and is transparent: beat the card under it."))
        elif self.eight == "lower":
            lines.append(_("After an 8 the next card must be lower than 8 or another 8 (or a 2 or joker)."))
        if self.jokers:
            if self.joker_rule == "reverse":
                lines.append(_("Jokers go on anything, only with other jokers, and reverse the direction."))
            else:
                value = {"skip-glass": _("glass"), "skip-7": _("a 7"), "skip-2": _("a 2")}[self.joker_rule]
                lines.append(
                    _(
                        "Jokers go on anything and the next player misses a turn; a joker counts as {value} (with"
                        " two players left, the joker's player goes again with any card, however many jokers).",
                        value=value,
                    )
                )
        if self.runs:
            lines.append(_("You may also play a run of consecutive cards of one suit, each legal in turn."))
        return lines

    def _going_out_lines(self) -> list[str]:
        """Which cards come when, refusing, the pick-up, who wins or loses, and the variants of the
        face-up cards (stacking) and of the first burn (flush)."""
        lines = []
        lines.append(_("Hand first; then your face-up cards; then your face-down cards blind, one a turn."))
        if self.refusal == "add-one":
            lines.append(_("Refusing with face-up cards: add one of them to the pile, then take the pile."))
        else:
            lines.append(_("Refusing with face-up cards: take the pile and leave your face-up cards."))
        if self.after_pickup == "previous":
            lines.append(_("After a pick-up, whoever played the last card before it starts the new pile."))
        else:
            lines.append(_("After a pick-up, the next player starts a new pile."))
        if self.goal == "loser":
            lines.append(_("Players drop out as they run out of cards; the last one holding cards is the shithead."))
        else:
            lines.append(_("The first player to run out of cards wins."))
        if self.stacking:
            lines.append(
                _(
                    "Before play you may put hand cards on face-up cards of their rank and draw back up "
                    "(again and again); equal face-up cards are played together as a group."
                )
            )
        if self.flush:
            lines.append(_('The first player to burn the pile is the "flush" person, named on the table.'))
        return lines


def _check_values(rules: Rules) -> None:
    """Each option holds one of its menu's values, with the right type (``seven="banana"``,
    ``table_cards=0`` or ``runs="yes"`` built directly are refused like a bad menu choice)."""
    for option in OPTIONS:
        value = getattr(rules, option.name)
        allowed = ", ".join(option.values)
        if option.name in _BOOL_OPTIONS:
            ok = isinstance(value, bool)
        elif option.name in _INT_OPTIONS:
            ok = isinstance(value, int) and not isinstance(value, bool) and str(value) in option.values
        else:
            ok = isinstance(value, str) and value in option.values
        if not ok:
            raise RulesError(
                msg(
                    "{name} cannot be {value}: choose one of {allowed}.",
                    name=option.name,
                    value=quoted(value),
                    allowed=allowed,
                )
            )


def validate(rules: Rules) -> Rules:
    """Refuse combinations that cannot be dealt or played; returns ``rules`` unchanged. Every
    :class:`Rules` runs this when built, so calling it again is only a reminder."""
    _check_values(rules)
    if rules.jokers > 2 * rules.decks:
        raise RulesError(
            msg(
                "{jokers} jokers need {packs} packs (two jokers a pack): set jokers={most} or fewer, or decks={decks}.",
                jokers=rules.jokers,
                packs=-(-rules.jokers // 2),
                most=2 * rules.decks,
                decks=min(3, -(-rules.jokers // 2)),
            )
        )
    if rules.stacking and rules.deal != "swap":
        raise RulesError(msg("Karma's stacking is done while swapping: with stacking=on use deal=swap."))
    low, high = rules.player_range()
    if high < low:
        raise RulesError(
            msg(
                "{n} cards each do not leave enough for two players: deal fewer cards or add a pack.",
                n=rules.cards_per_player,
            )
        )
    return rules


#: named rule sets; ``make_rules(preset, **overrides)`` starts from one of these
PRESETS: dict[str, Rules] = {
    "pagat": Rules(),
    "six-players": Rules(jokers=2),
    "karma": Rules(after_pickup="previous", stacking=True),
    "gultnieks": Rules(seven="lower", eight="reverse"),
    "guarducci": Rules(
        jokers=2, joker_rule="skip-glass", seven="glass", eight="lower", runs=True, after_pickup="previous"
    ),
    "smeghead": Rules(decks=2, table_cards=4, hand_size=4, flush=True),
    "finland": Rules(table_cards=4),
    "ten-two-slide": Rules(hand_size=4),
    "winner": Rules(goal="winner"),
}

PRESET_HELP: dict[str, str] = {
    "pagat": N_("Pagat's main rules (2–5 players)."),
    "six-players": N_("Main rules with two jokers that reverse the direction (up to 6 players)."),
    "karma": N_(
        "Stack equal face-up cards and draw again; after a pick-up the last player starts (Sean Daly's Karma)."
    ),
    "gultnieks": N_("7 means 7-or-lower next; 8 reverses and is transparent (Ciaran Gultnieks)."),
    "guarducci": N_("Glass 7, 8 means lower next, skipping glass jokers, runs (Jane Guarducci)."),
    "smeghead": N_("Two packs, 4 face-down, 4 face-up, 4 in hand (William Putt's Smeghead)."),
    "finland": N_("Four face-down and four face-up cards (Cristian Seres)."),
    "ten-two-slide": N_("Hands of four cards (David Driscoll's Ten-Two Slide)."),
    "winner": N_("Main rules, played to find a winner instead of a loser."),
}


def _parse(name: str, value: Any) -> Any:
    option = _OPTION_BY_NAME[name]
    allowed = ", ".join(option.values)
    if name in _BOOL_OPTIONS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("on", "true", "yes", "1"):
            return True
        if text in ("off", "false", "no", "0"):
            return False
        raise RulesError(f"{name} cannot be {quoted(value)}: choose one of {allowed}.")
    if name in _INT_OPTIONS:
        try:
            number = int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise RulesError(f"{name} cannot be {quoted(value)}: choose one of {allowed}.") from None
        if str(number) not in option.values:
            raise RulesError(f"{name} cannot be {quoted(value)}: choose one of {allowed}.")
        return number
    text = str(value).strip().lower()
    if text not in option.values:
        raise RulesError(f"{name} cannot be {quoted(value)}: choose one of {allowed}.")
    return text


def make_rules(preset: str = "pagat", **overrides: Any) -> Rules:
    """A validated :class:`Rules` from a preset name and option overrides (strings or values)."""
    if preset not in PRESETS:
        raise RulesError(f"There is no preset {quoted(preset)}: choose one of {', '.join(PRESETS)}.")
    names = {f.name for f in fields(Rules)}
    parsed = {}
    for name, value in overrides.items():
        if name not in names:
            raise RulesError(f"There is no option {quoted(name)}: the options are {', '.join(sorted(names))}.")
        parsed[name] = _parse(name, value)
    return validate(replace(PRESETS[preset], **parsed))


def option_value(rules: Rules, name: str) -> str:
    """The current value of option ``name`` as the menu string (``"on"``, ``"3"``, ``"glass"``)."""
    value = getattr(rules, name)
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
