"""Live private panels: which players have their panel open, and when the bot redraws it.

A player's panel is an ephemeral reply; only the interaction that made it (or a later click on
it) can edit it, for 15 minutes. So each open panel is kept as the newest interaction per
(game, seat), renewed by every click of its player, and redrawn through
``interaction.edit_original_response`` — an interaction webhook edit, which does not count
against the bot's global rate limit.

A panel is redrawn when what it shows *for a reason to look* changed: the player's turn came
(or left, while their buttons were live), their hand changed (a new deal, a pick-up), the
decision their buttons carry changed while it is their turn, the computer took their seat or
gave it back, or the game ended. Other players' moves that change none of these cost no edit.
Each redraw is a fresh rendering, so no earlier selection survives it.

A player has one live panel, where they look: when a newer copy becomes the live one (My hand
pressed again, a press on an older copy), the copy it replaces is edited into a pointer to it,
without buttons; and when the table is posted as a new message (each new deal, ``/<game> table``)
every open panel in that channel is sent again below it, as a followup through its interaction's
token (Discord allows followups for the same 15 minutes), its old copy becoming a pointer. A
panel in a DM stays where it is: nothing is posted there.

What a panel shows comes from the game (:meth:`~bot.seam.contract.GameKind.panel`); this module only
knows when, and is driven by the :class:`~bot.messages.presentation.Presenter` after each committed move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.messages.faults import TRANSIENT
from bot.messages.speech import member_language, table_language
from bot.seam.contract import LiveTable, Rendered
from bot.tables.snapshot import snapshot
from db.records import SavedPanel
from locales import N_, SOURCE, Msg, _, current, language_of, speaking, translate

log = logging.getLogger(__name__)

#: an interaction token lives 15 minutes; stop a little earlier so an edit never races its expiry
LIFETIME = 14.5 * 60
#: how an older copy of a panel, turned into a pointer to the live one, ends
POINTER_END = "this copy no longer changes."  # (how each pointer below ends in English)
#: the answer to a press of the very control whose move already counted (a double click, or the
#: same button on another copy of the panel drawn from the same state)
COUNTED = N_("✅ Your move counted (once); here is your hand now.")
#: what the old player's panel says once their seat was handed to ``name`` (:meth:`Panels.revoke`)
HANDED_OVER = N_("🪑 **{name}** plays this seat now: this panel no longer works.")


def press_of(interaction: discord.Interaction | None) -> str | None:
    """What a click pressed, as the control carries it: its custom id (game, the decision digest
    the panel was drawn with, the move) and any chosen values. None for a typed command."""
    data: dict[str, Any] = dict(interaction.data or {}) if interaction is not None else {}
    custom_id = data.get("custom_id")
    if not custom_id:
        return None
    return f"{custom_id}|{','.join(sorted(str(v) for v in data.get('values') or []))}"


def refused_note(
    table: LiveTable, seat: int, interaction: discord.Interaction, error: Exception
) -> tuple[str | None, str | None]:
    """``(warning, note)`` for a panel redrawn after a refused press, the same rule in every game:
    the note "counted once" only when this press is the very one the seat's last move was made
    with (so the move it asks for did happen); anything else, another button of an older copy
    included, gets the warning of why nothing was changed (usually that the table moved on)."""
    press = press_of(interaction)
    if press is not None and table.acted_from.get(seat) == press:
        return None, translate(COUNTED)
    return str(error), None


@dataclass(slots=True)
class OpenPanel:
    """The newest handle on one player's panel: the interaction's application and token (what
    Discord needs to edit its answer), and while this process got the click, the interaction."""

    application_id: int
    token: str
    message_id: int | None  # the panel's own message (editable by that token)
    opened: float
    #: what the panel showed when last drawn (see :func:`signature`)
    shown: Any = None
    interaction: discord.Interaction | None = None
    #: the message is the interaction's own answer ("@original"), not a followup it sent
    original: bool = True
    #: the panel is in a DM with the bot (None: not known, a panel kept across a restart)
    in_dm: bool | None = None
    #: the language of its player's Discord client when they opened it: the bot's own redraws
    #: (after another player's move) speak it, not the presser's (None: a panel kept across a restart)
    language: str | None = None
    #: the last redraw's rendering and the state it drew (:func:`drawn_for`): sending the panel
    #: again below a new table of that same state sends it, not a second drawing
    drawn: tuple[Any, Rendered] | None = None


@dataclass(slots=True)
class PanelStats:
    """Counted for the benchmark: edits the bot made on its own, and answers to clicks."""

    edits: int = 0
    #: panels sent again below a newly posted table
    follows: int = 0
    answers: int = 0
    failed: int = 0
    render_ms: list[float] = field(default_factory=list)


def signature(table: LiveTable, seat: int) -> Any:
    """What, once changed, is a reason to redraw ``seat``'s panel."""
    engine = table.engine
    if engine is None:
        return None
    if engine.is_over:
        return ("over",)
    acting = seat in engine.to_act()
    view = snapshot(engine).view(seat)  # the one the redraw then draws from
    hand = view.get("hand")
    digest = table.kind.decision_digest(engine, seat) if acting else None
    computer = table.seats[seat].ai_level is not None  # "the computer is playing your seat"
    extra = table.kind.panel_extra(engine, seat)  # a request to answer (a take-back)...
    return (engine.deal_number, tuple(hand) if isinstance(hand, list) else hand, acting, digest, computer, extra)


def drawn_for(table: LiveTable) -> Any:
    """The state a panel's drawing belongs to: the move it follows and who holds each seat."""
    count = table.engine.action_count if table.engine is not None else None
    return (count, tuple((s.user_id, s.ai_level) for s in table.seats))


class Panels:
    def __init__(self, client: discord.Client | None = None, clock: Callable[[], float] | None = None) -> None:
        self.client = client
        # wall-clock seconds as discord.py reads them (a test's virtual clock moves it too)
        self.clock = clock or (lambda: discord.utils.utcnow().timestamp())
        self.open: dict[tuple[int, int], OpenPanel] = {}
        self.stats = PanelStats()

    def render(self, table: LiveTable, seat: int, **notes: Any) -> Rendered:
        started = time.perf_counter()
        rendered = table.kind.panel(table, seat, **notes)
        self.stats.render_ms.append((time.perf_counter() - started) * 1000)
        return rendered

    async def opened(
        self,
        table: LiveTable,
        seat: int,
        interaction: discord.Interaction,
        message_id: int | None = None,
        *,
        drawn: Rendered | None = None,
    ) -> None:
        """``interaction`` answered with (or redrew) ``seat``'s panel: it is the one to edit now,
        and the copy that was live before (another message) points to it, without buttons.
        ``message_id``: the panel's message when the answer made it (else the clicked panel's);
        ``drawn``: the panel the answer showed, as :meth:`render` drew it for the table's state."""
        if message_id is None and interaction.message is not None:
            message_id = interaction.message.id
        key = (table.id, seat)
        before = self.open.get(key)
        now = OpenPanel(
            interaction.application_id,
            interaction.token,
            message_id,
            self.clock(),
            signature(table, seat),
            interaction,
            in_dm=interaction.guild_id is None,
            language=language_of(interaction.locale.value if interaction.locale is not None else None),
            drawn=None if drawn is None else (drawn_for(table), drawn),
        )
        self.open[key] = now
        if before is not None and before.message_id != message_id:
            await self._point(table, before, now)

    def saved(self) -> list[SavedPanel]:
        """The panels still editable, to keep across a stop: a restarted bot edits them through the
        saved tokens (as Discord allows for 15 minutes after each click) until they expire."""
        now = self.clock()
        return [
            SavedPanel(game_id, seat, found.application_id, found.token, found.message_id, found.opened, found.language)
            for (game_id, seat), found in self.open.items()
            if now - found.opened < LIFETIME and found.message_id is not None
        ]

    def load(self, table: LiveTable, saved: SavedPanel) -> None:
        """A panel kept across a restart: it shows ``table`` as restored, so only a change redraws it."""
        if self.clock() - saved.opened < LIFETIME:
            # It speaks the language it spoke before the stop; one saved without it (an older bot's),
            # its reader's as last seen (kept in the store), else the table's, until they press again.
            record = table.record
            fallback = table_language(self.client, record.guild_id, record.options) if self.client else SOURCE
            self.open[(table.id, saved.seat)] = OpenPanel(
                saved.application_id,
                saved.token,
                saved.message_id,
                saved.opened,
                signature(table, saved.seat),
                language=saved.language or member_language(table.seats[saved.seat].user_id, fallback),
            )

    def live(self, table: LiveTable, seat: int) -> bool:
        """Whether the bot can still redraw ``seat``'s panel (the reminder says to open it if not)."""
        found = self.open.get((table.id, seat))
        return found is not None and self.clock() - found.opened < LIFETIME

    async def redraw(self, table: LiveTable, *, skip: int | None = None) -> None:
        """After a committed move: redraw every open panel of ``table`` that has a reason to.
        Rendered now (the state of this move), sent together (each edit is its own webhook)."""
        sends = []
        for seat in range(len(table.seats)):
            key = (table.id, seat)
            found = self.open.get(key)
            if found is None or seat == skip:
                continue
            if self.clock() - found.opened >= LIFETIME:
                del self.open[key]
                continue
            now = signature(table, seat)
            if now == found.shown:
                continue
            found.shown = now
            with speaking(self.language(table, seat, found)):  # its player's, not the presser's
                rendered = self.render(table, seat)
            found.drawn = (drawn_for(table), rendered)
            sends.append(self._send(table, seat, found, rendered))
        if sends:
            await asyncio.gather(*sends)
        if table.engine is not None and table.engine.is_over:
            self.forget(table)

    async def _send(self, table: LiveTable, seat: int, found: OpenPanel, rendered: Rendered) -> None:
        try:
            await self._edit(found, **rendered.kwargs())
            self.stats.edits += 1
        except TRANSIENT:
            # expired or deleted: the reminder in the channel tells the player to open it again
            log.info("game %s: the panel of seat %s can no longer be edited", table.id, seat)
            self.stats.failed += 1
            if self.open.get((table.id, seat)) is found:
                del self.open[(table.id, seat)]

    async def follow(self, table: LiveTable) -> None:
        """The table was just posted as a new message: each open panel in its channel is sent again
        below it, and the old copy points down. Under the table's lock, so no move redraws a copy
        while it is being replaced; a send that fails leaves the old copy live."""
        if table.engine is None or table.engine.is_over:
            return
        async with table.lock:
            moving = [
                (seat, found)
                for (game_id, seat), found in self.open.items()
                if game_id == table.id and not found.in_dm and self.clock() - found.opened < LIFETIME
            ]
            await asyncio.gather(*(self._follow(table, seat, found) for seat, found in moving))

    async def _follow(self, table: LiveTable, seat: int, found: OpenPanel) -> None:
        if found.drawn is not None and found.drawn[0] == drawn_for(table):
            rendered, shown = found.drawn[1], found.shown  # redrawn for this very state already
        else:
            with speaking(self.language(table, seat, found)):
                rendered = self.render(table, seat)
            shown = signature(table, seat)
        try:
            message = await self._hook(found).send(**rendered.send_kwargs(), ephemeral=True, wait=True)
        except TRANSIENT:
            log.info("game %s: could not send seat %s's panel below the new table", table.id, seat)
            self.stats.failed += 1
            return
        self.stats.follows += 1
        now = OpenPanel(
            found.application_id,
            found.token,
            message.id,
            found.opened,  # the same token: it expires when the old copy's would
            shown,
            found.interaction,
            original=False,
            in_dm=found.in_dm,
            language=found.language,
            drawn=(drawn_for(table), rendered),
        )
        if self.open.get((table.id, seat)) is found:
            self.open[(table.id, seat)] = now
        await self._point(table, found, now, below_table=True)

    async def _point(self, table: LiveTable, old: OpenPanel, new: OpenPanel, *, below_table: bool = False) -> None:
        """``old`` is no longer the live panel: it says where the live one is, and loses its buttons."""
        if old.message_id is None or self.clock() - old.opened >= LIFETIME:
            return  # can no longer be edited (a press on it is refused as out of date)
        with speaking(self.language(table, None, new)):
            if new.in_dm and not old.in_dm:
                where = _("➡️ Your panel is open in our DMs now; this copy no longer changes.")
            elif old.in_dm and new.in_dm is False:
                where = _(
                    "➡️ Your panel is open in <#{channel}> now; this copy no longer changes.",
                    channel=table.record.channel_id,
                )
            elif below_table and old.in_dm is False:
                where = _("⬇️ Your panel moved below the new table; this copy no longer changes.")
            elif below_table:  # (a panel kept across a restart: where it is was not kept)
                where = _("⬇️ Your panel moved below; this copy no longer changes.")
            else:
                where = _("⬇️ Your panel is open again below; this copy no longer changes.")
        try:
            await self._edit(old, content=where, embeds=[], view=None, attachments=[])
            self.stats.edits += 1
        except TRANSIENT:
            log.info("game %s: an older copy of a panel could not be turned into a pointer", table.id)
            self.stats.failed += 1

    async def close(self, table: LiveTable, text: Msg | str) -> None:
        """The game ended another way (the host ended it): every open panel says so (in its
        player's language), without buttons, and is forgotten."""
        for key in [k for k in self.open if k[0] == table.id]:
            found = self.open.pop(key)
            if self.clock() - found.opened >= LIFETIME:
                continue
            with speaking(self.language(table, key[1], found)):
                said = str(text)
            try:
                await self._edit(found, content=said, embeds=[], view=None, attachments=[])
                self.stats.edits += 1
            except TRANSIENT:
                self.stats.failed += 1

    async def revoke(self, table: LiveTable, seat: int, text: Msg | str) -> None:
        """``seat`` changed hands: its old player's open panel says ``text`` (in their language),
        without buttons, and is never redrawn again (it would show the seat's hand to someone no
        longer playing it)."""
        found = self.open.pop((table.id, seat), None)
        if found is None or self.clock() - found.opened >= LIFETIME:
            return
        with speaking(found.language or current()):
            said = str(text)
        try:
            await self._edit(found, content=said, embeds=[], view=None, attachments=[])
            self.stats.edits += 1
        except TRANSIENT:  # its buttons are refused anyway: the seat is no longer theirs
            log.info("game %s: the old panel of seat %s could not be closed", table.id, seat)
            self.stats.failed += 1

    async def _edit(self, found: OpenPanel, **kwargs: Any) -> None:
        if found.interaction is not None and found.original:
            await found.interaction.edit_original_response(**kwargs)
            return
        # a followup, or saved before a restart: the same edit, through the interaction's token
        assert found.message_id is not None, "a followup's or a restored panel's message"
        await self._hook(found).edit_message(found.message_id, **kwargs)

    def _hook(self, found: OpenPanel) -> discord.Webhook:
        """The interaction's webhook (what sends its followups and edits its messages)."""
        if found.interaction is not None:
            return found.interaction.followup
        assert self.client is not None, "a restored panel needs the client"
        return discord.Webhook.from_state(
            {"id": found.application_id, "type": 3, "token": found.token},
            state=self.client._connection,
        )

    def language(self, table: LiveTable, seat: int | None, found: OpenPanel) -> str:
        """What ``found``'s panel speaks: its player's language when they opened it, else (a panel
        kept across a restart) as last seen, else the table's channel's."""
        if found.language is not None:
            return found.language
        user_id = table.seats[seat].user_id if seat is not None and seat < len(table.seats) else None
        fallback = (
            table_language(self.client, table.record.guild_id, table.record.options)
            if self.client is not None
            else current()
        )
        return member_language(user_id, fallback)

    def forget(self, table: LiveTable) -> None:
        for key in [k for k in self.open if k[0] == table.id]:
            del self.open[key]
