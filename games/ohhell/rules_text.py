"""The rules in words: the lines of a "rules in force" message (:func:`describe`), in the language
being spoken where they are shown (each line one sentence of the catalogue, in the rules' own
words: Stich, Trumpf, Ansage; baza, triunfo, apuesta)."""

from __future__ import annotations

from games.ohhell.decks import DECK_HELP, has_joker
from games.ohhell.options import SUIT_TEXT
from games.ohhell.rules import Rules
from locales import N_, _, ngettext, translate

SCORING_TEXT = {
    "e2": N_("exact bid: 10 a trick bid (10 for a bid of 0); a miss loses 10 a trick off."),
    "trick+10": N_("1 a trick, +10 for an exact bid; no penalty."),
    "5+10": N_("exact bid: 5 + 10 a trick; a miss loses 5 + 5 a trick off."),
    "square": N_("exact bid: 10 + bid²; a miss loses the square of the difference."),
    "spades": N_("exact bid: 10 + bid; a miss scores 0."),
    "misere": N_("exact bid of 1+: 10 + 1 a trick; exact 0: 5; over: 1 a trick; under: -1 a trick short."),
}


def _hands(rules: Rules, deck: str) -> str:
    """The hand sizes of the game, as the rules say them (no player count known)."""
    if str(rules.peak) == "auto":
        peak = (
            _("13 (deck / players)") if deck == "australian" else _("auto (10 cards for 3–5 players, 8 for 6, 7 for 7)")
        )
    elif str(rules.peak) == "max":
        peak = _("as many as the deck allows")
    else:
        peak = str(rules.peak)
    if rules.half_game:
        return _("half game: from {peak} down to 1", peak=peak)
    if rules.sequence == "up-down":
        return _("from 1 card up to {peak} and back down to 1", peak=peak)
    if rules.sequence == "down":
        return _("from {peak} down to 1", peak=peak)
    if rules.sequence == "down-up":
        return _("from {peak} down to 1 and back up", peak=peak)
    if rules.sequence == "up":
        return _("from 1 card up to {peak}", peak=peak)
    return _("fixed: {sizes}", sizes=", ".join(map(str, rules.fixed_hands)))


def _trumps(rules: Rules) -> str:
    if rules.trump == "turn-up":
        if rules.no_trump_turnup:
            return _(
                "the card turned up after the deal (the dealer's own last card if none is left); an ace or the"
                " joker turned up means no trumps"
            )
        return _("the card turned up after the deal (the dealer's own last card if none is left)")
    if rules.trump == "fixed":
        if rules.trump_suit == "NT":
            return _("always no trumps")
        return _("always {suit}", suit=translate(SUIT_TEXT[rules.trump_suit]))
    return _("in turn: {suits}", suits=", ".join(translate(SUIT_TEXT[s]) for s in rules.trump_rotation))


def describe(rules: Rules, n_players: int | None = None) -> list[str]:
    """Human lines for a "rules in force" message."""
    lo, hi = rules.player_range()
    lines = [_("Preset: {preset}.", preset=rules.preset)]
    deck = rules.deck if n_players is None else rules.deck_for(n_players)
    text = _("Deck: {deck}; {lo}–{hi} players.", deck=translate(DECK_HELP[deck]), lo=lo, hi=hi)
    if rules.deck_for(6) != rules.deck and deck == rules.deck and hi >= 6:
        text = _(
            "Deck: {deck}; {lo}–{hi} players (6 or 7 players: the {pack63}).",
            deck=translate(DECK_HELP[rules.deck]),
            lo=lo,
            hi=hi,
            pack63=translate(DECK_HELP["pack63"]),
        )
    lines.append(text)
    if n_players is not None:
        sizes = rules.hand_sizes(n_players)
        deals = ngettext("{n} deal", "{n} deals", len(sizes))
        lines.append(
            _("Hands for {n} players: {sizes} ({deals}).", n=n_players, sizes=", ".join(map(str, sizes)), deals=deals)
        )
    else:
        lines.append(_("Hands: {hands}.", hands=_hands(rules, deck)))
    lines.append(_("Trumps: {trumps}.", trumps=_trumps(rules)))
    if has_joker(deck) or (n_players is None and rules.deck_for(6) == "pack63" and hi >= 6):
        lines.append(
            _(
                "Joker: the highest trump; in a no-trump deal it wins the trick, played as a suit you "
                "have not played yet, or have run out of without ever failing to follow, or on the last trick."
            )
        )
    if rules.bowers:
        lines.append(
            _(
                "Bowers: the jack of trumps is the highest card, the other jack of its colour the "
                "second highest and a trump."
            )
        )
    if rules.bidding == "sequential" and rules.hook:
        lines.append(
            _(
                "Bidding: in turn from the dealer's left, the dealer last; the dealer may not bid so that the"
                " bids total the tricks."
            )
        )
    elif rules.bidding == "sequential":
        lines.append(_("Bidding: in turn from the dealer's left, the dealer last."))
    else:
        lines.append(_("Bidding: in secret, all bids revealed together."))
    lines.append(_("First lead: the dealer.") if rules.first_lead == "dealer" else _("First lead: the dealer's left."))
    if rules.revokes == "prevent":
        lines.append(_("Follow suit: only legal cards can be played."))
    else:
        lines.append(_("Follow suit: a revoke is allowed but caught: that player scores at most -5 for the deal."))
    lines.append(_("Scoring: {scoring}", scoring=translate(SCORING_TEXT[rules.scoring])))
    if rules.devils_bridge:
        lines.append(_("Devil's Bridge: on the final 1-card deal you see every card but your own."))
    if rules.ties == "extra-hand":
        lines.append(_("Ties for first: another deal at the last hand size until one player leads."))
    else:
        lines.append(
            _(
                "Ties: broken by exact contracts, then exact contracts of 1 or more, then contracts made "
                "or exceeded, then a 5-card play-off between the still-tied players."
            )
        )
    return lines
