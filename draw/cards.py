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


def legible(codes: Iterable[str]) -> str:
    """Cards in a line with their ranks as text: ``8 ♣ 10 ♥`` (a thin space between, so that
    :mod:`draw.readable` makes each suit its emoji and leaves the rank as text: a card emoji's
    rank is some 6 px tall)."""
    out = []
    for code in codes:
        text = label(code)
        suit = text[-1] if text[-1:] in "♣♦♥♠" else ""
        out.append(f"{text[:-1]}\u2009{suit}" if suit else text)
    return " ".join(out)


#: ranks as a screen reader should say them (the 500 pack's 11-13 and the pips stay numbers)
RANK_WORDS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_words(code: str) -> str:
    """A card in words, for a picture's alt text: ``QH`` → ``queen of hearts``, ``10S`` → ``10
    of spades``, ``X`` → ``joker``, ``?`` → ``a hidden card``. Words, not ``Q♥``: screen readers
    say the suit symbols differently, or not at all."""
    if code == "?":
        return "a hidden card"
    base = code.partition("#")[0].upper()
    if base in ("X", "JOKER", "JK"):
        return "joker"
    rank, suit = base[:-1], base[-1]
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def cards_words(codes: Iterable[str]) -> str:
    """Cards in words, in the order given, comma separated (``none`` for no card)."""
    return ", ".join(card_words(c) for c in codes) or "none"
