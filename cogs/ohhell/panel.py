"""Oh Hell's live private panel: the player's hand as a picture, and one button a move.

**My hand** on the table answers with the panel (ephemeral); the bot then keeps it current (see
:mod:`bot.messages.panels`). While the player is to bid it holds a button per bid (the hook's forbidden
bid disabled, its reason written on the panel); while they are to play, a button per card in
hand order (legal ones enabled; a no-trump joker one button per suit it may be named as). Each
button carries the seat's decision digest, so a press from a panel drawn before a change that
bears on the player's choice is refused and the panel redrawn. A press goes to the runtime's one
pipeline (:mod:`bot.tables.interaction`), which asks this game only what it means (:func:`press_action`);
the click is answered by redrawing the panel.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.messages.errors import Refusal
from bot.seam.contract import Action, Explicit, LiveTable, PanelRedraw, Press, Rendered
from bot.tables.interaction import PressItem
from cogs.ohhell.pictures import hand_picture
from cogs.ohhell.render import _trick_text, hand_embed, seat_view
from draw.budget import FIELD_VALUE, fit_lines
from draw.cards import label, suit_symbol
from draw.emojis import EMOJIS, card_text
from draw.looks import CONFIRM_CARDS, four_colour
from draw.seats import Faces
from games.ohhell.game import OhHell
from games.ohhell.play_rules import hook_message
from games.ohhell.views import OhHellSeatView
from locales import N_, _, ngettext, translate

#: Discord allows 5 rows of 5 buttons; the last row keeps Refresh
MOVE_ROWS = 4
PER_ROW = 5
#: card buttons a row where the hand fits in :data:`MOVE_ROWS` rows of them: a card button (its suit
#: and its rank) is about 62 px wide, and a 390-pixel phone leaves a message some 300 px, so a row
#: of five wraps there (bid buttons, a number each, fit Discord's five)
CARDS_PER_ROW = 4
#: what the button colours mean, said once on the panel where they show
LEGEND_BID = N_("🟦 Blue: you may bid it · grey: not allowed.")
LEGEND_CHANGE = N_("🟩 Green: your bid now · 🟦 blue: bid that.")
LEGEND_PLAY = N_("🟩 Green: you may play it · grey: not now.")
LEGEND_CONFIRM = N_("🟩 Green: pick it · 🟦 blue: picked, press to play.")
#: a panel that waits: redrawn when the turn comes, so it says nothing that changes before then
WAITING = N_("⏳ Not your turn yet (the table shows whose it is).")


class PanelButton(
    PressItem[discord.ui.Button[Any]],
    template=r"ohp:(?P<game_id>\d+):(?P<key>[0-9a-f]+):(?P<act>[a-z]):(?P<arg>[0-9A-Za-z?@.#]*)",
):
    """``ohp:<game>:<digest>:<act>:<arg>``: act ``b`` (bid ``arg``), ``p`` (play ``index.card``
    or ``index.card@suit``) or ``r`` (redraw); what a press asks for is :func:`press_action`."""

    def __init__(
        self,
        game_id: int,
        key: str,
        act: str,
        arg: str = "",
        *,
        text: str = "…",
        row: int | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: discord.PartialEmoji | None = None,
    ) -> None:
        custom_id = f"ohp:{game_id}:{key}:{act}:{arg}"
        super().__init__(
            discord.ui.Button(label=text, style=style, custom_id=custom_id, row=row, disabled=disabled, emoji=emoji)
        )
        self.game_id, self.key, self.act, self.arg = game_id, key, act, arg


def _game(table: LiveTable) -> OhHell:
    engine = table.engine
    assert isinstance(engine, OhHell), "the game has not started"
    return engine


def tricks_text(view: OhHellSeatView, name: Any) -> str | None:
    """This deal's tricks so far: who led (the first card), what was played, who won (the newest
    kept where they outgrow a field, the earlier ones counted)."""
    lines = []
    for number, trick in enumerate(view["deal_tricks"], start=1):
        cards = trick["cards"]
        led = name(cards[0][0]) if cards else "?"
        lines.append(
            _(
                "{n}. {name} led: {cards} → **{winner}**",
                n=number,
                name=led,
                cards=_trick_text(cards, name),
                winner=name(trick["winner"]),
            )
        )
    if not lines:
        return None
    # whole lines, the newest kept: a card is an emoji's markup some 30 characters long, and a cut
    # inside one showed its code ("…470808113>") at the top of the field on a long deal
    return fit_lines(
        lines, FIELD_VALUE, lambda left: ngettext("… {n} earlier trick", "… {n} earlier tricks", left), last=True
    )[0]


def last_trick_line(view: OhHellSeatView, name: Any) -> str | None:
    """The deal's last finished trick in one short line, for a panel that asks for a card: its
    cards in the order played (the first led) and who won it; None before the first. The whole
    list, a line a trick naming each card's player, took some 70 pixels a trick on a phone and
    pushed the panel's prompt above the fold (the player waiting sees it again)."""
    tricks = view["deal_tricks"]
    if not tricks:
        return None
    cards = []
    for _seat, code, named in tricks[-1]["cards"]:
        joker = named and code == "X"
        cards.append(_("{card} as {suit}", card=card_text(code), suit=suit_symbol(named)) if joker else card_text(code))
    return _("Last trick: {cards} → **{winner}**", cards=" ".join(cards), winner=name(tricks[-1]["winner"]))


def panel(
    table: LiveTable,
    seat: int,
    *,
    where: str | None = None,
    warning: str | None = None,
    note: str | None = None,
    view: OhHellSeatView | None = None,
    key: str | None = None,
    armed: str | None = None,
) -> Rendered:
    """``seat``'s panel now; ``warning`` says why nothing happened, ``note`` what did. ``view``
    and ``key`` (the seat's view and decision digest) are what the runtime hands the kind's
    ``draw_panel``; without them the panel asks for this state's. ``armed``: the card button
    (its ``index.card`` argument) pressed once at a table that plays with ``confirm_cards``."""
    engine = _game(table)
    view = seat_view(engine, seat) if view is None else view
    key = table.kind.decision_digest(engine, seat) if key is None else key
    faces = Faces.of(table.record.seats)
    acting = seat in view["to_act"] and view["phase"] != "over"
    asks = not faces.computer(seat) and (
        acting and view["phase"] in ("bidding", "playing") or engine.may_change_bid(seat)
    )
    # ``where`` names the game and its channel as a reader sees them (the kind knows the client);
    # a panel asking for a move leaves it out: on a phone it took two lines above the buttons
    embed = hand_embed(view, None if asks else where or _("Game #{id}", id=table.id), faces.name)
    lines = [f"⚠️ {warning}"] if warning else []
    if note:
        lines.append(note)
    buttons, legend = _moves(table, engine, seat, view, key, armed, faces.computer(seat), acting, lines)
    # a move asked for: the last trick in a line rather than the deal's tricks listed, the picture
    # left out (below), so that on a phone the prompt, the table's trick and the buttons all show
    moving = bool(buttons)
    last = last_trick_line(view, faces.name) if moving else None
    if last:
        lines.append(last)
    if view["trick"] and view["phase"] == "playing" and acting:
        lines.append(_("Trick so far: {cards}", cards=_trick_text(view["trick"], faces.name)))
    takeback = takeback_buttons(table, engine, seat, key, lines, faces.name) if not faces.computer(seat) else []
    tricks = None if moving else tricks_text(view, faces.name)
    if tricks:
        embed.add_field(name=_("Tricks this deal"), value=tricks, inline=False)
    if legend and any(not b.item.disabled for b in buttons):
        lines.append(translate(legend))
    if lines:
        embed.description = "\n".join([*lines, embed.description or ""])[:4000]
    controls = _controls(table.id, key, buttons, takeback, engine.is_over)
    # Discord draws a message's pictures above its buttons: while a move is asked for, the hand
    # is its buttons and the line of text, and the picture comes back once the player waits
    files = [] if moving else hand_picture(view, embed, four_colour(table.record.options))
    return Rendered(content=None, embeds=[embed], view=controls if controls.children else None, files=files)


def _moves(
    table: LiveTable,
    engine: OhHell,
    seat: int,
    view: OhHellSeatView,
    key: str,
    armed: str | None,
    computer: bool,
    acting: bool,
    lines: list[str],
) -> tuple[list[PanelButton], str | None]:
    """What the seat is asked now (a bid, a card, a secret bid to change), as move buttons and
    the legend of their colours; or why it is asked nothing (the computer plays it, it waits, the
    game is over). Its lines go into ``lines``."""
    if computer:
        lines.append(_("🤖 The computer is playing your seat: press **Take my seat back** on the table."))
    elif acting and view["phase"] == "bidding":
        lines.append(_("**Your bid:** how many tricks will you take?"))
        return _bid_buttons(table.id, key, view, lines), LEGEND_BID
    elif acting and view["phase"] == "playing":
        confirm = table.record.options.get(CONFIRM_CARDS) == "on"
        buttons, extra = _card_buttons(table.id, key, view, armed if confirm else None, confirm)
        lines += extra
        return buttons, LEGEND_CONFIRM if confirm else LEGEND_PLAY
    elif engine.may_change_bid(seat):
        lines.append(_("**Your secret bid: {bid}.** Change it until the last bid is in:", bid=view["my_bid"]))
        return _change_buttons(table.id, key, engine, seat, view), LEGEND_CHANGE
    elif view["phase"] not in ("over",) and view["to_act"]:
        # No name, no trick: a waiting panel is not redrawn as the others move (see bot.messages.panels),
        # so anything it said about the table now would soon be untrue.
        lines.append(translate(WAITING))
    elif view["phase"] == "over" or engine.is_over:
        lines.append(_("🏁 The game is over."))
    return [], None


def _bid_buttons(game_id: int, key: str, view: OhHellSeatView, lines: list[str]) -> list[PanelButton]:
    """A button per bid (the hook's forbidden one disabled, its reason in ``lines``)."""
    buttons = []
    for bid, allowed, reason in view["bid_options"]:
        if not allowed and reason:  # the view's reason is data; the reader's words are the hook's
            lines.append(f"⛔ {hook_message(bid, view['hand_size'])}")
        style = discord.ButtonStyle.primary if allowed else discord.ButtonStyle.secondary
        buttons.append(PanelButton(game_id, key, "b", str(bid), text=str(bid), style=style, disabled=not allowed))
    return buttons


def _change_buttons(game_id: int, key: str, engine: OhHell, seat: int, view: OhHellSeatView) -> list[PanelButton]:
    """A button per bid the secret bid may change to, the bid now in green."""
    buttons = []
    for bid, allowed, _why in engine.bid_options_to_change(seat):
        style = discord.ButtonStyle.success if bid == view["my_bid"] else discord.ButtonStyle.primary
        buttons.append(PanelButton(game_id, key, "b", str(bid), text=str(bid), style=style, disabled=not allowed))
    return buttons


def _controls(
    game_id: int, key: str, buttons: list[PanelButton], takeback: list[PanelButton], over: bool
) -> discord.ui.View:
    """The panel's buttons laid out: the moves in rows, then the take-back's and Refresh on the last."""
    controls = discord.ui.View(timeout=None)
    per_row = _per_row(buttons)
    for index, button in enumerate(buttons[: MOVE_ROWS * PER_ROW]):
        button.row = index // per_row
        controls.add_item(button)
    for button in takeback:
        controls.add_item(button)
    if not over:
        controls.add_item(PanelButton(game_id, key, "r", text=_("🔄 Refresh"), row=MOVE_ROWS))
    controls.stop()  # dispatched by custom id (dynamic items): nothing to store
    return controls


def _per_row(buttons: list[PanelButton]) -> int:
    """How many move buttons a row: card buttons as many as a phone shows (:data:`CARDS_PER_ROW`),
    Discord's five where those rows would not hold the hand (13 cards and more)."""
    cards = any(b.act in ("p", "a") for b in buttons)
    return CARDS_PER_ROW if cards and CARDS_PER_ROW * MOVE_ROWS >= len(buttons) else PER_ROW


def takeback_buttons(
    table: LiveTable, engine: OhHell, seat: int, key: str, lines: list[str], name: Any
) -> list[PanelButton]:
    """The take-back's buttons on the last row (:mod:`games.ohhell.takeback`): **Take back**
    for the player of the trick's latest card; **Accept** and **Refuse** for every other player
    while it is asked (**Withdraw** for the asker); their lines go into ``lines``."""
    options = engine.undo_options(seat)
    request = engine.undo_request()
    out: list[PanelButton] = []
    if "undo_ask" in options:
        card = engine.undo_card() or "?"  # (not the whole log, rebuilt on each read, for its last card)
        out.append(PanelButton(table.id, key, "u", text=_("↩️ Take back {card}", card=label(card)), row=MOVE_ROWS))
    elif request is not None and "undo_accept" in options:
        asker, card, _waiting = request
        lines.append(
            _("↩️ **{name} asks to take back {card}.** Everyone else must accept.", name=name(asker), card=label(card))
        )
        out.append(PanelButton(table.id, key, "y", text=_("Accept"), row=MOVE_ROWS, style=discord.ButtonStyle.success))
        out.append(PanelButton(table.id, key, "n", text=_("Refuse"), row=MOVE_ROWS, style=discord.ButtonStyle.danger))
    elif request is not None and "undo_refuse" in options:
        _asker, card, waiting = request
        lines.append(
            _(
                "↩️ You asked to take back {card}; waiting for {names}.",
                card=label(card),
                names=", ".join(name(s) for s in waiting),
            )
        )
        out.append(PanelButton(table.id, key, "n", text=_("Withdraw"), row=MOVE_ROWS))
    return out


def takeback_action(table: LiveTable, seat: int, act: str) -> Explicit:
    """A take-back press's move: it names all it asks for, so only the engine judges it. The
    table answers at once for its computer seats: computers accept."""
    if act == "u":
        computers = [s.seat for s in table.seats if s.ai_level is not None and s.seat != seat]
        return Explicit({"type": "undo_ask", **({"auto_accept": computers} if computers else {})})
    return Explicit({"type": "undo_accept" if act == "y" else "undo_refuse"})


def _card_buttons(
    game_id: int, key: str, view: OhHellSeatView, armed: str | None = None, confirm: bool = False
) -> tuple[list[PanelButton], list[str]]:
    """A button per card in hand order (legal enabled); a joker named as a suit, one per suit.
    With ``confirm`` a card's first press arms it (act ``a``: only the panel changes) and the
    armed card's button (blue) plays it."""
    plays: list[dict[str, Any]] = [dict(a) for a in view["legal"] if a["type"] == "play"]
    proper = {(str(a["card"]), a.get("suit")) for a in view["proper"] if a["type"] == "play"}
    buttons: list[PanelButton] = []
    notes = [_("**Your turn:** press the card to play.")]
    if confirm:
        notes = [_("**Your turn:** press a card to pick it, then press it again to play it.")]
    revoke = False
    # a Devil's Bridge deal hides the seat's own card: its one play is that card, blind ("?")
    hand = ["?"] if view["hand_hidden"] and any(a["card"] == "?" for a in plays) else view["hand"]
    for index, card in enumerate(hand):
        moves = [a for a in plays if a["card"] == card]
        emoji = EMOJIS.partial(card) if card != "?" else None
        text = _("Your hidden card") if card == "?" else label(card)
        if not moves:
            buttons.append(PanelButton(game_id, key, "p", f"{index}.{card}", text=text, emoji=emoji, disabled=True))
            continue
        for move in moves:
            suit: str | None = move.get("suit")
            shown = _("{card} as {suit}", card=text, suit=suit_symbol(suit)) if suit and card == "X" else text
            is_proper = (card, suit) in proper
            revoke = revoke or not is_proper
            style = discord.ButtonStyle.success if is_proper else discord.ButtonStyle.danger
            arg = f"{index}.{card}@{suit}" if suit else f"{index}.{card}"
            act = "p" if not confirm or arg == armed else "a"
            if confirm and arg == armed:
                notes.append(_("👉 **{card}** is picked: press it again to play it, or pick another.", card=shown))
                style, shown = discord.ButtonStyle.primary, _("{card} · press again to play", card=shown)
            buttons.append(PanelButton(game_id, key, act, arg, text=shown, emoji=emoji, style=style))
    if revoke:
        notes.append(_("🟥 Red cards would revoke: you hold the suit led (scores at most -5)."))
    return buttons, notes


def press_action(table: LiveTable, seat: int, press: Press, where: str) -> Action | Explicit | PanelRedraw:
    """What a press on the panel asks for: Refresh redraws it, a bid or a card is the move; with
    ``confirm_cards`` a card's first press only arms it (the panel drawn again, the card marked:
    panel state, never a move); a take-back's press is :func:`takeback_action`."""
    if press.act == "r":
        return PanelRedraw()
    if press.act == "a":
        engine = _game(table)
        if press.key != table.kind.decision_digest(engine, seat):
            return PanelRedraw(warning=_("The table has moved on since you opened that; nothing was changed."))
        return PanelRedraw(rendered=panel(table, seat, where=where, armed=press.arg))
    if press.act in ("u", "y", "n"):
        return takeback_action(table, seat, press.act)
    if press.act == "b":
        return {"type": "bid", "bid": int(press.arg)}
    if press.act != "p":
        raise Refusal(_("That button is not known any more; press **My hand** again."))
    _index, _dot, value = press.arg.partition(".")
    card, _at, suit = value.partition("@")
    return {"type": "play", "card": card, **({"suit": suit} if suit else {})}
