"""Seating: who sits at a table, from the lobby to the end.

Opening a lobby, joining and leaving, watching a duplicate match's table (a member's side of the
match is decided here with her seat: :meth:`Seating.sit`, :meth:`Seating.watch`), adding and
removing computers, changing the rules before the start, dealing the first hand, a computer
standing in for a person (who left, or whose time ran out) and the person taking their seat back,
cancelling a lobby and ending a game early. Every change is stored first and then mirrored on the
live table; the caller holds ``table.lock`` (Watch changes no table: its caller does not) and
answers the interaction, this module only posts through :class:`~bot.messages.presentation.Presenter`.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.fairness import duplicate
from bot.fairness import shuffles as fairness
from bot.fairness.beacon.binding import Binding, binding_of, deal_seed
from bot.fairness.beacon.game import Beacons, outcome_line
from bot.host import logs
from bot.messages.errors import Refusal
from bot.messages.presentation import Presenter
from bot.seam.contract import AnyKind, LiveTable
from bot.tables import secrecy
from bot.tables.clock import Clock
from bot.tables.registry import Registry
from bot.tables.secrecy import Door
from db.errors import ChannelBusy, StoreError
from db.records import GameRecord, MatchRecord, SeatRecord
from db.store import Store
from draw.common import computer_name
from draw.looks import LANGUAGE
from games.common.commitment import commitment
from games.common.rng import GENERATOR_VERSION
from locales import _, msg, ngettext, translate


class Seating:
    def __init__(self, registry: Registry, store: Store, presenter: Presenter, clock: Clock) -> None:
        self.registry = registry
        self.store = store
        self.presenter = presenter
        self.clock = clock
        #: drand beacons (``DRAND=on``); None: every game deals from its committed seed alone
        self.beacons: Beacons | None = None
        #: the bot serves a single channel (the local page): a refusal never sends a player to
        #: "another channel" they cannot open there
        self.one_channel = False

    # -- the lobby ----------------------------------------------------------------------------
    async def open_lobby(
        self, kind: AnyKind, guild_id: int | None, channel_id: int, host: discord.abc.User, preset: str
    ) -> LiveTable:
        existing = self.registry.in_channel(channel_id)
        if existing is not None:
            raise Refusal(_busy_text(existing, self.one_channel))
        kind.make_rules(preset, {})  # refuse an unknown preset before storing anything
        try:
            game_id = await self.store.create_game(kind.key, guild_id, channel_id, host.id, preset, {})
        except ChannelBusy:
            raise Refusal(
                _("This channel already has a game. Finish it first.")
                if self.one_channel
                else _("This channel already has a game. Finish it, or open a table in another channel.")
            ) from None
        seats = [SeatRecord(0, host.id, _display(host))]
        try:
            await self.store.set_seats(game_id, seats)
        except StoreError:
            # The game row is committed but has no host: undo it, so that "nothing changed" is true
            # (and the channel is not left busy with a table nobody sees).
            with contextlib.suppress(StoreError):
                await self.store.end_game(game_id, "cancelled")
            raise
        record = await self.store.get_game(game_id)
        assert record is not None
        logs.event("lobby opened", record, f"host {host.id}")
        return self.registry.attach(record)

    def lobby_rules(self, table: LiveTable) -> Any:
        return table.kind.make_rules(table.record.preset, table.record.options)

    async def change_options(
        self, table: LiveTable, preset: str, options: dict[str, str], turn_seconds: int | None
    ) -> None:
        rules = table.kind.make_rules(preset, options)  # raises RulesError with the reason
        low, high = table.kind.player_range(rules)
        if len(table.seats) > high:
            raise Refusal(
                _("That allows at most {high} players, and {count} have joined.", high=high, count=len(table.seats))
            )
        await self.store.set_options(table.id, preset, options, turn_seconds)
        table.record.preset, table.record.options, table.record.turn_seconds = preset, options, turn_seconds

    async def sit(self, table: LiveTable, user: discord.abc.User, guild_id: int | None, channel_id: int | None) -> None:
        """``user`` presses Join: asked of the secrecy policy and seated in one step for the match
        (:meth:`Registry.match_lock`), so a Watch of another of its tables pressed at the same
        moment is decided on this seat; and checked again once seated, for a Watch decided at the
        same moment by another process (:func:`bot.tables.secrecy.sides_taken`)."""
        match_id = table.record.match_id
        async with self.registry.match_lock(match_id):
            await secrecy.require(self.store, Door.JOIN, table.record, user.id, guild_id, channel_id)
            await self.join(table, user)
            if match_id is not None and await secrecy.sides_taken(self.store, match_id, user.id):
                seat = table.seat_of(user.id)
                if seat is not None:  # another process let her watch or sit meanwhile: take it back
                    await self.remove_seat(table, seat)
                raise Refusal(translate(secrecy.BOTH_SIDES))

    async def watch(self, table: LiveTable, user_id: int, guild_id: int | None, channel_id: int | None) -> None:
        """``user_id`` presses Watch: asked of the secrecy policy and, at a duplicate match's table,
        kept as one of the match's watchers, in one step for the match (as :meth:`sit`); a
        watcher may not sit at another of its tables afterwards."""
        async with self.registry.match_lock(table.record.match_id):
            await secrecy.require(
                self.store, Door.WATCH, table.record, user_id, guild_id, channel_id, hand=table.kind.hand_button
            )
            if table.engine is None:
                raise Refusal(_("The game has not started yet."))
            match_id = table.record.match_id
            if match_id is not None and await self.store.add_match_watcher(match_id, user_id):
                if await secrecy.sides_taken(self.store, match_id, user_id):
                    # seated meanwhile by another process: this watch is taken back, unseen
                    await self.store.remove_match_watcher(match_id, user_id)
                    raise Refusal(translate(secrecy.BOTH_SIDES))

    async def open_match_table(
        self,
        kind: AnyKind,
        guild_id: int | None,
        channel_id: int,
        host: discord.abc.User,
        match: MatchRecord,
        like: GameRecord | None = None,
    ) -> tuple[LiveTable, int]:
        """``host`` opens a lobby that is a table of ``match`` (with the rules of its table
        ``like``; None for the match's first): asked of the secrecy policy, stored and linked to
        the match in one step for the match (as :meth:`sit`), before anything is shown, so a join
        that loses the match's last place to another, meets its close, or is decided at the same
        moment as a Watch of hers in another process is refused and leaves nothing. Returns the
        lobby and its number in the match."""
        async with self.registry.match_lock(match.id):
            if like is not None:  # the opener sits at the new table: one side of the match per member
                role = await secrecy.match_role(self.store, match.id, host.id)
                joining = secrecy.decide(Door.JOIN, role, secrecy.State.LOBBY)
                if not joining.allowed:
                    raise Refusal(joining.text(like.id))
            table = await self.open_lobby(
                kind, guild_id, channel_id, host, like.preset if like else kind.default_preset
            )
            try:
                if like is not None:  # this table's own settings first: a failure leaves the match untouched
                    # the first table's rules, not its language: this channel (perhaps another
                    # server's) reads its own, as any table of its server does
                    options = {k: v for k, v in like.options.items() if k != LANGUAGE}
                    await self.change_options(table, like.preset, options, like.turn_seconds)
                number = await self.store.join_match(table.id, match.id)
            except BaseException:
                with contextlib.suppress(StoreError):
                    await self.cancel(table)
                raise
            if number is None:  # taken, or closed, since the match was read
                await self.cancel(table)
                now = await self.store.get_match(match.id)
                closed = now is not None and now.closed_at is not None
                raise Refusal(duplicate.closed_text(match) if closed else duplicate.full_text(match))
            if await secrecy.sides_taken(self.store, match.id, host.id):
                await self.cancel(table)  # she watched or sat elsewhere at the same moment (another process)
                raise Refusal(translate(secrecy.BOTH_SIDES))
            table.record.match_id = match.id
            return table, number

    async def join(self, table: LiveTable, user: discord.abc.User) -> None:
        self._require_lobby(table)
        if table.seat_of(user.id) is not None:
            raise Refusal(_("You are already at this table."))
        high = table.kind.player_range(self.lobby_rules(table))[1]
        if len(table.seats) >= high:
            raise Refusal(_("The table is full ({high} players is the most these rules allow).", high=high))
        await self._set_seats(table, [*table.seats, SeatRecord(len(table.seats), user.id, _display(user))])

    async def add_computer(self, table: LiveTable, level: str) -> None:
        self._require_lobby(table)
        high = table.kind.player_range(self.lobby_rules(table))[1]
        if len(table.seats) >= high:
            raise Refusal(_("The table is full ({high} players is the most these rules allow).", high=high))
        number = sum(1 for s in table.seats if s.user_id is None) + 1
        with self.presenter.in_channel(table):  # a name the whole table reads (and the store keeps)
            name = computer_name(number, level)
        await self._set_seats(table, [*table.seats, SeatRecord(len(table.seats), None, name, level)])

    async def remove_seat(self, table: LiveTable, seat: int) -> None:
        self._require_lobby(table)
        rest = [s for s in table.seats if s.seat != seat]
        await self._set_seats(table, rest)

    async def _set_seats(self, table: LiveTable, seats: list[SeatRecord]) -> None:
        renumbered = [
            SeatRecord(i, s.user_id, s.name, s.ai_level, s.dm_closed, s.shows_hand) for i, s in enumerate(seats)
        ]
        await self.store.set_seats(table.id, renumbered)
        table.record.seats = renumbered

    def _require_lobby(self, table: LiveTable, starting_ok: bool = False) -> None:
        if table.record.status != "lobby":
            raise Refusal(_("The game has already started."))
        if not starting_ok and self.starting(table):
            raise Refusal(
                _("The game is starting: its decks wait for drand round {round}.", round=table.record.beacon_round)
            )

    async def start(self, table: LiveTable) -> None:
        """Deal the first hand (without a beacon). The caller answers the interaction, then calls
        :meth:`show_start`."""
        rules, count = self._startable(table)
        seed, salt = await self._seed(table, rules, count)
        await self._deal(table, rules, count, seed, salt)

    async def begin_start(self, table: LiveTable) -> int:
        """With beacons on: the seed and salt drawn, committed and stored with the drand round the
        game names, the lobby still a lobby (its controls refuse while it waits). Returns the round.
        Then :meth:`await_beacon` (without the table's lock), then :meth:`finish_start`."""
        assert self.beacons is not None
        rules, count = self._startable(table)
        seed, salt = await self._seed(table, rules, count)
        digest = commitment(seed, salt, GENERATOR_VERSION)
        number = await self.beacons.name(table)
        await self.store.reserve_start(table.id, seed, salt.hex(), digest, GENERATOR_VERSION, number)
        record = table.record
        record.seed, record.salt, record.commitment = seed, salt.hex(), digest
        record.rng_version, record.beacon_round = GENERATOR_VERSION, number
        logs.event("starting", record, f"waiting for drand round {number}")
        return number

    async def await_beacon(self, table: LiveTable) -> Binding:
        """Post the commitment naming the round, wait for it (bounded), store what came, and tell
        the channel before any card: the round's check, or the label."""
        assert self.beacons is not None
        binding = await self.beacons.bind(table)
        record = table.record
        with self.presenter.in_channel(table):
            line = outcome_line(binding, self.beacons.chain)
        await self.presenter.announce(record.channel_id, record.guild_id, line)
        return binding

    async def complete_start(self, table: LiveTable) -> None:
        """After :meth:`begin_start` (or for a lobby a restarted bot finds waiting for its round):
        the same round, with the same seed, is waited for (or, with beacons now off, the game is
        labelled), then the first hand is dealt and shown. Safe to run again after a failure."""
        if self.beacons is not None:
            await self.await_beacon(table)
        else:
            record = table.record
            if record.beacon_signature is None and record.beacon_note is None:
                # kept in English, as the beacon's own reasons (bot.fairness.beacon.binding.said shows it)
                note = f"The bot was restarted with drand beacons off before round {record.beacon_round} came."
                await self.store.set_beacon(table.id, signature=None, note=note, message_id=None)
                record.beacon_note = note
            binding = Binding(record.beacon_round or 0, record.beacon_signature, record.beacon_note)
            with self.presenter.in_channel(table):
                line = outcome_line(binding)
            await self.presenter.announce(record.channel_id, record.guild_id, line)
        async with table.lock:
            if not self.starting(table):
                return
            await self.finish_start(table)
            self.show_start(table)

    async def finish_start(self, table: LiveTable) -> None:
        """Deal the first hand from the seed and the round (or the seed alone, labelled)."""
        record = table.record
        assert record.seed is not None and record.salt is not None
        rules, count = self._startable(table)
        await self._deal(table, rules, count, record.seed, bytes.fromhex(record.salt))

    def starting(self, table: LiveTable) -> bool:
        """Whether the lobby is waiting for its drand round (its controls refuse meanwhile)."""
        return table.record.status == "lobby" and table.record.beacon_round is not None

    def _startable(self, table: LiveTable) -> tuple[Any, int]:
        self._require_lobby(table, starting_ok=table.record.beacon_round is not None)
        rules = self.lobby_rules(table)
        low, high = table.kind.player_range(rules)
        count = len(table.seats)
        if not low <= count <= high:
            raise Refusal(
                ngettext(
                    "These rules need {low} to {high} players; {n} is seated.",
                    "These rules need {low} to {high} players; {n} are seated.",
                    count,
                    low=low,
                    high=high,
                )
            )
        return rules, count

    async def _seed(self, table: LiveTable, rules: Any, count: int) -> tuple[int, bytes]:
        seed = fairness.new_seed()
        salt = fairness.new_salt()
        if table.record.match_id is not None:  # a duplicate match's table deals the match's cards
            seed, salt = await fairness.match_deal(self.store, table, table.kind.rules_to_json(rules), count)
        return seed, salt

    async def _deal(self, table: LiveTable, rules: Any, count: int, seed: int, salt: bytes) -> None:
        # RulesError here leaves the lobby open; a game bound to a drand round deals from both
        engine = table.kind.engine.new(
            rules, count, deal_seed(seed, binding_of(table.record)), rng_version=GENERATOR_VERSION
        )
        digest, first_deal = fairness.start_proof(seed, salt, GENERATOR_VERSION, engine)
        await self.store.start_game(
            table.id,
            table.kind.rules_to_json(rules),
            seed,
            table.seats,
            GENERATOR_VERSION,
            commitment=digest,
            salt=salt.hex(),
            first_deal=first_deal,
        )
        table.record.status, table.record.seed = "playing", seed
        table.record.commitment, table.record.salt = digest, salt.hex()
        table.record.rng_version = GENERATOR_VERSION
        table.record.rules = table.kind.rules_to_json(rules)
        table.rules, table.engine = rules, engine
        computers = sum(1 for s in table.seats if s.ai_level is not None)
        logs.event("started", table.record, f"{count} players ({computers} computers)")

    def show_start(self, table: LiveTable) -> None:
        """The game has started: hands out, the first table posted (by the table's display, which
        keeps trying if Discord fails), the first turn under way."""
        self.presenter.post_new_table(table, [])
        self.clock.kick(table)

    async def cancel(self, table: LiveTable) -> None:
        await self.store.end_game(table.id, "cancelled")  # a duplicate match's lobby leaves the match
        logs.event("cancelled", table.record)
        self.registry.drop(table)
        self.presenter.lobby_closed(table)
        await duplicate.lobby_left(self.store, self.presenter, table.kind, table.record.match_id)

    async def end_early(self, table: LiveTable, by: str) -> None:
        """The host ends the game: standings so far are shown but not stored as a result."""
        await self.store.end_game(table.id, "cancelled")
        table.record.status = "cancelled"
        logs.event("ended by the host", table.record)
        match_done = await duplicate.prepare(self.store, table)
        self.presenter.show_ended(table, by)  # the game is over: it reveals the seed
        self.registry.drop(table)
        await self.presenter.panels.close(table, msg("🛑 This game was ended by {by}.", by=by))
        if match_done is not None:
            await duplicate.finish(self.store, self.presenter, table.kind, match_done, shown=(table.id,))

    # -- seats changing hands -----------------------------------------------------------------
    async def stand_in(self, table: LiveTable, seat: int, level: str = "quick") -> None:
        """A computer takes over a person's seat (they left, or their time ran out)."""
        record = table.seats[seat]
        record.ai_level = level
        await self.store.update_seat(table.id, record)
        await self.presenter.panels.redraw(table)  # the player's panel says the computer plays it

    async def leave_game(self, table: LiveTable, seat: int) -> None:
        """A person leaves a running game: the computer plays their seat until they come back."""
        await self.stand_in(table, seat)
        with self.presenter.in_channel(table):
            table.notice(
                _(
                    "🚪 {name} left: the computer plays their seat (/{key} back to return).",
                    name=table.name(seat),
                    key=table.kind.key,
                )
            )
        self.clock.kick(table)
        await self.presenter.update(table)  # the channel reads at once who left and who plays for them

    async def take_back(self, table: LiveTable, seat: int) -> None:
        record = table.seats[seat]
        if record.ai_level is None:
            raise Refusal(_("You already have your seat: it's you who plays it."))
        record.ai_level = None
        await self.store.update_seat(table.id, record)
        with self.presenter.in_channel(table):
            table.notice(_("🙋 {name} is back and plays their own seat again.", name=record.name))
        self.clock.kick(table)
        if table.engine is not None:
            # The table says at once whose move it is now: theirs, not the computer's; and their
            # panel gets its buttons back.
            await self.presenter.update(table)
            await self.presenter.panels.redraw(table)


def _display(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _busy_text(table: LiveTable, one_channel: bool = False) -> str:
    if one_channel:  # no other channel to go to: say how this one is freed
        if table.record.status == "lobby":
            return _(
                "This channel already has a lobby ({game}). Finish it first, or its host ends it with /{key} end.",
                game=table.kind.title,
                key=table.kind.key,
            )
        return _(
            "This channel already has a game in progress ({game}). Finish it first, "
            "or its host ends it with /{key} end.",
            game=table.kind.title,
            key=table.kind.key,
        )
    if table.record.status == "lobby":
        return _(
            "This channel already has a lobby ({game}). Finish it, or open a table in another channel.",
            game=table.kind.title,
        )
    return _(
        "This channel already has a game in progress ({game}). Finish it, or open a table in another channel.",
        game=table.kind.title,
    )
