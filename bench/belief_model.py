"""A belief model of where the unseen Oh Hell cards are: features and the numpy forward pass.

Per position (the arrays of :mod:`bench.belief_data`), every unseen card gets a distribution
over eight classes (the deal's seats 0..6 and the stock, class 7), masked by what the seat knows
(a seat that showed out of a suit, a seat with no unknown card left, no stock): a small MLP scores
each (card, class) pair from hand-made features (the card's trumpness and rank within its suit, the
suit's cards seen, the class's seat position, bid, tricks taken and cards still held, what that
seat played, led, discarded and ruffed), a masked softmax per card turns the scores into
probabilities, and a few Sinkhorn steps scale each class so that its expected count of unseen
cards equals the cards it holds (the stock its size).

The training model (``bench/train_belief.py``, PyTorch) computes exactly :func:`forward`; the
bot would load the weights from a small ``.npz`` (:func:`load_weights`) and run :func:`forward` in
numpy. ``games/`` runs on the standard library alone, so this module stays in ``bench/`` until
the bot's install takes numpy (or a pure-Python forward pass is written).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.common.cards import STANDARD_RANKS, make_card
from games.ohhell.ai.table import effective

NCLS = 8
STOCK = 7
SINKHORN_STEPS = 5
NEG = -1e9


def _suit_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per (trump + 1, bowers): each standard card's effective suit and its rank within that
    suit scaled to 0..1."""
    esuit = np.zeros((5, 2, 52), np.int64)
    rank = np.zeros((5, 2, 52), np.float32)
    for ti, trump in enumerate((None, 0, 1, 2, 3)):
        for bw in (0, 1):
            keyed = []
            for s in range(4):
                for r_i, r in enumerate(STANDARD_RANKS):
                    es, pw = effective(make_card(r, s), trump, bool(bw))
                    keyed.append((s * 13 + r_i, es, pw))
            for es in range(4):
                members = sorted((pw, i) for i, e, pw in keyed if e == es)
                for pos, (_, i) in enumerate(members):
                    esuit[ti, bw, i] = es
                    rank[ti, bw, i] = pos / max(1, len(members) - 1)
    return esuit, rank


ESUIT, RANK = _suit_tables()


def features(d: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(features [B, 52, 8, F] float32, mask [B, 52, 8] bool) of a batch of positions."""
    meta = d["meta"].astype(np.int64)
    B = len(meta)
    n = meta[:, 1]
    me = meta[:, 2]
    dealer = meta[:, 3]
    hs = np.maximum(1, meta[:, 4]).astype(np.float32)
    trump = meta[:, 5]
    phase = meta[:, 6].astype(np.float32)
    nplays = meta[:, 8]
    ti = trump + 1
    es = ESUIT[ti, meta[:, 7]]  # [B, 52]
    rk = RANK[ti, meta[:, 7]]
    seen = d["seen"]
    unseen = seen == 0
    own = seen == 1
    played = seen == 2
    bi = np.arange(B)[:, None]
    suits = np.arange(4)
    ins = es[:, :, None] == suits  # [B, 52, 4]
    cnt_unseen = (ins & unseen[:, :, None]).sum(1)  # [B, 4]
    cnt_played = (ins & played[:, :, None]).sum(1)
    cnt_own = (ins & own[:, :, None]).sum(1)
    same = es[:, :, None] == es[:, None, :]  # [B, 52, 52]
    higher = same & (rk[:, None, :] > rk[:, :, None])
    hi_unseen = (higher & unseen[:, None, :]).sum(2)
    hi_own = (higher & own[:, None, :]).sum(2)
    hi_notplayed = (higher & ~played[:, None, :]).sum(2)
    is_trump = (es == trump[:, None]).astype(np.float32)
    card_f = np.stack(
        [
            is_trump,
            rk,
            np.take_along_axis(cnt_unseen, es, 1) / 13.0,
            np.take_along_axis(cnt_played, es, 1) / 13.0,
            np.take_along_axis(cnt_own, es, 1) / 13.0,
            hi_unseen / 13.0,
            hi_own / 13.0,
            (hi_notplayed == 0).astype(np.float32),
        ],
        -1,
    ).astype(np.float32)  # [B, 52, Fc]

    # the classes: seats (relative to the actor) and the stock
    cls = np.arange(NCLS)
    is_seat = cls[None, :] < n[:, None]
    rel = np.where(is_seat, (cls[None, :] - me[:, None]) % np.maximum(1, n[:, None]), 0)
    rel_oh = (rel[:, :, None] == np.arange(1, 7)).astype(np.float32) * is_seat[:, :, None]
    need = d["need"].astype(np.float32)
    total_unseen = np.maximum(1, unseen.sum(1)).astype(np.float32)
    bids = np.concatenate([d["bids"].astype(np.float32), np.full((B, 1), -1, np.float32)], 1)
    won = np.concatenate([d["won"].astype(np.float32), np.zeros((B, 1), np.float32)], 1)
    has_bid = (bids >= 0).astype(np.float32)
    bid = np.maximum(bids, 0)
    want = np.maximum(0.0, bid - won) * has_bid
    fair = hs / np.maximum(1, n)
    # plays: each played card's seat, its trick's led suit, ruffs and discards
    pseat = d["pseat"].astype(np.int64)
    porder = d["porder"].astype(np.int64)
    order_card = np.full((B, 96), -1, np.int64)
    pb, pc = np.nonzero(porder >= 0)
    order_card[pb, porder[pb, pc]] = pc
    lead_order = (porder[pb, pc] // n[pb]) * n[pb]
    led_card = order_card[pb, lead_order]
    led_suit = es[pb, led_card]
    my_suit = es[pb, pc]
    p = pseat[pb, pc]
    is_lead = porder[pb, pc] == lead_order
    follow = my_suit == led_suit
    ruff = ~follow & (my_suit == trump[pb])
    discard = ~follow & ~ruff
    played_s = np.zeros((B, NCLS, 5), np.float32)
    led_s = np.zeros((B, NCLS, 5), np.float32)
    disc_s = np.zeros((B, NCLS, 5), np.float32)
    top_s = np.zeros((B, NCLS, 5), np.float32)
    ruffs = np.zeros((B, NCLS), np.float32)
    np.add.at(played_s, (pb, p, my_suit), 1.0)
    np.add.at(led_s, (pb, p, my_suit), is_lead.astype(np.float32))
    np.add.at(disc_s, (pb, p, my_suit), discard.astype(np.float32))
    np.maximum.at(top_s, (pb, p, my_suit), rk[pb, pc])
    np.add.at(ruffs, (pb, p), ruff.astype(np.float32))
    in_current = np.zeros((B, NCLS), np.float32)
    cur_start = (nplays // np.maximum(1, n)) * n
    cur = porder >= cur_start[:, None]
    cb, cc = np.nonzero(cur & (porder >= 0))
    in_current[cb, pseat[cb, cc]] = 1.0
    seat_f = np.concatenate(
        [
            (~is_seat).astype(np.float32)[:, :, None],
            rel_oh,
            np.stack(
                [
                    np.minimum(need / hs[:, None], 2.0),
                    need / total_unseen[:, None],
                    has_bid,
                    bid / hs[:, None],
                    won / hs[:, None],
                    want / hs[:, None],
                    (bid - fair[:, None]) * has_bid / hs[:, None],
                    want / np.maximum(1.0, need),
                    ((cls[None, :] == dealer[:, None]) & is_seat).astype(np.float32),
                    in_current,
                    ruffs / hs[:, None],
                    np.broadcast_to((n / 7.0)[:, None], (B, NCLS)),
                    np.broadcast_to((hs / 13.0)[:, None], (B, NCLS)),
                    np.broadcast_to(phase[:, None], (B, NCLS)),
                    np.broadcast_to((1.0 - nplays / np.maximum(1, n) / hs)[:, None], (B, NCLS)),
                ],
                -1,
            ),
        ],
        -1,
    ).astype(np.float32)  # [B, 8, Fs]
    esx = es[:, :, None].repeat(NCLS, 2)  # [B, 52, 8]
    clsx = np.broadcast_to(cls[None, None, :], (B, 52, NCLS))
    bb = np.broadcast_to(bi[:, :, None], (B, 52, NCLS))
    pair_f = np.stack(
        [
            played_s[bb, clsx, esx] / 13.0,
            led_s[bb, clsx, esx] / hs[:, None, None],
            top_s[bb, clsx, esx],
            disc_s[bb, clsx, esx] / 13.0,
            (rk[:, :, None] < top_s[bb, clsx, esx]).astype(np.float32),
        ],
        -1,
    )
    feats = np.concatenate(
        [
            np.broadcast_to(card_f[:, :, None, :], (B, 52, NCLS, card_f.shape[-1])),
            np.broadcast_to(seat_f[:, None, :, :], (B, 52, NCLS, seat_f.shape[-1])),
            pair_f,
        ],
        -1,
    ).astype(np.float32)
    allowed = d["allowed"].astype(np.int64)
    mask = ((allowed[:, :, None] >> cls) & 1).astype(bool) & unseen[:, :, None]
    return feats, mask


N_FEATURES = 8 + 7 + 15 + 5


def _logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def sinkhorn(logits: np.ndarray, mask: np.ndarray, need: np.ndarray, steps: int = SINKHORN_STEPS) -> np.ndarray:
    """Log-probabilities [B, 52, 8]: masked softmax per card, then ``steps`` rounds scaling each
    class's column to its count (``need``) and the rows back to 1."""
    x = np.where(mask, logits, NEG)
    row = mask.any(2, keepdims=True)
    x = x - _logsumexp(x, 2)
    logneed = np.log(np.maximum(need.astype(np.float64), 1e-9))[:, None, :]
    for _ in range(steps):
        col = _logsumexp(np.where(mask, x, NEG), 1)
        x = np.where(mask, x + logneed - col, NEG)
        x = x - _logsumexp(x, 2)
    return np.where(row & mask, x, NEG)


def forward(w: dict[str, np.ndarray], feats: np.ndarray, mask: np.ndarray, need: np.ndarray) -> np.ndarray:
    """Log-probabilities [B, 52, 8] of every card's class (NEG where masked)."""
    h = np.maximum(0.0, feats @ w["w1"] + w["b1"])
    h = np.maximum(0.0, h @ w["w2"] + w["b2"])
    logits = (h @ w["w3"] + w["b3"])[..., 0]
    return sinkhorn(logits.astype(np.float64), mask, need)


def load_weights(path: str | Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def card_losses(
    logp: np.ndarray, truth: np.ndarray, mask: np.ndarray, floor: float = 1e-6
) -> tuple[np.ndarray, np.ndarray]:
    """(nats of each unseen card with two places or more, its position index): ``-log p`` of its
    true class, ``p`` floored at ``floor`` (a true class the mask ruled out: a revoke)."""
    uncertain = (mask.sum(2) >= 2) & (truth >= 0)
    b, c = np.nonzero(uncertain)
    p = np.exp(logp[b, c, truth[b, c].astype(np.int64)])
    return -np.log(np.maximum(p, floor)), b
