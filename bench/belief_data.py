"""Training positions for a belief model of the unseen Oh Hell cards, by self-play.

Every seat is the project's quick computer (``games.ohhell.ai``, level ``quick``: the closed-form
bid and the playout policy), over whole games of the presets played with the 52-card pack
(classic and spades with 3 to 7 players; bowers and oh-shit with 3 to 5), the preset and the table
size drawn per game from the run's seed. At each decision (kept with probability ``--keep``) the
acting seat's knowledge is stored as integer arrays indexed by the standard card index
``suit * 13 + rank position`` (2 .. ace) (:func:`encode`), with the true place of every card it cannot see: a
seat, or the stock (class 7). The seat numbers are the deal's own (0..players-1).

With ``--sampler-worlds W`` each kept position also stores where today's world sampler puts the
unseen cards: ``W`` worlds drawn by :meth:`Knowledge.worlds` exactly as the strong computer draws
them (the strong setting's models of the bids and plays, ``oversample`` 4, its ``sigma``), counted
per card and class (integer counts: the resampled worlds' weights are multiples of ``1/W``).

Output: shards ``OUT/shard-SEED-NNNNN.npz``; a rerun skips the shards already written (resumable),
and every shard depends only on the seed and its number. Run::

    python -m bench.belief_data --out data/belief/train --seed 1 --positions 1000000
    python -m bench.belief_data --out data/belief/held --seed 1001 --positions 100000 --sampler-worlds 200 --keep 0.2

``--quick`` stores 20 positions or so (one game a shard). The last line is
``positions=N shards=S rate=R positions/s`` (the positions this run made per
second of processor time, one core).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.common.cards import STANDARD_RANKS, parse_card, rank_of, suit_of  # noqa: E402
from games.ohhell.ai import ai_view, choose_action, info_from_view  # noqa: E402
from games.ohhell.ai.infostate import BID, InfoState  # noqa: E402
from games.ohhell.ai.players import DEFAULT_STRONG  # noqa: E402
from games.ohhell.ai.sampling import Knowledge  # noqa: E402
from games.ohhell.game import OhHell  # noqa: E402
from games.ohhell.rules import make_rules  # noqa: E402

#: (preset, players) the model covers: the 52-card pack's games
TABLES = [(p, n) for p in ("classic", "spades") for n in range(3, 8)] + [
    (p, n) for p in ("bowers", "oh-shit") for n in range(3, 6)
]
PRESET_IDS = {"classic": 0, "oh-shit": 1, "bowers": 2, "spades": 3}
STOCK = 7
#: meta columns
META = ("preset", "players", "seat", "dealer", "hand_size", "trump", "phase", "bowers", "plays", "move", "hook")
GAMES_PER_SHARD = 8


_RANK_POS = {r: i for i, r in enumerate(STANDARD_RANKS)}


def std_index(card: int) -> int:
    return suit_of(card) * 13 + _RANK_POS[rank_of(card)]


def encode(info: InfoState, k: Knowledge) -> dict[str, np.ndarray]:
    """The acting seat's knowledge as integer arrays (one position; see the module)."""
    t = k.table
    n = info.players
    std = [std_index(c) for c in t.cards]
    seen = np.zeros(52, np.int8)  # 0 unseen, 1 own hand, 2 played, 3 known elsewhere (dead, shown)
    allowed = np.zeros(52, np.uint8)  # bit p: seat p may hold it; bit 7: the stock
    pseat = np.full(52, -1, np.int8)
    porder = np.full(52, -1, np.int8)
    need = np.zeros(8, np.int8)
    for p in range(n):
        need[p] = k.need[p]
    stock = k.unseen.bit_count() - sum(k.need)
    need[STOCK] = stock
    for i in range(t.n):
        b = 1 << i
        s = std[i]
        if k.unseen & b:
            m = 0
            for p in range(n):
                if k.need[p] and k.allowed[p] & b:
                    m |= 1 << p
            if stock > 0:
                m |= 1 << STOCK
            allowed[s] = m
        elif k.known[info.seat] & b:
            seen[s] = 1
        else:
            seen[s] = 3
    for j, (_, play) in enumerate(info.all_plays()):
        s = std[t.index[play.card]]
        seen[s] = 2
        pseat[s] = play.seat
        porder[s] = j
    bids = np.array([-1 if b is None else b for b in info.bids] + [-1] * (7 - n), np.int8)
    won = np.array(list(info.won) + [0] * (7 - n), np.int8)
    meta = np.zeros(len(META), np.int8)
    meta[1], meta[2], meta[3], meta[4] = n, info.seat, info.dealer, info.hand_size
    meta[5] = -1 if info.trump is None else info.trump
    meta[6] = 0 if info.phase == BID else 1
    meta[7] = int(info.bowers)
    meta[8] = len(info.all_plays())
    meta[10] = int(info.hook and not info.simultaneous)
    return {
        "meta": meta,
        "bids": bids,
        "won": won,
        "seen": seen,
        "allowed": allowed,
        "need": need,
        "pseat": pseat,
        "porder": porder,
    }


def truth_of(game: OhHell, order: list[int], info: InfoState, seen: np.ndarray) -> np.ndarray:
    """The true class of every card the seat cannot see (-1 elsewhere)."""
    truth = np.full(52, -1, np.int8)
    where = {}
    for local, s in enumerate(order):
        for c in game.tricks.hand(s):  # the engine's own record: the label, never an input
            where[std_index(c)] = local
    for s in np.flatnonzero(seen == 0):
        truth[s] = where.get(int(s), STOCK)
    return truth


def sampler_counts(info: InfoState, worlds: int, rng: random.Random) -> np.ndarray:
    """Where today's sampler puts each card: ``worlds`` worlds drawn as the strong computer
    draws them, counted per standard card index and class (the stock: not in any hand)."""
    cfg = DEFAULT_STRONG
    k = Knowledge.build(info)
    cfg.fit(k)
    sigma = cfg.bid_sigma * (0.5 + 0.05 * info.hand_size)
    t = k.table
    std = [std_index(c) for c in t.cards]
    counts = np.zeros((52, 8), np.int32)
    unseen_bits = [i for i in range(t.n) if k.unseen >> i & 1]
    got = 0
    for hands, w in k.worlds(rng, worlds, oversample=cfg.oversample, sigma=sigma):
        times = round(w * worlds)
        got += times
        for i in unseen_bits:
            b = 1 << i
            cls = STOCK
            for p, h in enumerate(hands):
                if p != info.seat and h & b:
                    cls = p
                    break
            counts[std[i], cls] += times
    assert got == worlds, (got, worlds)
    return counts


def play_shard(
    seed: int, shard: int, keep: float, sampler_worlds: int, games: int = GAMES_PER_SHARD
) -> dict[str, np.ndarray]:
    """The positions of ``games`` whole games (shard ``shard`` of the seed's run)."""
    rows: dict[str, list[np.ndarray]] = {}
    for g in range(games):
        game_no = shard * GAMES_PER_SHARD + g
        rng = random.Random(seed * 1_000_003 + game_no)
        preset, n = rng.choice(TABLES)
        game = OhHell.new(make_rules(preset), n, rng.randrange(1 << 30))
        seat_rngs = [random.Random(rng.randrange(1 << 30)) for _ in range(n)]
        keep_rng = random.Random(rng.randrange(1 << 30))
        while not game.is_over:
            seat = game.to_act()[0]
            view = ai_view(game, seat)
            action = choose_action(view, "quick", seat_rngs[seat])
            if keep_rng.random() < keep:
                info = info_from_view(view)
                k = Knowledge.build(info)
                row = encode(info, k)
                if (row["seen"] == 0).any() and len(view["players"]) == n:
                    order = list(view["players"])
                    row["meta"][0] = PRESET_IDS[preset]
                    if action["type"] == "bid":
                        row["meta"][9] = int(action["bid"])
                    else:
                        row["meta"][9] = std_index(parse_card(str(action["card"])))
                    row["truth"] = truth_of(game, order, info, row["seen"])
                    if sampler_worlds:
                        srng = random.Random(keep_rng.randrange(1 << 30))
                        row["sampler"] = sampler_counts(info, sampler_worlds, srng).astype(np.uint16)
                    for key, v in row.items():
                        rows.setdefault(key, []).append(v)
            game.apply(seat, action)
    return {key: np.stack(v) for key, v in rows.items()}


def load(directory: str | Path, limit: int | None = None) -> dict[str, np.ndarray]:
    """Every shard under ``directory``, concatenated in shard order (the first ``limit`` positions)."""
    parts: dict[str, list[np.ndarray]] = {}
    total = 0
    for f in sorted(Path(directory).glob("shard-*.npz")):
        with np.load(f) as z:
            for key in z.files:
                parts.setdefault(key, []).append(z[key])
            total += len(z["meta"])
        if limit is not None and total >= limit:
            break
    out = {key: np.concatenate(v) for key, v in parts.items()}
    if limit is not None:
        out = {key: v[:limit] for key, v in out.items()}
    return out


def generate(
    out: str | Path, seed: int, positions: int, keep: float = 1.0, sampler_worlds: int = 0, games: int = GAMES_PER_SHARD
) -> tuple[int, int, int]:
    """Shards until ``positions`` are stored (existing shards count and are kept); (positions,
    shards, positions made by this call)."""
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    total = 0
    shard = 0
    made = 0
    while total < positions:
        f = d / f"shard-{seed}-{shard:05d}.npz"
        if f.exists():
            with np.load(f) as z:
                total += len(z["meta"])
        else:
            data = play_shard(seed, shard, keep, sampler_worlds, games)
            tmp = d / f".tmp-{seed}-{shard:05d}.npz"
            np.savez_compressed(tmp, **data)
            tmp.rename(f)
            total += len(data["meta"])
            made += len(data["meta"])
            print(f"shard {shard} positions {total}", flush=True)
        shard += 1
    return total, shard, made


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="the shards' folder (required, but with --quick: a temporary one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=1_000_000)
    ap.add_argument("--keep", type=float, default=1.0, help="share of the decisions stored")
    ap.add_argument("--sampler-worlds", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="one game a shard, a few positions")
    a = ap.parse_args(argv)
    if a.out is None and not a.quick:
        ap.error("--out is required (the folder of the shards)")
    if a.quick:
        a.positions = min(a.positions, 20)
    with tempfile.TemporaryDirectory() as scratch:
        out = a.out if a.out is not None else scratch
        start = time.process_time()
        n, shards, made = generate(
            out, a.seed, a.positions, a.keep, a.sampler_worlds, 1 if a.quick else GAMES_PER_SHARD
        )
    dt = max(1e-9, time.process_time() - start)
    # processor time: the rate one free core gives, whatever else shares the machine
    print(f"made={made} in {dt:.0f} s cpu")
    print(f"positions={n} shards={shards} rate={made / dt:.1f} positions/s")


if __name__ == "__main__":
    main()
