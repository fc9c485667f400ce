"""Shithead's private panel: drawing it, and its controls.

**My cards** on the table (:mod:`cogs.shithead.controls`) answers with the player's *panel*, an
ephemeral message holding their hand and exactly the controls their situation allows: in the swap
phase a select of swaps and **Ready** (or, in the choosing deal, a select of the face-up cards and
**Confirm**); on their turn a multi-select of the cards they may play, **Play** and **Pick up**, or
one button per face-down position.

Every control of the panel is a dynamic item whose custom id carries the game, a digest of what
bore on the player's choice when the panel was drawn (:meth:`~bot.contract.GameKind.decision_digest`:
their cards, their legal actions, and in play the pile and the public cards) and the choice (a bit
mask over the panel's own options), so a panel keeps working after a restart and no state is held
in memory. A press goes to the runtime's one pipeline (:mod:`bot.interaction`: the guard, the
computer's seat, an out-of-date panel, a double press, the answer), which asks this game only what
the press means (:mod:`cogs.shithead.panel_actions`). Choosing cards in the select acts on
nothing: it redraws the panel from the current table with **Play** armed for that choice. Controls
that act in play (Play, Pick up, a flip) are refused once that digest has changed (the pile moved,
or the turn passed); the swap phase's name their cards, so another player's swap or Ready never
makes them stale. A refusal, like any refused move, redraws the panel with a warning and changes
nothing. An accepted action answers the click by redrawing the panel, then edits the table with one
call. What the panel offers is in :mod:`cogs.shithead.panel_choices`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.contract import LiveTable, Rendered
from bot.errors import USER_ERRORS
from bot.interaction import PressItem
from cogs.shithead.panel_choices import MAX_OPTIONS, cards_of, own_seat, play_options, quick_play_choices
from cogs.shithead.pictures import hand_picture
from cogs.shithead.render import game_view, panel_embed
from draw.cards import label, labels
from draw.emojis import EMOJIS
from draw.looks import CONFIRM_CARDS, four_colour
from draw.seats import Faces
from games.shithead.contracts import ShitheadView, SwapAction
from games.shithead.game import Shithead
from locales import N_, _, ngettext, translate


def panel(
    table: LiveTable,
    seat: int,
    *,
    mask: int = 0,
    warning: str | None = None,
    note: str | None = None,
    view: ShitheadView | None = None,
    key: str | None = None,
    armed: str | None = None,
) -> Rendered:
    """The player's private panel; ``mask`` marks chosen options (play cards, or face-up choices);
    ``warning`` says why nothing happened, ``note`` what did. ``view`` and ``key`` (the seat's
    view and decision digest) are what the runtime hands the kind's ``draw_panel``; without them
    (a press redrawing its own panel) the panel asks for this state's. ``armed``: the one-press
    play (its cards, ``"3H.3S"``) picked once at a table that plays with ``confirm_cards``."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    view = game_view(engine, seat) if view is None else view
    key = table.kind.decision_digest(engine, seat) if key is None else key
    me = view["seats"][seat]
    notes = [f"⚠️ {warning}"] if warning else []
    if note:
        notes.append(note)
    controls = discord.ui.View(timeout=None)
    faces = Faces.of(table.record.seats)
    legend: str | None = None
    if faces.computer(seat):
        notes.append(_("🤖 The computer is playing your seat: press **Take my seat back** on the table."))
    elif view["phase"] == "swap" and not me["ready"]:
        if view["rules"]["deal"] == "choose":
            notes += _choose_controls(controls, table.id, key, view, mask)
        else:
            _swap_controls(controls, table.id, key, view)
        notes.append(_("Tap a swap to make it, then **Ready**."))
        legend = LEGEND_SWAP
    elif view["phase"] == "play" and view["turn"] == seat:
        if view["zone"] == "down":
            for action in view["legal"]:
                assert action["type"] == "flip"
                index = action["index"]
                controls.add_item(
                    PanelButton(table.id, key, "flip", f"{index:x}", text=f"🂠 {index + 1}", row=0, primary=True)
                )
            notes.append(_("**Your turn:** turn over one of your face-down cards."))
            legend = LEGEND_FLIP
        else:
            confirm = table.record.options.get(CONFIRM_CARDS) == "on"
            notes += _play_controls(controls, table.id, key, view, engine, mask, armed if confirm else None, confirm)
            legend = LEGEND_CONFIRM if confirm else LEGEND_PLAY
    deciding = legend is not None
    if legend:
        notes.append(translate(legend))
    if view["phase"] != "over":
        controls.add_item(PanelButton(table.id, key, "refresh", text=_("🔄 Refresh"), row=4))
    embed = panel_embed(view, faces.name, table.id, notes)
    # Discord draws a message's pictures above its buttons: while a choice is asked for, the hand
    # is the text and the buttons, and the picture comes back once the player waits
    files = [] if deciding else hand_picture(view, embed, four_colour(table.record.options))
    controls.stop()  # dispatched by custom id (dynamic items): no stored view, no 15-minute timer
    return Rendered(content=None, embeds=[embed], view=controls if controls.children else None, files=files)


#: what the button colours mean, said once on the panel where they show
LEGEND_SWAP = N_("Grey: a swap, made at once · 🟩 green: Ready.")
LEGEND_FLIP = N_("🟩 Green: turn that card over.")
LEGEND_PLAY = N_("🟩 Green: plays at once · 🟥 red: picks up.")
LEGEND_CONFIRM = N_("🟩 Green: pick · 🟦 blue: picked, press to play · 🟥 red: pick up.")


def _rank(code: str) -> str:
    """A card's rank as its label says it (``10``, ``Joker``): what a swap button names where
    suits do not matter."""
    text = label(code)
    return text[:-1] if text[-1:] in "♣♦♥♠" else text


def _swap_controls(controls: discord.ui.View, game_id: int, key: str, view: ShitheadView) -> None:
    # Karma's stacks first (value "card+"): they draw a new card, so they are listed before swaps
    stacks = [
        discord.SelectOption(
            label=_("Stack {card} on your face-up cards of its rank, draw again", card=label(a["card"])),
            value=f"{a['card']}+",
        )
        for a in view["legal"] if a["type"] == "stack"
    ]  # fmt: skip
    swaps = [a for a in view["legal"] if a["type"] == "swap"]
    # suits matter only where runs or flushes of one suit are played: a button then names them
    suited = bool(view["rules"].get("runs") or view["rules"].get("flush"))
    name = label if suited else _rank
    taps = [
        QuickButton(
            game_id,
            key,
            "stack",
            a["card"],
            text=_("Stack {card}", card=label(a["card"])),
            emoji=EMOJIS.partial(a["card"]),
        )
        for a in view["legal"]
        if a["type"] == "stack"
    ] + [
        QuickButton(game_id, key, "swap", f"{a['hand']}>{a['up']}", text=f"{name(a['hand'])} ⇄ {name(a['up'])}")
        for a in (swaps if suited else _different_swaps(swaps))
    ]
    _add_quick(controls, taps)
    if swaps or stacks:
        options = stacks + [
            discord.SelectOption(
                label=_("Put {hand} face up, take {up}", hand=label(a["hand"]), up=label(a["up"])),
                value=f"{a['hand']}>{a['up']}",
            )
            for a in swaps
        ]
        options = options[:MAX_OPTIONS]
        controls.add_item(
            PanelSelect(
                game_id,
                key,
                "swap",
                options,
                placeholder=_("Stack or swap a hand card…") if stacks else _("Swap a hand card with a face-up card…"),
            )
        )
    controls.add_item(PanelButton(game_id, key, "ready", text=_("Ready"), row=4, primary=True))


def _different_swaps(swaps: list[SwapAction]) -> list[SwapAction]:
    """One swap a pair of ranks (without runs or flushes suits do not matter: ``8♣ ⇄ 10♦`` and
    ``8♠ ⇄ 10♦`` leave the same game), none of equal ranks (it changes nothing): buttons few and
    short enough for a phone's row. The list offers every swap."""
    out: list[SwapAction] = []
    seen: set[tuple[str, str]] = set()
    for a in swaps:
        ranks = (_rank(a["hand"]), _rank(a["up"]))
        if ranks[0] != ranks[1] and ranks not in seen:
            seen.add(ranks)
            out.append(a)
    return out


def _choose_controls(controls: discord.ui.View, game_id: int, key: str, view: ShitheadView, mask: int) -> list[str]:
    need = view["rules"]["table_cards"]
    hand = view["hand"]
    options = [
        discord.SelectOption(label=label(c), value=c, default=bool(mask >> i & 1), emoji=EMOJIS.partial(c))
        for i, c in enumerate(hand)
    ][:MAX_OPTIONS]
    _add_quick(
        controls,
        [
            QuickButton(
                game_id,
                key,
                "tap",
                f"{mask ^ (1 << i):x}",
                text=label(c),
                emoji=EMOJIS.partial(c),
                style=discord.ButtonStyle.success if mask >> i & 1 else discord.ButtonStyle.secondary,
            )
            for i, c in enumerate(hand)
        ],
    )
    controls.add_item(
        PanelSelect(
            game_id,
            key,
            "choose",
            options,
            placeholder=ngettext("Choose {n} card to lay face up…", "Choose {n} cards to lay face up…", need),
            count=need,
            row=QUICK_ROWS,
        )
    )
    chosen = [c for i, c in enumerate(hand) if mask >> i & 1]
    if len(chosen) == need:
        text = _("Put {cards} face up", cards=labels(chosen))
        controls.add_item(PanelButton(game_id, key, "confirm", f"{mask:x}", text=text[:80], row=4, primary=True))
        return []
    controls.add_item(PanelButton(game_id, key, "confirm", "0", text=_("Confirm"), row=4, disabled=True))
    return [ngettext("Tap {n} card to lay face up, then confirm.", "Tap {n} cards to lay face up, then confirm.", need)]


def _play_controls(
    controls: discord.ui.View,
    game_id: int,
    key: str,
    view: ShitheadView,
    engine: Shithead,
    mask: int,
    armed: str | None = None,
    confirm: bool = False,
) -> list[str]:
    notes: list[str] = []
    quick = quick_plays(game_id, key, view, armed, confirm)
    if quick and confirm:
        notes.append(
            _(
                "**Your turn:** a green button picks its cards, a second press plays them; or choose cards below, "
                "then **Play**."
            )
        )
        notes += [
            _("👉 **{play}** is picked: press it again to play, or pick another.", play=b.text)
            for b in quick
            if b.armed
        ]
    elif quick:
        # the one instruction for this turn (the embed adds no other "Your turn" line)
        notes.append(_("**Your turn:** a green button plays its cards at once; or choose cards below, then **Play**."))
    options = play_options(view)
    if not options:
        notes.append(_("Nothing you hold can be played on this pile: you must pick it up."))
    cards = cards_of(options, mask)
    reason = None
    if cards:
        try:
            engine.check(own_seat(view), {"type": "play", "cards": cards})
        except USER_ERRORS as error:
            reason = str(error)
    if cards and reason is None:
        text = _("Play {cards}", cards=labels(cards))
        controls.add_item(PanelButton(game_id, key, "play", f"{mask:x}", text=text[:80], row=4, primary=True))
    else:
        controls.add_item(PanelButton(game_id, key, "play", "0", text=_("Play chosen"), row=4, disabled=True))
        if reason:
            notes.append(f"⚠️ {reason}")
    pickups = [a for a in view["legal"] if a["type"] == "pickup"]
    plain = [a for a in pickups if "add" not in a]
    size = view["pile_size"]
    if plain:
        controls.add_item(
            PanelButton(game_id, key, "pick", text=_("Pick up the pile ({size})", size=size), row=4, danger=True)
        )
    adds = [
        QuickButton(
            game_id,
            key,
            "add",
            a["add"],
            text=_("Add {card}, pick up ({size})", card=label(a["add"]), size=size + 1),
            emoji=EMOJIS.partial(a["add"]),
            style=discord.ButtonStyle.danger,
        )
        for a in pickups
        if "add" in a
    ]
    room = QUICK_ROWS * QUICK_PER_ROW - len(adds)  # the add-and-pick-up choices are always buttons
    if len(quick) > room:
        notes.append(_("Some plays are only in the list below."))
    quick = quick[:room] + adds
    _add_quick(controls, quick)
    # the list (any play at all) goes in the first free row after the buttons
    if options:
        select_options = [
            discord.SelectOption(
                label=o.text[:100], value=o.value, default=bool(mask >> i & 1), emoji=EMOJIS.partial(o.codes[0])
            )
            for i, o in enumerate(options)
        ]
        controls.add_item(
            PanelSelect(
                game_id,
                key,
                "sel",
                select_options,
                placeholder=_("Or choose any cards to play…"),
                count=None,
            )
        )
    return notes


#: rows 0-2 hold the one-press buttons; row 3 the list (for any other choice); row 4 the rest
QUICK_ROWS = 3
#: one-press buttons a row: as many as a 390-pixel phone shows in a row (a message there is some
#: 300 px wide; a card's button with its emoji and a short text about 70 px)
QUICK_PER_ROW = 4


def _add_quick(controls: discord.ui.View, buttons: list[QuickButton]) -> None:
    for index, button in enumerate(buttons[: QUICK_ROWS * QUICK_PER_ROW]):
        button.row = index // QUICK_PER_ROW
        controls.add_item(button)


def quick_plays(
    game_id: int, key: str, view: ShitheadView, armed: str | None = None, confirm: bool = False
) -> list[QuickButton]:
    """One button per legal play (:func:`~cogs.shithead.panel_choices.quick_play_choices`). With
    ``confirm`` (``confirm_cards``) a press arms it (act ``arm``: only the panel changes) and the
    armed one (blue) plays."""
    out = []
    for play in quick_play_choices(view):
        arg = ".".join(play.cards)
        is_armed = confirm and arg == armed
        button = QuickButton(
            game_id,
            key,
            "put" if is_armed or not confirm else "arm",
            arg,
            text=(_("{play} · press again to play", play=play.text) if is_armed else play.text)[:80],
            emoji=EMOJIS.partial(play.cards[0]),
            style=discord.ButtonStyle.primary if is_armed else discord.ButtonStyle.success,
        )
        button.text, button.armed = play.text[:80], is_armed
        out.append(button)
    return out


class QuickButton(
    PressItem[discord.ui.Button[Any]],
    template=r"shq:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]+):(?P<arg>[0-9A-Za-z#.>]*)",
):
    """A one-press move: ``put`` (play the cards ``arg``), ``arm`` (pick them: ``confirm_cards``),
    ``swap`` (``hand>up``), ``stack``, ``add`` (add ``arg`` and pick up) or ``tap`` (choosing
    face-up cards: the new choice mask)."""

    def __init__(
        self,
        game_id: int,
        key: str,
        act: str,
        arg: str,
        *,
        text: str = "…",
        emoji: discord.PartialEmoji | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        custom_id = f"shq:{game_id}:{key}:{act}:{arg}"[:100]
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=custom_id, emoji=emoji))
        self.game_id, self.key, self.act, self.arg = game_id, key, act, arg
        #: what the play is called, and whether it is the one picked (``confirm_cards``)
        self.text, self.armed = text, False


class PanelButton(
    PressItem[discord.ui.Button[Any]],
    template=r"shb:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]+):(?P<arg>[0-9a-f]+)",
):
    """A panel button; ``key`` is the decision digest the panel was drawn with (hex; an older
    panel's decimal action count parses too and is simply stale), ``arg`` (hex) the chosen
    options' bit mask or a face-down position."""

    def __init__(
        self,
        game_id: int,
        key: str,
        act: str,
        arg: str | int = "0",
        *,
        text: str = "…",
        row: int | None = None,
        primary: bool = False,
        danger: bool = False,
        disabled: bool = False,
    ) -> None:
        style = (
            discord.ButtonStyle.danger
            if danger
            else discord.ButtonStyle.success
            if primary
            else discord.ButtonStyle.secondary
        )
        arg = str(arg)  # hex text (a mask made here may be given as an int)
        custom_id = f"shb:{game_id}:{key}:{act}:{arg}"
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=custom_id, row=row, disabled=disabled))
        self.game_id, self.key, self.act, self.arg = game_id, key, act, arg


class PanelSelect(
    PressItem[discord.ui.Select[Any]], template=r"shs:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]+)"
):
    """A list of the panel (``swap``, ``choose``, ``sel``): a press carries the chosen values."""

    arg = "0"  # (a select carries its choice in its values)

    def __init__(
        self,
        game_id: int,
        key: str,
        act: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        count: int | None = 1,
        row: int | None = None,
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        low, high = (1, len(options)) if count is None else (count, count)
        super().__init__(
            discord.ui.Select(
                custom_id=f"shs:{game_id}:{key}:{act}",
                options=options,
                placeholder=placeholder,
                min_values=min(low, len(options)),
                max_values=min(high, len(options)),
                row=row,
            )
        )
        self.game_id, self.key, self.act, self.arg = game_id, key, act, "0"
