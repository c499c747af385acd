"""The parts of a klub-record/1 record every game checks the same way."""

from __future__ import annotations

from typing import Any

from .cards import DECK
from .errors import RefereeError

FORMAT = "klub-record/1"


def check_header(record: Any, n_seats: int) -> list[Any]:
    """Check format, players and the deals list; return the deals."""
    if not isinstance(record, dict):
        raise RefereeError("the record is not an object")
    if record.get("format") != FORMAT:
        raise RefereeError(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    players = record.get("players")
    if not (isinstance(players, list) and len(players) == n_seats
            and all(isinstance(name, str) for name in players)):
        raise RefereeError(f"players must be {n_seats} names, not {players!r}")
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RefereeError("deals must be a list")
    return deals


def deal_cards(deal_index: int, deal: Any, n_seats: int, hand_size: int,
               extra_key: str | None = None, extra_size: int = 0) -> tuple[list[list[str]], list[str]]:
    """The hands (and the kitty or stock under ``extra_key``) of one deal, checked to be
    ``n_seats`` hands of ``hand_size`` and together a permutation of the 32-card deck."""
    if not isinstance(deal, dict):
        raise RefereeError("a deal is not an object", deal_index)
    expected_keys = {"hands", "actions"} | ({extra_key} if extra_key else set())
    if set(deal) != expected_keys:
        raise RefereeError(f"a deal has the keys {sorted(expected_keys)}, not {sorted(deal)}", deal_index)
    hands = deal["hands"]
    if not (isinstance(hands, list) and len(hands) == n_seats
            and all(isinstance(hand, list) and len(hand) == hand_size for hand in hands)):
        raise RefereeError(f"hands must be {n_seats} lists of {hand_size} cards", deal_index)
    extra = deal[extra_key] if extra_key else []
    if not (isinstance(extra, list) and len(extra) == extra_size):
        raise RefereeError(f"{extra_key} must be a list of {extra_size} cards", deal_index)
    cards = [card for hand in hands for card in hand] + list(extra)
    if sorted(cards, key=str) != sorted(DECK):
        raise RefereeError("the deal is not a permutation of the 32-card deck", deal_index)
    return [list(hand) for hand in hands], list(extra)
