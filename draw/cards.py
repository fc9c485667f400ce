"""Cards and hands as players read them in Discord messages."""

from __future__ import annotations

from collections.abc import Iterable

from games.common.cards import SUIT_SYMBOLS, card_label, is_joker, parse_card, suit_of

SUIT_OF_LETTER = {"C": 0, "D": 1, "H": 2, "S": 3}


def label(code: str) -> str:
    """``QH`` → ``Q♥``; ``X`` → ``Joker``; ``?`` → ``🂠`` (a card the viewer may not see)."""
    if code == "?":
        return "🂠"
    return card_label(parse_card(code))


def labels(codes: Iterable[str]) -> str:
    return " ".join(label(c) for c in codes)


def suit_symbol(letter: str | None) -> str:
    return SUIT_SYMBOLS[SUIT_OF_LETTER[letter]] if letter in SUIT_OF_LETTER else "no trumps"


def hand_lines(codes: list[str], trump: str | None = None) -> str:
    """A hand as one line per suit, in the order given (engines sort hands), trumps marked."""
    if not codes:
        return "*(no cards)*"
    groups: dict[str, list[str]] = {}
    for code in codes:
        card = parse_card(code)
        key = "Joker" if is_joker(card) else SUIT_SYMBOLS[suit_of(card)]
        groups.setdefault(key, []).append(label(code).replace(key, "") if key != "Joker" else "Joker")
    trump_symbol = suit_symbol(trump) if trump else None
    lines = []
    for key, ranks in groups.items():
        mark = " ← trumps" if key == trump_symbol else ""
        lines.append(f"{key} {' '.join(ranks)}{mark}" if key != "Joker" else "🃏 Joker")
    return "\n".join(lines)
