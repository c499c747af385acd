"""What a seat (or a spectator) may see of a preferans partie."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.cards import CARD_NAMES, names_of
from app.games.preferans.hand import KRAJ, Hand

if TYPE_CHECKING:
    from app.games.preferans.partie import PreferansPartie


def _words(actions: list[list[Any]], reveal_skart: bool) -> list[list[Any]]:
    if reveal_skart:
        return [list(a) for a in actions]
    return [[s, "skart" if w.startswith("skart ") else w] for s, w in actions]


def whole_deal(hand: Hand) -> dict[str, Any]:
    """The deal as shown to everyone once the hand has ended (section 4)."""
    return {
        "deal_index": hand.index,
        "hands": [names_of(m) for m in hand.original],
        "talon": [CARD_NAMES[c] for c in sorted(hand.talon)],
        "skart": names_of(hand.skart),
    }


def hand_view(partie: "PreferansPartie", hand: Hand, seat: int | None) -> dict[str, Any]:
    over = hand.phase == KRAJ
    v: dict[str, Any] = {
        "phase": hand.phase,
        "deal_index": hand.index,
        "dealer": hand.dealer,
        "first_bidder": hand.first,
        "turn": hand.turn,
        # the declarer knows his own škart; the others see it when the hand has ended
        "words": _words(partie.deals[hand.index]["actions"], over or (seat is not None and seat == hand.declarer)),
        "bid": hand.bidding.bid or None,
        "bid_holder": hand.bidding.holder,
        "declarations": [[s, k] for s, k in hand.bidding.declared],
        "named": [[s, w] for s, w in hand.bidding.named],
        "declarer": hand.declarer,
        "contract": None,
        "talon": [CARD_NAMES[c] for c in sorted(hand.talon)] if hand.talon_shown or over else None,
    }
    if hand.contract is not None:
        c = hand.contract
        v["contract"] = {"name": c.name, "label": c.label, "declared": c.declared, "value": c.value,
                         "trump": c.trump, "refe_factor": 2 if hand.declarer_had_refe else 1}
    f = hand.follow
    if f is not None:
        v["follow"] = {"words": [[s, w] for s, w in f.said], "kontra_by": f.kontra_by, "rekontra": f.rekontra,
                       "kontra_factor": f.kontra_factor, "single": f.single, "caller": f.caller,
                       "called": f.called, "outcome": f.outcome}
    p = hand.play
    if p is not None:
        v["in_play"] = list(p.seats)
        v["trick"] = [[s, CARD_NAMES[c]] for s, c in p.trick]
        v["tricks"] = [{"cards": [[s, CARD_NAMES[c]] for s, c in cards], "winner": w} for cards, w in p.history]
        v["trick_counts"] = list(p.tricks)
    po = hand.ponuda
    if po is not None:
        v["ponuda"] = {"word": po.word, "responders": list(po.responders), "accepted": list(po.accepted)}
        if po.shows_cards and seat is not None and seat != hand.declarer:
            v["ponuda"]["declarer_hand"] = names_of(hand.hands[hand.declarer])  # type: ignore[index]
    v["ponude"] = [[w, how] for w, how in hand.ponuda_log]
    if seat is not None:
        v["cards"] = names_of(hand.hands[seat])  # his own hand, sorted
        if seat == hand.declarer and hand.skart:
            v["skart"] = names_of(hand.skart)
    if over:
        v["end"] = hand.end
        v["deal"] = whole_deal(hand)
    return v


def partie_view(partie: "PreferansPartie", seat: int | None) -> dict[str, Any]:
    hand = partie.hand
    out: dict[str, Any] = {
        "game": partie.game,
        "version": partie.version,
        "seat": seat,
        "settings": dict(partie.settings),
        "finished": partie.finished,
        "deal_index": partie.deal_index,
        "needs_deal": partie.needs_deal,
        "seats_to_act": partie.seats_to_act(),
        "legal_actions": partie.legal_actions(seat) if seat is not None else [],
        "hand": hand_view(partie, hand, seat) if hand is not None else None,
        "papir": partie.shown_papir(),
        "result": partie.shown_result(),
    }
    so = partie.side_offer
    # An open otpis or fall offer carries what accepting it writes on the papir (public,
    # as the papir is): the answering seats read it before they answer.
    out["offer"] = None if so is None else {
        "word": so.word, "by": so.by, "responders": list(so.responders), "accepted": list(so.accepted),
        "if_accepted": partie.if_accepted()}
    fw = partie.fall_window
    out["fall_window"] = None if fw is None else {
        "deal_index": fw.hand_index, "fallen": list(fw.fallen), "taker": fw.taker, "closed": fw.closed}
    # A seeded partie deals the next hand at once: the ended one is then shown by
    # ``partie.shown_deal(index)``, not in this view, whose cards are all of one deal.
    last = partie.last_hand
    out["last_deal_index"] = last.index if last is not None else None
    # A tournament round (P13): its hands, those played, and whether its deadline has come
    # (the partie then ends after the hand in play). None: a partie without a limit.
    hands = partie.settings.get("deljenja")
    out["round"] = None if hands is None else {
        "deljenja": hands, "hands_played": partie.hands_ended, "deadline": partie.deadline_said}
    return out
