"""The end of a duplicate match: when its last table is over, every table's channel gets the
comparison (seat by seat and deal by deal, the points each player took with the same cards, and
a ranking by score against the others who held those cards) and the shared seed is revealed.

The comparison is built from the store (each table's stored deal scores and results), so it
shows exactly what was recorded; what it compares (points, or finishing places for a game with
none) is the game's :attr:`~bot.seam.contract.GameKind.comparison`.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord

from bot.fairness.shuffles import is_over, match_over
from bot.messages.presentation import Presenter
from bot.messages.speech import in_channel, table_language
from bot.seam.contract import AnyKind, LiveTable, Rendered
from bot.tables import secrecy
from bot.tables.secrecy import Door, Role, decide, state_of
from db.errors import StoreError
from db.records import DealScore, GameRecord, MatchRecord, ResultRow
from db.store import Store
from draw.budget import Budget
from draw.common import COLOR
from locales import N_, _, decimal, ngettext, number, speaking, translate

log = logging.getLogger(__name__)

#: how a match's ``expires_at`` is written (as the stores write their own times: ISO UTC)
STAMP = "%Y-%m-%dT%H:%M:%SZ"


@dataclass
class Entry:
    """One player's seat at one table of the match, and what they made of its cards."""

    game: GameRecord
    seat: int
    name: str
    score: float | None  # total points (so far, if ended early), or the finishing place
    deals: list[int]  # points deal by deal (a game that keeps points)
    against: float | None = None  # score against the others who held the same cards
    #: the table played to its end; one ended early is shown apart and ranked against nobody
    complete: bool = True
    #: points of the deals only some tables played (extra deals to break a tie): shown apart,
    #: outside ``score`` and ``deals``, as nobody at the other tables held those cards
    extra: list[int] = field(default_factory=list)
    total: float | None = None  # the table's own total, extra deals included (when it has some)


def may_close(match: MatchRecord, user_id: int, guild_id: int | None, manager: bool) -> bool:
    """Who may close a duplicate match: its host (who opened its first table), or a member who can
    manage the server it was opened on."""
    return user_id == match.host_id or (manager and guild_id is not None and guild_id == match.guild_id)


def closed_text(match: MatchRecord) -> str:
    """Why no table may join ``match`` any more: it was closed (by its host, or by the bot when its
    time ran out: closed as of its deadline, :func:`expire`)."""
    if match.expires_at is not None and match.closed_at == match.expires_at:
        return _(
            "Duplicate match **{code}** closed itself: its other tables did not open in time. No more tables may"
            " join it.",
            code=match.code,
        )
    return _("Duplicate match **{code}** was closed by its host: no more tables may join it.", code=match.code)


def expiry_stamp(now: datetime, days: float) -> str | None:
    """When a match opened at ``now`` expires (``expires_at``, ISO UTC as the stores write their
    times), or None when matches do not expire (``days`` 0)."""
    if days <= 0:
        return None
    return (now + timedelta(days=days)).strftime(STAMP)


def deadline_text(match: MatchRecord) -> str:
    """The match's own deadline as a Discord timestamp (every reader sees it in their own time
    zone). Named rather than a count of days: the setting may have changed since the match opened."""
    assert match.expires_at is not None
    when = int(datetime.strptime(match.expires_at, STAMP).replace(tzinfo=UTC).timestamp())
    return f"<t:{when}:f>"


def expiry_note(match: MatchRecord, tables_open: int) -> str:
    """What a table's opener is told of the match's deadline, while the match has a place free."""
    if match.expires_at is None or tables_open >= match.tables:
        return ""
    return " " + _(
        "If its other tables have not all opened by {deadline}, it closes with the tables it has.",
        deadline=deadline_text(match),
    )


def closing_text(match: MatchRecord, games: list[GameRecord], *, expired: bool = False) -> str:
    """What a close says (the host's answer, or every table's channel when it expired): how many
    tables the match has now, and when it is over. ``expired``: its time closed it, not its host."""
    playing = [g for g in games if not is_over(g)]
    count = ngettext("its one table", "its {n} tables", len(games))
    if expired:
        head = _(
            "⚖️ Duplicate match **{code}** closed itself: its other tables did not all open by {deadline}. It is"
            " closed with {count} of {tables}: no more tables may join.",
            code=match.code,
            deadline=deadline_text(match),
            count=count,
            tables=match.tables,
        )
    else:
        head = _(
            "⚖️ Duplicate match **{code}** is closed with {count} of {tables}: no more tables may join.",
            code=match.code,
            count=count,
            tables=match.tables,
        )
    if playing:
        wait = ", ".join(f"#{g.id}" for g in playing)
        after = ngettext(
            "It is over once game {games} ends.", "It is over once games {games} end.", len(playing), games=wait
        )
    else:
        after = _("Every table has finished: the comparison follows, and their results count from now on.")
    return f"{head} {after}"


def full_text(match: MatchRecord) -> str:
    """Why no table may join ``match`` any more: every place is taken."""
    return _("All {tables} tables of that match are open already.", tables=match.tables)


async def prepare(store: Store, table: LiveTable) -> list[GameRecord] | None:
    """A match's table is over (committed): hold its seed if another table still plays. Returns
    the match's tables when this was the last one (then call :func:`finish` once it is shown)."""
    if table.record.match_id is None:
        return None
    try:
        done, games = await match_over(store, table.record)
    except StoreError as error:
        # The game is committed and over: its answer must not say otherwise. Keep the seed secret
        # (another table may still play); the comparison waits for the match's last table.
        log.error("game %s: could not read its duplicate match: %s", table.id, error)
        table.seed_held = True
        return None
    state = state_of(table.record, done)
    table.seed_held = not decide(Door.SEED, Role.SEATED, state).allowed
    return games if decide(Door.COMPARISON, Role.OUTSIDER, state).allowed else None


async def lobby_left(store: Store, presenter: Presenter, kind: AnyKind, match_id: int | None) -> None:
    """A lobby of the match was cancelled (it left the match): a match closed while that lobby
    waited is over now if its other tables are, and nothing else would tell its channels."""
    if match_id is None:
        return
    try:
        match = await store.get_match(match_id)
        games = await store.match_games(match_id)
    except StoreError as error:  # the lobby is cancelled whatever this read says; a restart compares
        log.error("duplicate match %s: could not read it after a lobby left: %s", match_id, error)
        return
    if secrecy.match_allows(Door.COMPARISON, match, games):
        await finish(store, presenter, kind, games)  # no table's end has said the shuffle can be checked


async def expire(store: Store, presenter: Presenter, kind: AnyKind, match: MatchRecord) -> bool:
    """Close ``match``, whose time to gather its tables ran out, as its host would: every table's
    channel is told, and the comparison follows if those tables are over. False when it was closed
    or deleted meanwhile (its host, another process): nothing is said twice."""
    closed = await store.close_match(match.id, at=match.expires_at)
    if closed is None:
        return False
    games = await store.match_games(match.id)  # read after the close: see the close command
    for channel, guild, options in _channels(games):
        with in_channel(presenter.client, guild, options):  # each channel in its own language
            text = closing_text(closed, games, expired=True)
        await presenter.announce(channel, guild, text)
    if secrecy.match_allows(Door.COMPARISON, closed, games):
        await finish(store, presenter, kind, games)
    return True


async def finish(
    store: Store, presenter: Presenter, kind: AnyKind, games: list[GameRecord], shown: Collection[int] = ()
) -> None:
    """Post the comparison in every table's channel, and that the shuffle can be checked in those
    that have not been told: every table but those ``shown``, whose own end said so (the last to
    end; none when the match ended otherwise: closed, a lobby cancelled; after a restart, those
    whose final standings said so or are still to be posted).

    Posted once: two tables ending at the same moment, or a close as the last table ends, each
    come here, and only the one that claims the comparison in the store posts it."""
    try:
        if not games or games[0].match_id is None:
            return
        entries = await _entries(store, kind, games)  # read before the claim: a failed read loses nothing
        comparisons: dict[str, Rendered] = {}  # drawn once per language the channels read
        for game in games:
            language = table_language(presenter.client, game.guild_id, game.options)
            if language not in comparisons:
                with speaking(language):
                    comparisons[language] = comparison_message(kind, games, entries)
        if not await store.claim_comparison(games[0].match_id):
            return
        for game in games:
            language = table_language(presenter.client, game.guild_id, game.options)
            reveal = None
            if game.id not in shown and game.commitment is not None:
                with speaking(language):
                    reveal = _(
                        "🔓 Every table has finished: the shuffle can be checked: {check}.",
                        check=f"`/{kind.key} verify game:{game.id}`",
                    )
            await presenter.announce(game.channel_id, game.guild_id, reveal, comparisons[language])
    except Exception:
        log.exception("duplicate match %s: could not post the comparison", games[0].match_id if games else None)


def _channels(games: list[GameRecord]) -> list[tuple[int, int | None, dict[str, object]]]:
    """Each channel of the match's tables once, with its table's options (its language)."""
    seen: dict[int, tuple[int, int | None, dict[str, object]]] = {}
    for game in games:
        seen.setdefault(game.channel_id, (game.channel_id, game.guild_id, dict(game.options)))
    return list(seen.values())


async def _entries(store: Store, kind: AnyKind, games: list[GameRecord]) -> list[Entry]:
    read: list[tuple[GameRecord, list[DealScore], dict[int, ResultRow]]] = []
    for game in games:
        read.append((game, await store.deal_scores(game.id), {r.seat: r for r in await store.results(game.id)}))
    # seat by seat, the deals every whole table played: a table whose totals tied for first
    # played more, whose cards the others never held, so those compare nobody (and a play-off
    # deal counts for the seats of it only; a table ended early is apart anyway)
    whole = [scores for _, scores, results in read if results]
    seats = {d.seat for scores in whole for d in scores}
    shared = {s: set.intersection(*({d.deal for d in scores if d.seat == s} for scores in whole)) for s in seats}
    out: list[Entry] = []
    for game, scores, results in read:
        for seat in game.seats:
            row = results.get(seat.seat)
            own = [d for d in scores if d.seat == seat.seat]
            if row is None:  # ended early: every deal it played, apart
                score = kind.comparison.score(seat.seat, row, scores)
                out.append(Entry(game, seat.seat, seat.name, score, [d.delta for d in own], complete=False))
                continue
            # (places are not split by deal: a game that compares them has no extra deals to show)
            kept = shared.get(seat.seat, set()) if kind.comparison.points else {d.deal for d in own}
            score = kind.comparison.score(seat.seat, row, scores, kept)
            deals = [d.delta for d in own if d.deal in kept]
            extra = [d.delta for d in own if d.deal not in kept]
            total = kind.comparison.score(seat.seat, row, scores) if extra else None
            out.append(Entry(game, seat.seat, seat.name, score, deals, extra=extra, total=total))
    for entry in out:
        # only whole games compare: a table ended after one deal has played a fraction of the cards
        others = [
            e.score for e in out if e.seat == entry.seat and e is not entry and e.complete and e.score is not None
        ]
        if entry.complete and entry.score is not None and others:
            mean = sum(others) / len(others)
            entry.against = kind.comparison.against(entry.score, mean)
    return out


def comparison_message(kind: AnyKind, games: list[GameRecord], entries: list[Entry]) -> Rendered:
    """The comparison as one message every table's channel can take: within Discord's limits
    (:class:`draw.budget.Budget`: eight tables of seven seats pass 6,000 characters), the whole
    comparison as a text file beside it when some of it had to be left out."""
    budget = Budget()
    in_file_note = translate(IN_FILE)
    budget.reserve(len(in_file_note))
    embed = comparison_embed(kind, games, entries, budget)
    budget.footer(embed, in_file_note.strip(" ·") if budget.cut else "")
    match = games[0].match_id if games else None
    files = [f] if (f := budget.attachment(f"duplicate-match-{match}.txt")) is not None else []
    return Rendered(content=None, embeds=[embed], view=None, files=files)


def comparison_embed(
    kind: AnyKind, games: list[GameRecord], entries: list[Entry], budget: Budget | None = None
) -> discord.Embed:
    """The comparison, each part measured by ``budget`` (one of its own if none is given)."""
    budget = budget if budget is not None else Budget()
    points = kind.comparison.points
    if len(games) == 1:
        title = _("⚖️ Duplicate match: one table (closed before the others came) played the same cards")
    else:
        title = _("⚖️ Duplicate match: {n} tables played the same cards", n=len(games))
    embed = budget.embed(
        title=title,
        description=_("Seat by seat, the same cards at every table.") + " " + translate(kind.comparison.description),
        color=COLOR,
    )
    seats = sorted({e.seat for e in entries})
    for seat in seats[:20]:
        lines = []
        for entry in (e for e in entries if e.seat == seat):
            shown = _shown(entry, points)
            deals = (
                " · " + _("deals {deltas}", deltas=", ".join(f"{d:+d}" for d in entry.deals))
                if points and entry.deals
                else ""
            )
            against = f" ({decimal(entry.against, 1, signed=True)})" if entry.against is not None else ""
            lines.append(f"#{entry.game.id} {entry.name}: {shown}{against}{deals}")
        budget.field(embed, _("Seat {seat}'s cards", seat=seat + 1), lines, tail=in_file)
    ranked = sorted((e for e in entries if e.against is not None), key=lambda e: -(e.against or 0))
    if ranked:
        budget.field(
            embed,
            _("Ranking: score against the others who held the same cards"),
            [
                _(
                    "{place}. {name} (#{game}, seat {seat}): {against}",
                    place=i,
                    name=e.name,
                    game=e.game.id,
                    seat=e.seat + 1,
                    against=decimal(e.against or 0, 1, signed=True),
                )
                for i, e in enumerate(ranked, 1)
            ],
            tail=in_file,
        )
    extra = [e for e in entries if e.extra]
    if extra:
        budget.field(
            embed,
            _("Not compared: extra deals to break a tie (not every table played them)"),
            [
                _(
                    "{name} (#{game}, seat {seat}): {deltas} → total **{total}**",
                    name=e.name,
                    game=e.game.id,
                    seat=e.seat + 1,
                    deltas=", ".join(f"{d:+d}" for d in e.extra),
                    total="-" if e.total is None else number(e.total),
                )
                for e in extra
            ],
            tail=in_file,
        )
    apart = [e for e in entries if not e.complete]
    if apart:
        budget.field(
            embed,
            _("Not ranked: ended early (fewer deals than the others)"),
            [
                _(
                    "{name} (#{game}, seat {seat}): {shown}",
                    name=e.name,
                    game=e.game.id,
                    seat=e.seat + 1,
                    shown=_shown(e, points),
                )
                for e in apart
            ],
            tail=in_file,
        )
    return embed


#: the footer of a comparison the message could not hold whole
IN_FILE = N_(" · the whole comparison is in the attached file")


def in_file(left: int) -> str:
    """The tail of a list the comparison cut short."""
    return _("… {left} more in the attached file", left=left)


def _shown(entry: Entry, points: bool) -> str:
    """An entry's score as the comparison shows it; a table ended early says so."""
    if entry.complete and entry.score is not None:
        return f"**{number(entry.score)}**"
    if points and entry.score is not None:
        return ngettext(
            "**ended early**, {score} after {n} deal",
            "**ended early**, {score} after {n} deals",
            len(entry.deals),
            score=number(entry.score),
        )
    return _("**ended early**")
