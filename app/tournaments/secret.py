"""A tournament's secret and the seeds of its rounds (ruling T2).

The secret is 32 random bytes (hex). The tournament page shows its commitment,
SHA-256 of those bytes, from registration on, and the secret itself once the last round
has ended; round r's seed is the hex HMAC-SHA256(secret, "<tournament id>:<r>"), and
every table of round r is a partie with that seed. Anyone can recompute the seeds:

    python -m app.tournaments.secret <secret> <tournament id> <rounds> [--commitment HEX] [--decks K]

prints each round's seed (and checks the commitment when given); ``--decks K`` also
prints the shuffled deck of the first K deals of each round, from which the game deals
its hands (``app.games.cards.shuffled_deck``: deal k of a partie with seed s).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import secrets
import sys
from collections.abc import Sequence

from app.games.cards import CARD_NAMES, shuffled_deck

SECRET_BYTES = 32


def secret_key(secret: str) -> bytes:
    """The secret's 32 bytes; ValueError if it is not 64 hex digits."""
    if not isinstance(secret, str):
        raise ValueError("the secret is a string of 64 hex digits")
    try:
        key = bytes.fromhex(secret)
    except ValueError:
        raise ValueError("the secret is a string of 64 hex digits, got something else") from None
    if len(key) != SECRET_BYTES:
        raise ValueError(f"the secret is {SECRET_BYTES} bytes (64 hex digits), got {len(key)} bytes")
    return key


def new_secret() -> str:
    """32 random bytes from the system's secure source, in hex."""
    return secrets.token_hex(SECRET_BYTES)


def commitment(secret: str) -> str:
    """SHA-256 of the secret's 32 bytes, in hex: shown before the secret is."""
    return hashlib.sha256(secret_key(secret)).hexdigest()


def round_seed(secret: str, tournament_id: int, round_no: int) -> str:
    """The seed of every table of round ``round_no`` (rounds count from 1)."""
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int) or tournament_id < 1:
        raise ValueError(f"the tournament id is a positive whole number, got {tournament_id!r}")
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise ValueError(f"rounds count from 1, got {round_no!r}")
    return hmac.new(secret_key(secret), f"{tournament_id}:{round_no}".encode(), hashlib.sha256).hexdigest()


def verify(secret: str, commitment_hex: str) -> bool:
    """Whether ``secret`` is the one ``commitment_hex`` was made from (a malformed one is not)."""
    try:
        mine = commitment(secret)
    except ValueError:
        return False
    if not isinstance(commitment_hex, str):
        return False
    return hmac.compare_digest(mine, commitment_hex.strip().lower())


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m app.tournaments.secret",
                                 description="Recompute a tournament's round seeds from its published secret (T2).")
    ap.add_argument("secret", help="the secret, 64 hex digits (shown after the last round)")
    ap.add_argument("tournament_id", type=int)
    ap.add_argument("rounds", type=int, help="how many rounds")
    ap.add_argument("--commitment", help="the SHA-256 shown before the tournament, to check the secret against")
    ap.add_argument("--decks", type=int, default=0, metavar="K",
                    help="also print the shuffled deck of the first K deals of each round")
    args = ap.parse_args(argv)
    try:
        made = commitment(args.secret)
        seeds = [round_seed(args.secret, args.tournament_id, r) for r in range(1, args.rounds + 1)]
    except ValueError as e:
        print(f"secret: {e}", file=sys.stderr)
        return 2
    print(f"commitment {made}")
    if args.commitment is not None:
        ok = verify(args.secret, args.commitment)
        print("the commitment matches" if ok else "THE COMMITMENT DOES NOT MATCH")
        if not ok:
            return 1
    for r, seed in enumerate(seeds, 1):
        print(f"round {r} seed {seed}")
        for k in range(max(0, args.decks)):
            print(f"  deal {k + 1} deck {' '.join(CARD_NAMES[c] for c in shuffled_deck(seed, k))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
