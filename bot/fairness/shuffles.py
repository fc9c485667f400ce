"""The provable shuffle at run time: the salt and commitment a game starts with, the decks it
stores, the computers' dice, the lines that show the commitment and reveal the seed, and the
check ``/<game> verify`` runs (with the export the stand-alone ``tools/verify_shuffle.py`` reads).

What is hashed, and why a salt: :mod:`games.common.commitment`. The seed and the salt stay in
the store and in memory only (``GameRecord`` keeps both out of its ``repr``); nothing here logs
them, and they are shown only by ``/<game> verify`` and :func:`export`, both of which refuse a
game that is not over (a duplicate match's shared seed waits for every table: :mod:`bot.tables.secrecy`);
:func:`reveal_line` says, once it is over, that the shuffle can be checked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.fairness.beacon.binding import LABEL, binding_of, deal_seed_of, recheck, said, too_late
from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.messages.errors import Refusal
from bot.seam.contract import AnyKind, LiveTable
from db.records import DealtDeck, GameRecord, MatchRecord
from db.store import Store
from games.common.cards import card_code
from games.common.commitment import SALT_BYTES, commitment, computer_seed, matches
from games.common.engine import Engine, GameError
from locales import _, ngettext, translate

#: the export's ``format`` (tools/verify_shuffle.py reads this one; version 1 had no packs and
#: no deal count, so a checker needed the rules and could not tell a deal was missing; version 2
#: had no draws, so the checker knew each game's order of draws)
EXPORT_FORMAT = "cardtable-shuffle/3"
#: statuses after which the seed may be shown
OVER = ("finished", "cancelled")


#: where every game's seed and salt come from: the operating system's generator. It is the one
#: source of a game's unpredictability, so it is one name: the test suite swaps in a generator
#: seeded by each test's name (tests/conftest.py), so that a test deals the same cards every run.
ENTROPY: random.Random = random.SystemRandom()


def new_seed() -> int:
    """A new game's (or a duplicate match's) deal seed."""
    return ENTROPY.getrandbits(62)


def new_salt() -> bytes:
    """The commitment's salt: from the operating system's generator, like the seed."""
    return ENTROPY.randbytes(SALT_BYTES)


def start_proof(seed: int, salt: bytes, version: int, engine: Engine) -> tuple[str, DealtDeck | None]:
    """At the start: the commitment to show, and the first deck to store with it."""
    return commitment(seed, salt, version), dealt(engine)


def dealt(engine: Engine) -> DealtDeck | None:
    """The current deal's deck as the store keeps it, or None if the game does not keep decks."""
    deck = engine.dealt_deck()
    if deck is None:
        return None
    return DealtDeck(engine.deal_number, [card_code(c) for c in deck])


def computer_seed_of(record: GameRecord, seq: int) -> int:
    """The seed of a computer's dice for move ``seq``: from the game's salt, never from the deal
    seed (an int, so it can be sent to a worker process).

    A game started before salts existed gets fresh randomness from the operating system (its
    computers' choices are stored as actions, so a replay never needs their dice).
    """
    if record.salt is None:
        return ENTROPY.getrandbits(128)
    return computer_seed(bytes.fromhex(record.salt), seq)


def computer_rng(record: GameRecord, seq: int) -> random.Random:
    """A computer's dice for move ``seq`` (see :func:`computer_seed_of`)."""
    return random.Random(computer_seed_of(record, seq))


def is_over(record: GameRecord) -> bool:
    return record.status in OVER


def commitment_line(table: LiveTable) -> str | None:
    """The line shown when the game starts (before any card is dealt), or None without a commitment."""
    digest = table.record.commitment
    if digest is None:
        return None
    return _(
        "🔒 Shuffle commitment: `{digest}`. The seed behind every deal is revealed when the game ends; then"
        " `/{key} verify game:{game}` (or tools/verify_shuffle.py) checks every deck.",
        digest=digest,
        key=table.kind.key,
        game=table.id,
    )


def says_checkable(table: LiveTable) -> bool:
    """Whether the table's game-over message (its standings, or "ended by") tells the channel that
    its shuffle can be checked: what the store keeps so that a restart does not tell it twice."""
    return reveal_line(table) is not None and not table.seed_held


def reveal_line(table: LiveTable) -> str | None:
    """The line saying the shuffle can now be checked, once the game is over (None before, or
    without a commitment; for a duplicate match's table, a line saying the seed waits for the other
    tables). The seed itself is in ``/<game> verify``'s answer and its file."""
    record = table.record
    if not is_over(record) or record.commitment is None or record.seed is None:
        return None
    if table.seed_held:
        # (the ratings wait too: db.stats_sql.SETTLED; a player who sees no ratings here learns why)
        return _(
            "🔒 The shuffle's seed, the comparison and the ratings come when every table of this duplicate match"
            " has finished."
        )
    # The seed, salt and commitment are long numbers nobody reads here: the check (and the file it
    # hands out, which holds them) is one command away.
    return _("🔓 The shuffle can be checked: `/{key} verify game:{game}`.", key=table.kind.key, game=record.id)


@dataclass
class Verdict:
    """The outcome of a check: ``ok`` and the lines that say what was checked (or what failed)."""

    ok: bool
    lines: list[str] = field(default_factory=list)


def beacon_lines(record: GameRecord, chain: Chain = QUICKNET) -> tuple[bool, list[str]]:
    """A game's drand beacon checked again: the round's signature against the pinned key, and the
    commitment's message (its snowflake time) before the round was due; or the label. No lines
    for a game that named no round."""
    binding = binding_of(record)
    if binding is None:
        return True, []
    if not binding.bound:
        return True, [f"⚠️ **{translate(LABEL)}**: {said(binding.unbound)}"]
    refused = recheck(binding, chain)
    if refused is not None:
        return False, [_("❌ drand round {round}: {refused}", round=binding.round, refused=refused)]
    lines = [
        _(
            "✅ drand {chain} round {round}'s signature checks against the chain's pinned key.",
            chain=chain.name,
            round=binding.round,
        )
    ]
    if record.beacon_message_id is None:
        return False, [*lines, _("❌ The message that named the round is not known.")]
    posted = int(discord.utils.snowflake_time(record.beacon_message_id).timestamp())
    due = chain.round_time(binding.round)
    if too_late(binding.round, discord.utils.snowflake_time(record.beacon_message_id).timestamp(), chain):
        return False, [
            *lines,
            _(
                "❌ The commitment was posted at <t:{posted}:T>, after round {round} was due.",
                posted=posted,
                round=binding.round,
            ),
        ]
    return True, [
        *lines,
        _(
            "✅ The commitment was posted (<t:{posted}:T>) before round {round} was due (<t:{due}:T>).",
            posted=posted,
            round=binding.round,
            due=due,
        ),
    ]


def verify(kind: AnyKind, record: GameRecord, stored: list[DealtDeck], chain: Chain = QUICKNET) -> Verdict:
    """Check a finished game: the revealed seed matches the commitment, and replaying the game from
    that seed and its log deals exactly the stored decks, deal by deal. CPU-bound: run it off the
    event loop. The caller refuses a game that is not over (this raises ``ValueError`` then)."""
    if not is_over(record):
        raise ValueError("the seed of a game that is not over stays secret")
    if record.commitment is None or record.salt is None or record.seed is None:
        return Verdict(False, [_("This game was started before shuffles were committed: there is nothing to check.")])
    lines: list[str] = []
    if not matches(record.commitment, record.seed, bytes.fromhex(record.salt), record.rng_version):
        return Verdict(False, [_("❌ The revealed seed and salt do not hash to the commitment shown at the start.")])
    lines.append(_("✅ The revealed seed and salt hash to the commitment shown at the start."))
    beacon_ok, more = beacon_lines(record, chain)
    lines += more
    if not beacon_ok:
        return Verdict(False, lines)
    try:
        replayed = {deal: deck for deal, (deck, _) in _replayed_decks(kind, record).items()}
    except GameError as error:
        return Verdict(False, [*lines, _("❌ Replaying the stored moves from the seed failed: {error}", error=error)])
    stored_by_deal = {d.deal: d.deck for d in stored}
    if sorted(stored_by_deal) != sorted(replayed):
        return Verdict(
            False,
            [
                *lines,
                ngettext(
                    "❌ {played} played from the seed, but {n} deck stored.",
                    "❌ {played} played from the seed, but {n} decks stored.",
                    len(stored),
                    played=ngettext("{n} deal", "{n} deals", len(replayed)),
                ),
            ],
        )
    for number in sorted(replayed):
        if replayed[number] != stored_by_deal[number]:
            return Verdict(
                False,
                [*lines, _("❌ Deal {number}: the stored deck is not the one the seed deals.", number=number)],
            )
    beacon = record.beacon_signature is not None
    if len(replayed) == 1 and beacon:
        lines.append(_("✅ The 1 stored deck is the one the seed and the round deal."))
    elif len(replayed) == 1:
        lines.append(_("✅ The 1 stored deck is the one the seed deals."))
    elif beacon:
        lines.append(
            _("✅ All {n} stored decks are the ones the seed and the round deal, deal by deal.", n=len(replayed))
        )
    else:
        lines.append(_("✅ All {n} stored decks are the ones the seed deals, deal by deal.", n=len(replayed)))
    return Verdict(True, lines)


def _replayed_decks(kind: AnyKind, record: GameRecord) -> dict[int, tuple[list[str], list[str]]]:
    """Every deal the game had, replayed from its seed and moves: its deck as dealt and its pack
    (the cards before the shuffle, in the order the generator shuffles them)."""
    assert record.seed is not None
    rules = kind.rules_from_json(record.rules or {})
    engine = kind.engine.new(rules, len(record.seats), deal_seed_of(record), rng_version=record.rng_version)
    decks: dict[int, tuple[list[str], list[str]]] = {}

    def note(game: Engine) -> None:
        deal = dealt(game)
        if deal is not None and deal.deal not in decks:
            decks[deal.deal] = deal.deck, [card_code(c) for c in game.pack() or ()]

    note(engine)
    for seat, action in record.actions:
        engine, _ = engine.apply(seat, action)
        note(engine)
    return decks


def export(kind: AnyKind, record: GameRecord, stored: list[DealtDeck]) -> dict[str, Any]:
    """What tools/verify_shuffle.py checks (format ``cardtable-shuffle/3``): the revealed seed and
    salt, the commitment, how many deals the game had (replayed from its seed and moves), every
    stored deck with the pack it was shuffled from, and how the game draws on its seed (the
    engine's ``DRAWS_BEFORE_SHUFFLE`` and ``LEGACY_SHUFFLE``), so the checker needs no game's
    rules (they ride along for the reader). Only for a game that is over; CPU-bound (a replay)."""
    if not is_over(record):
        raise ValueError("the seed of a game that is not over stays secret")
    try:
        replayed = _replayed_decks(kind, record)
    except GameError:
        replayed = {}  # the stored moves do not replay: /verify says so; the file holds what is stored
    packs = {deal: pack for deal, (_, pack) in replayed.items()}
    return {
        "format": EXPORT_FORMAT,
        "game": record.id,
        "kind": record.kind,
        "generator": record.rng_version,
        "players": len(record.seats),
        "draws_before_shuffle": kind.engine.DRAWS_BEFORE_SHUFFLE,
        "generator_1_shuffle": kind.engine.LEGACY_SHUFFLE,
        "commitment": record.commitment,
        "seed": record.seed,
        "salt": record.salt,
        "deal_count": len(replayed),
        "deals": [
            {"deal": d.deal, "pack": packs.get(d.deal, []), "deck": d.deck}
            for d in sorted(stored, key=lambda d: d.deal)
        ],
        "rules": record.rules or {},
        "beacon": beacon_export(record),
    }


def beacon_export(record: GameRecord) -> dict[str, Any] | None:
    """The file's ``beacon``: the drand round the decks are bound to and what checks it offline (the
    chain's hash, the round, its signature, the commitment message's id, whose snowflake holds its
    time), or the label and why; None for a game that named no round. Each deal's generator seed is
    SHA-256(b"cardtable/beacon/v1" + seed as 32 bytes + SHA-256(signature)) when bound."""
    binding = binding_of(record)
    if binding is None:
        return None
    return {
        "chain": QUICKNET.name,
        "chain_hash": QUICKNET.hash,
        "round": binding.round,
        "signature": binding.signature,
        "message_id": record.beacon_message_id,
        "label": binding.label,
        "note": binding.unbound,
    }


# -- duplicate matches -----------------------------------------------------------------------------
async def match_deal(store: Store, table: LiveTable, rules: dict[str, Any], players: int) -> tuple[int, bytes]:
    """A match's table starts: the first to start fixes the rules and player count, every other
    must have the same; all deal from the match's seed and salt. Raises :class:`Refusal`."""
    assert table.record.match_id is not None
    match = await store.get_match(table.record.match_id)
    if match is None:
        raise Refusal(_("This table's duplicate match no longer exists."))
    match = await store.fix_match_rules(match.id, rules, players)
    if match.players != players:
        raise Refusal(
            _(
                "Every table of this duplicate match seats {players} players (the first table to start did);"
                " {here} are seated here.",
                players=match.players,
                here=players,
            )
        )
    if match.rules != rules:
        first = match.rules or {}
        differ = "; ".join(
            _(
                "{rule} {there} there, {here} here",
                rule=key,
                there=_rule_value(first.get(key)),
                here=_rule_value(rules.get(key)),
            )
            for key in sorted(set(first) | set(rules))
            if first.get(key) != rules.get(key)
        )
        raise Refusal(
            _(
                "This table's rules differ from the ones the match's first table started with ({differ}): use the"
                " same preset and /{key} set options here.",
                differ=differ,
                key=table.kind.key,
            )
        )
    return match.seed, bytes.fromhex(match.salt)


def _rule_value(value: Any) -> str:
    """A stored rule's value as ``/<game> set`` takes it (a list as ``3,2``, a switch as on/off)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "none" if value is None else str(value)


async def match_over(store: Store, record: GameRecord) -> tuple[bool, list[GameRecord]]:
    """Whether every table of ``record``'s match is over (all joined, or the match closed with the
    tables it had, and finished or ended), and the tables."""
    assert record.match_id is not None
    match = await store.get_match(record.match_id)
    games = await store.match_games(record.match_id)
    return match_done(match, games), games


def match_done(match: MatchRecord | None, games: list[GameRecord]) -> bool:
    """The one rule for when a match is over (:data:`db.stats_sql.SETTLED` says it in SQL): every
    table it will have has opened, all it was made for or those it had when closed, and is over."""
    full = match is not None and (len(games) >= match.tables or match.closed_at is not None)
    return full and bool(games) and all(is_over(g) for g in games)
