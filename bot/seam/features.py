"""How a feature plugs in: one explicit registration, checked at start-up.

Every extension under ``cogs/`` (and every game package of :attr:`Settings.extra_games
<bot.settings.Settings.extra_games>`) plugs in one way: its ``setup()`` passes what it adds to
:meth:`Features.add`, once, and adds nothing to the bot itself.

A game declares one :class:`Game` (``bot.features.add(Game(kind, group, items=(...)))``): its
:class:`~bot.seam.contract.GameKind`, its ``/<game>`` command group and the dynamic items it answers
(**My hand**, its panel's buttons). The runtime registers the kind, adds the group to the tree and
the items to the bot, games by key.

Any other feature (the lobby, fair play, the stats) declares everything it adds to the bot in one
:class:`Feature` (``bot.features.add(Feature(...))``): the commands it adds to every game's
``/<game>`` group and its own top-level commands, its buttons (the dynamic items it answers, and
the controls it lends each game's messages: take-back, Watch, Rematch), what it does when a game
finishes, the note it writes on a seat in a lobby, how a lobby and a spectator's view look.
No feature writes into another package's objects: the runtime reads these slots (the table
manager runs the finish hooks, the presenter draws a lobby and a spectator's view, every live
table carries the lent controls: :class:`~bot.seam.contract.Lent`).

Nothing here depends on the order the extensions load in: the games and the features are
applied once every extension is loaded (:meth:`Features.start`, at the end of the extensions'
loading in ``setup_hook``), games by key then features by name, whichever came first.
:meth:`Features.start` checks the whole before anything is applied and stops start-up with one
sentence (:class:`FeatureError`):

- two features named alike;
- two features claiming one single slot (two lobby renderers, two finale views, two Watch
  buttons, two take-backs, two seat notes, two spectator views);
- a game registered twice, or registered around its :class:`Game` (straight into the table
  manager's kinds);
- a game whose command group is not named after its key (``/<key>``), or without its **My hand**
  button (:attr:`~bot.seam.contract.GameKind.hand_item`);
- two top-level commands named alike (a game's group, a feature's own command);
- games registered while no feature draws a lobby (``/<game> new`` could open no table).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.seam.contract import AnyKind, Lent, LiveTable, Rendered
from db.records import RatingUpdate, ResultRow, SeatRecord

#: a control lent under every table message (None: not shown for this table now)
TableItem = Callable[[LiveTable], discord.ui.Item[Any] | None]
#: the controls lent under every game's final message
FinaleView = Callable[[LiveTable], discord.ui.View | None]
#: a few words after a seated player's name in a lobby
SeatNote = Callable[[LiveTable, SeatRecord], str | None]
#: how a lobby looks (its message, with its controls)
LobbyRenderer = Callable[[LiveTable], Rendered]
#: what a spectator sees of a table, given the table message as drawn for its state now (None: the
#: view draws the table itself, in the language being spoken, which the channel may not read)
SpectatorView = Callable[[LiveTable, Rendered | None], Rendered]
#: called once a finished game's results are committed, before its final standings are shown
#: (the stats rate the game here and note the changes in each result's ``stats``)
FinishHook = Callable[[LiveTable, list[ResultRow]], Awaitable[None]]
#: entered as a game's last move is about to be committed: what the game does to the ratings,
#: written in the move's own transaction (None: nothing now; the finish hook rates it after), the
#: ratings held until the move is committed or refused (the context's end)
FinishRating = Callable[[LiveTable, list[ResultRow]], contextlib.AbstractAsyncContextManager[RatingUpdate | None]]
#: adds a feature's commands to one game's ``/<game>`` group
PerGame = Callable[[app_commands.Group, AnyKind], None]
AppCommand = app_commands.Command[Any, Any, Any] | app_commands.Group
#: a feature's own top-level commands, made once every game is registered (a command's ``game``
#: choices list the registered games: discord.py reads choices when a command is made)
TopCommands = Callable[[list[AnyKind]], Sequence[AppCommand]]

#: the slots that at most one feature fills, with how a sentence names each
SINGLE = {
    "take_back": "the take-back button under a table",
    "watch": "the Watch button under a table",
    "finale": "the controls under a final message",
    "seat_note": "the note on a seat",
    "lobby": "the lobby renderer",
    "spectator_view": "the spectator's view",
    "finish_rating": "the ratings written with a game's last move",
}


class FeatureError(Exception):
    """A set of features the bot cannot start with; the message is one sentence for the host."""


@dataclass(frozen=True, slots=True)
class Feature:
    """Everything one feature adds to the bot; a slot left empty adds nothing."""

    #: the feature's name, in sentences about it (its package's, e.g. ``"lobby"``)
    name: str
    #: adds its commands to each game's ``/<game>`` group (``new``, ``verify``, ``history``...)
    per_game: PerGame | None = None
    #: its own top-level commands (``/cardstats``), made once every game is registered
    commands: TopCommands | None = None
    #: the dynamic items (buttons, selects) it answers, dispatched by custom id
    items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()
    #: lent under every table message, after the game's own controls: first the take-back...
    take_back: TableItem | None = None
    #: ...then Watch
    watch: TableItem | None = None
    #: lent under every game's final message (Rematch)
    finale: FinaleView | None = None
    #: a few words after a seated player's name in a lobby (a rating)
    seat_note: SeatNote | None = None
    #: how a lobby looks
    lobby: LobbyRenderer | None = None
    #: what a spectator sees (kept current by :class:`bot.messages.watchers.Watchers`)
    spectator_view: SpectatorView | None = None
    #: when a game finishes (after its results are committed, before its standings are shown)
    on_finish: FinishHook | None = None
    #: what a game's end does to the ratings, written with its last move
    finish_rating: FinishRating | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """Everything one game adds to the bot (its package's ``setup()`` registers it); the other
    features give it their commands and controls at start-up."""

    #: what the runtime calls to play it (:class:`~bot.seam.contract.GameKind`); its ``key`` names it
    kind: AnyKind
    #: its ``/<key>`` command group, with the game's own commands (``hand``); the features add
    #: theirs (``new``, ``history``...) to it at start-up
    group: app_commands.Group
    #: the dynamic items (buttons, selects) it answers, dispatched by custom id
    items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()

    @property
    def key(self) -> str:
        """The game's key (its command's name, its stored games' ``kind``)."""
        return self.kind.key


class Features:
    """The registered games and features of one bot (the table manager's; ``bot.features``):
    what the runtime reads instead of letting a feature write into its objects."""

    def __init__(self) -> None:
        self.added: list[Feature] = []
        #: the registered games, in the order they registered (applied by key at start-up)
        self.games: list[Game] = []
        #: what the features lend every table's messages, kept current as they register (every
        #: live table holds this one object)
        self.lent = Lent()
        self.started = False

    def add(self, feature: Feature | Game) -> None:
        """Register ``feature``, a game or another feature (its package's ``setup()`` calls this
        once). It is applied at :meth:`start`, with every game, whichever extension loaded first."""
        if isinstance(feature, Game):
            if self.started:
                raise FeatureError(f"The game {feature.key} registered after start-up; games register at setup.")
            self.games.append(feature)
            return
        if self.started:
            raise FeatureError(f"The feature {feature.name} registered after start-up; features register at setup.")
        self.added.append(feature)
        # the lent slots, read by every table (two claims of one are refused at start-up)
        if feature.take_back is not None:
            self.lent.take_back = feature.take_back
        if feature.watch is not None:
            self.lent.watch = feature.watch
        if feature.finale is not None:
            self.lent.finale = feature.finale
        if feature.seat_note is not None:
            self.lent.seat_note = feature.seat_note

    def _one(self, slot: str) -> Any:
        return next((made for f in self.added if (made := getattr(f, slot)) is not None), None)

    @property
    def lobby(self) -> LobbyRenderer | None:
        """How a lobby looks; None while no feature draws one."""
        found: LobbyRenderer | None = self._one("lobby")
        return found

    @property
    def spectator_view(self) -> SpectatorView | None:
        """What a spectator sees of a table; None: nobody can watch."""
        found: SpectatorView | None = self._one("spectator_view")
        return found

    @property
    def finish_rating(self) -> FinishRating | None:
        """What a game's end does to the ratings, written with its last move; None: no ratings."""
        found: FinishRating | None = self._one("finish_rating")
        return found

    @property
    def finish_hooks(self) -> list[FinishHook]:
        """What runs when a game finishes, in the features' order (by name)."""
        return [f.on_finish for f in self.ordered() if f.on_finish is not None]

    def ordered(self) -> list[Feature]:
        """The features by name: the order their parts are applied in, whatever order they loaded in."""
        return sorted(self.added, key=lambda f: f.name)

    def check(self, registered: Mapping[str, AnyKind]) -> None:
        """Raise :class:`FeatureError` (one sentence) if the bot cannot start with these features
        and games (see the module's list); ``registered``: the kinds the table manager holds
        already (none, when every game registered here)."""
        names = [f.name for f in self.added]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise FeatureError(f"Two features are named {twice[0]}: each feature registers once, under its own name.")
        for slot, said in SINGLE.items():
            claiming = [f.name for f in self.ordered() if getattr(f, slot) is not None]
            if len(claiming) > 1:
                raise FeatureError(
                    f"The features {' and '.join(claiming)} both claim {said}: only one feature may fill it."
                )
        keys = [game.key for game in self.games]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise FeatureError(f"The game {twice[0]} registers twice: each game registers once, with one Game.")
        if registered:
            raise FeatureError(
                f"The game {min(registered)} was registered around bot.features.add: a game's setup registers one Game."
            )
        for game in self.ordered_games():
            if game.group.name != game.key:
                raise FeatureError(
                    f"The game {game.key} has its commands under /{game.group.name}: a game's group is named"
                    " after its key (bot.seam.groups.game_group)."
                )
            if not callable(getattr(game.kind, "hand_item", None)):
                raise FeatureError(f"The game {game.key} has no My hand button: its kind sets hand_item.")
        if self.games and self.lobby is None:
            raise FeatureError("Games are registered but no feature draws a lobby: /<game> new could open no table.")

    def ordered_games(self) -> list[Game]:
        """The games by key: the order they are plugged in, whatever order they loaded in."""
        return sorted(self.games, key=lambda g: g.key)

    def start(self, bot: commands.Bot, kinds: MutableMapping[str, AnyKind]) -> None:
        """Once every extension is loaded: check the whole (:meth:`check`), then plug in every
        game (its kind into ``kinds``, the table manager's, its group into the tree, its items into
        the bot), give every game every feature's commands and add the features' own commands and
        dynamic items: games by key and features by name, so that the bot comes out the same
        whatever the load order."""
        self.check(kinds)
        games = self.ordered_games()
        # the features' own commands, made for the games, before anything is added (a name taken
        # twice is refused in one sentence, as discord.py would refuse it halfway through)
        made = {f.name: list(f.commands([g.kind for g in games])) for f in self.ordered() if f.commands is not None}
        owner = {game.key: f"the game {game.key}" for game in games}
        for name, own in made.items():
            for command in own:
                if command.name in owner:
                    raise FeatureError(
                        f"The feature {name} and {owner[command.name]} both add /{command.name}: each"
                        " top-level command has one owner."
                    )
                owner[command.name] = f"the feature {name}"
        self.started = True
        for game in games:
            kinds[game.key] = game.kind
            bot.tree.add_command(game.group)
            if game.items:
                bot.add_dynamic_items(*game.items)
        for feature in self.ordered():
            for game in games:
                if feature.per_game is not None:
                    feature.per_game(game.group, game.kind)
            for command in made.get(feature.name, []):
                bot.tree.add_command(command)
            if feature.items:
                bot.add_dynamic_items(*feature.items)
