"""A small, fast, perfect-information Oh Hell deal for the search to play out.

It is not the engine: it knows one deal only, every hand is a bitmask over a
:class:`~.table.DealTable`, nobody ever revokes, and it keeps just the state the rules of play
need (the led suit, the winning card, and for a no-trump joker the suits each seat has played or
failed to follow). That is enough to play any preset's deal to its end a few thousand times a
decision in pure Python, and about twice as fast again where the install compiled this module to
C (mypyc, :mod:`games.compiled`; ``games/ohhell/ai/__init__.py`` loads it). Compiled, the class
cannot be subclassed or have its class swapped from Python: the tests check the playouts by
stepping a clone, not by overriding :meth:`Sim.play`.

:meth:`Sim.choose` is the playout policy, and also the quick level's play: each seat plays to
its own bid from its own hand and the cards gone (it never looks at another hand), taking tricks
cheaply while it still needs them and shedding its most dangerous cards once it does not.
"""

from __future__ import annotations

from .table import DealTable


def low_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high_bit(mask: int) -> int:
    return mask.bit_length() - 1


class Sim:
    __slots__ = (
        "t",
        "n",
        "hands",
        "bids",
        "won",
        "to_play",
        "trick",
        "led",
        "win",
        "win_seat",
        "tricks_left",
        "live",
        "played_suits",
        "failed",
        "score_tab",
        "over_good",
    )

    def __init__(
        self,
        table: DealTable,
        hands: list[int],
        bids: list[int],
        won: list[int],
        to_play: int,
        trick: list[int],
        led: int,
        win: int,
        win_seat: int,
        tricks_left: int,
        live: int,
        played_suits: list[int],
        failed: list[int],
        score_tab: list[list[int]],
        over_good: bool,
    ) -> None:
        self.t = table
        self.n = len(hands)
        self.hands = hands
        self.bids = bids
        self.won = won
        self.to_play = to_play
        self.trick = trick
        self.led = led
        self.win = win
        self.win_seat = win_seat
        self.tricks_left = tricks_left
        self.live = live
        self.played_suits = played_suits
        self.failed = failed
        self.score_tab = score_tab
        self.over_good = over_good

    def clone(self) -> Sim:
        return Sim(
            self.t, self.hands[:], self.bids[:], self.won[:], self.to_play, self.trick[:], self.led, self.win,
            self.win_seat, self.tricks_left, self.live, self.played_suits[:], self.failed[:], self.score_tab,
            self.over_good,
        )  # fmt: skip

    # -- rules ------------------------------------------------------------------------------
    def joker_lead_suits(self, p: int) -> list[int]:
        """Suits a no-trump joker may be led as (000: not yet played, or run out without failing)."""
        if self.tricks_left == 1:
            return [0, 1, 2, 3]
        hand = self.hands[p]
        sm = self.t.suit_mask
        ps, fl = self.played_suits[p], self.failed[p]
        return [s for s in range(4) if not (ps >> s) & 1 or (not (hand & sm[s]) and not (fl >> s) & 1)]

    def legal(self, p: int) -> int:
        t = self.t
        hand = self.hands[p]
        if t.joker_nt and (hand >> t.joker) & 1:
            jbit = 1 << t.joker
            if not self.trick:
                return hand if self.joker_lead_suits(p) else hand & ~jbit
            led = self.led
            f = hand & t.suit_mask[led]
            ok = (
                self.tricks_left == 1
                or not (self.played_suits[p] >> led) & 1
                or (not f and not (self.failed[p] >> led) & 1)
            )
            if f:
                return f | jbit if ok else f
            return hand if ok else hand & ~jbit
        if not self.trick:
            return hand
        f = hand & t.suit_mask[self.led]
        return f if f else hand

    def play(self, c: int, named: int = -1) -> None:
        t = self.t
        p = self.to_play
        bit = 1 << c
        self.hands[p] ^= bit
        self.live &= ~bit
        trick = self.trick
        if not trick:
            if c == t.joker and t.joker_nt:
                self.led = named if named >= 0 else 0
            else:
                self.led = t.esuit[c]
            self.win = c
            self.win_seat = p
        elif (t.tops[self.win] >> c) & 1:
            self.win = c
            self.win_seat = p
        if t.joker_nt and c != t.joker:
            es = t.esuit[c]
            self.played_suits[p] |= 1 << es
            if trick and es != self.led:
                self.failed[p] |= 1 << self.led
        trick.append(c)
        if len(trick) == self.n:
            ws = self.win_seat
            self.won[ws] += 1
            self.to_play = ws
            self.trick = []
            self.tricks_left -= 1
        else:
            self.to_play = (p + 1) % self.n

    # -- the playout policy ---------------------------------------------------------------------
    def bosses(self, hand: int, out: int) -> int:
        """Sure winners: trumps (and a no-trump joker) that no outstanding card beats, and plain
        cards likewise once no trump is outstanding. (Counting a plain ace as sure while trumps
        are out made the policy lose to one that does not, in duplicate playouts.)"""
        t = self.t
        sm = t.suit_mask
        res = hand & sm[4]
        trump = t.trump
        trumps_out = trump >= 0 and out & sm[trump]
        for s in range(4):
            h = hand & sm[s]
            if not h:
                continue
            o = out & sm[s]
            if s != trump and trumps_out:
                continue  # a plain ace can still be ruffed: not sure while trumps are out
            if not o:
                res |= h
            else:
                res |= h & -(2 << (o.bit_length() - 1))
        return res

    def choose(self, p: int) -> tuple[int, int]:
        """(card bit, named suit or -1) that seat ``p`` plays by the heuristic policy."""
        t = self.t
        hand = self.hands[p]
        if t.joker_nt:
            legal = self.legal(p)
        elif self.trick:
            legal = hand & t.suit_mask[self.led] or hand
        else:
            legal = hand
        if legal & (legal - 1) == 0:
            c = legal.bit_length() - 1
            if not self.trick and c == t.joker and t.joker_nt:
                return c, self._name_joker(p)
            return c, -1
        out = self.live & ~hand
        need = self.bids[p] - self.won[p]
        want = need > 0 or (need < 0 and self.over_good)
        # "covered": the seat holds enough sure winners for what it still needs, so it ducks
        # with its other cards and cashes (or sheds) the winners
        covered = 0
        bosses = 0
        if need > 0:
            bosses = self.bosses(hand, out)
            nb = bosses.bit_count()
            if nb >= need:
                covered = 1 if nb == need else 2
        if not self.trick:
            if covered:
                return self._lead_covered(p, legal, bosses, covered, out)
            return self._lead(p, legal, want, out)
        beaters = legal & t.tops[self.win]
        if covered:
            return self._follow_covered(legal, beaters, bosses, covered), -1
        if want:
            return self._follow_to_win(legal, beaters, out), -1
        return self._follow_to_lose(legal, beaters), -1

    def _follow_covered(self, legal: int, beaters: int, bosses: int, covered: int) -> int:
        """Following with enough sure winners: duck with a card that is no winner (or shed a
        spare winner when ``covered`` is 2), else win as cheaply as possible."""
        losers = legal & ~beaters
        if covered == 2:
            bl = losers & bosses
            if bl:
                return self._highest(bl)
        nl = losers & ~bosses
        if nl:
            return self._highest(nl)
        bw = beaters & bosses
        if bw:
            return self._lowest(bw)
        if beaters:
            return self._lowest(beaters)
        return self._lowest(losers)

    def _follow_to_win(self, legal: int, beaters: int, out: int) -> int:
        """Following when the seat wants the trick: the cheapest card that takes it (and, before
        the last seat, one that no outstanding card beats), else shed the least useful card."""
        t = self.t
        jbit = (1 << t.joker) if t.joker_nt else 0
        if not beaters:
            return self._lowest(legal & ~jbit or legal)
        side = beaters & ~t.trump_mask & ~jbit
        if len(self.trick) == self.n - 1:
            if side:
                return low_bit(side)
            tr = beaters & ~jbit
            return low_bit(tr) if tr else low_bit(beaters)
        if side:
            top = high_bit(side)
            if not (out & t.beats[top]):
                m = side
                while m:
                    c = low_bit(m)
                    if not (out & t.beats[c]):
                        return c
                    m &= m - 1
            return top
        tr = beaters & ~jbit
        if tr:
            return low_bit(tr)
        return t.joker

    def _follow_to_lose(self, legal: int, beaters: int) -> int:
        """Following when the seat wants no more tricks: the highest card that loses, else (forced
        to win) the highest winner as the last seat, the cheapest before it."""
        t = self.t
        tmask = t.trump_mask
        losers = legal & ~beaters
        if losers:
            tl = losers & tmask
            if tl:
                return high_bit(tl)
            return self._highest(losers)
        jbit = (1 << t.joker) if t.joker_nt else 0
        if len(self.trick) == self.n - 1:
            tr = beaters & tmask
            if tr:
                return high_bit(tr)
            return self._highest(beaters & ~jbit or beaters)
        side = beaters & ~tmask & ~jbit
        if side:
            return low_bit(side)
        tr = beaters & tmask
        return low_bit(tr) if tr else low_bit(beaters)

    def _lead_covered(self, p: int, legal: int, bosses: int, covered: int, out: int) -> tuple[int, int]:
        t = self.t
        if covered == 2:
            rest = legal & ~bosses
            if rest:
                return self._lead(p, rest, False, out)
        cash = legal & bosses
        if cash:
            side = cash & ~t.trump_mask
            if t.joker_nt and (cash >> t.joker) & 1 and not side:
                return t.joker, self._name_joker(p)
            side &= ~((1 << t.joker) if t.joker_nt else 0)
            if side:
                return self._highest(side), -1
            return high_bit(cash), -1
        return self._lead(p, legal, True, out)

    def _lowest(self, mask: int) -> int:
        """Lowest-power card, non-trumps before trumps."""
        t = self.t
        side = mask & ~t.trump_mask
        if not side:
            return low_bit(mask)
        power = t.power
        best, best_pw = -1, 99
        while side:
            c = (side & -side).bit_length() - 1
            if power[c] < best_pw:
                best, best_pw = c, power[c]
            side &= side - 1
        return best

    def _highest(self, mask: int) -> int:
        """Highest-power card, trumps before non-trumps."""
        t = self.t
        tr = mask & t.trump_mask
        if tr:
            return high_bit(tr)
        power = t.power
        best, best_pw = -1, -1
        while mask:
            c = (mask & -mask).bit_length() - 1
            if power[c] >= best_pw:
                best, best_pw = c, power[c]
            mask &= mask - 1
        return best

    def _name_joker(self, p: int) -> int:
        """Lead a no-trump joker as the allowed suit we hold fewest of (keeps long suits)."""
        suits = self.joker_lead_suits(p)
        hand = self.hands[p]
        sm = self.t.suit_mask
        return min(suits, key=lambda s: ((hand & sm[s]).bit_count(), s))

    def _lead(self, p: int, legal: int, want: bool, out: int) -> tuple[int, int]:
        t = self.t
        beats = t.beats
        sm = t.suit_mask
        jbit = (1 << t.joker) if t.joker_nt else 0
        if want:
            if legal & jbit:
                return t.joker, self._name_joker(p)
            # the keys are the tuples (cards above it still out, not a trump, -power) and
            # (a trump, -cards above, power) packed into one int each (power < 100): the
            # playouts lead hundreds of thousands of times a decision
            best, best_key = -1, None
            power = t.power
            trump = t.trump
            for s in range(4):
                m = legal & sm[s]
                if not m:
                    continue
                c = m.bit_length() - 1
                key = (out & beats[c]).bit_count() * 1000 + (0 if s == trump else 100) - power[c]
                if best_key is None or key < best_key:
                    best, best_key = c, key
            return best, -1
        best, best_key = -1, None
        power = t.power
        trump = t.trump
        for s in range(4):
            m = legal & sm[s]
            if not m:
                continue
            c = (m & -m).bit_length() - 1
            key = (1_000_000 if s == trump else 0) - (out & beats[c]).bit_count() * 100 + power[c]
            if best_key is None or key < best_key:
                best, best_key = c, key
        if best < 0:  # only the joker is left to lead
            return t.joker, self._name_joker(p)
        return best, -1

    # -- playing out ------------------------------------------------------------------------------
    def rollout(self, noise: float = 0.0, me: int = -1, dice: list[float] | None = None) -> None:
        """Play the deal to its end by the policy; with ``noise``, every seat but ``me`` plays a
        uniformly random legal card instead that often. ``dice`` are the uniform numbers those
        draws use, two a card played from here (shared by the options a search compares, so
        that they meet the same surprises)."""
        choose = self.choose
        play = self.play
        cards = self.tricks_left * self.n - len(self.trick)  # every play is one of them
        if not noise or dice is None:
            for _ in range(cards):
                c, s = choose(self.to_play)
                play(c, s)
            return
        t = self.t
        nt = t.joker_nt
        hands = self.hands  # played from in place
        suit_mask = t.suit_mask
        for i in range(0, 2 * cards, 2):
            p = self.to_play
            if p != me and dice[i] < noise:
                if nt:
                    legal = self.legal(p)
                elif self.trick:
                    legal = hands[p] & suit_mask[self.led] or hands[p]
                else:
                    legal = hands[p]
                if legal & (legal - 1):
                    for _ in range(int(dice[i + 1] * legal.bit_count())):
                        legal &= legal - 1
                    c = (legal & -legal).bit_length() - 1
                    play(c, self._name_joker(p) if nt and c == t.joker and not self.trick else -1)
                    continue
            c, s = choose(p)
            play(c, s)

    def scores(self) -> list[int]:
        tab = self.score_tab
        return [tab[b][w] for b, w in zip(self.bids, self.won, strict=True)]
