"""Scoring a finished hand (sections 10-13, rulings P3, P5) and the otpis (section 14, P11)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.preferans.contracts import BETL_SUPA, IGRA_BETL_SUPA
from app.games.preferans.hand import (
    END_ALL_PASS, END_NOT_PLAYED, END_PROLAZ, Hand,
)
from app.games.preferans.papir import Papir


@dataclass
class HandScore:
    """What one hand writes on the papir."""

    line: dict[str, Any]
    bule: list[int] = field(default_factory=lambda: [0, 0, 0])
    supe: list[list[int]] = field(default_factory=lambda: [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    refe_written: list[int] = field(default_factory=list)
    refe_played: list[int] = field(default_factory=list)
    falls: list[int] = field(default_factory=list)  # followers who fell
    v: int = 0


def score_hand(hand: Hand, papir: Papir) -> HandScore:
    line: dict[str, Any] = {"deal": hand.index, "dealer": hand.dealer, "end": hand.end}
    if hand.end == END_ALL_PASS:
        receivers = papir.refe_receivers()
        line.update(kind="refe", refe_to=receivers)
        return HandScore(line, refe_written=receivers)

    d = hand.declarer
    contract = hand.contract
    follow = hand.follow
    rf = 2 if hand.declarer_had_refe else 1
    kf = follow.kontra_factor
    v = contract.value * 2 * kf * rf
    line.update(declarer=d, contract=contract.label, value=contract.value, kontra=kf, refe_factor=rf, v=v)
    score = HandScore(line, v=v)
    total = papir.total

    if hand.end == END_NOT_PLAYED:  # pik sa talonom without kontra (section 8, P5)
        receivers = papir.refe_receivers()
        if receivers:
            line.update(kind="refe", refe_to=receivers)
            score.refe_written = receivers
            return score
        dec = min(v, total)
        score.bule[d] = -dec
        line.update(kind="prolaz", passed=True, amount=dec)
        return score

    if hand.declarer_had_refe:
        score.refe_played = [d]
    if hand.end == END_PROLAZ:  # nobody follows: as if 10 tricks, no supe
        dec = min(v, total)
        score.bule[d] = -dec
        line.update(kind="prolaz", passed=True, amount=dec)
        return score

    tricks = list(hand.play.tricks)
    o1, o2 = hand.opponents()
    opp = tricks[o1] + tricks[o2]
    line.update(kind="played", tricks=tricks, in_play=list(hand.play.seats), ponuda=hand.accepted_ponuda)
    falls: list[int] = []
    if contract.is_betl:
        passed = tricks[d] == 0
        if passed and follow.kontra_by is not None:
            falls.append(follow.kontra_by)
    else:
        passed = tricks[d] >= 6
        if follow.kontra_by is not None or follow.caller is not None:
            responsible = follow.kontra_by if follow.kontra_by is not None else follow.caller
            if opp < 4:
                falls.append(responsible)
        elif follow.single is not None:
            if tricks[follow.single] < 2:
                falls.append(follow.single)
        elif passed:
            falls += [o for o in (o1, o2) if tricks[o] < 2]
    for o in falls:
        score.bule[o] += v
    if passed:
        # bule never sum below 0: the same hand's falls first, then the declarer's pass
        amount = min(v, total + v * len(falls))
        score.bule[d] -= amount
    else:
        amount = v
        score.bule[d] += v
    score.falls = falls
    line.update(passed=passed, falls=falls, amount=amount)

    supe = score.supe
    if contract.is_betl:
        if not passed:
            base = (IGRA_BETL_SUPA if contract.declared else BETL_SUPA) * kf * rf
            if follow.kontra_by is not None:
                supe[follow.kontra_by][d] = 2 * base
            else:
                supe[o1][d] = supe[o2][d] = base
    elif follow.kontra_by is not None:
        supe[follow.kontra_by][d] = opp * amount
    elif follow.caller is not None:
        supe[follow.caller][d] = opp * amount
    elif follow.single is not None:
        supe[follow.single][d] = tricks[follow.single] * amount
    else:
        supe[o1][d] = tricks[o1] * amount
        supe[o2][d] = tricks[o2] * amount
    return score


def otpis_shares(papir: Papir, next_first: int) -> list[int]:
    """How much each player's bule fall in an otpis (section 14, P11)."""
    total = papir.total
    base, extra = divmod(total, 3)
    results = papir.results()
    order = sorted(range(3), key=lambda s: (-papir.bule[s], -results[s], (s - next_first) % 3))
    shares = [base, base, base]
    for s in order[:extra]:
        shares[s] += 1
    return shares
