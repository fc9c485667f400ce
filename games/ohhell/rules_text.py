"""The rules in words: the lines of a "rules in force" message (:func:`describe`)."""

from __future__ import annotations

from games.ohhell.decks import DECK_HELP, has_joker
from games.ohhell.rules import SUIT_TEXT, Rules

SCORING_TEXT = {
    "e2": "exact bid: 10 a trick bid (10 for a bid of 0); a miss loses 10 a trick off.",
    "trick+10": "1 a trick, +10 for an exact bid; no penalty.",
    "5+10": "exact bid: 5 + 10 a trick; a miss loses 5 + 5 a trick off.",
    "square": "exact bid: 10 + bid²; a miss loses the square of the difference.",
    "spades": "exact bid: 10 + bid; a miss scores 0.",
    "misere": "exact bid of 1+: 10 + 1 a trick; exact 0: 5; over: 1 a trick; under: -1 a trick short.",
}


def describe(rules: Rules, n_players: int | None = None) -> list[str]:
    """Human lines for a "rules in force" message."""
    lo, hi = rules.player_range()
    lines = [f"Preset: {rules.preset}."]
    deck = rules.deck if n_players is None else rules.deck_for(n_players)
    text = f"Deck: {DECK_HELP[deck]}; {lo}–{hi} players."
    if rules.deck_for(6) != rules.deck and deck == rules.deck and hi >= 6:
        text = f"Deck: {DECK_HELP[rules.deck]}; {lo}–{hi} players (6 or 7 players: the {DECK_HELP['pack63']})."
    lines.append(text)
    if n_players is not None:
        sizes = rules.hand_sizes(n_players)
        deals = f"{len(sizes)} deal" + ("s" if len(sizes) != 1 else "")
        lines.append(f"Hands for {n_players} players: {', '.join(map(str, sizes))} ({deals}).")
    else:
        peak = {
            "auto": "13 (deck / players)"
            if deck == "australian"
            else "auto (10 cards for 3–5 players, 8 for 6, 7 for 7)",
            "max": "as many as the deck allows",
        }.get(str(rules.peak), str(rules.peak))
        seq = {
            "up-down": f"from 1 card up to {peak} and back down to 1",
            "down": f"from {peak} down to 1",
            "down-up": f"from {peak} down to 1 and back up",
            "up": f"from 1 card up to {peak}",
            "fixed": f"fixed: {', '.join(map(str, rules.fixed_hands))}",
        }[rules.sequence]
        if rules.half_game:
            seq = f"half game: from {peak} down to 1"
        lines.append(f"Hands: {seq}.")
    if rules.trump == "turn-up":
        t = "the card turned up after the deal (the dealer's own last card if none is left)"
        if rules.no_trump_turnup:
            t += "; an ace or the joker turned up means no trumps"
    elif rules.trump == "fixed":
        t = "always no trumps" if rules.trump_suit == "NT" else f"always {SUIT_TEXT[rules.trump_suit]}"
    else:
        t = "in turn: " + ", ".join(SUIT_TEXT[s] for s in rules.trump_rotation)
    lines.append(f"Trumps: {t}.")
    if has_joker(deck) or (n_players is None and rules.deck_for(6) == "pack63" and hi >= 6):
        lines.append(
            "Joker: the highest trump; in a no-trump deal it wins the trick, played as a suit you "
            "have not played yet, or have run out of without ever failing to follow, or on the last trick."
        )
    if rules.bowers:
        lines.append(
            "Bowers: the jack of trumps is the highest card, the other jack of its colour the "
            "second highest and a trump."
        )
    if rules.bidding == "sequential":
        b = "in turn from the dealer's left, the dealer last"
        if rules.hook:
            b += "; the dealer may not bid so that the bids total the tricks"
    else:
        b = "in secret, all bids revealed together"
    lines.append(f"Bidding: {b}.")
    lines.append("First lead: " + ("the dealer." if rules.first_lead == "dealer" else "the dealer's left."))
    if rules.revokes == "prevent":
        lines.append("Follow suit: only legal cards can be played.")
    else:
        lines.append("Follow suit: a revoke is allowed but caught: that player scores at most -5 for the deal.")
    lines.append("Scoring: " + SCORING_TEXT[rules.scoring])
    if rules.devils_bridge:
        lines.append("Devil's Bridge: on the final 1-card deal you see every card but your own.")
    if rules.ties == "extra-hand":
        lines.append("Ties for first: another deal at the last hand size until one player leads.")
    else:
        lines.append(
            "Ties: broken by exact contracts, then exact contracts of 1 or more, then contracts made "
            "or exceeded, then a 5-card play-off between the still-tied players."
        )
    return lines
