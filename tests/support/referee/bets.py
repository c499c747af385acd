"""Libijska bets (opklade, V12): the words before the first card and their settlement."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .actions import ActionStream

BET_STAKE = 10


@dataclass
class Bet:
    """One player's bet: what he claims, who said kontra (if anyone), and a rekontra."""

    bettor: int
    claim: str  # a count ("0", "3", ...) or, in sesti, "da" / "ne"
    kontra: int | None = None
    rekontra: bool = False

    @property
    def count(self) -> int:
        """The number the bettor claims (not in sesti)."""
        return int(self.claim)


def bet_claims(contract: str, n_seats: int) -> set[str]:
    """The claims a bet may name in this contract (V12, V17: no leading zeros)."""
    if contract == "sesti":
        return {"da", "ne"}
    highest = {"herc": 8, "dame": 4, "stihovi": 8 if n_seats == 4 else 10,
               "dvojica": 8 if n_seats == 4 else 10, "lora": 32}[contract]
    return {str(n) for n in range(highest + 1)}


def has_bets(contract: str) -> bool:
    """No bets in kralj_herc and zandar."""
    return contract not in ("kralj_herc", "zandar")


def read_bets(stream: ActionStream, contract: str, first: int, n_seats: int) -> list[Bet]:
    """Replay the betting words: each says ``kladim ...`` or ``ne kladim`` from ``first``;
    then, bet by bet, the opponents in turn say ``kontra`` or ``moze`` until a kontra, and
    after a kontra the bettor says ``rekontra`` or ``moze``."""
    claims = bet_claims(contract, n_seats)
    bets: list[Bet] = []
    for offset in range(n_seats):
        seat = (first + offset) % n_seats
        word = stream.take(seat)
        if word == "ne kladim":
            continue
        claim = word[len("kladim "):] if word.startswith("kladim ") else None
        if claim not in claims:
            raise stream.error(f"seat {seat}: {word!r} is not a bet of {contract} "
                               f"('ne kladim' or 'kladim' with one of {sorted(claims, key=_order)})")
        bets.append(Bet(bettor=seat, claim=claim))
    for bet in bets:
        _read_kontra(stream, bet, n_seats)
    return bets


def _order(claim: str) -> tuple[int, str]:
    """Sort key for listing claims: numbers in numeric order."""
    return (int(claim), "") if claim.isdigit() else (0, claim)


def _read_kontra(stream: ActionStream, bet: Bet, n_seats: int) -> None:
    """The opponents' kontra/moze for one bet, and the bettor's answer to a kontra."""
    for offset in range(1, n_seats):
        seat = (bet.bettor + offset) % n_seats
        word = stream.take(seat)
        if word not in ("kontra", "moze"):
            raise stream.error(f"seat {seat} answers seat {bet.bettor}'s bet with 'kontra' or 'moze', "
                               f"not {word!r}")
        if word == "kontra":
            bet.kontra = seat
            break
    if bet.kontra is not None:
        word = stream.take(bet.bettor)
        if word not in ("rekontra", "moze"):
            raise stream.error(f"seat {bet.bettor} answers the kontra with 'rekontra' or 'moze', "
                               f"not {word!r}")
        bet.rekontra = word == "rekontra"


def settle_bets(bets: list[Bet], came_true: Callable[[Bet], bool], n_seats: int) -> list[int]:
    """Points of the bets: a true bet -10 to its bettor, a false one +10; with kontra
    +-20 to the bettor and the opposite to the kontra-sayer; rekontra doubles that."""
    points = [0] * n_seats
    for bet in bets:
        stake = BET_STAKE * (2 if bet.kontra is not None else 1) * (2 if bet.rekontra else 1)
        signed = -stake if came_true(bet) else stake
        points[bet.bettor] += signed
        if bet.kontra is not None:
            points[bet.kontra] -= signed
    return points
