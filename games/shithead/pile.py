"""What may be played on the discard pile, and when it burns.

Every beating question in the game goes through :class:`PileRules`, built once per
:class:`~games.shithead.rules.Rules`, so the many special-card options live in one place:

* the card to beat is found by looking down the pile past see-through cards (Gultnieks' 8s,
  glass 7s, reversing and glass jokers); a glass 7 that was played to the empty table counts as a
  7, an 8 or joker there lets anything follow;
* a card's legality depends only on its rank (and joker-ness), so the engine and the computer
  players ask per rank;
* the pile burns when a 10 lands on it or its top four cards share a rank.

Jokers in Guarducci's skip modes played while only two players are left let the joker's player
"immediately play another card of any value": such jokers are remembered in ``free`` and count as
a 2 (anything may follow).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from games.common.cards import ACE, JACK, JOKER_RANK, KING, QUEEN, Card, is_joker, rank_of
from games.shithead.rules import Rules
from locales import N_, Msg, _, msg, translate

#: ranks in playing order, low to high, the 2 (special) and the joker last
RANK_ORDER: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10, JACK, QUEEN, KING, ACE, 2, JOKER_RANK)
FACE_RANKS = frozenset({JACK, QUEEN, KING, ACE})
_NAMES = {JACK: N_("jack"), QUEEN: N_("queen"), KING: N_("king"), ACE: N_("ace"), JOKER_RANK: N_("joker")}
#: rank after this one in a run (2 is low there, no wrap after the ace)
NEXT_IN_RUN = {2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 9, 9: 10, 10: JACK, JACK: QUEEN, QUEEN: KING, KING: ACE}


def said_rank(rank: int) -> str:
    """The rank's word in the language spoken now (a number stays a number)."""
    name = _NAMES.get(rank)
    return translate(name) if name else str(rank)


def a_rank(rank: int) -> Msg:
    """``"a 6"``, ``"an 8"``, ``"an ace"``: for sentences shown to players, worded in the
    language of whoever reads them (the engine keeps it in its state, read in many)."""
    if rank in _NAMES:
        return Msg(_A_NAMES[rank])
    return msg("an {rank}", rank=rank) if rank in (8, 11) else msg("a {rank}", rank=rank)


def _a_rank(rank: int) -> str:
    """:func:`a_rank` in the language spoken now."""
    return str(a_rank(rank))


_A_NAMES = {JACK: N_("a jack"), QUEEN: N_("a queen"), KING: N_("a king"), ACE: N_("an ace"), JOKER_RANK: N_("a joker")}


def short_rank(rank: int) -> str:
    return {JACK: "J", QUEEN: "Q", KING: "K", ACE: "A", JOKER_RANK: "Joker"}.get(rank, str(rank))


class PileRules:
    """The beating rules of one :class:`Rules`, precomputed for speed."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ten_any = rules.ten == "any"
        self.seven_lower = rules.seven == "lower"
        self.seven_glass = rules.seven == "glass"
        self.eight_reverse = rules.eight == "reverse"
        self.eight_lower = rules.eight == "lower"
        self.joker_reverses = rules.joker_rule == "reverse"
        self.joker_skips = not self.joker_reverses
        self.joker_glass = rules.joker_rule in ("reverse", "skip-glass")
        self._memo: dict[int, frozenset[int]] = {}
        self._need_memo: dict[int, Msg] = {}

    # -- the card to beat ---------------------------------------------------------------
    def _see_through(self, card: Card, bottom: bool, free: Collection[Card]) -> bool:
        rank = card & 31
        if rank == 8:
            return self.eight_reverse
        if rank == 7:
            return self.seven_glass and not bottom
        if rank == JOKER_RANK:
            return self.joker_glass and card not in free
        return False

    def effective(self, pile: Sequence[Card], free: Collection[Card] = ()) -> Card | None:
        """The card the next play must answer, or ``None`` when anything may be played."""
        for i in range(len(pile) - 1, -1, -1):
            card = pile[i]
            if not self._see_through(card, i == 0, free):
                return card
        return None

    # -- legality -----------------------------------------------------------------------
    def playable(self, card: Card, pile: Sequence[Card], free: Collection[Card] = ()) -> bool:
        return (card & 31) in self.playable_set(pile, free)

    def _key(self, pile: Sequence[Card], free: Collection[Card]) -> int:
        if not pile:
            return -1
        top = self.effective(pile, free)
        return -2 if top is None else (top | (1 << 20) if top in free else top)

    def playable_set(self, pile: Sequence[Card], free: Collection[Card] = ()) -> frozenset[int]:
        """The ranks that may be played now. Legality depends only on the card to beat (and on
        the pile being empty), so the answer is memoised per card to beat."""
        key = self._key(pile, free)
        ranks = self._memo.get(key)
        if ranks is None:
            ranks = self._memo[key] = frozenset(r for r in RANK_ORDER if self.why_not(_PROBE[r], pile, free) is None)
        return ranks

    def _lower_rules(self, rank: int, top_rank: int, plain: bool) -> tuple[bool, str | None]:
        """The "8 or lower" and "7 or lower" rules, with the 2 that goes on anything between them:
        whether they decide this card on this top, and the reason when they refuse it."""
        if self.eight_lower and top_rank == 8:
            if rank <= 8:
                return True, None
            if self.rules.jokers:
                return True, _("After an 8 you must play an 8 or lower (or a joker).")
            return True, _("After an 8 you must play an 8 or lower.")
        if rank == 2 or top_rank == 2:
            return True, None
        if self.seven_lower and top_rank == 7 and not plain:
            if rank <= 7 or rank == 10 or (rank == 8 and self.eight_reverse):
                return True, None
            if self.eight_reverse:
                return True, _("After a 7 you must play a 7 or lower (or a 2, 8 or 10).")
            return True, _("After a 7 you must play a 7 or lower (or a 2 or 10).")
        return False, None

    def why_not(self, card: Card, pile: Sequence[Card], free: Collection[Card] = ()) -> str | None:
        """``None`` if ``card`` may be played on ``pile``, else the reason in a short sentence."""
        rank = card & 31
        if rank == JOKER_RANK or not pile:
            return None
        top = self.effective(pile, free)
        if top is None:
            return None
        top_rank = top & 31
        plain = False
        if top_rank == JOKER_RANK:
            if top in free or self.rules.joker_rule == "skip-2":
                return None
            top_rank, plain = 7, True  # skip-7: the joker counts as a plain 7
        decided, reason = self._lower_rules(rank, top_rank, plain)
        if decided:
            return reason
        if rank == 8 and self.eight_reverse:
            return None
        if rank == 7 and self.seven_glass:
            return None
        if rank == 10:
            if self.ten_any or top_rank not in FACE_RANKS:
                return None
            return _("A 10 cannot go on {top}.", top=_a_rank(top_rank))
        if rank >= top_rank:
            return None
        played = _a_rank(rank)
        played = played[:1].upper() + played[1:]
        if top == pile[-1]:
            return _("{card} does not beat the {top} on the pile.", card=played, top=said_rank(top_rank))
        return _(
            "{card} does not beat the {top} under the {under}.",
            card=played,
            top=said_rank(top_rank),
            under=short_rank(pile[-1] & 31),
        )

    def playable_ranks(self, pile: Sequence[Card], free: Collection[Card] = ()) -> list[int]:
        """Every rank (``RANK_ORDER``) that may be played now, jokers included whatever the deck."""
        ranks = self.playable_set(pile, free)
        return [r for r in RANK_ORDER if r in ranks]

    def any_card(self, pile: Sequence[Card], free: Collection[Card] = ()) -> bool:
        return not pile or self.effective(pile, free) is None

    def describe_need(self, pile: Sequence[Card], free: Collection[Card] = ()) -> Msg:
        """What the next play must be, for the table message (said in its reader's language)."""
        key = self._key(pile, free)
        text = self._need_memo.get(key)
        if text is None:
            text = self._need_memo[key] = self._describe_need(pile, free)
        return text

    def _describe_need(self, pile: Sequence[Card], free: Collection[Card]) -> Msg:
        ranks = self.playable_ranks(pile, free)
        if not self.rules.jokers:
            ranks = [r for r in ranks if r != JOKER_RANK]
        every = [r for r in RANK_ORDER if self.rules.jokers or r != JOKER_RANK]
        if ranks == every:
            return msg("Any card.")
        top = self.effective(pile, free)
        labels = [short_rank(r) for r in ranks]
        listed: str | Msg = labels[0]
        if len(labels) > 1:
            listed = msg("{some} or {last}", some=", ".join(labels[:-1]), last=labels[-1])
        word = _NAMES.get(top & 31) if top is not None else None
        shown = Msg(word) if word else msg("pile") if top is None else str(top & 31)
        return msg("Beat the {top}: {ranks}.", top=shown, ranks=listed)

    # -- burning and other effects ------------------------------------------------------
    @staticmethod
    def burns(pile: Sequence[Card]) -> bool:
        """A 10 on top, or four cards of one rank (jokers excepted) on top."""
        if not pile:
            return False
        top = pile[-1] & 31
        if top == 10:
            return True
        if len(pile) < 4 or top == JOKER_RANK:
            return False
        return (pile[-2] & 31) == top and (pile[-3] & 31) == top and (pile[-4] & 31) == top

    def reverses(self, card: Card) -> bool:
        rank = card & 31
        return (rank == 8 and self.eight_reverse) or (rank == JOKER_RANK and self.joker_reverses)

    def skips(self, card: Card) -> bool:
        return is_joker(card) and self.joker_skips


# one card of each rank, to ask legality per rank
_PROBE: dict[int, Card] = {r: r for r in RANK_ORDER}
_PROBE[JOKER_RANK] = JOKER_RANK | (4 << 5)
assert all(rank_of(c) == r for r, c in _PROBE.items())
