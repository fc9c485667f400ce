"""The interaction kit: what a player's press on a table or a panel does, once for every game.

Every game's table carries **My hand** (its label is the game's :attr:`~bot.contract.GameKind.hand_button`),
then what the other features lend (**Take my seat back**, **Watch**: :class:`~bot.contract.Lent`);
**My hand** answers with the player's live private panel (:func:`open_panel`), and every control of
that panel comes to :func:`press`. A game contributes only its controls' look and custom ids (thin
subclasses of :class:`HandItem` and :class:`PressItem`, so that old messages keep working after a
restart) and what a press asks for (:meth:`~bot.contract.GameKind.press_action`). The rules around a
press are here, the same in every game:

- one guard: only a player of the table, once the game has started (:func:`player_at`: the
  secrecy policy's door :attr:`~bot.secrecy.Door.HAND`);
- a press that asks for a move while the computer plays the seat is refused;
- a press from a panel drawn before a change that bears on the player's choice (its decision digest
  is not the seat's now) changes nothing (:data:`bot.tables.STALE`), also when the game cannot even
  read what it asked for any more; unless the game says its move names all it asks for
  (:class:`~bot.contract.Explicit`), which the engine's check alone judges;
- a refused press is answered by redrawing the panel with why (:func:`bot.panels.refused_note`:
  "counted (once)" for the very press the seat's last move was made with, a double press);
- a move goes through the one move pipeline (:meth:`bot.tables.TableManager.act`) under the table's
  lock, and is answered by redrawing the panel; that click is then the panel's live copy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Self, TypeVar, cast

import discord

from bot import secrecy
from bot.client import tables_of
from bot.components import GameItem
from bot.contract import Explicit, LiveTable, PanelRedraw, Press
from bot.errors import USER_ERRORS, Refusal
from bot.panels import refused_note
from bot.secrecy import Door
from bot.tables import STALE, TableManager
from draw.looks import four_colour
from draw.readable import readable
from locales import N_, translate

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])

#: a press asking for a move while the computer plays the seat (its panel says so too)
COMPUTER_PLAYS = N_("The computer is playing your seat: press **Take my seat back** first.")


def player_at(interaction: discord.Interaction, game_id: int) -> tuple[TableManager, LiveTable, int]:
    """The one guard of a player's door (My hand, a panel's press): the table (or "This game has
    ended"), then the secrecy policy's :attr:`~bot.secrecy.Door.HAND` (the presser's own seat, a
    game being played), decided from the table as this process holds it (no read of the store)."""
    tables = tables_of(interaction)
    table = tables.get(game_id)
    secrecy.require_here(Door.HAND, table.record, interaction.user.id)
    seat = table.seat_of(interaction.user.id)
    assert seat is not None and table.engine is not None, "the policy lets only a seated player of a game played in"
    return tables, table, seat


async def open_panel(interaction: discord.Interaction, game_id: int) -> None:
    """**My hand** (and a game's ``/<game> hand``): answer with the player's live panel, privately,
    and keep it as the copy the bot redraws from now on (:mod:`bot.panels`)."""
    tables, table, seat = player_at(interaction, game_id)
    panels = tables.presenter.panels
    rendered = panels.render(table, seat)
    sent = await interaction.response.send_message(**rendered.send_kwargs(), ephemeral=True)
    await panels.opened(table, seat, interaction, sent.message_id)


async def press(interaction: discord.Interaction, game_id: int, pressed: Press) -> None:
    """A press on a player's panel, from the guard to the answer (see the module's rules)."""
    tables, table, seat = player_at(interaction, game_id)
    async with table.lock:
        engine = table.engine
        if not tables.is_live(table) or engine is None:  # ended while the press waited for the lock
            secrecy.require_here(Door.HAND, table.record, interaction.user.id)
            raise Refusal(secrecy.ENDED)
        try:
            fresh = pressed.key == table.kind.decision_digest(engine, seat)
            try:
                outcome = table.kind.press_action(table, seat, pressed)
            except USER_ERRORS:
                if not fresh:  # what it asked for was read from a panel that is out of date
                    raise Refusal(translate(STALE)) from None
                raise
            if isinstance(outcome, PanelRedraw):
                await redraw(interaction, tables, table, seat, outcome)
                return
            if table.seats[seat].ai_level is not None:
                raise Refusal(translate(COMPUTER_PLAYS))
            action, expect = (outcome.action, None) if isinstance(outcome, Explicit) else (outcome, pressed.key)
            await tables.act(
                table,
                seat,
                action,
                interaction=interaction,
                expect_key=expect,
                reply=lambda: tables.presenter.panels.render(table, seat),
            )
        except USER_ERRORS as error:
            if interaction.response.is_done():
                raise
            warning, note = refused_note(table, seat, interaction, error)
            await redraw(interaction, tables, table, seat, PanelRedraw(warning=warning, note=note))


async def redraw(
    interaction: discord.Interaction, tables: TableManager, table: LiveTable, seat: int, how: PanelRedraw
) -> None:
    """Answer a press by redrawing its panel; that click's interaction is now the one the bot
    edits the panel through (:mod:`bot.panels`)."""
    panels = tables.presenter.panels
    if how.rendered is None:
        rendered = panels.render(table, seat, warning=how.warning, note=how.note)
    else:  # (as readable as every panel the game draws through its kind)
        rendered = readable(how.rendered, four_colour(table.record.options))
    await tables.presenter.answer(interaction, rendered)
    await panels.opened(table, seat, interaction)


class HandItem(GameItem[discord.ui.Button[Any]], template=r"(?!)"):  # the base itself never matches
    """**My hand**: a game's subclass gives its custom id's ``template`` (with ``game_id``; it may
    also match the ids of older buttons, which open the panel too) and :attr:`custom_id`, the id a
    new button carries; the runtime draws it (:meth:`bot.contract.GameKind.table`) and pressing it
    opens the panel (:func:`open_panel`)."""

    fields = {"game_id": int}
    #: the id of a new button: ``{game_id}`` and the template's other groups (from :attr:`parts`)
    custom_id_format: ClassVar[str] = ""
    #: what the template's other groups are on a new button
    parts: ClassVar[Mapping[str, str]] = {}

    def __init__(self, game_id: int, *, label: str = N_("My hand"), **parts: str) -> None:
        custom_id = self.custom_id_format.format(game_id=game_id, **{**self.parts, **parts})
        super().__init__(
            discord.ui.Button(label=translate(label), style=discord.ButtonStyle.primary, custom_id=custom_id)
        )
        self.game_id = game_id

    async def handle(self, interaction: discord.Interaction) -> None:
        await open_panel(interaction, self.game_id)


class PressItem(GameItem[ItemT], template=r"(?!)"):  # the base itself never matches
    """A control of a player's panel: a game's subclass gives its custom id's ``template`` and
    sets :attr:`game_id`, :attr:`key` (the decision digest the panel was drawn with), :attr:`act`
    and :attr:`arg`; a press goes to :func:`press` (a select's chosen values with it)."""

    fields = {"game_id": int}
    game_id: int
    key: str
    act: str
    arg: str = ""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /) -> Self:
        """A press: the pressed control as Discord sent it, with what its custom id carries. The
        game's constructor draws a control, which a press does not need (without the pressed
        control, as a test may call it, it draws one)."""
        if item is None:
            return cast(Self, await super().from_custom_id(interaction, item, match))
        pressed = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(pressed, item)
        for name, value in cls.parse(match).items():
            setattr(pressed, name, value)
        return pressed

    async def handle(self, interaction: discord.Interaction) -> None:
        values = tuple(self.item.values) if isinstance(self.item, discord.ui.Select) else ()
        await press(interaction, self.game_id, Press(self.key, self.act, self.arg, values))


def dm_view(hand: discord.ui.Item[Any]) -> discord.ui.View:
    """The button under a hand sent by DM: it opens the same live panel, in the DM."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(hand)
    controls.stop()
    return controls
