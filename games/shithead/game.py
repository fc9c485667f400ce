"""The Shithead engine: the swap, the play, the pick-ups and the finishing order.

State changes only through :meth:`Shithead.apply`, which checks first and then mutates the game
in place (returning ``self``), so a refused action leaves nothing half done. A game is
``(rules, seats, deck order, dealer)`` plus its log: :meth:`Shithead.to_json` stores exactly that
and :meth:`Shithead.from_json` replays it.

Actions (``dict``; card codes as :func:`games.common.cards.card_code` writes them)::

    {"type": "swap", "hand": "3H", "up": "AS"}   swap phase: exchange a hand card and a face-up card
    {"type": "ready"}                            swap phase: done swapping
    {"type": "choose_up", "cards": [..]}         choosing deal: the face-up cards (also means ready)
    {"type": "play", "cards": ["7H", "7S"]}      hand cards, or face-up cards once the hand is empty
                                                 (one rank; or a run of one suit with ``runs``)
    {"type": "flip", "index": i}                 a face-down card by its position (blind)
    {"type": "pickup"}                           take the pile
    {"type": "pickup", "add": "5C"}              refusing with face-up cards: add 5C, then take it all

A code without ``#copy`` names any copy of that card the player holds (several packs), and
``legal_actions`` lists each choice once by what the player sees (one of two identical 5♠s).

Building: ``Shithead.new(rules, seats, seed, dealer=None)`` (dealer drawn from the seed unless
given: the last shithead deals), ``Shithead.from_deck(rules, seats, deck, dealer)`` for tests
(``games.shithead.deal.stack_deck`` arranges a deck), ``Shithead.replay(rules, seats, seed, log,
dealer=None)``, ``Shithead.from_json(data)``. ``deal_events()`` gives the deal's events; every
other event comes from ``apply``. ``results()`` gives the finishing order, loser/winner and
the next dealer.

View keys (``view(seat)``; ``view(None)`` is the public view)::

    game            "shithead"
    phase           "swap" | "play" | "over"
    seat            the viewing seat, or None
    players         number of seats
    dealer          the dealer's seat
    rules           Rules.to_json()
    action_count    actions taken so far (the log's length)
    to_act          seats that may act now (all unready seats during the swap)
    turn            the seat to play (None during the swap and when over)
    direction       1 (clockwise, to higher seats) or -1
    pile            the pile's cards, bottom first (every one was played face up)
    pile_size       len(pile)
    pile_top        the top card or None
    to_beat         the card the next play must answer (under 8s / glass), or None for anything
    playable_ranks  rank labels that may be played now ("3".."10", "J", "Q", "K", "A", "2", "Joker")
    need            the same in words: "Any card." / "Beat the king: K, A, 2 or 10."
    burnt           number of cards burnt
    stock           number of cards in the stock
    seats           per seat: seat, face_up (codes), face_down (count), face_down_slots (positions
                    still there), hand_size, zone ("hand" | "up" | "down" | None when out),
                    ready (swap phase), out (bool), place (1-based finishing place or None)
    finished        seats in the order they went out
    first_player    the seat that started play (None during the swap) and first_reason (words)
    recent          the last few public actions: {"seat", "kind", "cards", "text"}
    loser, winner   when over (the other is None); "shithead" is the loser too
    -- only in a seat's own view --
    hand            that seat's hand, sorted low to high (3 … A, then 2s, then jokers)
    zone            where that seat plays from now
    legal           every legal action for that seat now ([] if it is not to act)

No view ever holds a face-down card (not even its owner's) or another seat's hand.

Events (``Event(kind, data, seat)``; ``seat`` set = private to that seat)::

    dealt        private: {"hand"}; public: {"face_up": {"0": codes, ...}} (empty lists in the
                 choosing deal); from deal_events(), not from apply
    swap         {"seat", "to_up", "to_hand"}       ready {"seat"}      chose_up {"seat", "cards"}
    first_player {"seat", "reason"}
    played       {"seat", "cards", "zone"}          (zone: hand, up, or down for a flip that stands)
    flipped      {"seat", "index", "card", "playable"}
    reversed     {"seat", "direction"}              skipped {"seat", "skipped": [seats]}
    burnt        {"seat", "count", "reason": "ten" | "four"}
    picked_up    {"seat", "count", "cards", "added"} (added: the face-up card put on first, or None)
    drew         public {"seat", "count"}; private {"seat", "cards"}
    player_out   {"seat", "place"}
    turn         {"seat"}                           whose turn it is after the action (play phase)
    game_over    {"order", "loser", "winner"}
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from games.common.cards import (
    JOKER_RANK,
    Card,
    card_code,
    card_label,
    cards_label,
    face_of,
    parse_card,
    suit_of,
)
from games.common.engine import Action, Engine, Event, IllegalAction, RulesError
from games.common.rng import GENERATOR_VERSION, make_rng
from games.shithead.deal import deal, full_deck, seats_from_left
from games.shithead.pile import NEXT_IN_RUN, RANK_ORDER, PileRules, a_rank, short_rank
from games.shithead.rules import Rules, make_rules, validate

RECENT = 8
_SORT_KEY = {r: i for i, r in enumerate(RANK_ORDER)}


def sort_key(card: Card) -> tuple[int, int, int]:
    """Low to high in play order (3 … A, 2, joker), then suit, then copy."""
    return (_SORT_KEY[card & 31], suit_of(card), card >> 8)


_CODE: dict[Card, str] = {}


def _code(card: Card) -> str:
    code = _CODE.get(card)
    if code is None:
        code = _CODE[card] = card_code(card)
    return code


def _codes(cards: Sequence[Card]) -> list[str]:
    return [_CODE.get(c) or _code(c) for c in cards]


class Shithead(Engine):
    GAME = "shithead"
    JSON_VERSION = 1

    def __init__(self, rules: Rules, seats: int, deck: Sequence[Card], dealer: int, seed: int | None = None):
        validate(rules)
        rules.check_players(seats)
        if sorted(deck) != sorted(full_deck(rules)):
            raise RulesError("The deck does not hold exactly the cards of these rules.")
        if not 0 <= dealer < seats:
            raise RulesError(f"The dealer must be a seat from 0 to {seats - 1}.")
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.rng_version = GENERATOR_VERSION  # the generator the deck was shuffled with (new() sets it)
        self.dealer = dealer
        self.deck = list(deck)
        self.pr = PileRules(rules)
        self._rules_json = rules.to_json()
        dealt = deal(rules, seats, dealer, self.deck)
        self.down: list[list[Card | None]] = [list(d) for d in dealt.down]
        self.up: list[list[Card]] = dealt.up
        self.hand: list[list[Card]] = dealt.hand
        self.stock: list[Card] = dealt.stock[::-1]  # pop() draws the next card
        self.pile: list[Card] = []
        self.burnt: list[Card] = []
        self.free: set[Card] = set()  # skip jokers played with two players left: count as a 2
        self.phase = "swap"
        self.ready = [False] * seats
        self.active = [True] * seats
        self.finished: list[int] = []
        self.turn: int | None = None
        self.direction = 1
        self.last_player: int | None = None
        self.first_player: int | None = None
        self.first_reason = ""
        self.loser: int | None = None
        self.winner: int | None = None
        self._log: list[tuple[int, Action]] = []
        self.recent: list[dict[str, Any]] = []
        events = [Event("dealt", {"hand": _codes(sorted(h, key=sort_key))}, seat=s) for s, h in enumerate(self.hand)]
        events.append(Event("dealt", {"face_up": {str(s): _codes(u) for s, u in enumerate(self.up)}}))
        self._deal_events = events

    # -- building -------------------------------------------------------------------------
    @classmethod
    def new(
        cls, rules: Rules, seats: int, seed: int, dealer: int | None = None, *, rng_version: int = GENERATOR_VERSION
    ) -> Shithead:
        """A shuffled game; the dealer is drawn from the seed unless given (the last loser deals)."""
        validate(rules)
        rules.check_players(seats)
        rng = make_rng(seed, rng_version)
        deck = full_deck(rules)
        rng.shuffle(deck)
        if dealer is None:
            dealer = rng.randrange(seats)
        game = cls(rules, seats, deck, dealer, seed)
        game.rng_version = rng_version
        return game

    @classmethod
    def from_deck(cls, rules: Rules, seats: int, deck: Sequence[Card | str], dealer: int) -> Shithead:
        """A game dealt from this exact deck order (``deck[0]`` dealt first); for tests."""
        cards = [parse_card(c) if isinstance(c, str) else c for c in deck]
        return cls(rules, seats, cards, dealer)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seats: int,
        seed: int,
        log: list[tuple[int, Action]],
        dealer: int | None = None,
        *,
        rng_version: int = GENERATOR_VERSION,
    ) -> Shithead:
        game = cls.new(rules, seats, seed, dealer, rng_version=rng_version)
        for seat, action in log:
            game.apply(seat, action)
        return game

    def deal_events(self) -> list[Event]:
        """The events of the deal (each hand privately, the face-up cards publicly)."""
        return list(self._deal_events)

    # -- whose turn -----------------------------------------------------------------------
    def to_act(self) -> list[int]:
        if self.phase == "swap":
            return [s for s in range(self.seats) if not self.ready[s]]
        if self.phase == "play" and self.turn is not None:
            return [self.turn]
        return []

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def log(self) -> list[tuple[int, Action]]:
        return list(self._log)

    def zone(self, seat: int) -> str | None:
        """Where ``seat`` plays from now: hand, up (face-up), down (face-down), or None if out."""
        if self.hand[seat]:
            return "hand"
        if self.up[seat]:
            return "up"
        if any(c is not None for c in self.down[seat]):
            return "down"
        return None

    def results(self) -> dict[str, Any]:
        """Finishing order (the loser last) and the loser, or the winner when playing for one.

        ``next_dealer``: the shithead deals the next hand (003's end); playing for a winner there
        is no shithead, so the deal passes to the left as 003's deal section says."""
        order = list(self.finished)
        if self.loser is not None:
            order.append(self.loser)
        return {
            "order": order,
            "loser": self.loser,
            "winner": self.winner,
            "next_dealer": self.loser if self.loser is not None else (self.dealer + 1) % self.seats,
        }

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "swap":
            return self._swap_actions(seat)
        zone = self.zone(seat)
        if zone == "down":
            return [{"type": "flip", "index": i} for i, c in enumerate(self.down[seat]) if c is not None]
        cards = self.hand[seat] if zone == "hand" else self.up[seat]
        actions = [{"type": "play", "cards": _codes(p)} for p in self._plays(cards)]
        if self.pile:
            if zone == "up" and self.rules.refusal == "add-one":
                actions += [{"type": "pickup", "add": card_code(c)} for c in _distinct(self.up[seat])]
            else:
                actions.append({"type": "pickup"})
        return actions

    def _swap_actions(self, seat: int) -> list[Action]:
        if self.rules.deal == "choose":
            hand = sorted(self.hand[seat], key=sort_key)
            seen: set[tuple[int, ...]] = set()
            out = []
            for combo in itertools.combinations(hand, self.rules.table_cards):
                faces = tuple(face_of(c) for c in combo)
                if faces not in seen:
                    seen.add(faces)
                    out.append({"type": "choose_up", "cards": _codes(combo)})
            return out
        out = [
            {"type": "swap", "hand": card_code(h), "up": card_code(u)}
            for h in _distinct(sorted(self.hand[seat], key=sort_key))
            for u in _distinct(self.up[seat])
            if face_of(h) != face_of(u)
        ]
        out.append({"type": "ready"})
        return out

    def _plays(self, cards: Sequence[Card]) -> list[list[Card]]:
        """Every legal play from ``cards``: sets of one rank (distinct by face), then runs."""
        by_rank: dict[int, list[Card]] = {}
        for c in sorted(cards, key=sort_key):
            by_rank.setdefault(c & 31, []).append(c)
        plays: list[list[Card]] = []
        allowed = self.pr.playable_set(self.pile, self.free)
        for rank, group in by_rank.items():
            if rank not in allowed:
                continue
            by_face: dict[Card, list[Card]] = {}
            for c in group:
                by_face.setdefault(face_of(c), []).append(c)
            copies = list(by_face.values())
            if len(copies) == 1 and len(copies[0]) == 1:
                plays.append([copies[0][0]])
                continue
            for counts in itertools.product(*(range(len(cs) + 1) for cs in copies)):
                if any(counts):
                    plays.append([c for cs, k in zip(copies, counts, strict=True) for c in cs[:k]])
        if self.rules.runs:
            plays += self._runs(cards)
        return plays

    def _runs(self, cards: Sequence[Card]) -> list[list[Card]]:
        faces: dict[Card, Card] = {}
        for c in sorted(cards, key=lambda c: c >> 8, reverse=True):
            if c & 31 != JOKER_RANK:
                faces[face_of(c)] = c
        runs = []
        for face, start in faces.items():
            pile = list(self.pile)
            if not self.pr.playable(start, pile, self.free):
                continue
            run = [start]
            pile.append(start)
            rank = face & 31
            while not self.pr.burns(pile) and rank in NEXT_IN_RUN:
                rank = NEXT_IN_RUN[rank]
                nxt = faces.get((face & ~31) | rank)
                if nxt is None or not self.pr.playable(nxt, pile, self.free):
                    break
                run.append(nxt)
                pile.append(nxt)
                runs.append(list(run))
        return runs

    # -- checking -------------------------------------------------------------------------
    def check(self, seat: int, action: Action) -> None:
        self._parse(seat, action)

    def _parse(self, seat: int, action: Action) -> tuple[Any, ...]:
        """The move ``action`` stands for, with exact cards; raises IllegalAction if not allowed."""
        if not isinstance(action, dict) or "type" not in action:
            raise IllegalAction("That is not an action.")
        kind = action["type"]
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction("You are not playing in this game.")
        if self.phase == "swap":
            if kind not in ("swap", "ready", "choose_up"):
                raise IllegalAction("The game has not started: finish swapping first.")
            if self.ready[seat]:
                raise IllegalAction("You are already ready; wait for the others.")
            if self.rules.deal == "choose":
                if kind != "choose_up":
                    raise IllegalAction(f"Choose the {self.rules.table_cards} cards to put face up.")
                cards = self._take(self.hand[seat], action.get("cards"), "in your hand")
                if len(cards) != self.rules.table_cards:
                    raise IllegalAction(f"Choose exactly {self.rules.table_cards} cards to put face up.")
                return ("choose", cards)
            if kind == "ready":
                return ("ready",)
            if kind != "swap":
                raise IllegalAction("Swap a hand card with a face-up card, or say you are ready.")
            (hand_card,) = self._take(self.hand[seat], [action.get("hand")], "in your hand")
            (up_card,) = self._take(self.up[seat], [action.get("up")], "face up")
            if face_of(hand_card) == face_of(up_card):
                raise IllegalAction("Those two cards are the same: nothing to swap.")
            return ("swap", hand_card, up_card)
        if kind in ("swap", "ready", "choose_up"):
            raise IllegalAction("Swapping is over.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")
        zone = self.zone(seat)
        if kind == "flip":
            if zone != "down":
                where = "your hand" if zone == "hand" else "your face-up cards"
                raise IllegalAction(f"You cannot flip yet: play from {where} first.")
            index = action.get("index")
            if not isinstance(index, int) or not 0 <= index < len(self.down[seat]):
                raise IllegalAction("There is no face-down card there.")
            if self.down[seat][index] is None:
                raise IllegalAction("That face-down card has already been played.")
            return ("flip", index)
        if kind == "pickup":
            if zone == "down":
                raise IllegalAction("With only face-down cards you must flip one.")
            if not self.pile:
                raise IllegalAction("There is nothing to pick up: play any card.")
            add = action.get("add")
            if zone == "up" and self.rules.refusal == "add-one":
                if add is None:
                    raise IllegalAction("Choose one of your face-up cards to add to the pile.")
                (card,) = self._take(self.up[seat], [add], "face up")
                return ("pickup", card)
            if add is not None:
                raise IllegalAction("Just pick up the pile; you add no card.")
            return ("pickup", None)
        if kind != "play":
            raise IllegalAction(f"Unknown action {kind!r}.")
        if zone == "down":
            raise IllegalAction("Your hand and face-up cards are gone: flip a face-down card.")
        source = self.hand[seat] if zone == "hand" else self.up[seat]
        where = "in your hand" if zone == "hand" else "face up"
        codes = action.get("cards")
        try:
            cards = self._take(source, codes, where)
        except IllegalAction:
            if zone == "hand" and self.up[seat]:
                try:
                    self._take(self.up[seat], codes, "face up")
                except IllegalAction:
                    pass
                else:
                    raise IllegalAction("You must play from your hand first.") from None
            raise
        if not cards:
            raise IllegalAction("Choose at least one card to play.")
        return ("play", self._check_play(cards), zone)

    def _take(self, source: Sequence[Card], codes: Any, where: str) -> list[Card]:
        """The exact cards ``codes`` name in ``source`` (a bare code matches any copy)."""
        if not isinstance(codes, list | tuple):
            raise IllegalAction("Name the cards as a list.")
        left = list(source)
        out = []
        for code in codes:
            try:
                card = parse_card(code) if isinstance(code, str) else None
            except ValueError:
                card = None
            if card is None:
                raise IllegalAction(f"{code!r} is not a card.")
            if card not in left:
                if "#" not in code:
                    same = [c for c in left if face_of(c) == face_of(card)]
                    if same:
                        card = min(same)
            if card not in left:
                held = card in source
                raise IllegalAction(
                    f"You named {card_label(card)} twice." if held else f"You have no {card_label(card)} {where}."
                )
            left.remove(card)
            out.append(card)
        return out

    def _check_play(self, cards: list[Card]) -> list[Card]:
        ranks = {c & 31 for c in cards}
        if len(ranks) == 1:
            first = cards[0]
            reason = self.pr.why_not(first, self.pile, self.free)
            if reason:
                raise IllegalAction(reason)
            return sorted(cards, key=sort_key)
        if JOKER_RANK in ranks:
            raise IllegalAction("Jokers cannot be played with other cards.")
        if not self.rules.runs:
            raise IllegalAction("Play cards of one rank only.")
        run = sorted(cards, key=lambda c: 2 if c & 31 == 2 else _SORT_KEY[c & 31] + 3)
        suits = {suit_of(c) for c in run}
        consecutive = all(NEXT_IN_RUN.get(a & 31) == b & 31 for a, b in itertools.pairwise(run))
        if len(suits) != 1 or not consecutive:
            raise IllegalAction("Play cards of one rank, or a run of consecutive cards in one suit.")
        pile = list(self.pile)
        for i, card in enumerate(run):
            if i and self.pr.burns(pile):
                raise IllegalAction("The pile burns before the end of that run: stop the run there.")
            reason = self.pr.why_not(card, pile, self.free)
            if reason:
                raise IllegalAction(reason if i == 0 else f"The run breaks at {card_label(card)}: {reason}")
            pile.append(card)
        return run

    # -- doing ----------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> tuple[Shithead, list[Event]]:
        move = self._parse(seat, action)
        events: list[Event] = []
        kind = move[0]
        if kind == "swap":
            _, h, u = move
            slot = self.up[seat].index(u)
            self.up[seat][slot] = h
            self.hand[seat].remove(h)
            self.hand[seat].append(u)
            logged: Action = {"type": "swap", "hand": card_code(h), "up": card_code(u)}
            events.append(Event("swap", {"seat": seat, "to_up": card_code(h), "to_hand": card_code(u)}))
            self._note(seat, "swap", [h, u], f"swapped {card_label(h)} onto the table for {card_label(u)}")
        elif kind == "ready":
            logged = {"type": "ready"}
            self.ready[seat] = True
            events.append(Event("ready", {"seat": seat}))
            self._note(seat, "ready", [], "is ready")
        elif kind == "choose":
            cards = move[1]
            for c in cards:
                self.hand[seat].remove(c)
            self.up[seat] = list(cards)
            self.ready[seat] = True
            logged = {"type": "choose_up", "cards": _codes(cards)}
            events.append(Event("chose_up", {"seat": seat, "cards": _codes(cards)}))
            self._note(seat, "choose_up", cards, f"put {cards_label(cards)} face up")
        elif kind == "play":
            _, cards, zone = move
            logged = {"type": "play", "cards": _codes(cards)}
            source = self.hand[seat] if zone == "hand" else self.up[seat]
            for c in cards:
                source.remove(c)
            self._play(seat, cards, zone, events)
        elif kind == "flip":
            index = move[1]
            logged = {"type": "flip", "index": index}
            card = self.down[seat][index]
            assert card is not None
            self.down[seat][index] = None
            ok = self.pr.playable(card, self.pile, self.free)
            events.append(Event("flipped", {"seat": seat, "index": index, "card": card_code(card), "playable": ok}))
            if ok:
                self._play(seat, [card], "down", events)
            else:
                self._note(seat, "flip", [card], f"flipped {card_label(card)}, which does not fit")
                self.pile.append(card)
                self._pickup(seat, None, events)
        else:  # pickup
            add = move[1]
            logged = {"type": "pickup"} if add is None else {"type": "pickup", "add": card_code(add)}
            if add is not None:
                self.up[seat].remove(add)
                self.pile.append(add)
            self._pickup(seat, add, events)
        self._log.append((seat, logged))
        if self.phase == "swap" and all(self.ready):
            self._start(events)
        if self.phase == "play":
            events.append(Event("turn", {"seat": self.turn}))
        return self, events

    def _note(self, seat: int, kind: str, cards: Sequence[Card], text: str) -> None:
        self.recent.append({"seat": seat, "kind": kind, "cards": _codes(cards), "text": text})
        if len(self.recent) > RECENT:
            del self.recent[0]

    def _start(self, events: list[Event]) -> None:
        """End the swap: find who starts (first face-up 3 in deal order, else a 3 in hand, then 4s…)."""
        order = seats_from_left(self.seats, self.dealer)
        self.phase = "play"
        for rank in RANK_ORDER:
            face_up = [(slot, i, s) for i, s in enumerate(order) for slot, c in enumerate(self.up[s]) if c & 31 == rank]
            if face_up:
                seat = min(face_up)[2]
                reason = f"the first face-up {short_rank(rank)}"
                break
            holders = [s for s in order if any(c & 31 == rank for c in self.hand[s])]
            if holders:
                seat = holders[0]
                reason = f"{a_rank(rank)} in hand"
                break
        else:  # pragma: no cover - a deal always holds some rank
            seat, reason = order[0], "the dealer's left"
        self.turn = self.first_player = seat
        self.first_reason = reason
        events.append(Event("first_player", {"seat": seat, "reason": reason}))

    def _play(self, seat: int, cards: list[Card], zone: str, events: list[Event]) -> None:
        self.pile.extend(cards)
        self.last_player = seat
        events.append(Event("played", {"seat": seat, "cards": _codes(cards), "zone": zone}))
        verb = {"hand": "played", "up": "played face-up", "down": "flipped"}[zone]
        self._note(seat, "play", cards, f"{verb} {cards_label(cards)}")
        pr = self.pr
        reversals = sum(1 for c in cards if pr.reverses(c))
        skips = sum(1 for c in cards if pr.skips(c))
        if skips and sum(self.active) == 2:
            self.free.update(c for c in cards if pr.skips(c))
        if reversals % 2:
            self.direction = -self.direction
            events.append(Event("reversed", {"seat": seat, "direction": self.direction}))
        burnt = pr.burns(self.pile)
        if burnt:
            reason = "ten" if self.pile[-1] & 31 == 10 else "four"
            events.append(Event("burnt", {"seat": seat, "count": len(self.pile), "reason": reason}))
            self._note(seat, "burn", [], f"burnt {len(self.pile)} cards")
            self.burnt.extend(self.pile)
            self.pile.clear()
            self.free.clear()
        hand = self.hand[seat]
        need = self.rules.hand_size - len(hand)
        if need > 0 and self.stock:
            drawn = [self.stock.pop() for _ in range(min(need, len(self.stock)))]
            hand.extend(drawn)
            events.append(Event("drew", {"seat": seat, "count": len(drawn)}))
            events.append(Event("drew", {"seat": seat, "cards": _codes(drawn)}, seat=seat))
        if self.zone(seat) is None and self._out(seat, events):
            return
        if burnt and self.active[seat]:
            self.turn = seat
            return
        if skips:
            skipped = self._walk(seat, skips, self.direction)
            events.append(Event("skipped", {"seat": seat, "skipped": skipped}))
        self.turn = self._next(seat, 1 + skips, self.direction)

    def _pickup(self, seat: int, added: Card | None, events: list[Event]) -> None:
        taken = list(self.pile)
        self.hand[seat].extend(taken)
        self.pile.clear()
        self.free.clear()
        events.append(
            Event(
                "picked_up",
                {
                    "seat": seat,
                    "count": len(taken),
                    "cards": _codes(taken),
                    "added": card_code(added) if added is not None else None,
                },
            )
        )
        text = f"picked up {len(taken)} card{'s' if len(taken) != 1 else ''}"
        if added is not None:
            text += f" (adding {card_label(added)})"
        self._note(seat, "pickup", taken, text)
        leader = None
        if self.rules.after_pickup == "previous":
            last = self.last_player
            if last is not None and last != seat and self.active[last]:
                leader = last
            else:
                leader = self._next(seat, 1, -self.direction)
        self.last_player = None
        self.turn = leader if leader is not None else self._next(seat, 1, self.direction)

    def _out(self, seat: int, events: list[Event]) -> bool:
        """``seat`` has no cards left; returns True when that ends the game."""
        self.active[seat] = False
        self.finished.append(seat)
        events.append(Event("player_out", {"seat": seat, "place": len(self.finished)}))
        self._note(seat, "out", [], f"is out (place {len(self.finished)})")
        if self.rules.goal == "winner":
            self.winner = seat
            self._over(events)
            return True
        left = [s for s in range(self.seats) if self.active[s]]
        if len(left) == 1:
            self.loser = left[0]
            self._over(events)
            return True
        return False

    def _over(self, events: list[Event]) -> None:
        self.phase = "over"
        self.turn = None
        res = self.results()
        events.append(Event("game_over", {"order": res["order"], "loser": self.loser, "winner": self.winner}))

    def _walk(self, seat: int, steps: int, direction: int) -> list[int]:
        """The next ``steps`` active seats from ``seat`` in ``direction`` (may come round again)."""
        out = []
        s = seat
        while len(out) < steps:
            s = (s + direction) % self.seats
            if self.active[s]:
                out.append(s)
        return out

    def _next(self, seat: int, steps: int, direction: int) -> int:
        return self._walk(seat, steps, direction)[-1]

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        pr = self.pr
        ranks = pr.playable_ranks(self.pile, self.free)
        if not self.rules.jokers:
            ranks = [r for r in ranks if r != JOKER_RANK]
        top = pr.effective(self.pile, self.free)
        places = {s: i + 1 for i, s in enumerate(self.finished)}
        out: dict[str, Any] = {
            "game": self.GAME,
            "phase": self.phase,
            "seat": seat,
            "players": self.seats,
            "dealer": self.dealer,
            "rules": dict(self._rules_json),
            "action_count": len(self._log),
            "to_act": self.to_act(),
            "turn": self.turn,
            "direction": self.direction,
            "pile": _codes(self.pile),
            "pile_size": len(self.pile),
            "pile_top": card_code(self.pile[-1]) if self.pile else None,
            "to_beat": card_code(top) if top is not None else None,
            "playable_ranks": [short_rank(r) for r in ranks],
            "need": pr.describe_need(self.pile, self.free),
            "burnt": len(self.burnt),
            "stock": len(self.stock),
            "seats": [
                {
                    "seat": s,
                    "face_up": _codes(self.up[s]),
                    "face_down": sum(1 for c in self.down[s] if c is not None),
                    "face_down_slots": [i for i, c in enumerate(self.down[s]) if c is not None],
                    "hand_size": len(self.hand[s]),
                    "zone": self.zone(s),
                    "ready": self.ready[s],
                    "out": not self.active[s],
                    "place": places.get(s),
                }
                for s in range(self.seats)
            ],
            "finished": list(self.finished),
            "first_player": self.first_player,
            "first_reason": self.first_reason,
            "recent": [dict(r, cards=list(r["cards"])) for r in self.recent],
            "loser": self.loser,
            "winner": self.winner,
        }
        if seat is not None:
            out["hand"] = _codes(sorted(self.hand[seat], key=sort_key))
            out["zone"] = self.zone(seat)
            out["legal"] = self.legal_actions(seat)
        return out

    # -- storage --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.JSON_VERSION,
            "game": self.GAME,
            "rules": self.rules.to_json(),
            "seats": self.seats,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": _codes(self.deck),
            "log": [[seat, dict(action)] for seat, action in self._log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shithead:
        version = data.get("version")
        if version != 1 or data.get("game") != cls.GAME:
            raise RulesError(f"Cannot read a saved {data.get('game')!r} game of version {version!r}.")
        rules = make_rules("pagat", **data["rules"])
        game = cls.from_deck(rules, data["seats"], data["deck"], data["dealer"])
        game.seed = data.get("seed")
        for seat, action in data["log"]:
            game.apply(seat, action)
        return game


def _distinct(cards: Sequence[Card]) -> list[Card]:
    """One card per face (the lowest copy), in the given order."""
    seen: set[Card] = set()
    out = []
    for c in sorted(cards, key=lambda c: c >> 8):
        if face_of(c) not in seen:
            seen.add(face_of(c))
            out.append(c)
    order = {c: i for i, c in enumerate(cards)}
    return sorted(out, key=order.__getitem__)
