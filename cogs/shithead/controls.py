"""Shithead's controls: the table's **My cards** button and each player's private panel.

The table message (edited in place) shows what everyone may see and carries **My cards**. That
button answers with the player's *panel*, an ephemeral message holding their hand and exactly the
controls their situation allows: in the swap phase a select of swaps and **Ready** (or, in the
choosing deal, a select of the face-up cards and **Confirm**); on their turn a multi-select of the
cards they may play, **Play** and **Pick up**, or one button per face-down position.

Every control of the panel is a dynamic item whose custom id carries the game, a digest of what
bore on the player's choice when the panel was drawn (:meth:`~bot.contract.GameKind.decision_digest`:
their cards, their legal actions, and in play the pile and the public cards) and the choice (a bit
mask over the panel's own options), so a panel keeps working after a restart and no state is held
in memory. Choosing cards in the select acts on nothing: it redraws the panel from the current
table with **Play** armed for that choice. Controls that act in play (Play, Pick up, a flip)
refuse once that digest has changed (the pile moved, or the turn passed); another player's swap or
Ready never does. The refusal, like any refused move, redraws the panel with a warning and
changes nothing.
An accepted action answers the click by redrawing the panel, then edits the table with one call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.client import tables_of
from bot.components import GameItem
from bot.contract import Action, LiveTable, Rendered, View
from bot.errors import USER_ERRORS, Refusal
from bot.render.cards import label, labels
from bot.render.common import count
from bot.render.emojis import EMOJIS
from bot.table_options import four_colour
from cogs.fairness.spectators import watch_button
from cogs.lobby.controls import take_back_button
from cogs.shithead.pictures import hand_picture
from cogs.shithead.render import panel_embed
from games.common.cards import parse_card, rank_of
from games.shithead.game import Shithead, sort_key

MAX_OPTIONS = 25  # Discord's limit for one select
PLAY_ACTS = frozenset({"play", "put", "pick", "add", "flip"})  # turn controls: refused from an out-of-date panel


# -- the table's button ---------------------------------------------------------------------------
class TableButton(GameItem[discord.ui.Button[Any]], template=r"sh:(?P<game_id>\d+):cards"):
    fields = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="My cards", style=discord.ButtonStyle.primary, custom_id=f"sh:{game_id}:cards")
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        await send_panel(interaction, self.game_id)


async def send_panel(interaction: discord.Interaction, game_id: int) -> None:
    table = tables_of(interaction).get(game_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    if table.engine is None:
        raise Refusal("The game has not started yet.")
    rendered = tables_of(interaction).presenter.panels.render(table, seat)
    sent = await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
    tables_of(interaction).presenter.panels.opened(table, seat, interaction, sent.message_id)


def table_view(table: LiveTable) -> discord.ui.View:
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    back = take_back_button(table)
    if back is not None:
        controls.add_item(back)
    controls.add_item(watch_button(table))
    controls.stop()  # dispatched by custom id (dynamic items): nothing to store
    return controls


def dm_view(table: LiveTable) -> discord.ui.View:
    """The button under the cards sent by DM: it opens the same live panel, in the DM."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    controls.stop()
    return controls


# -- the private panel ----------------------------------------------------------------------------
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
        return f"{labels(self.codes)} (all {len(self.codes)} together)"


def _by_rank(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: sort_key(parse_card(c)))


def play_options(view: View) -> list[CardOption]:
    """The cards that take part in some legal play, one option each; past Discord's 25 options,
    the biggest groups of one rank are merged into single options until the list fits."""
    playable = {c for a in view["legal"] if a["type"] == "play" for c in a["cards"]}
    if not playable:
        return []
    zone = view["hand"] if view["zone"] == "hand" else view["seats"][view["viewer"]]["face_up"]
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


def _mask_of(options: list[CardOption], values: list[str]) -> int:
    chosen = set(values)
    return sum(1 << i for i, o in enumerate(options) if o.value in chosen)


def _cards_of(options: list[CardOption], mask: int) -> list[str]:
    return [c for i, o in enumerate(options) if mask >> i & 1 for c in o.codes]


def panel(
    table: LiveTable, seat: int, *, mask: int = 0, warning: str | None = None, note: str | None = None
) -> Rendered:
    """The player's private panel; ``mask`` marks chosen options (play cards, or face-up choices);
    ``warning`` says why nothing happened, ``note`` what did."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    view = engine.view(seat)
    key = table.kind.decision_digest(engine, seat)
    me = view["seats"][seat]
    notes = [f"⚠️ {warning}"] if warning else []
    if note:
        notes.append(note)
    controls = discord.ui.View(timeout=None)
    computer = table.seats[seat].ai_level is not None
    if computer:
        notes.append("🤖 The computer is playing your seat: press **Take my seat back** on the table.")
    elif view["phase"] == "swap" and not me["ready"]:
        if view["rules"]["deal"] == "choose":
            notes += _choose_controls(controls, table.id, key, view, mask)
        else:
            _swap_controls(controls, table.id, key, view)
        notes.append("Tap a swap to make it, then **Ready**.")
    elif view["phase"] == "play" and view["turn"] == seat:
        if view["zone"] == "down":
            for action in view["legal"]:
                assert action["type"] == "flip"
                index = action["index"]
                controls.add_item(
                    PanelButton(table.id, key, "flip", f"{index:x}", text=f"🂠 {index + 1}", row=0, primary=True)
                )
            notes.append("**Your turn:** turn over one of your face-down cards.")
        else:
            notes += _play_controls(controls, table.id, key, view, engine, mask)
    if view["phase"] != "over":
        controls.add_item(PanelButton(table.id, key, "refresh", text="🔄 Refresh", row=4))
    embed = panel_embed(view, table.name, table.id, notes)
    files = hand_picture(view, embed, four_colour(table.record.options))
    controls.stop()  # dispatched by custom id (dynamic items): no stored view, no 15-minute timer
    return Rendered(content=None, embeds=[embed], view=controls if controls.children else None, files=files)


def _swap_controls(controls: discord.ui.View, game_id: int, key: str, view: View) -> None:
    # Karma's stacks first (value "card+"): they draw a new card, so they are listed before swaps
    stacks = [
        discord.SelectOption(label=f"Stack {label(a['card'])} on your face-up cards of its rank, draw again",
                             value=f"{a['card']}+")
        for a in view["legal"] if a["type"] == "stack"
    ]  # fmt: skip
    swaps = [a for a in view["legal"] if a["type"] == "swap"]
    taps = [
        QuickButton(game_id, key, "stack", a["card"], text=f"Stack {label(a['card'])}", emoji=EMOJIS.partial(a["card"]))
        for a in view["legal"]
        if a["type"] == "stack"
    ] + [
        QuickButton(game_id, key, "swap", f"{a['hand']}>{a['up']}", text=f"{label(a['hand'])} ⇄ {label(a['up'])}")
        for a in swaps
    ]
    _add_quick(controls, taps)
    if swaps or stacks:
        options = stacks + [
            discord.SelectOption(
                label=f"Put {label(a['hand'])} face up, take {label(a['up'])}", value=f"{a['hand']}>{a['up']}"
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
                placeholder="Stack or swap a hand card…" if stacks else "Swap a hand card with a face-up card…",
            )
        )
    controls.add_item(PanelButton(game_id, key, "ready", text="Ready", row=4, primary=True))


def _choose_controls(controls: discord.ui.View, game_id: int, key: str, view: View, mask: int) -> list[str]:
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
            placeholder=f"Choose {count(need, 'card')} to lay face up…",
            count=need,
            row=QUICK_ROWS,
        )
    )
    chosen = [c for i, c in enumerate(hand) if mask >> i & 1]
    if len(chosen) == need:
        text = f"Put {labels(chosen)} face up"
        controls.add_item(PanelButton(game_id, key, "confirm", f"{mask:x}", text=text[:80], row=4, primary=True))
        return []
    controls.add_item(PanelButton(game_id, key, "confirm", "0", text="Confirm", row=4, disabled=True))
    return [f"Tap {count(need, 'card')} to lay face up, then confirm."]


def _play_controls(
    controls: discord.ui.View, game_id: int, key: str, view: View, engine: Shithead, mask: int
) -> list[str]:
    notes: list[str] = []
    quick = quick_plays(game_id, key, view)
    if quick:
        notes.append("**Your turn:** one press plays.")
    options = play_options(view)
    if not options:
        notes.append("Nothing you hold can be played on this pile: you must pick it up.")
    cards = _cards_of(options, mask)
    reason = None
    if cards:
        try:
            engine.check(view["viewer"], {"type": "play", "cards": cards})
        except USER_ERRORS as error:
            reason = str(error)
    if cards and reason is None:
        text = f"Play {labels(cards)}"
        controls.add_item(PanelButton(game_id, key, "play", f"{mask:x}", text=text[:80], row=4, primary=True))
    else:
        controls.add_item(PanelButton(game_id, key, "play", "0", text="Play chosen", row=4, disabled=True))
        if reason:
            notes.append(f"⚠️ {reason}")
    pickups = [a for a in view["legal"] if a["type"] == "pickup"]
    plain = [a for a in pickups if "add" not in a]
    size = view["pile_size"]
    if plain:
        controls.add_item(PanelButton(game_id, key, "pick", text=f"Pick up the pile ({size})", row=4, danger=True))
    adds = [
        QuickButton(
            game_id,
            key,
            "add",
            a["add"],
            text=f"Add {label(a['add'])}, pick up ({size + 1})",
            emoji=EMOJIS.partial(a["add"]),
            style=discord.ButtonStyle.danger,
        )
        for a in pickups
        if "add" in a
    ]
    room = QUICK_ROWS * 5 - len(adds)  # the add-and-pick-up choices are always buttons
    if len(quick) > room:
        notes.append("Some plays are only in the list below.")
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
                placeholder="Or choose any cards to play…",
                count=None,
            )
        )
    return notes


#: rows 0-2 hold the one-press buttons; row 3 the list (for any other choice); row 4 the rest
QUICK_ROWS = 3
_SPELLED = {1: "one", 2: "both", 3: "all three", 4: "all four"}


def _add_quick(controls: discord.ui.View, buttons: list[QuickButton]) -> None:
    for index, button in enumerate(buttons[: QUICK_ROWS * 5]):
        button.row = index // 5
        controls.add_item(button)


def _rank_text(code: str) -> str:
    return "Joker" if code.startswith("X") else label(code)[:-1]


def quick_plays(game_id: int, key: str, view: View) -> list[QuickButton]:
    """One button per legal play, as the player thinks of it: "7♠" for a lone card, "all three
    7s" and "one 7" where both are allowed, "2 × 7" in between; the same ranks in other suits
    are one button (the cards come in hand order). The fullest plays of each rank come first."""
    zone = view["hand"] if view["zone"] == "hand" else view["seats"][view["viewer"]]["face_up"]
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
    out: list[tuple[tuple[int, int, int], QuickButton]] = []
    for profile, cards in seen.items():
        ranks = set(profile)
        first = cards[0]
        if len(ranks) == 1:
            rank, n = profile[0], len(profile)
            if held.get(rank, 0) == 1:
                text = label(first)
            elif n == held.get(rank, 0):
                text = f"{_SPELLED.get(n, f'all {n}')} {_rank_text(first)}s"
            elif n == 1:
                text = f"one {_rank_text(first)}"
            else:
                text = f"{n} × {_rank_text(first)}"
            weight = (0 if n == held.get(rank, 0) or n == 1 else 1, sort_key(parse_card(first))[0], -n)
        else:
            text = labels(cards)
            weight = (2, sort_key(parse_card(first))[0], -len(cards))
        button = QuickButton(
            game_id,
            key,
            "put",
            ".".join(cards),
            text=text[:80],
            emoji=EMOJIS.partial(first),
            style=discord.ButtonStyle.success,
        )
        out.append((weight, button))
    out.sort(key=lambda pair: pair[0])
    return [button for _, button in out]


class QuickButton(
    GameItem[discord.ui.Button[Any]],
    template=r"shq:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]+):(?P<arg>[0-9A-Za-z#.>]*)",
):
    """A one-press move: ``put`` (play the cards ``arg``), ``swap`` (``hand>up``), ``stack``,
    ``add`` (add ``arg`` and pick up) or ``tap`` (choosing face-up cards: the new choice mask)."""

    fields = {"game_id": int}

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

    async def handle(self, interaction: discord.Interaction) -> None:
        act, arg, values = self.act, self.arg, [self.arg]
        if act == "stack":
            act, values = "swap", [f"{self.arg}+"]
        elif act == "tap":
            act, values = "choose", []
        await on_panel(interaction, self.game_id, self.key, act, arg, values)


class PanelButton(
    GameItem[discord.ui.Button[Any]],
    template=r"shb:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]+):(?P<arg>[0-9a-f]+)",
):
    """A panel button; ``key`` is the decision digest the panel was drawn with (hex; an older
    panel's decimal action count parses too and is simply stale), ``arg`` (hex) the chosen
    options' bit mask or a face-down position."""

    fields = {"game_id": int}  # ``key`` and ``arg`` stay hex text

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

    async def handle(self, interaction: discord.Interaction) -> None:
        await on_panel(interaction, self.game_id, self.key, self.act, self.arg, [])


class PanelSelect(
    GameItem[discord.ui.Select[Any]], template=r"shs:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]+)"
):
    fields = {"game_id": int}

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
        self.game_id, self.key, self.act = game_id, key, act

    async def handle(self, interaction: discord.Interaction) -> None:
        await on_panel(interaction, self.game_id, self.key, self.act, "0", list(self.item.values))


async def on_panel(
    interaction: discord.Interaction, game_id: int, key: str, act: str, arg: str, values: list[str]
) -> None:
    """Every panel control comes here: redraw (refresh, choosing cards) or act."""
    tables = tables_of(interaction)
    table = tables.get(game_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    engine = table.engine
    if engine is None:
        raise Refusal("The game has not started yet.")
    if act == "refresh":
        await _redraw(interaction, panel(table, seat))
        return
    if act == "choose" and not values:  # a tap: the new choice mask is the argument
        assert isinstance(engine, Shithead)
        in_hand = engine.view(seat)["hand"]
        mask = int(arg, 16)
        values = [c for i, c in enumerate(in_hand) if mask >> i & 1]
    if act in ("sel", "choose"):
        await _redraw(interaction, _chosen(table, seat, act, values))
        return
    async with table.lock:
        if not tables.is_live(table) or table.engine is None:
            raise Refusal("This game has ended.")
        try:
            if table.seats[seat].ai_level is not None:
                raise Refusal("The computer is playing your seat: press **Take my seat back** first.")
            action = _action(table, seat, key, act, arg, values)
            await tables.act(
                table, seat, action, interaction=interaction, reply=lambda: tables.presenter.panels.render(table, seat)
            )
        except USER_ERRORS as error:
            if interaction.response.is_done():
                raise
            if _counted_already(table, seat, key, act):
                # A double click: the first counted, and this answer replaces its panel, so it must
                # not say "nothing was changed" about the move the player did make.
                counted = "✅ Your move counted (once); here is your hand now."
                await _redraw(interaction, panel(table, seat, note=counted))
                return
            await _redraw(interaction, panel(table, seat, warning=str(error)))


#: the panel's acts that make the action of this kind at a given point of the log
_ACT_TYPES = {"play": "play", "put": "play", "pick": "pickup", "add": "pickup", "flip": "flip"}


def _counted_already(table: LiveTable, seat: int, key: str, act: str) -> bool:
    """Whether this click is a second click on the panel this seat's last move was made from."""
    if act not in _ACT_TYPES or table.acted_from.get(seat) != key:
        return False
    mine = [action for by, action in table.record.actions if by == seat]
    return bool(mine) and mine[-1].get("type") == _ACT_TYPES[act]


async def _redraw(interaction: discord.Interaction, rendered: Rendered) -> None:
    """Answer a click by redrawing the panel; that click's interaction is now the one the bot
    edits the panel through (:mod:`bot.panels`)."""
    tables = tables_of(interaction)
    await tables.presenter.answer(interaction, rendered)
    game_id = _game_of(interaction)
    table = tables.tables.get(game_id) if game_id is not None else None
    seat = table.seat_of(interaction.user.id) if table is not None else None
    if table is not None and seat is not None:
        tables.presenter.panels.opened(table, seat, interaction)


def _game_of(interaction: discord.Interaction) -> int | None:
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    parts = custom_id.split(":")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def _chosen(table: LiveTable, seat: int, act: str, values: list[str]) -> Rendered:
    """The panel redrawn from the current table with the player's choice marked (acts on nothing)."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    view = engine.view(seat)
    if act == "choose":
        if view["phase"] != "swap" or view["rules"]["deal"] != "choose":
            return panel(table, seat, warning="Choosing the face-up cards is over.")
        chosen = set(values)
        return panel(table, seat, mask=sum(1 << i for i, c in enumerate(view["hand"]) if c in chosen))
    if view["phase"] != "play":
        return panel(table, seat, warning="There is nothing to play now.")
    if view["turn"] != seat:
        waiting = view["turn"]
        who = table.name(waiting) if waiting is not None else "nobody"
        return panel(table, seat, warning=f"It is not your turn: waiting for {who}.")
    options = play_options(view)
    mask = _mask_of(options, values)
    warning = None
    if len(values) != bin(mask).count("1"):
        warning = "Some of those cards cannot be played any more; they were left out."
    return panel(table, seat, mask=mask, warning=warning)


def _action(table: LiveTable, seat: int, key: str, act: str, arg: str, values: list[str]) -> Action:
    engine = table.engine
    assert isinstance(engine, Shithead)
    # Checked before the mask is read: it indexes the options the panel was drawn with.
    if act in PLAY_ACTS and key != table.kind.decision_digest(engine, seat):
        raise Refusal("The table has moved on since this was shown; nothing was changed. Here it is now.")
    if act == "play":
        cards = _cards_of(play_options(engine.view(seat)), int(arg, 16))
        if not cards:
            raise Refusal("Choose the cards to play first.")
        return {"type": "play", "cards": cards}
    if act == "put":
        return {"type": "play", "cards": arg.split(".")}
    if act == "pick":
        return {"type": "pickup"}
    if act == "add":
        return {"type": "pickup", "add": values[0]}
    if act == "flip":
        return {"type": "flip", "index": int(arg, 16)}
    if act == "swap" and values and values[0].endswith("+"):
        return {"type": "stack", "card": values[0][:-1]}
    if act == "swap":
        hand, _, up = values[0].partition(">")
        return {"type": "swap", "hand": hand, "up": up}
    if act == "ready":
        return {"type": "ready"}
    if act == "confirm":
        mask = int(arg, 16)
        in_hand = engine.view(seat)["hand"]
        return {"type": "choose_up", "cards": [c for i, c in enumerate(in_hand) if mask >> i & 1]}
    raise Refusal("That control is not known any more; press **My cards** again.")
