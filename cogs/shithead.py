"""Shithead on Discord: one table message for the whole game, a private panel per player, and
``/shithead``.

The table message (edited in place) shows what everyone may see and carries **My cards**. That
button answers with the player's *panel*, an ephemeral message holding their hand and exactly the
controls their situation allows: in the swap phase a select of swaps and **Ready** (or, in the
choosing deal, a select of the face-up cards and **Confirm**); on their turn a multi-select of the
cards they may play, **Play** and **Pick up**, or one button per face-down position.

Every control of the panel is a dynamic item whose custom id carries the game, the table's action
count when the panel was drawn, and the choice (a bit mask over the panel's own options), so a
panel keeps working after a restart and no state is held in memory. Choosing cards in the select
acts on nothing: it redraws the panel from the current table with **Play** armed for that choice.
Controls that act (Play, Pick up, a flip) refuse if the table has moved on since the panel was
drawn; the refusal, like any refused move, redraws the panel with a warning and changes nothing.
An accepted action answers the click by redrawing the panel, then edits the table with one call.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.components import GameItem
from bot.errors import USER_ERRORS, Refusal, guarded
from bot.kinds import GameKind, OptionSpec, Rendered, register
from bot.render.cards import label, labels
from bot.render.shithead import dm_embed, final_embed, panel_embed, table_embed, turn_content
from bot.tables import LiveTable
from cogs.lobby import game_group, take_back_button
from db.store import DealScore, ResultRow
from games.common.cards import parse_card, rank_of
from games.common.engine import Engine, Event
from games.shithead import rules as sh_rules
from games.shithead.game import Shithead, sort_key

if TYPE_CHECKING:
    from bot.client import CardBot

MAX_OPTIONS = 25  # Discord's limit for one select
PLAY_TYPES = frozenset({"play", "pickup", "flip"})  # turn actions: refused from an out-of-date panel


class ShitheadKind(GameKind):
    key = "shithead"
    title = "Shithead"
    engine = Shithead
    presets = tuple(sh_rules.PRESETS)
    default_preset = "pagat"
    ai_levels = ("quick", "strong", "random")
    hand_button = "My cards"

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    # -- rules --------------------------------------------------------------------------------
    def options(self) -> list[OptionSpec]:
        return [OptionSpec(o.name, o.values, o.help) for o in sh_rules.OPTIONS]

    def make_rules(self, preset: str, options: dict[str, str]) -> sh_rules.Rules:
        return sh_rules.make_rules(preset, **options)

    def rules_to_json(self, rules: sh_rules.Rules) -> dict:
        return rules.to_json()

    def rules_from_json(self, data: dict) -> sh_rules.Rules:
        return sh_rules.Rules.from_json(data)

    def describe(self, rules: sh_rules.Rules) -> list[str]:
        return rules.describe()

    def player_range(self, rules: sh_rules.Rules) -> tuple[int, int]:
        return rules.player_range()

    # -- rendering ----------------------------------------------------------------------------
    def message_key(self, engine: Engine) -> Any:
        return "game"  # one table message for the whole game

    def table(self, table: LiveTable, events: list[Event]) -> Rendered:
        assert table.engine is not None
        view = table.engine.view(None)
        people = [s for s in view["to_act"] if table.seats[s].ai_level is None]
        return Rendered(
            content=turn_content(view, table.mention, people),
            embeds=[table_embed(view, table.name, table.notices, _footer(table))],
            view=table_view(table),
        )

    def closing(self, table: LiveTable, events: list[Event]) -> Rendered:
        assert table.engine is not None
        view = table.engine.view(None)
        return Rendered(
            content="🏁 Game over: the result is below.",
            embeds=[table_embed(view, table.name, table.notices, _footer(table))],
            view=None,
        )

    def hand(self, table: LiveTable, seat: int) -> Rendered:
        return panel(table, seat)

    def dm(self, table: LiveTable, seat: int) -> Rendered | None:
        assert table.engine is not None
        guild = self.bot.get_guild(table.record.guild_id or 0)
        where = f"Game #{table.id} on **{guild.name if guild else 'your server'}** in <#{table.record.channel_id}>"
        return Rendered(content=None, embeds=[dm_embed(table.engine.view(seat), where)], view=None)

    def deal_scores(self, engine: Engine, events: list[Event]) -> list[DealScore]:
        return []  # one game, no deals to score

    def results(self, table: LiveTable) -> list[ResultRow]:
        engine = table.engine
        assert isinstance(engine, Shithead)
        res = engine.results()
        order: list[int] = res["order"]
        left = _cards_left(engine)
        pickups = _pickups(engine)
        rows = []
        for seat in range(engine.seats):
            # Playing for a winner stops at the first out: everyone else shares second place.
            place = order.index(seat) + 1 if seat in order else len(order) + 1
            rows.append(
                ResultRow(
                    seat=seat,
                    user_id=table.seats[seat].user_id,
                    name=table.name(seat),
                    place=place,
                    total=None,
                    is_loser=seat == res["loser"],
                    stats={"cards_left": left[seat], "pickups": pickups[seat], "goal": engine.rules.goal},
                )
            )
        return sorted(rows, key=lambda r: (r.place, r.seat))

    def finale(self, table: LiveTable, results: list[ResultRow]) -> Rendered:
        engine = table.engine
        assert isinstance(engine, Shithead)
        view = engine.view(None)
        order = engine.results()["order"]
        embed = final_embed(view, table.name, order, _cards_left(engine))
        if view["loser"] is not None:
            content = f"🏁 Game over! 💩 {table.mention(view['loser'])} is the shithead (and deals next time)."
        else:
            content = f"🏁 Game over! 🏆 {table.mention(view['winner'])} wins."
        return Rendered(content=content, embeds=[embed], view=None)

    def ai_action(self, view: dict, level: str, rng: random.Random) -> dict:
        from games.shithead.ai import choose_action, random_action

        if level == "random":
            return random_action(view, rng)
        return choose_action(view, rng)  # "strong" and "quick" (a stand-in) both play sensibly

    def describe_action(self, table: LiveTable, seat: int, action: dict) -> str:
        kind = action["type"]
        if kind == "play":
            return f"played {labels(action['cards'])}"
        if kind == "flip":
            return "flipped a face-down card"
        if kind == "pickup":
            return "picked up the pile"
        return "got ready"


def _footer(table: LiveTable) -> str:
    changed = " with changes" if table.record.options else ""
    return f"Game #{table.id} · {table.record.preset} rules{changed} · /shithead rules shows them"


def _cards_left(engine: Shithead) -> dict[int, int]:
    view = engine.view(None)
    return {s["seat"]: s["hand_size"] + len(s["face_up"]) + s["face_down"] for s in view["seats"]}


def _pickups(engine: Shithead) -> dict[int, int]:
    """Pick-ups per seat, failed flips included (they take the pile too)."""
    counts = dict.fromkeys(range(engine.seats), 0)
    replay = Shithead.replay(
        engine.rules, engine.seats, engine.seed or 0, [], engine.dealer, rng_version=engine.rng_version
    )
    for seat, action in engine.log:
        _, events = replay.apply(seat, action)
        counts[seat] += sum(1 for e in events if e.kind == "picked_up")
    return counts


# -- the table's button ---------------------------------------------------------------------------
class TableButton(GameItem[discord.ui.Button], template=r"sh:(?P<game_id>\d+):cards"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="My cards", style=discord.ButtonStyle.primary, custom_id=f"sh:{game_id}:cards")
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        await send_panel(interaction, self.game_id)


async def send_panel(interaction: discord.Interaction, game_id: int) -> None:
    bot: CardBot = interaction.client  # type: ignore[assignment]
    table = bot.tables.get(game_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    if table.engine is None:
        raise Refusal("The game has not started yet.")
    await interaction.response.send_message(**_no_none(panel(table, seat).kwargs()), ephemeral=True)


def table_view(table: LiveTable) -> discord.ui.View:
    controls = discord.ui.View(timeout=None)
    controls.add_item(TableButton(table.id))
    back = take_back_button(table)
    if back is not None:
        controls.add_item(back)
    controls.stop()  # dispatched by custom id (dynamic items): nothing to store
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


def play_options(view: dict) -> list[CardOption]:
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


def panel(table: LiveTable, seat: int, *, mask: int = 0, warning: str | None = None) -> Rendered:
    """The player's private panel; ``mask`` marks chosen options (play cards, or face-up choices)."""
    engine = table.engine
    assert isinstance(engine, Shithead)
    view = engine.view(seat)
    seq = view["action_count"]
    me = view["seats"][seat]
    notes = [f"⚠️ {warning}"] if warning else []
    controls = discord.ui.View(timeout=None)
    computer = table.seats[seat].ai_level is not None
    if computer:
        notes.append("🤖 The computer is playing your seat: press **Take my seat back** on the table.")
    elif view["phase"] == "swap" and not me["ready"]:
        if view["rules"]["deal"] == "choose":
            notes += _choose_controls(controls, table.id, seq, view, mask)
        else:
            _swap_controls(controls, table.id, seq, view)
    elif view["phase"] == "play" and view["turn"] == seat:
        if view["zone"] == "down":
            for action in view["legal"]:
                index = action["index"]
                controls.add_item(
                    PanelButton(table.id, seq, "flip", f"{index:x}", text=f"🂠 {index + 1}", row=0, primary=True)
                )
        else:
            notes += _play_controls(controls, table.id, seq, view, engine, mask)
    if view["phase"] != "over":
        controls.add_item(PanelButton(table.id, seq, "refresh", text="🔄 Refresh", row=1))
    embed = panel_embed(view, table.name, table.id, notes)
    controls.stop()  # dispatched by custom id (dynamic items): no stored view, no 15-minute timer
    return Rendered(content=None, embeds=[embed], view=controls if controls.children else None)


def _swap_controls(controls: discord.ui.View, game_id: int, seq: int, view: dict) -> None:
    swaps = [a for a in view["legal"] if a["type"] == "swap"][:MAX_OPTIONS]
    if swaps:
        options = [
            discord.SelectOption(
                label=f"Put {label(a['hand'])} face up, take {label(a['up'])}", value=f"{a['hand']}>{a['up']}"
            )
            for a in swaps
        ]
        controls.add_item(
            PanelSelect(game_id, seq, "swap", options, placeholder="Swap a hand card with a face-up card…")
        )
    controls.add_item(PanelButton(game_id, seq, "ready", text="Ready", row=1, primary=True))


def _choose_controls(controls: discord.ui.View, game_id: int, seq: int, view: dict, mask: int) -> list[str]:
    need = view["rules"]["table_cards"]
    hand = view["hand"]
    options = [discord.SelectOption(label=label(c), value=c, default=bool(mask >> i & 1)) for i, c in enumerate(hand)][
        :MAX_OPTIONS
    ]
    controls.add_item(
        PanelSelect(game_id, seq, "choose", options, placeholder=f"Choose {need} cards to lay face up…", count=need)
    )
    chosen = [c for i, c in enumerate(hand) if mask >> i & 1]
    if len(chosen) == need:
        text = f"Put {labels(chosen)} face up"
        controls.add_item(PanelButton(game_id, seq, "confirm", f"{mask:x}", text=text[:80], row=1, primary=True))
        return []
    controls.add_item(PanelButton(game_id, seq, "confirm", "0", text="Confirm", row=1, disabled=True))
    return []


def _play_controls(
    controls: discord.ui.View, game_id: int, seq: int, view: dict, engine: Shithead, mask: int
) -> list[str]:
    notes: list[str] = []
    options = play_options(view)
    if options:
        select_options = [
            discord.SelectOption(label=o.text[:100], value=o.value, default=bool(mask >> i & 1))
            for i, o in enumerate(options)
        ]
        controls.add_item(
            PanelSelect(game_id, seq, "sel", select_options, placeholder="Choose the cards to play…", count=None)
        )
    else:
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
        controls.add_item(PanelButton(game_id, seq, "play", f"{mask:x}", text=text[:80], row=1, primary=True))
    else:
        controls.add_item(PanelButton(game_id, seq, "play", "0", text="Play", row=1, disabled=True))
        if reason:
            notes.append(f"⚠️ {reason}")
    pickups = [a for a in view["legal"] if a["type"] == "pickup"]
    plain = [a for a in pickups if "add" not in a]
    size = view["pile_size"]
    if plain:
        controls.add_item(PanelButton(game_id, seq, "pick", text=f"Pick up the pile ({size})", row=1, danger=True))
    elif pickups:
        add_options = [
            discord.SelectOption(label=f"Add {label(a['add'])}, then pick up the pile ({size + 1})", value=a["add"])
            for a in pickups
        ][:MAX_OPTIONS]
        controls.add_item(PanelSelect(game_id, seq, "add", add_options, placeholder="Or pick up the pile…", row=2))
    return notes


class PanelButton(
    GameItem[discord.ui.Button],
    template=r"shb:(?P<game_id>\d+):(?P<seq>\d+):(?P<act>[a-z]+):(?P<arg>[0-9a-f]+)",
):
    """A panel button; ``arg`` (hex) is the chosen options' bit mask or a face-down position."""

    def __init__(
        self,
        game_id: int,
        seq: int,
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
        arg = str(arg)  # the base turns an all-digit argument into an int; it is hex text here
        custom_id = f"shb:{game_id}:{seq}:{act}:{arg}"
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=custom_id, row=row, disabled=disabled))
        self.game_id, self.seq, self.act, self.arg = game_id, seq, act, arg

    async def handle(self, interaction: discord.Interaction) -> None:
        await on_panel(interaction, self.game_id, self.seq, self.act, self.arg, [])


class PanelSelect(GameItem[discord.ui.Select], template=r"shs:(?P<game_id>\d+):(?P<seq>\d+):(?P<act>[a-z]+)"):
    def __init__(
        self,
        game_id: int,
        seq: int,
        act: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        count: int | None = 1,
        row: int = 0,
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        low, high = (1, len(options)) if count is None else (count, count)
        super().__init__(
            discord.ui.Select(
                custom_id=f"shs:{game_id}:{seq}:{act}",
                options=options,
                placeholder=placeholder,
                min_values=min(low, len(options)),
                max_values=min(high, len(options)),
                row=row,
            )
        )
        self.game_id, self.seq, self.act = game_id, seq, act

    async def handle(self, interaction: discord.Interaction) -> None:
        await on_panel(interaction, self.game_id, self.seq, self.act, "0", list(self.item.values))


async def on_panel(
    interaction: discord.Interaction, game_id: int, seq: int, act: str, arg: str, values: list[str]
) -> None:
    """Every panel control comes here: redraw (refresh, choosing cards) or act."""
    bot: CardBot = interaction.client  # type: ignore[assignment]
    table = bot.tables.get(game_id)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal("You are not playing at this table.")
    engine = table.engine
    if engine is None:
        raise Refusal("The game has not started yet.")
    if act == "refresh":
        await _redraw(interaction, panel(table, seat))
        return
    if act in ("sel", "choose"):
        await _redraw(interaction, _chosen(table, seat, act, values))
        return
    async with table.lock:
        if table.id not in bot.tables.tables or table.engine is None:
            raise Refusal("This game has ended.")
        try:
            if table.seats[seat].ai_level is not None:
                raise Refusal("The computer is playing your seat: press **Take my seat back** first.")
            action = _action(table, seat, seq, act, arg, values)
            expect = seq if action["type"] in PLAY_TYPES else None
            await bot.tables.act(
                table, seat, action, interaction=interaction, expect_seq=expect, reply=lambda: panel(table, seat)
            )
        except USER_ERRORS as error:
            if interaction.response.is_done():
                raise
            await _redraw(interaction, panel(table, seat, warning=str(error)))


async def _redraw(interaction: discord.Interaction, rendered: Rendered) -> None:
    await interaction.response.edit_message(**rendered.kwargs())


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
        return panel(table, seat, warning=f"It is not your turn: waiting for {table.name(view['turn'])}.")
    options = play_options(view)
    mask = _mask_of(options, values)
    warning = None
    if len(values) != bin(mask).count("1"):
        warning = "Some of those cards cannot be played any more; they were left out."
    return panel(table, seat, mask=mask, warning=warning)


def _action(table: LiveTable, seat: int, seq: int, act: str, arg: str, values: list[str]) -> dict:
    engine = table.engine
    assert isinstance(engine, Shithead)
    if act in ("play", "pick", "add", "flip") and seq != len(engine.log):
        raise Refusal("The table has moved on since this was shown; nothing was changed. Here it is now.")
    if act == "play":
        cards = _cards_of(play_options(engine.view(seat)), int(arg, 16))
        if not cards:
            raise Refusal("Choose the cards to play first.")
        return {"type": "play", "cards": cards}
    if act == "pick":
        return {"type": "pickup"}
    if act == "add":
        return {"type": "pickup", "add": values[0]}
    if act == "flip":
        return {"type": "flip", "index": int(arg, 16)}
    if act == "swap":
        hand, _, up = values[0].partition(">")
        return {"type": "swap", "hand": hand, "up": up}
    if act == "ready":
        return {"type": "ready"}
    if act == "confirm":
        mask = int(arg, 16)
        hand = engine.view(seat)["hand"]
        return {"type": "choose_up", "cards": [c for i, c in enumerate(hand) if mask >> i & 1]}
    raise Refusal("That control is not known any more; press **My cards** again.")


def _no_none(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if v is not None}


class ShitheadCog(commands.Cog):
    def __init__(self, bot: CardBot, kind: ShitheadKind) -> None:
        self.bot = bot
        self.kind = kind


async def setup(bot: CardBot) -> None:
    kind = register(ShitheadKind(bot))
    group = game_group(kind)

    @group.command(name="hand", description="Your cards and controls, privately (the same as My cards)")
    @guarded
    async def hand(interaction: discord.Interaction) -> None:
        table = bot.tables.in_channel(interaction.channel_id or 0, kind.key)
        if table is None or table.engine is None:
            raise Refusal("There is no Shithead game running in this channel.")
        await send_panel(interaction, table.id)

    bot.tree.add_command(group)
    bot.add_dynamic_items(TableButton, PanelButton, PanelSelect)
    await bot.add_cog(ShitheadCog(bot, kind))
