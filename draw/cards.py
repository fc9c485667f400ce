"""Cards and hands as players read them in Discord messages."""

from __future__ import annotations

from collections.abc import Iterable

from games.common.cards import SUIT_SYMBOLS, card_label, is_joker, parse_card, suit_of
from locales import N_, _, translate

SUIT_OF_LETTER = {"C": 0, "D": 1, "H": 2, "S": 3}


def label(code: str) -> str:
    """``QH`` → ``Q♥``; ``X`` → ``Joker``; ``?`` → ``🂠`` (a card the viewer may not see)."""
    if code == "?":
        return "🂠"
    card = parse_card(code)
    return _("Joker") if is_joker(card) else card_label(card)


def labels(codes: Iterable[str]) -> str:
    return " ".join(label(c) for c in codes)


def suit_symbol(letter: str | None) -> str:
    return SUIT_SYMBOLS[SUIT_OF_LETTER[letter]] if letter in SUIT_OF_LETTER else _("no trumps")


def hand_lines(codes: list[str], trump: str | None = None) -> str:
    """A hand as one line per suit, in the order given (engines sort hands), trumps marked."""
    if not codes:
        return _("*(no cards)*")
    groups: dict[str, list[str]] = {}
    for code in codes:
        card = parse_card(code)
        key = "Joker" if is_joker(card) else SUIT_SYMBOLS[suit_of(card)]
        groups.setdefault(key, []).append(label(code).replace(key, "") if key != "Joker" else "Joker")
    trump_symbol = suit_symbol(trump) if trump else None
    lines = []
    for key, ranks in groups.items():
        if key == "Joker":
            lines.append("🃏 " + _("Joker"))
        elif key == trump_symbol:
            lines.append(_("{suit} {ranks} ← trumps", suit=key, ranks=" ".join(ranks)))
        else:
            lines.append(f"{key} {' '.join(ranks)}")
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
RANK_WORDS = {"J": N_("jack"), "Q": N_("queen"), "K": N_("king"), "A": N_("ace")}
SUIT_WORDS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}


def suit_words(letter: str) -> str:
    """A suit's name in the reader's language (``H`` → ``hearts``, ``Herz``, ``corazones``)."""
    return translate(SUIT_WORDS[letter])


def card_words(code: str) -> str:
    """A card in words, for a picture's alt text: ``QH`` → ``queen of hearts``, ``10S`` → ``10
    of spades``, ``X`` → ``joker``, ``?`` → ``a hidden card``. Words, not ``Q♥``: screen readers
    say the suit symbols differently, or not at all."""
    if code == "?":
        return _("a hidden card")
    base = code.partition("#")[0].upper()
    if base in ("X", "JOKER", "JK"):
        return _("joker")
    rank, suit = base[:-1], base[-1]
    rank_word = translate(RANK_WORDS[rank]) if rank in RANK_WORDS else rank
    return _("{rank} of {suit}", rank=rank_word, suit=suit_words(suit))


def cards_words(codes: Iterable[str]) -> str:
    """Cards in words, in the order given, comma separated (``none`` for no card)."""
    return ", ".join(card_words(c) for c in codes) or _("none")
