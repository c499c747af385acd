"""A tournament's secret, its commitment and the round seeds (ruling T2)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.secret import commitment, main, new_secret, round_seed, verify

SECRET = "00112233445566778899aabbccddeeff" * 2


def test_the_seed_is_the_hmac_of_tournament_and_round_keyed_by_the_secret_bytes():
    expected = hmac.new(bytes.fromhex(SECRET), b"7:3", hashlib.sha256).hexdigest()
    assert round_seed(SECRET, 7, 3) == expected
    assert len(expected) == 64


def test_the_commitment_is_the_sha256_of_the_secret_bytes_and_verifies():
    assert commitment(SECRET) == hashlib.sha256(bytes.fromhex(SECRET)).hexdigest()
    assert verify(SECRET, commitment(SECRET))
    assert verify(SECRET, commitment(SECRET).upper())
    assert not verify(SECRET, commitment("ff" * 32))
    assert not verify("not hex", commitment(SECRET))
    assert not verify(SECRET[:-2], commitment(SECRET))


def test_a_new_secret_is_32_random_bytes():
    a, b = new_secret(), new_secret()
    assert len(bytes.fromhex(a)) == 32 and a != b
    assert verify(a, commitment(a))


@pytest.mark.parametrize("bad", ["", "zz" * 32, "ab" * 31, "ab" * 33])
def test_a_malformed_secret_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="secret"):
        round_seed(bad, 1, 1)
    with pytest.raises(ValueError, match="secret"):
        commitment(bad)


@pytest.mark.parametrize("tournament_id, round_no", [(1, 0), (1, -1), (0, 1), (True, 1), (1, 1.0)])
def test_rounds_and_tournaments_count_from_1(tournament_id, round_no):
    with pytest.raises(ValueError):
        round_seed(SECRET, tournament_id, round_no)


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 10**6), st.integers(1, 50), st.integers(1, 50))
def test_seeds_are_deterministic_and_differ_by_round_and_tournament(key, tid, r1, r2):
    secret = key.hex()
    assert round_seed(secret, tid, r1) == round_seed(secret, tid, r1)
    assert (round_seed(secret, tid, r1) == round_seed(secret, tid, r2)) == (r1 == r2)
    assert round_seed(secret, tid, r1) != round_seed(secret, tid + 1, r1)
    assert verify(secret, commitment(secret))


def test_the_command_recomputes_every_seed_and_checks_the_commitment(capsys):
    assert main([SECRET, "7", "3", "--commitment", commitment(SECRET), "--decks", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"commitment {commitment(SECRET)}"
    assert out[1] == "the commitment matches"
    seeds = [line.split()[-1] for line in out if line.startswith("round ")]
    assert seeds == [round_seed(SECRET, 7, r) for r in (1, 2, 3)]
    decks = [line for line in out if line.startswith("  deal 1 deck ")]
    assert len(decks) == 3 and len(decks[0].split()) == 3 + 32
    assert main([SECRET, "7", "1", "--commitment", "00" * 32]) == 1
    assert main(["xyz", "7", "1"]) == 2
