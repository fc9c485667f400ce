"""The provable shuffle's fixed points: a seed always deals the same decks (on every Python: the
generator is specified to the byte, and these vectors pin it), and the commitment and the
computers' dice are exactly what games/common/commitment.py documents."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.common.cards import card_code, standard52
from games.common.commitment import COMMIT_LABEL, commitment, computer_seed, matches
from games.common.rng import HmacRandom
from games.common.shuffle import shuffled
from games.ohhell.game import OhHell

SEED = 20261124
SALT = bytes(range(32))

#: standard52() shuffled by generator 2 from SEED (the first card dealt first)
FIRST_SHUFFLE = (
    "KC KH 10H QC 3C 2H QH AS 10D 4D KD 7D QD 9D KS 5H 6H 6C JS 4H 7S AH 2S 10C 10S 8C 2D 7H 9C 8S 7C 4C AD "
    "4S 6D 6S 3H 5C 3S JC 3D 5S 9H 8D JH JD 8H 5D QS AC 2C 9S"
).split()
#: Oh Hell, 4 players, SEED: the first dealer is drawn first, then the first deal's deck
OHHELL_FIRST_DEALER = 2
OHHELL_FIRST_DECK = (
    "7D 6C 7H 2D 4S KH 9D 10D AC 2H KC 5D 10S JD 3S 3C 5S QD 10C QS 9S 4D 9C 2S 6H 4C 7S KS JS JC 3H 6D 9H "
    "3D AH 4H 10H 8D 2C QC 8H 5H 8S 6S AD JH 7C 8C 5C KD AS QH"
).split()
COMMITMENT = "d7e9653cf44893cbe1e57c6b4dc0d8dbdbe258b99e54ea182f2ef241fe9f957f"
#: the same with generator 3 (what new games deal with)
OHHELL_V3_FIRST_DEALER = 0
OHHELL_V3_FIRST_DECK = (
    "10S 9C 9H AS QS 3H 2C KS 7C 8C 4D 7S KC 5H JD 8S 6C 5D 2D 10C QD KH QC 3S JH 3D 10D 4H 9S 5S 7H 6S AH 6D "
    "AD 6H 7D 2H 10H 5C 4S 8H 8D 9D 2S JS QH JC KD 3C AC 4C"
).split()
COMMITMENT_V3 = "7b3fe4fc506c489c0dd368bc690b068875854ff7e2f5c872761723c7789cd250"


def test_a_seed_always_deals_the_same_first_deck() -> None:
    assert [card_code(c) for c in shuffled(standard52(), HmacRandom(SEED))] == FIRST_SHUFFLE


def test_an_oh_hell_game_draws_the_dealer_then_deals_the_pinned_deck() -> None:
    game = OhHell.new("classic", 4, SEED, rng_version=2)
    assert game.deal.dealer == OHHELL_FIRST_DEALER
    assert game.deal_number == 1
    assert [card_code(c) for c in game.dealt_deck()] == OHHELL_FIRST_DECK


def test_a_new_game_deals_with_generator_3() -> None:
    game = OhHell.new("classic", 4, SEED)
    assert game.rng_version == 3
    assert game.deal.dealer == OHHELL_V3_FIRST_DEALER
    assert [card_code(c) for c in game.dealt_deck()] == OHHELL_V3_FIRST_DECK
    assert commitment(SEED, SALT, 3) == COMMITMENT_V3


def test_the_first_word_is_the_documented_hmac() -> None:
    # block 0 = HMAC-SHA-256(seed as 32 bytes, b"cardtable/v2/" + 0 as 8 bytes); a word is 8 bytes
    block = hmac.new(SEED.to_bytes(32, "big"), b"cardtable/v2/" + bytes(8), hashlib.sha256).digest()
    assert HmacRandom(SEED)._word() == int.from_bytes(block[:8], "big")


def test_the_commitment_is_the_documented_hash() -> None:
    data = COMMIT_LABEL + bytes([2]) + SEED.to_bytes(32, "big") + SALT
    assert commitment(SEED, SALT, 2) == hashlib.sha256(data).hexdigest() == COMMITMENT
    assert matches(COMMITMENT.upper(), SEED, SALT, 2)
    assert not matches(COMMITMENT, SEED + 1, SALT, 2)
    assert not matches(COMMITMENT, SEED, bytes(32), 2)
    assert not matches(COMMITMENT, SEED, SALT, 1)


def test_a_commitment_refuses_what_it_cannot_encode() -> None:
    with pytest.raises(ValueError):
        commitment(-1, SALT, 2)
    with pytest.raises(ValueError):
        commitment(SEED, b"short", 2)


def test_the_computers_dice_come_from_the_salt_alone() -> None:
    assert computer_seed(SALT, 7) == 180572466054585677927775632195295447369
    assert computer_seed(SALT, 7) != computer_seed(SALT, 8)
    assert computer_seed(SALT, 7) != computer_seed(bytes(32), 7)
