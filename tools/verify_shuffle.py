#!/usr/bin/env python3
"""Check a Card Table game's shuffle yourself: python3 verify_shuffle.py shuffle-ohhell-17.json

Standard library only, and independent of the bot's code: it rebuilds every deck from the seed
revealed after the game, with the generator as documented, and checks (1) that the seed and salt
hash to the commitment shown when the game started and (2) that every deck the game stored is
the one the seed deals. Exit status 0 when both hold, 1 otherwise. The file is what
``/ohhell verify`` or ``/shithead verify`` attaches (format "cardtable-shuffle/1"):
{"kind", "generator": 2, "players", "rules" (the game's rules; the deck is built from them),
"commitment", "seed", "salt" (hex), "deals": [[card codes, the first card dealt first], ...]}.

Generator 2: block i = HMAC-SHA-256(seed as 32 big-endian bytes, b"cardtable/v2/" + i as 8
big-endian bytes); words = the blocks' bytes 8 at a time, big-endian; below(n) = the first word
under 2**64 - 2**64 % n, modulo n; shuffle = Fisher-Yates from the end, j = below(i + 1).
Draws: Oh Hell draws the first dealer (below(players)), then shuffles the whole unshuffled deck
for each deal in turn; Shithead shuffles once, then draws the dealer.
Commitment: SHA-256(b"cardtable/commitment/v1" + bytes([generator]) + seed (32 bytes) + salt).
"""

import hashlib
import hmac
import json
import sys

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "CDHS"


class Generator:
    def __init__(self, seed):
        self.key, self.block, self.buffer = seed.to_bytes(32, "big"), 0, b""

    def word(self):
        if not self.buffer:
            label = b"cardtable/v2/" + self.block.to_bytes(8, "big")
            self.buffer, self.block = hmac.new(self.key, label, hashlib.sha256).digest(), self.block + 1
        word, self.buffer = int.from_bytes(self.buffer[:8], "big"), self.buffer[8:]
        return word

    def below(self, n):
        while True:
            word = self.word()
            if word < 2**64 - 2**64 % n:
                return word % n

    def shuffle(self, cards):
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


def pack(copy=0):
    """52 cards, clubs then diamonds, hearts, spades, each from 2 to the ace (copy n: "2C#n")."""
    return [r + s + (f"#{copy}" if copy else "") for s in SUITS for r in RANKS]


def unshuffled(kind, rules, players):
    if kind == "shithead":
        return [c for n in range(rules["decks"]) for c in pack(n)] + [
            "X" + (f"#{n}" if n else "") for n in range(rules["jokers"])
        ]
    deck = rules["deck"]
    if deck == "standard52":
        return pack()
    if deck == "standard52+joker":
        return pack() + ["X"]
    if deck == "pack63":  # 11 and 12 in black suits, 11 to 13 in red suits, and a joker
        extra = {"C": ["11", "12"], "D": ["11", "12", "13"], "H": ["11", "12", "13"], "S": ["11", "12"]}
        return pack() + [r + s for s in "CSDH" for r in extra[s]] + ["X"]
    if deck == "australian":  # the lowest 13 (5 players) or 26 (6 players) of a second pack
        second = [r + s + "#1" for r in RANKS for s in SUITS]
        return pack() + second[: {5: 13, 6: 26}[players]]
    raise ValueError(f"unknown deck {deck!r}")


def decks_from_seed(kind, rules, players, seed, count):
    rng, base = Generator(seed), unshuffled(kind, rules, players)
    if kind == "shithead":
        return [rng.shuffle(list(base))]
    rng.below(players)  # Oh Hell: the first dealer is drawn before the first shuffle
    return [rng.shuffle(list(base)) for _ in range(count)]


def check(game):
    """(ok, lines): what was checked and what failed."""
    if game.get("format") != "cardtable-shuffle/1" or game.get("generator") != 2:
        return False, ["not a cardtable-shuffle/1 file of generator 2"]
    seed, salt = int(game["seed"]), bytes.fromhex(game["salt"])
    data = b"cardtable/commitment/v1" + bytes([2]) + seed.to_bytes(32, "big") + salt
    if hashlib.sha256(data).hexdigest() != game["commitment"].lower():
        return False, ["FAIL: the seed and salt do not hash to the commitment"]
    lines = ["ok: the seed and salt hash to the commitment " + game["commitment"]]
    stored = game["deals"]
    rebuilt = decks_from_seed(game["kind"], game["rules"], game["players"], seed, len(stored))
    if not stored or len(stored) != len(rebuilt):  # Shithead has one deal
        return False, lines + [f"FAIL: {len(stored)} decks stored, {len(rebuilt)} dealt by the seed"]
    for number, (deck, expected) in enumerate(zip(stored, rebuilt, strict=True), start=1):
        if deck != expected:
            return False, lines + [f"FAIL: deal {number}: the stored deck is not the one the seed deals"]
        lines.append(f"ok: deal {number}: {' '.join(deck[:8])} ... is the deck the seed deals")
    return True, lines


def main(argv):
    if len(argv) != 2:
        print(__doc__.splitlines()[0])
        return 2
    with open(argv[1], encoding="utf-8") as file:
        ok, lines = check(json.load(file))
    print("\n".join(lines))
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
