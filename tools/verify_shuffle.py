#!/usr/bin/env python3
"""Check a Card Table game's shuffle yourself: python3 verify_shuffle.py shuffle-<game>-17.json

Standard library only, independent of the bot's code, and trusting nothing in the file but the
seed, salt and commitment it checks against each other. From the game's kind, rules and player
count it derives each deal's pack (the cards before the shuffle, in one fixed order) and the order
in which the game draws on its seed; it refuses a file whose written pack or draws differ, or whose
kind or rules it does not know. It then checks (1) that the revealed seed and 32-byte salt hash to
the commitment shown when the game started, (2) that the file holds every deal the game had, and
(3) that each deal's deck is that pack shuffled by the seed. Exit status 0 when all hold, 1
otherwise (a damaged or refused file too: one sentence). The file is what ``/<game> verify``
attaches: {"format": "cardtable-shuffle/3", "game", "kind", "rules", "generator" (1, 2 or 3),
"players", "draws_before_shuffle", "generator_1_shuffle", "commitment", "seed", "salt" (hex),
"deal_count", "deals": [{"deal", "pack", "deck" (as dealt, the first card dealt first)}, ...]}.

Packs (card codes: rank 2-10, J, Q, K, A or the 500 pack's 11-13, then suit C D H S; X the joker;
"#n" marks the n-th copy of a card): 52 cards = clubs, diamonds, hearts, spades, each 2 up to A.
Oh Hell (rules "deck", and "pack63_for_6_7", off where absent): standard52; standard52+joker =
52 + X; pack63 (also a 52-card deck's game at 6-7 players with pack63_for_6_7) = 52 + 11C 12C 11S
12S 11D 12D 13D 11H 12H 13H + X; australian (5 or 6 players) = 52 + the second pack's lowest 13 or
26, by rank then C D H S, marked #1. Shithead (rules "decks" 1-3, "jokers" 0-2 a pack): the packs
in turn (the second marked #1, the third #2), then the jokers X, X#1, ...

Draws: Oh Hell draws the first dealer, below(players), then shuffles the pack once a deal;
Shithead shuffles its one deal first (the dealer drawn after changes no deck). Generator 3: draw
c (0, 1, ...) reads SHAKE-256(b"cardtable/v3/" + seed as 32 big-endian bytes + c as 8 big-endian
bytes); below(n) = its first 8-byte big-endian word under 2**64 - 2**64 % n, modulo n; shuffle of
m cards: F = m!, L = (F.bit_length() + 7) // 8 + 8, v = the first L-byte chunk under
2**(8L) - 2**(8L) % F, r = v % F, then for i from m - 1 down to 1: j = r % (i + 1), r //= i + 1,
swap cards i and j. Generator 2: block i = HMAC-SHA-256(seed as 32 bytes, b"cardtable/v2/" + i as
8 bytes), one stream of 8-byte words; below(n) as above; shuffle = Fisher-Yates from the end with
j = below(i + 1). Generator 1: Python's random.Random(seed) (Oh Hell: the cards sorted by one
random() each; Shithead: random.shuffle).
Commitment: SHA-256(b"cardtable/commitment/v1" + bytes([generator]) + seed (32 bytes) + salt).

Beacon ("beacon": {"chain_hash", "round", "signature", "message_id", "label", "note"}, or null): a
game bound to drand quicknet round R deals from SHA-256(b"cardtable/beacon/v1" + seed (32 bytes) +
SHA-256(signature)). With the chain's parameters pinned below, never the file's, the script checks
that the commitment's message (its snowflake time, (id >> 22) + 1420070400000 ms) came before R was
due (genesis + (R - 1) * 3 s), and with pyblst (pip install pyblst) R's BLS signature against the
chain's key (subgroup checked); without pyblst it checks the rest and exits 3, saying so. A game
labelled "commit–reveal only (no beacon)" deals from its seed alone.
"""

import hashlib
import hmac
import json
import math
import random
import sys
from dataclasses import dataclass

MAX_BYTES, MAX_DEALS, MAX_CARDS = 8_000_000, 2_000, 1_000


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

    def shuffle(self, cards, how=None):
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

    def shuffle(self, cards, how=None):
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
    """The file is not a shuffle file this script can read, or one it refuses (one sentence)."""


def need(ok, sentence):
    if not ok:
        raise Bad(sentence)


# -- the packs and the order of draws, from the game's kind and rules alone ---------------------
RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def standard(copy=0):
    """52 cards: clubs, diamonds, hearts, spades, each from 2 up to the ace (copy n marked #n)."""
    return [rank + suit + (f"#{copy}" if copy else "") for suit in "CDHS" for rank in RANKS]


def joker(copy=0):
    return f"X#{copy}" if copy else "X"


OH_HELL_SEATS = {"standard52": (2, 8), "standard52+joker": (2, 8), "pack63": (6, 7), "australian": (5, 6)}


def oh_hell_pack(rules, players):
    deck, pack63_for_6_7 = rules.get("deck"), rules.get("pack63_for_6_7", False)
    need(isinstance(deck, str) and deck in OH_HELL_SEATS, "its rules name no Oh Hell deck this script knows")
    need(type(pack63_for_6_7) is bool, "its rule pack63_for_6_7 is neither true nor false")
    low, high = OH_HELL_SEATS[deck]
    need(low <= players <= high, f"the {deck} deck does not seat {players} players")
    if pack63_for_6_7 and players in (6, 7) and deck in ("standard52", "standard52+joker"):
        deck = "pack63"
    if deck == "standard52":
        return standard()
    if deck == "standard52+joker":
        return [*standard(), joker()]
    if deck == "pack63":
        extra = [rank + suit for suit in "CS" for rank in ("11", "12")]
        return [*standard(), *extra, *(rank + suit for suit in "DH" for rank in ("11", "12", "13")), joker()]
    second = [rank + suit + "#1" for rank in RANKS for suit in "CDHS"]
    return standard() + second[: {5: 13, 6: 26}[players]]


def shithead_pack(rules, players):
    decks, jokers = rules.get("decks"), rules.get("jokers")
    need(type(decks) is int and 1 <= decks <= 3, "its rule decks is not 1, 2 or 3")
    need(type(jokers) is int and 0 <= jokers <= 2 * decks, "its rule jokers is not 0 to two a pack")
    need(2 <= players <= 10, f"Shithead does not seat {players} players")
    return [card for copy in range(decks) for card in standard(copy)] + [joker(i) for i in range(jokers)]


@dataclass(frozen=True)
class Kind:
    """What a game's kind decides: its pack, its draws before the first shuffle (Oh Hell's first
    dealer), how generator 1 shuffled, and the most deals a game can have."""

    name: str
    pack: object
    draws_before_shuffle: int
    generator_1_shuffle: str
    most_deals: int
    order: str


KINDS = {
    "ohhell": Kind("Oh Hell", oh_hell_pack, 1, "keys", MAX_DEALS, "the first dealer, then one shuffle a deal"),
    "shithead": Kind("Shithead", shithead_pack, 0, "python", 1, "the one deal's shuffle first"),
}


def derive_pack(kind, rules, players):
    """The pack a game of ``kind`` with these rules deals ``players`` players (card codes, in
    the fixed order above); raises Bad for a kind or rules this script does not know."""
    need(kind in KINDS, f"its kind {kind!r} is not a game this script knows ({', '.join(KINDS)})")
    need(isinstance(rules, dict), "it holds no rules, so its pack cannot be derived")
    return KINDS[kind].pack(rules, players)


# -- reading the file ------------------------------------------------------------------------------
@dataclass(frozen=True)
class File:
    """The file's fields, each checked for type and size, and the pack its kind and rules make."""

    number: int
    kind: str
    version: int
    players: int
    draws: int
    how: str
    seed: int
    salt: bytes
    digest: str
    count: int
    deals: list
    pack: list
    game: dict  # the file as read: a further check reads its own fields here (and checks them)


def read(game):
    """The file's fields, checked for type and size before any work is done; raises Bad."""
    need(isinstance(game, dict), "not a cardtable-shuffle/3 file")
    old = game.get("format") == "cardtable-shuffle/2"
    need(not old, "an older cardtable-shuffle/2 file: download it again with the game's verify command")
    need(game.get("format") == "cardtable-shuffle/3", "not a cardtable-shuffle/3 file")
    need(type(game.get("game")) is int and 0 < game["game"] < 2**63, "its game is not a game number")
    kind, version, players, seed = game.get("kind"), game.get("generator"), game.get("players"), game.get("seed")
    need(isinstance(kind, str) and 0 < len(kind) <= 32 and kind.isprintable(), "its kind is not a game's name")
    draws, how = game.get("draws_before_shuffle"), game.get("generator_1_shuffle")
    need(type(draws) is int and 0 <= draws <= 16, "its draws_before_shuffle is not a small number")
    need(how in ("keys", "python"), 'its generator_1_shuffle is neither "keys" nor "python"')
    need(version in (1, 2, 3) and type(version) is int, "its generator is not 1, 2 or 3")
    need(type(players) is int and 1 <= players <= 16, "its players is not a number from 1 to 16")
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
    pack = derive_pack(kind, game.get("rules"), players)
    return File(game["game"], kind, version, players, draws, how, seed, salt, digest.lower(), count, deals, pack, game)


# -- the drand quicknet chain, pinned (its published parameters) --------------------------------
QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971", 1692803367, 3  # hash, genesis, period
KEY = "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c"
KEY += "921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
G2 = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f"
G2 += "0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
UNCHECKED = []  # the signatures a run could not check (no pyblst): main() says so and exits 3


def signature_holds(number, signature):
    """True or False; None without pyblst. Decoding refuses a point outside the subgroup."""
    try:
        import pyblst
        from pyblst import BlstP1Element as G1
        from pyblst import BlstP2Element as G2Point
    except ImportError:
        return None
    try:
        point = G1.uncompress(signature)
    except ValueError:
        return False
    hashed = G1.hash_to_group(
        hashlib.sha256(number.to_bytes(8, "big")).digest(), b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
    )
    left = pyblst.miller_loop(point, G2Point.uncompress(bytes.fromhex(G2)))
    return pyblst.final_verify(left, pyblst.miller_loop(hashed, G2Point.uncompress(bytes.fromhex(KEY))))


def beacon_of(f):
    """None, or the beacon's (round, signature bytes or None, message id, note), checked for type."""
    beacon = f.game.get("beacon")
    if beacon is None:
        return None
    need(isinstance(beacon, dict), "its beacon is not an object")
    number, signature, message = beacon.get("round"), beacon.get("signature"), beacon.get("message_id")
    need(type(number) is int and 1 <= number < 2**63, "its beacon's round is not a drand round number")
    need(message is None or (type(message) is int and 0 < message < 2**64), "its beacon's message is not an id")
    try:
        signature = None if signature is None else bytes.fromhex(signature)
    except (TypeError, ValueError):
        raise Bad("its beacon's signature is not hex") from None
    need(signature is None or len(signature) == 48, "its beacon's signature is not 48 bytes")
    return number, signature, message, str(beacon.get("note"))


def deal_seed(f):
    """The seed the decks are shuffled by: the seed, or with a round, the seed and the round."""
    beacon = beacon_of(f)
    if beacon is None or beacon[1] is None:
        return f.seed
    data = b"cardtable/beacon/v1" + f.seed.to_bytes(32, "big") + hashlib.sha256(beacon[1]).digest()
    return int.from_bytes(hashlib.sha256(data).digest(), "big")


def check_beacon(f):
    beacon = beacon_of(f)
    if beacon is None:
        return []  # a game that named no drand round: its decks come from the committed seed alone
    number, signature, message, note = beacon
    if signature is None:
        return [f"note: commit–reveal only (no beacon): the game named drand round {number}, then: {note}"]
    if f.game["beacon"].get("chain_hash") != QUICKNET[0] or message is None:
        raise Failed("its beacon is not a drand quicknet round named in a message")
    due, posted = QUICKNET[1] + (number - 1) * QUICKNET[2], ((message >> 22) + 1420070400000) / 1000
    if posted >= due:
        raise Failed(f"the commitment was posted at {posted:.3f}, after round {number} was due at {due}")
    lines = [f"ok: the commitment's message ({posted:.3f}) came before quicknet round {number} ({due})"]
    randomness, holds = hashlib.sha256(signature).hexdigest(), signature_holds(number, signature)
    if holds is None:
        UNCHECKED.append(number)
        return [*lines, f"NOT CHECKED: round {number}'s signature (pyblst is not installed); randomness {randomness}"]
    if not holds:
        raise Failed(f"the beacon's signature is not the quicknet chain's signature of round {number}")
    return [*lines, f"ok: round {number}'s signature checks against the pinned quicknet key (randomness {randomness})"]


# -- the checks: each returns its lines ("ok: ...") or raises Failed with one sentence ------------
class Failed(Exception):
    """A check that does not hold (one sentence)."""


def check_commitment(f):
    data = b"cardtable/commitment/v1" + bytes([f.version]) + f.seed.to_bytes(32, "big") + f.salt
    if hashlib.sha256(data).hexdigest() != f.digest:
        raise Failed("the seed and salt do not hash to the commitment")
    return [f"ok: the seed and its 32-byte salt hash to the commitment {f.digest}"]


def check_deal_count(f):
    if len(f.deals) != f.count:
        raise Failed(f"the game had {f.count} deals, the file holds {len(f.deals)}")
    if f.count > KINDS[f.kind].most_deals:
        raise Failed(f"a {KINDS[f.kind].name} game has one deal, the file holds {f.count}")
    return []


def check_draws(f):
    kind = KINDS[f.kind]
    if f.draws != kind.draws_before_shuffle:
        raise Failed(f"{kind.name} draws {kind.draws_before_shuffle} before its first shuffle, the file says {f.draws}")
    if f.how != kind.generator_1_shuffle:
        raise Failed(f'{kind.name}\'s generator 1 shuffle is "{kind.generator_1_shuffle}", the file says "{f.how}"')
    return [f"ok: the seed's draws are {kind.name}'s: {kind.order}"]


def check_packs(f):
    for deal in f.deals:
        pack, number = deal["pack"], deal["deal"]
        if len(set(pack)) != len(pack):
            raise Failed(f"deal {number}'s pack holds a card twice, so it is not a set of the game's cards")
        if set(pack) != set(f.pack):
            raise Failed(f"deal {number}'s pack is not the {len(f.pack)} cards its rules deal {f.players} players")
        if pack != f.pack:
            raise Failed(f"deal {number}'s pack is not in the one fixed order its rules give")
    return [f"ok: every pack is the {len(f.pack)}-card pack the rules deal {f.players} players, in its fixed order"]


def check_decks(f):
    rng, lines = {1: V1, 2: V2, 3: V3}[f.version](deal_seed(f)), []
    for _ in range(KINDS[f.kind].draws_before_shuffle):
        rng.below(f.players)  # the first dealer, drawn before the first shuffle
    for deal in f.deals:
        expected = rng.shuffle(list(f.pack), KINDS[f.kind].generator_1_shuffle)
        if deal["deck"] != expected:
            raise Failed(f"deal {deal['deal']}: the deck is not its pack shuffled by the seed")
        lines.append(f"ok: deal {deal['deal']}: {len(expected)} cards, {' '.join(expected[:6])} ... as the seed deals")
    return [*lines, f"ok: all {f.count} of the game's {f.count} deals checked"]


#: every check, in order; a further one is a function of the read file added here
CHECKS = [check_commitment, check_beacon, check_deal_count, check_draws, check_packs, check_decks]


def check(game):
    """(ok, lines): what was checked and what failed. Raises Bad for a file it cannot read."""
    f = read(game)
    lines = [f"game #{f.number}: {f.kind}, {f.players} players, generator {f.version}, {f.count} deals"]
    for step in CHECKS:
        try:
            lines += step(f)
        except Failed as failure:
            return False, [*lines, f"FAIL: {failure}"]
    return True, lines


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
    if ok and UNCHECKED:
        print(f"VERIFIED BUT round {UNCHECKED[0]}'s signature: install pyblst to check it")
        return 3
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
