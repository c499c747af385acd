"""What a seat (or a spectator) may see of a Lora partie (app/games/lora/partie.py): the
view, the current deal, why the last deal ended, and the record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.cards import CARD_NAMES, names_of
from app.games.lora.bets import BET_POINTS, BET_UNITS
from app.games.tricks.deal import Deal, LayoutDeal, TrickDeal
from app.games.lora.house_deals import BlindDeal, ChoosingDeal, PrognozaDeal
from app.games.lora.libijska import Bets, LibyanLayoutDeal, kitty_view

if TYPE_CHECKING:
    from app.games.lora.partie import LoraPartie


def partie_view(partie: LoraPartie, seat: int | None) -> dict[str, Any]:
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
    if partie.house is not None:
        # The sheet's rows before they are played: each deal's dealer and contract (None:
        # its first player chooses), and which way the points count.
        schedule = partie.house.schedule
        view["schedule"] = [[schedule.dealer(k), schedule.fixed_contract(k)] for k in range(partie.n_deals)]
        view["highest_wins"] = schedule.highest_wins
        # Each dealt deal's slot of the schedule: a void deal and its successor share one.
        view["slots"] = [d.slot for d in partie.deals]
        if partie.house.bets:  # each dealt deal's bets (public as said), for the sheet
            view["bets"] = [d.bets.view() if isinstance(d, Bets) and d.bets is not None else None
                            for d in partie.deals]
    if deal is not None:
        k = partie.deal_index
        view["deal"] = partie._deal_view(deal, k, seat)
    view["deal_ends"] = partie.shown_deal_ends()
    return view


def deal_ends(partie: LoraPartie) -> list[dict[str, Any]]:
    """The end of the last ended deal, and before it the deal whose end came with the
    same move when that one was voided at once by its kitty (V15): oldest first."""
    last = len(partie.points) - 1
    if last < 0:
        return []
    ends = [last]
    while ends[0] > 0 and partie.voids[ends[0]] and not partie.actions[ends[0]]:
        ends.insert(0, ends[0] - 1)
    return [partie.deal_end(k) for k in ends]


def deal_end(partie: LoraPartie, k: int) -> dict[str, Any]:
    """Ended deal ``k``: its contract, points and the reasons (:mod:`app.games.lora.deal_end`)."""
    deal = partie.deals[k]
    house = partie.house
    reasons = partie.end_reasons(deal)
    points = list(partie.points[k])
    if partie.voids[k] and any(points):  # the third void in a row: the dealer pays (V10, V11)
        dealer = points.index(max(points))
        reasons.append({"code": "third_void", "seat": dealer, "amount": points[dealer]})
    return {
        "index": k,
        "slot": deal.slot,
        "contract": partie.contract_label(k),
        "contract_title": deal.contract.title if house is None else title(partie, deal),
        "points": points,
        "void": partie.voids[k],
        "reasons": reasons,
    }


def deal_view(partie: LoraPartie, deal: Deal, k: int, seat: int | None) -> dict[str, Any]:
    """The current deal (``deal``, number ``k``) as ``seat`` sees it: its public part
    (built once per version, shared by the views) with the seat's own hand and what the
    house rules show him."""
    head, tail = partie._shown_deal_parts()
    out = dict(head)
    if seat is not None:
        out["hand"] = names_of(deal.hands[seat])
    if partie.house is not None:
        house_view(partie, deal, seat, out)
    out.update(tail)
    return out


def deal_parts(partie: LoraPartie) -> tuple[dict[str, Any], dict[str, Any]]:
    """The current deal's public keys: those before the hand and those after it."""
    deal, k, house = partie.deal, partie.deal_index, partie.house
    assert deal is not None
    head: dict[str, Any] = {
        "index": k,
        "slot": deal.slot,  # the schedule's; a void deal's successor shares it
        "contract": int(deal.contract) if house is None else deal.code,
        "contract_title": deal.contract.title if house is None else title(partie, deal),
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


def title(partie: LoraPartie, deal: Deal) -> str | None:
    assert partie.house is not None
    return None if deal.code is None else partie.house.rules[deal.code].title


def house_view(partie: LoraPartie, deal: Deal, seat: int | None, out: dict[str, Any]) -> None:
    """What house rules add: the settings, the chooser's choices, the predictions, a blind hand."""
    out["settings"] = partie.rules_settings()
    if isinstance(deal, ChoosingDeal):
        out["choosing"] = True
        out["choices"] = list(deal.choices) if seat == deal.first else []
        out["choice_titles"] = dict(deal.titles) if seat == deal.first else {}
    elif isinstance(deal, PrognozaDeal):
        out["predictions"] = list(deal.predictions)
    elif isinstance(deal, BlindDeal):
        out["blind"] = True
        if seat is not None:
            out["hand"] = []  # face down: he sees only how many are left (hand_sizes)
    if isinstance(deal, Bets) and deal.bets is not None:
        out["bets"] = deal.bets.view()
        # The prompt's unit and stakes: a true bet -stake, a false one +stake; kontra x2, rekontra x4.
        out["bet_terms"] = {"unit": BET_UNITS[deal.code], "stake": BET_POINTS,
                            "trick": deal.rule.stop_after or None}
    if deal.pile_key is not None:
        out["kitty"] = kitty_view(deal, seat)  # None while face down
        out["kitty_size"] = len(deal.pile) if not isinstance(deal, LibyanLayoutDeal) else deal.kitty.bit_count()
    if isinstance(deal, LibyanLayoutDeal) and deal.kitty_turn:
        out["kitty_turn"] = True
    if deal.void:
        out["void"] = True


def record(partie: LoraPartie, players: list[str]) -> dict[str, Any]:
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
