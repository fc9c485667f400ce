#!/usr/bin/env python3
"""Check a Card Table game's shuffle yourself: python3 verify_shuffle.py shuffle-<game>-17.json

Standard library only, and independent of the bot's code (no game and no rules: the file names
each deal's pack and the game's order of draws). It checks (1) that the revealed seed and 32-byte
salt hash to the commitment shown when the game started, (2) that the file holds every deal the
game had, and (3) that each deal's deck is its pack shuffled by the seed. Exit status 0 when all
hold, 1 otherwise (a damaged file too: one sentence). The file is what ``/<game> verify``
attaches: {"format": "cardtable-shuffle/3", "game", "kind", "generator" (1, 2 or 3), "players",
"draws_before_shuffle", "generator_1_shuffle" ("keys" or "python"), "commitment", "seed", "salt"
(hex), "deal_count" (the deals the game had), "deals": [{"deal", "pack" (its cards before the
shuffle), "deck" (as dealt, the first card dealt first)}, ...]}.

Generator 3: draw c (0, 1, ...) reads SHAKE-256(b"cardtable/v3/" + seed as 32 big-endian bytes +
c as 8 big-endian bytes); below(n) = its first 8-byte big-endian word under 2**64 - 2**64 % n,
modulo n; shuffle of m cards: F = m!, L = (F.bit_length() + 7) // 8 + 8, v = the first L-byte
chunk under 2**(8L) - 2**(8L) % F, r = v % F, then for i from m - 1 down to 1: j = r % (i + 1),
r //= i + 1, swap cards i and j. Generator 2: block i = HMAC-SHA-256(seed as 32 bytes,
b"cardtable/v2/" + i as 8 bytes), one stream of 8-byte words; below(n) as above; shuffle =
Fisher-Yates from the end with j = below(i + 1). Generator 1: Python's random.Random(seed)
("keys": the cards sorted by one random() each; "python": random.shuffle).
Draws: below(players) "draws_before_shuffle" times (a first dealer drawn before the cards), then
each deal's pack shuffled in turn; any draw after the last shuffle changes no deck.
Commitment: SHA-256(b"cardtable/commitment/v1" + bytes([generator]) + seed (32 bytes) + salt).
"""

import hashlib
import hmac
import json
import math
import random
import sys

MAX_BYTES, MAX_DEALS, MAX_CARDS, MAX_PLAYERS = 8_000_000, 2_000, 1_000, 16


class V3:
    def __init__(self, seed):
        self.prefix, self.draw = b"cardtable/v3/" + seed.to_bytes(32, "big"), 0

    def stream(self, length):
        self.draw += 1
        return hashlib.shake_256(self.prefix + (self.draw - 1).to_bytes(8, "big")).digest(length)

    def below(self, n):
        data, t = self.stream(8 * 64), 0  # a word is refused with probability under 1/2
        while int.from_bytes(data[8 * t : 8 * t + 8], "big") >= 2**64 - 2**64 % n:
            t += 1
        return int.from_bytes(data[8 * t : 8 * t + 8], "big") % n

    def shuffle(self, cards):
        f = math.factorial(len(cards))
        size = (f.bit_length() + 7) // 8 + 8
        data, t = self.stream(size * 64), 0
        while int.from_bytes(data[size * t : size * t + size], "big") >= 2 ** (8 * size) - 2 ** (8 * size) % f:
            t += 1
        r = int.from_bytes(data[size * t : size * t + size], "big") % f
        for i in range(len(cards) - 1, 0, -1):
            r, j = divmod(r, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


class V2:
    def __init__(self, seed):
        self.key, self.block, self.buffer = seed.to_bytes(32, "big"), 0, b""

    def word(self):
        if not self.buffer:
            label = b"cardtable/v2/" + self.block.to_bytes(8, "big")
            self.buffer, self.block = hmac.new(self.key, label, hashlib.sha256).digest(), self.block + 1
        word, self.buffer = int.from_bytes(self.buffer[:8], "big"), self.buffer[8:]
        return word

    def below(self, n):
        while (word := self.word()) >= 2**64 - 2**64 % n:
            pass
        return word % n

    def shuffle(self, cards):
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


class V1(random.Random):
    below = random.Random.randrange

    def shuffle(self, cards, how="keys"):
        if how == "python":
            super().shuffle(cards)
            return cards
        keys = [self.random() for _ in cards]
        return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]


class Bad(Exception):
    """The file is not a shuffle file this script can read (one sentence)."""


def need(ok, sentence):
    if not ok:
        raise Bad(sentence)


def read(game):
    """The file's fields, checked for type and size before any work is done."""
    need(isinstance(game, dict), "not a cardtable-shuffle/3 file")
    old = game.get("format") == "cardtable-shuffle/2"
    need(not old, "an older cardtable-shuffle/2 file: download it again with the game's verify command")
    need(game.get("format") == "cardtable-shuffle/3", "not a cardtable-shuffle/3 file")
    need(type(game.get("game")) is int and 0 < game["game"] < 2**63, "its game is not a game number")
    kind, version, players, seed = game.get("kind"), game.get("generator"), game.get("players"), game.get("seed")
    need(isinstance(kind, str) and 0 < len(kind) <= 32 and kind.isprintable(), "its kind is not a game's name")
    draws, how = game.get("draws_before_shuffle"), game.get("generator_1_shuffle")
    need(type(draws) is int and 0 <= draws <= MAX_PLAYERS, "its draws_before_shuffle is not a small number")
    need(how in ("keys", "python"), 'its generator_1_shuffle is neither "keys" nor "python"')
    need(version in (1, 2, 3) and type(version) is int, "its generator is not 1, 2 or 3")
    need(type(players) is int and 1 <= players <= MAX_PLAYERS, f"its players is not a number from 1 to {MAX_PLAYERS}")
    need(type(seed) is int and 0 <= seed < 2**256, "its seed is not a whole number from 0 to 2**256 - 1")
    salt, digest = game.get("salt"), game.get("commitment")
    need(isinstance(salt, str) and len(salt) == 64, "its salt is not 32 bytes (64 hex digits)")
    need(isinstance(digest, str) and len(digest) == 64, "its commitment is not 64 hex digits")
    try:
        salt, _ = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        raise Bad("its salt or commitment is not hex") from None
    count, deals = game.get("deal_count"), game.get("deals")
    need(type(count) is int and 1 <= count <= MAX_DEALS, f"its deal_count is not a number from 1 to {MAX_DEALS}")
    need(isinstance(deals, list) and len(deals) <= MAX_DEALS, f"its deals are not a list of at most {MAX_DEALS}")
    for number, deal in enumerate(deals, start=1):
        need(isinstance(deal, dict) and deal.get("deal") == number, f"deal {number} is not numbered {number}")
        for key in ("pack", "deck"):
            cards = deal.get(key)
            need(isinstance(cards, list) and 2 <= len(cards) <= MAX_CARDS, f"deal {number}'s {key} is not a list")
            need(all(isinstance(c, str) and len(c) <= 8 for c in cards), f"deal {number}'s {key} holds a non-card")
    return kind, version, players, (draws, how), seed, salt, digest.lower(), count, deals


def check(game):
    """(ok, lines): what was checked and what failed."""
    kind, version, players, (draws, how), seed, salt, digest, count, deals = read(game)
    lines = [f"game #{game.get('game')}: {kind}, {players} players, generator {version}, {count} deals"]
    data = b"cardtable/commitment/v1" + bytes([version]) + seed.to_bytes(32, "big") + salt
    if hashlib.sha256(data).hexdigest() != digest:
        return False, [*lines, "FAIL: the seed and salt do not hash to the commitment"]
    lines.append(f"ok: the seed and its 32-byte salt hash to the commitment {digest}")
    if len(deals) != count:
        return False, [*lines, f"FAIL: the game had {count} deals, the file holds {len(deals)}"]
    rng = {1: V1, 2: V2, 3: V3}[version](seed)
    for _ in range(draws):
        rng.below(players)  # a first dealer drawn before the first shuffle
    for deal in deals:
        number, pack = deal["deal"], list(deal["pack"])
        expected = rng.shuffle(pack, how) if version == 1 else rng.shuffle(pack)
        if deal["deck"] != expected:
            return False, [*lines, f"FAIL: deal {number}: the deck is not its pack shuffled by the seed"]
        lines.append(f"ok: deal {number}: {len(pack)} cards, {' '.join(expected[:6])} ... as the seed deals")
    return True, [*lines, f"ok: all {count} of the game's {count} deals checked"]


def main(argv):
    if len(argv) != 2:
        print(__doc__.splitlines()[0])
        return 2
    try:
        with open(argv[1], "rb") as file:
            raw = file.read(MAX_BYTES + 1)
        need(len(raw) <= MAX_BYTES, f"the file is larger than {MAX_BYTES} bytes")
        ok, lines = check(json.loads(raw))
    except OSError as error:
        print(f"NOT VERIFIED: cannot read {argv[1]}: {error.strerror or error}.")
        return 1
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        print(f"NOT VERIFIED: {argv[1]} is not JSON ({str(error)[:80]}).")
        return 1
    except Bad as error:
        print(f"NOT VERIFIED: {argv[1]}: {error}.")
        return 1
    except MemoryError:
        print(f"NOT VERIFIED: {argv[1]} is too large to read.")
        return 1
    print("\n".join(lines))
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
