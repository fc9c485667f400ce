"""A seat handed to another member mid-game.

The seat's player (or the host, for an absent player: one whose seat the computer plays since
they left or their time ran out) offers the seat to a member; the member takes it with one press,
and plays on from that moment, with the seat's hand as it is then. Until that press the old
player keeps the seat (and plays it); the offer is carried whole by its buttons' custom ids, so
it outlives a restart and lapses by itself once the seat is no longer the old player's (or, for
an absent player's seat, once they came back or the host changed).

What the new player may see is the seat's: from the press on they open **My hand** as the seat's
player, whose view holds the hand now and what the whole table saw (the tricks, the bids); the
seat's earlier private information is nowhere else (a hand's earlier cards were played in the
open). The old player loses the seat's private view at once: their open panel is closed and never
redrawn, and every player's door (My hand, a panel's press, Take my seat back) asks the seat's
player now. Who may take a seat is the secrecy policy's to say (:data:`bot.tables.secrecy.Door.TAKE_SEAT`):
never one who saw another table of the same duplicate match; and the old player of a match's
table is kept as one who saw its cards, so they may not sit at another of its tables either.

The ratings count the game for the seat's final player (its results row); the store keeps the
hand-overs, so the history names both. A hand-over is stored (:meth:`db.store.Store.hand_over_seat`)
before anything is shown; the caller holds ``table.lock`` and answers the interaction.
"""

from __future__ import annotations

import discord

from bot.host import logs
from bot.messages.errors import Refusal
from bot.messages.panels import HANDED_OVER
from bot.seam.contract import LiveTable
from bot.tables import secrecy
from bot.tables.seating import Seating
from bot.tables.secrecy import Door
from db.errors import StoreConflict
from db.records import SeatHandover, SeatRecord
from locales import N_, Msg, _, translate

#: the answer to a press on an offer that lapsed
LAPSED = N_("This offer has lapsed: the seat is no longer {name}'s to hand over.")


def seat_to_offer(table: LiveTable, by_user: int, player: int | None) -> int:
    """The seat ``by_user`` may hand over: their own, or (the host) the seat of ``player``, an
    absent player whose seat the computer plays; else a refusal saying why."""
    if table.engine is None:
        raise Refusal(
            _(
                "The game has not started yet: in the lobby, Leave and Join do this (/{key} handover is for a game"
                " being played).",
                key=table.kind.key,
            )
        )
    if player is None or player == by_user:
        return table.player_seat(by_user)
    if by_user != table.record.host_id:
        raise Refusal(_("Only the host can hand over someone else's seat (and only one the computer plays)."))
    seat = table.seat_of(player)
    if seat is None:
        raise Refusal(_("That member is not playing at this table."))
    if table.seats[seat].ai_level is None:
        raise Refusal(
            _(
                "{name} is playing their seat: only they can hand it over. The host can hand over the seat of a"
                " player who is away (the computer plays it).",
                name=table.name(seat),
            )
        )
    return seat


async def check_taker(
    seating: Seating, table: LiveTable, seat: int, member: discord.abc.User, guild_id: int | None, channel_id: int
) -> None:
    """Whether ``member`` may be offered ``seat`` (asked again when they take it)."""
    if member.bot:
        raise Refusal(_("A bot cannot take a seat: /{key} leave lets the computer play it.", key=table.kind.key))
    if member.id == table.seats[seat].user_id:
        raise Refusal(_("That seat is already theirs."))
    await secrecy.require(seating.store, Door.TAKE_SEAT, table.record, member.id, guild_id, channel_id)


def still_offered(table: LiveTable, seat: int, old: int, by_user: int) -> None:
    """The offer of ``seat`` that ``by_user`` made for ``old`` still stands, or a refusal: the
    seat is still ``old``'s, and an absent player's seat offered by the host is still played by
    the computer and ``by_user`` is still the host."""
    if seat >= len(table.seats) or table.seats[seat].user_id != old:
        raise Refusal(translate(LAPSED, name=f"<@{old}>"))
    if by_user != old and (table.seats[seat].ai_level is None or table.record.host_id != by_user):
        raise Refusal(
            _(
                "This offer has lapsed: {name} is back at their seat, or the host who made it no longer is.",
                name=table.name(seat),
            )
        )


async def take(
    seating: Seating,
    table: LiveTable,
    seat: int,
    old: int,
    by_user: int,
    member: discord.abc.User,
    guild_id: int | None,
    channel_id: int,
) -> str:
    """``member`` takes ``seat`` (offered by ``by_user`` for ``old``): asked of the secrecy policy
    and stored in one step for the duplicate match (as :meth:`Seating.sit`), then mirrored on the
    live table; the old player's panel is closed and the new player's spectator view too (it may
    have shown hands that players let spectators see). Returns the old player's name."""
    if table.engine is None or not seating.registry.is_live(table):
        raise Refusal(_("This game has ended."))
    still_offered(table, seat, old, by_user)
    record = table.seats[seat]
    match_id = table.record.match_id
    name = getattr(member, "display_name", None) or member.name
    async with seating.registry.match_lock(match_id):
        await check_taker(seating, table, seat, member, guild_id, channel_id)
        before = record.name
        handover = SeatHandover(table.id, seat, len(table.record.actions), old, before, member.id, name, by_user)
        # the new player decides for themselves whether spectators see their hand
        fresh = SeatRecord(seat, member.id, name)
        host = member.id if table.record.host_id == old else None
        try:
            await seating.store.hand_over_seat(handover, fresh, host_id=host, match_id=match_id)
        except StoreConflict:  # another process handed or changed the seat first
            raise Refusal(translate(LAPSED, name=before)) from None
    # in place: anything holding the seat's record (a save the display has queued) sees its new player
    record.user_id, record.name, record.ai_level = fresh.user_id, fresh.name, fresh.ai_level
    record.dm_closed, record.shows_hand = fresh.dm_closed, fresh.shows_hand
    if host is not None:
        table.record.host_id = host
    table.acted_from.pop(seat, None)
    logs.event("seat handed over", table.record, f"seat {seat}: member {old} to member {member.id}")
    panels, watchers = seating.presenter.panels, seating.presenter.watchers
    await panels.revoke(table, seat, Msg(HANDED_OVER, {"name": name}))
    await watchers.stop(
        table,
        member.id,
        _(
            "🪑 You play {name}'s seat now: your cards are under **{button}**.",
            name=before,
            button=translate(table.kind.hand_button),
        ),
    )
    with seating.presenter.in_channel(table):  # a notice on the table: the channel's words
        if by_user == old:
            said = _("🪑 {before} handed their seat to {name}, who plays it from now on.", before=before, name=name)
        else:
            said = _(
                "🪑 The host handed {before}'s seat to {name}, who plays it from now on.", before=before, name=name
            )
        table.notice(said + (_(" They are the host now.") if host is not None else ""))
    if seat in table.engine.to_act():
        table.timer_waiting = frozenset()  # the turn is theirs now, with a whole turn's time
    seating.clock.kick(table)  # a computer standing in stops: the turn, if it is this seat's, is theirs
    await seating.presenter.update(table)
    return before
