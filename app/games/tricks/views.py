"""What a seat (or a spectator) may see of a trick game's partie
(:mod:`app.games.tricks.partie`): the view, the current deal, why the last deal ended,
and the record. A game adds its own through the partie's ``view_extras`` and
``deal_extras``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.cards import CARD_NAMES, names_of
from app.games.tricks.deal import Deal, LayoutDeal, TrickDeal

if TYPE_CHECKING:
    from app.games.tricks.partie import TrickPartie


def partie_view(partie: TrickPartie, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (``None``: a spectator): his hand, never another's."""
    deal = partie.deal
    view: dict[str, Any] = {
        "game": partie.game,
        "version": partie.version,
        "seat": seat,
        "finished": partie.finished,
        "deal_index": partie.deal_index,
        "deals_total": partie.n_deals,
        "result": partie.shown_result(),
        "legal_actions": partie.legal_actions(seat) if seat is not None else [],
    }
    partie.view_extras(view)
    if deal is not None:
        view["deal"] = partie._deal_view(deal, partie.deal_index, seat)
    view["deal_ends"] = partie.shown_deal_ends()
    return view


def deal_ends(partie: TrickPartie) -> list[dict[str, Any]]:
    """The end of the last ended deal, and before it the deal whose end came with the
    same move when that one was voided at once (a Libyan kitty, V15): oldest first."""
    last = len(partie.points) - 1
    if last < 0:
        return []
    ends = [last]
    while ends[0] > 0 and partie.voids[ends[0]] and not partie.actions[ends[0]]:
        ends.insert(0, ends[0] - 1)
    return [partie.deal_end(k) for k in ends]


def deal_end(partie: TrickPartie, k: int) -> dict[str, Any]:
    """Ended deal ``k``: its contract, points and the reasons (the partie's ``end_reasons``)."""
    deal = partie.deals[k]
    return {
        "index": k,
        "slot": deal.slot,
        "contract": partie.contract_label(k),
        "contract_title": partie.deal_title(deal),
        "points": list(partie.points[k]),
        "void": partie.voids[k],
        "reasons": partie.end_reasons(deal),
    }


def deal_view(partie: TrickPartie, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
    """The current deal (``deal``, number ``k``) as ``seat`` sees it: its public part
    (built once per version, shared by the views) with the seat's own hand and what the
    game shows him."""
    head, tail = partie._shown_deal_parts()
    out = dict(head)
    if seat is not None:
        out["hand"] = names_of(deal.hands[seat])
    partie.deal_extras(deal, seat, out)
    out.update(tail)
    return out


def deal_parts(partie: TrickPartie) -> tuple[dict[str, Any], dict[str, Any]]:
    """The current deal's public keys: those before the hand and those after it."""
    deal, k = partie.deal, partie.deal_index
    assert deal is not None
    head: dict[str, Any] = {
        "index": k,
        "slot": deal.slot,  # the schedule's; a void deal's successor shares it
        "contract": partie.deal_contract(deal),
        "contract_title": partie.deal_title(deal),
        "dealer": partie.deal_dealer(k),
        "first": deal.first,
        "turn": None if deal.ended else deal.turn,
        "ended": deal.ended,
        "points": list(deal.points) if deal.points is not None else None,
        "hand_sizes": [h.bit_count() for h in deal.hands],
        "actions": [[s, w] for s, w in partie.actions[k]],
    }
    tail: dict[str, Any] = {}
    if isinstance(deal, TrickDeal):
        tail["trick"] = [[s, CARD_NAMES[c]] for s, c in deal.trick]
        tail["tricks"] = [
            {"leader": leader, "cards": [[s, CARD_NAMES[c]] for s, c in plays], "winner": winner}
            for leader, plays, winner in deal.tricks
        ]
        tail["trick_counts"] = list(deal.trick_counts)
        tail["taken"] = [names_of(t) for t in deal.taken]
        penalty = deal.penalty_mask
        tail["penalty_cards"] = [names_of(t & penalty) for t in deal.taken]
    elif isinstance(deal, LayoutDeal):
        tail["start_rank"] = None if deal.start_rank is None else "789TJQKA"[deal.start_rank]
        tail["rows"] = [[CARD_NAMES[c] for c in row] for row in deal.rows]
    return head, tail


def record(partie: TrickPartie, players: list[str]) -> dict[str, Any]:
    return {
        "format": "klub-record/1",
        "game": partie.game,
        "players": list(players),
        "settings": partie.rules_settings(),
        "deals": [
            {"hands": deal.record_hands(), **deal.record_pile(), "actions": [[s, w] for s, w in acts]}
            for deal, acts in zip(partie.deals, partie.actions)
        ],
        "result": partie.result(),
    }
