"""Scoring a deal and what comes after it: the game's record of scored deals, its totals, and which
deal comes next (the schedule's next one, an extra deal or a play-off deal to settle a tie, or
none: the game is over).

:class:`GameRecord` keeps what outlives a deal; the figures derived from it (history, standings,
tie-breaks, per-seat stats) are the plain functions of :mod:`games.ohhell.results`, and the
scorers those of :mod:`games.ohhell.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.common.cards import Card
from games.common.engine import Event
from games.compiled import load
from games.ohhell.bidding import Bidding
from games.ohhell.deal import Deal
from games.ohhell.events import ExtraDeal, PlayoffStarted, event
from games.ohhell.results import (
    DealLog,
    DealRecord,
    HistoryEntry,
    PlayedTrick,
    Standing,
    history_entry,
    standings,
    tie_keys,
    tied_groups,
)
from games.ohhell.rules import PLAYOFF_HAND
from games.ohhell.scoring import REVOKE_SCORE
from games.ohhell.tables import GameSetup
from games.ohhell.tricks import Tricks

if TYPE_CHECKING:
    from games.ohhell import fast_loops
else:  # the compiled copy where it is current (games.compiled)
    fast_loops = load("games.ohhell.fast_loops")


#: the deal to deal after a scored one: (kind "normal" | "extra" | "playoff", hand size, dealer,
#: the seats dealt to); a plain tuple, one a deal (a NamedTuple's constructor costs a Python frame)
NextDeal = tuple[str, int, int, list[int]]


class GameRecord:
    """The scored deals and the totals, and how far the schedule and the tie deals have gone."""

    __slots__ = (
        "setup", "totals", "deal_records", "playoff_scores", "deal_logs", "history_built", "schedule_index",
        "extra_deals", "playoff_deals",
    )  # fmt: skip

    setup: GameSetup
    totals: list[int]
    deal_records: list[DealRecord]
    playoff_scores: list[list[int]]  # per seat, its score in each play-off deal it played
    deal_logs: list[DealLog]  # the finished deals' actions (kept per deal: one append a trick)
    #: the history entries of the first deal_records, built when a view first asks for them
    history_built: tuple[HistoryEntry, ...]
    schedule_index: int  # index in setup.hand_sizes of the last scheduled deal dealt
    extra_deals: int
    playoff_deals: int

    def __init__(self, setup: GameSetup) -> None:
        n = setup.seat_count
        self.setup = setup
        self.totals = [0] * n
        self.deal_records = []
        self.playoff_scores = [[] for _ in range(n)]
        self.deal_logs = []
        self.history_built = ()
        self.schedule_index = 0
        self.extra_deals = 0
        self.playoff_deals = 0

    def copy(self) -> GameRecord:
        other = object.__new__(GameRecord)
        other.setup, other.history_built, other.schedule_index = self.setup, self.history_built, self.schedule_index
        other.extra_deals, other.playoff_deals = self.extra_deals, self.playoff_deals
        other.totals = self.totals[:]
        other.deal_records = self.deal_records[:]
        other.playoff_scores = [p[:] for p in self.playoff_scores]
        other.deal_logs = self.deal_logs[:]
        return other

    # -- the end of a deal ----------------------------------------------------------------

    def score(self, deal: Deal, bidding: Bidding, tricks: Tricks, events: list[Event] | None) -> None:
        """Score the deal just played and keep its record and its log."""
        books = tricks.books
        if books.revokes:
            books.reveal_all(events)
        totals = self.totals
        bids, won, revoked = bidding.bids, tricks.won, books.revoked
        scores = fast_loops.score_seats(
            deal.players, bids, won, revoked, self.setup.score_table, REVOKE_SCORE, self.setup.seat_count,
            self.playoff_scores if deal.kind == "playoff" else None, totals,
        )  # fmt: skip
        # the deal's lists are never changed again (the next deal makes new ones): keep them.
        # tuple.__new__ is the NamedTuples' own constructor without their Python-level __new__
        # (a frame less a deal: random playouts score thousands a second)
        record: DealRecord = tuple.__new__(DealRecord, (
            deal.number, deal.kind, deal.hand_size, deal.dealer, deal.trump, bids, won, scores, revoked,
            books.revokes,
        ))  # fmt: skip
        self.deal_records.append(record)
        self.deal_logs.append(tuple.__new__(DealLog, (deal.players, bidding.order, tricks.finished)))
        if events is not None:
            events.append(event("deal_scored", {**history_entry(record), "totals": totals[:]}))

    def next_deal(self, deal: Deal, events: list[Event] | None) -> NextDeal | None:
        """After ``deal`` (just scored): the next scheduled deal; after the last, an extra deal
        for a tie for the lead or a play-off deal for a tie anywhere (``rules.ties``), up to
        ``rules.max_tie_deals``; else None: the game is over."""
        setup = self.setup
        n = setup.seat_count
        next_dealer = (deal.dealer + 1) % n
        if deal.kind == "normal" and self.schedule_index + 1 < len(setup.hand_sizes):
            self.schedule_index += 1
            return "normal", setup.hand_sizes[self.schedule_index], next_dealer, setup.seat_orders[0]
        rules = setup.rules
        if rules.ties == "extra-hand":
            top = max(self.totals)
            leaders = [s for s in range(n) if self.totals[s] == top]
            if len(leaders) > 1 and self.extra_deals < rules.max_tie_deals:
                self.extra_deals += 1
                if events is not None:
                    extra: ExtraDeal = {"leaders": leaders, "total": top, "hand_size": setup.hand_sizes[-1]}
                    events.append(event("extra_deal", extra))
                return "extra", setup.hand_sizes[-1], next_dealer, setup.seat_orders[0]
            return None
        groups = tied_groups(self.tie_keys())
        if groups and self.playoff_deals < rules.max_tie_deals:
            group = groups[0]
            self.playoff_deals += 1
            hand_size = min(PLAYOFF_HAND, setup.deck_size // len(group))
            dealer = next_dealer
            while dealer not in group:
                dealer = (dealer + 1) % n
            if events is not None:
                playoff: PlayoffStarted = {"seats": group, "total": self.totals[group[0]], "hand_size": hand_size}
                events.append(event("playoff_started", playoff))
            return "playoff", hand_size, dealer, group
        return None

    # -- reading the record ---------------------------------------------------------------

    def history_entries(self) -> tuple[HistoryEntry, ...]:
        """Every scored deal's :class:`HistoryEntry`, each built once (read-only, shared).

        Why: the bot builds a view for the table and for each seat after every move, and each
        view holds the whole history; building every entry again for each made the history most
        of a view's cost late in a game (``python bench/views.py``). The entries are built here
        when first asked for, not when the deal is scored: the search's playouts score deals by
        the thousand and never look at them. ``deal_records`` only grows (a copy copies it), so
        the entries built so far stay those of its first records."""
        built = self.history_built
        records = self.deal_records
        if len(built) != len(records):
            if len(built) > len(records):  # never, while records only grow; rebuilt to be safe
                built = ()
            built = self.history_built = built + tuple(map(history_entry, records[len(built) :]))
        return built

    def tie_keys(self) -> list[tuple[int, ...]]:
        return tie_keys(self.setup.rules.ties, self.totals, self.deal_records, self.playoff_scores)

    def standings(self) -> list[Standing]:
        """The final standings (see :func:`games.ohhell.results.standings`)."""
        return standings(self.setup.rules.ties, self.totals, self.deal_records, self.playoff_scores)

    def final_standings(self) -> list[dict[str, Any]]:
        """Each seat's place and total, seat by seat, the last place's seats marked (the bot's
        shape, shared by every game: :meth:`games.common.engine.Engine.final_standings`)."""
        ranked = self.standings()
        last = max(s["rank"] for s in ranked)
        return [
            {"seat": s["seat"], "place": s["rank"], "total": s["total"], "is_loser": s["rank"] == last and last > 1}
            for s in sorted(ranked, key=lambda s: s["seat"])
        ]

    def result_lines(self, names: Sequence[str]) -> list[str]:
        """Each deal's bids, tricks and scores, then the final ranks and totals."""
        lines = []
        for entry in self.history_entries():
            scores = ", ".join(
                f"{names[seat]} {bid}/{tricks} {score:+d}"
                for seat, (bid, tricks, score) in enumerate(
                    zip(entry["bids"], entry["tricks"], entry["scores"], strict=True)
                )
                if score is not None
            )
            lines.append(f"deal {entry['deal']}: {scores or 'no points'}")
        for s in sorted(self.standings(), key=lambda s: (s["rank"], s["seat"])):
            lines.append(f"{s['rank']}. {names[s['seat']]} {s['total']}")
        return lines

    def last_deal_hands(self) -> dict[int, list[Card]] | None:
        """The last scored deal's hands, rebuilt from its tricks (every card of a hand is played)."""
        if not self.deal_logs:
            return None
        players, _, tricks = self.deal_logs[-1]
        hands: dict[int, list[Card]] = {seat: [] for seat in players}
        for leader, cards, _, _ in tricks:
            start = players.index(leader)
            for k, card in enumerate(cards):
                hands[players[(start + k) % len(players)]].append(card)
        return hands

    def last_trick(self, tricks: Tricks) -> tuple[PlayedTrick, int, list[int]] | None:
        """The latest finished trick, with its deal's number and seats: this deal's (``tricks``),
        or until its first trick is won the previous deal's last one (None before any)."""
        if tricks.finished:
            return tricks.finished[-1], tricks.deal.number, tricks.deal.players
        if not self.deal_logs:
            return None
        players, _, finished = self.deal_logs[-1]
        return finished[-1], tricks.deal.number - 1, players
