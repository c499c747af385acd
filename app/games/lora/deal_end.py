"""Why a Lora-table deal ended as it did: the reasons the table shows at its end.

Each reason is a dict with a ``code`` and the facts the table needs to say it in the
member's language (seats, cards, amounts); nothing here is hidden: every card named was
played, or lay in a kitty that the end of the deal turns face up. Lórum adds its own
reasons (:mod:`app.games.lorum.partie`).

Codes:

- ``void_kitty`` (``card``): the card in the kitty voided the deal (V11, V15);
- ``void_no_pair`` (``tricks``): Dvojica ended without two players of ``tricks`` tricks;
- ``third_void`` (``seat``, ``amount``): the third void deal in a row costs the dealer;
- ``bet`` (``seat``, ``word``, ``count``, ``came_true``, ``kontra_by``, ``rekontra``,
  ``amount``): a Libyan bet settled (``amount`` to the bettor; the kontra's sayer gets
  the opposite), ``count`` being what the bettor's bet counted (for ``kladim da/ne``:
  1 when he won the trick);
- ``doubled`` (``card``): Libyan Lora's layout ended by a card of the first card's rank:
  everything (bets too) is doubled.
"""

from __future__ import annotations

from typing import Any

from app.games.cards import CARD_NAMES, names_of, rank_of
from app.games.lora.libijska import LibyanLayoutDeal


def kitty_void_reason(deal: Any) -> dict[str, Any] | None:
    voids = getattr(getattr(deal, "rule", None), "kitty_voids", 0)
    mask = sum(1 << c for c in deal.pile) & voids
    if not mask:
        return None
    return {"code": "void_kitty", "card": names_of(mask)[0]}


def bet_reasons(deal: Any) -> list[dict[str, Any]]:
    bets = getattr(deal, "bets", None)
    if bets is None or getattr(deal, "void", False):
        return []  # a void deal voids its bets too
    counts = deal.rule.counts(deal)
    out = []
    for bet in bets.bets:
        count = counts[bet.seat]
        points = bet.points(count, deal.n)
        out.append({
            "code": "bet", "seat": bet.seat, "word": bet.word, "count": count,
            "came_true": points[bet.seat] < 0, "kontra_by": bet.kontra_by, "rekontra": bet.rekontra,
            "amount": points[bet.seat],
        })
    return out


def lora_reasons(deal: Any) -> list[dict[str, Any]]:
    """The reasons of an ended deal of Lora's tables (the Club's own deals need none: the
    points say it)."""
    reasons: list[dict[str, Any]] = []
    if deal.void:
        kitty = kitty_void_reason(deal)
        if kitty is not None:
            reasons.append(kitty)
        elif getattr(getattr(deal, "rule", None), "pair", 0):
            reasons.append({"code": "void_no_pair", "tricks": deal.rule.pair})
        return reasons
    reasons.extend(bet_reasons(deal))
    if isinstance(deal, LibyanLayoutDeal) and rank_of(deal.last_placed) == deal.start_rank:
        reasons.append({"code": "doubled", "card": CARD_NAMES[deal.last_placed]})
    return reasons


__all__ = ["bet_reasons", "kitty_void_reason", "lora_reasons"]
