"""What a game answers the runtime with, none of it tied to a live table: a message as it is sent
or edited (:class:`Rendered`), what a move leaves besides the new state (:class:`MoveNotes`), a
panel's press and what it asks for (:class:`Press`, :class:`Explicit`, :class:`PanelRedraw`), and a
settable rule (:class:`OptionSpec`). The seam itself (:mod:`bot.seam.contract`) is made of these."""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from db.records import DealScore
from draw.pictures import ImageFile
from locales import N_

#: an action as engines take it: ``{"type": ..., ...}`` (each game's own TypedDicts fit it)
Action = Mapping[str, object]

#: the content of a finished game's last table message, above the table as it ended
GAME_OVER = N_("🏁 Game over: the result is below.")  # (translated where shown)


@dataclass(slots=True)
class Rendered:
    """A message's content; ``view=None`` leaves no components on it.

    ``files=None`` leaves a message's attachments as they are when it is edited (a lobby has none);
    a list (even empty) replaces them, so a table that stops showing a picture drops its file."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    files: list[ImageFile] | None = None

    def kwargs(self) -> dict[str, Any]:
        """For an edit (``attachments=`` replaces the message's files with fresh ones)."""
        out: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        if self.files is not None:
            out["attachments"] = [_upload(f) for f in self.files]
        return out

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message: what is set (``send`` refuses ``view=None``)."""
        fields: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        out = {k: v for k, v in fields.items() if v is not None}
        if self.files:
            out["files"] = [_upload(f) for f in self.files]
        return out


@dataclass(frozen=True, slots=True)
class MoveNotes:
    """What a move leaves besides the game's new state (:meth:`bot.seam.contract.GameResults.move_notes`): the scores
    of the deals it ended, for the store, and the one-liners it leaves on the table, in order."""

    deal_scores: list[DealScore] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Press:
    """One press of a control on a player's panel, as its custom id and the interaction carry it:
    ``key`` is the decision digest the panel was drawn with (:meth:`bot.seam.contract.GameControls.decision_digest`),
    ``act`` and ``arg`` what the game wrote in the custom id, ``values`` what a select's chooser
    picked (empty for a button). What it asks for is the game's to say
    (:meth:`bot.seam.contract.GameControls.press_action`); everything else about it is the runtime's
    (:mod:`bot.tables.interaction`)."""

    key: str
    act: str
    arg: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PanelRedraw:
    """A press that moves nothing: the panel is drawn again and answers it (Refresh, or choosing
    cards that a later press plays). ``rendered``: the panel as the game drew it for this press
    (a choice marked); None: the panel as it is now, with ``warning`` or ``note`` on it."""

    warning: str | None = None
    note: str | None = None
    rendered: Rendered | None = None


@dataclass(frozen=True, slots=True)
class Explicit:
    """A press's move that names all it asks for (these cards, Ready), so that it means the same
    from a panel drawn before a change: it is not refused as out of date, the engine's check alone
    judges it (and says why, "you are already ready"). Any other move a press asks for is refused
    once the decision digest its panel was drawn with is not the seat's now."""

    action: Action


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One settable rule: its name, the values it takes (as typed by a host) and a line of help."""

    name: str
    values: tuple[str, ...]
    help: str


def _upload(picture: ImageFile) -> discord.File:
    """A fresh upload of ``picture`` for one request (a :class:`discord.File` is used up by the
    request that sends it); its bytes, name and alt text are the drawing's, as made."""
    return discord.File(io.BytesIO(picture.data), filename=picture.filename, description=picture.description)
