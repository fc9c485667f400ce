"""Which cards Shithead's panel offers: the options of its play select, the choice mask that marks
some of them, and the one-press plays with the words on their buttons.

Pure functions of a seat's view: the panel (:mod:`cogs.shithead.panel`) turns them into Discord
controls, and a press (:mod:`cogs.shithead.panel_actions`) reads its mask back through the same
options, so drawing and reading can never disagree on which option a bit means.
"""

from __future__ import annotations

from dataclasses import dataclass

from draw.cards import label, labels
from games.common.cards import parse_card, rank_of
from games.shithead.contracts import ShitheadView as View
from games.shithead.game import sort_key
from locales import N_, _, translate

MAX_OPTIONS = 25  # Discord's limit for one select
_SPELLED = {2: N_("both {rank}s"), 3: N_("all three {rank}s"), 4: N_("all four {rank}s")}


@dataclass(frozen=True, slots=True)
class CardOption:
    """One entry of the play select: one card, or (in a huge hand) all of one rank together."""

    codes: tuple[str, ...]

    @property
    def value(self) -> str:
        return ".".join(self.codes)

    @property
    def text(self) -> str:
        if len(self.codes) == 1:
            return label(self.codes[0])
        return _("{cards} (all {n} together)", cards=labels(self.codes), n=len(self.codes))


def _by_rank(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: sort_key(parse_card(c)))


def own_seat(view: View) -> int:
    """The seat a seat's view was made for (a panel is only ever drawn from one)."""
    seat = view["viewer"]
    if seat is None:
        raise ValueError("a panel is drawn from a seat's own view, not the public one")
    return seat


def play_options(view: View) -> list[CardOption]:
    """The cards that take part in some legal play, one option each; past Discord's 25 options,
    the biggest groups of one rank are merged into single options until the list fits."""
    playable = {c for a in view["legal"] if a["type"] == "play" for c in a["cards"]}
    if not playable:
        return []
    zone = view["hand"] if view["zone"] == "hand" else view["seats"][own_seat(view)]["face_up"]
    cards = _by_rank([c for c in zone if c in playable])
    groups: dict[int, list[str]] = {}
    for code in cards:
        groups.setdefault(rank_of(parse_card(code)), []).append(code)
    merged: set[int] = set()
    count = len(cards)
    for rank in sorted(groups, key=lambda r: -len(groups[r])):
        if count <= MAX_OPTIONS:
            break
        merged.add(rank)
        count -= len(groups[rank]) - 1
    options = []
    for rank, codes in groups.items():
        if rank in merged:
            options.append(CardOption(tuple(codes)))
        else:
            options.extend(CardOption((c,)) for c in codes)
    return options[:MAX_OPTIONS]


def mask_of(options: list[CardOption], values: list[str]) -> int:
    """The bit mask of the chosen ``values`` over ``options`` (values no option has are left out)."""
    chosen = set(values)
    return sum(1 << i for i, o in enumerate(options) if o.value in chosen)


def cards_of(options: list[CardOption], mask: int) -> list[str]:
    """The cards a ``mask`` over ``options`` stands for, in the options' order."""
    return [c for i, o in enumerate(options) if mask >> i & 1 for c in o.codes]


@dataclass(frozen=True, slots=True)
class QuickPlay:
    """One legal play as a one-press button shows it: its words and its cards, in hand order."""

    text: str
    cards: tuple[str, ...]


def _rank_text(code: str) -> str:
    return "Joker" if code.startswith("X") else label(code)[:-1]


def quick_play_choices(view: View) -> list[QuickPlay]:
    """One quick play per legal play, as the player thinks of it: "7♠" for a lone card, "all three
    7s" and "one 7" where both are allowed, "2 × 7" in between; the same ranks in other suits
    are one button (the cards come in hand order). The fullest plays of each rank come first."""
    zone = view["hand"] if view["zone"] == "hand" else view["seats"][own_seat(view)]["face_up"]
    order = {c: i for i, c in enumerate(zone)}
    held: dict[int, int] = {}
    for code in zone:
        rank = rank_of(parse_card(code))
        held[rank] = held.get(rank, 0) + 1
    seen: dict[tuple[int, ...], list[str]] = {}
    for action in view["legal"]:
        if action["type"] != "play":
            continue
        cards = sorted(action["cards"], key=lambda c: order.get(c, 99))
        profile = tuple(sorted(rank_of(parse_card(c)) for c in cards))
        seen.setdefault(profile, cards)
    out: list[tuple[tuple[int, int, int], QuickPlay]] = []
    for profile, cards in seen.items():
        ranks = set(profile)
        first = cards[0]
        if len(ranks) == 1:
            rank, n = profile[0], len(profile)
            if held.get(rank, 0) == 1:
                text = label(first)
            elif n == held.get(rank, 0):
                spelled = _SPELLED.get(n)
                rank_text = _rank_text(first)
                text = translate(spelled, rank=rank_text) if spelled else _("all {n} {rank}s", n=n, rank=rank_text)
            elif n == 1:
                text = _("one {rank}", rank=_rank_text(first))
            else:
                text = f"{n} × {_rank_text(first)}"
            weight = (0 if n == held.get(rank, 0) or n == 1 else 1, sort_key(parse_card(first))[0], -n)
        else:
            text = labels(cards)
            weight = (2, sort_key(parse_card(first))[0], -len(cards))
        out.append((weight, QuickPlay(text, tuple(cards))))
    out.sort(key=lambda pair: pair[0])
    return [play for _weight, play in out]
