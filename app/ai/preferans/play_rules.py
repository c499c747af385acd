"""Rule-based card play for preferans (level ``pocetnik`` and the playouts)."""

from __future__ import annotations

from app.games.cards import SUIT_MASKS, cards_of as _cards

from app.ai.common.tricks import legal_cards, winner_index


def beats(c: int, best: int, trump: int | None) -> bool:
    if c >> 3 == best >> 3:
        return c > best
    return trump is not None and c >> 3 == trump


def rule_card(hand: int, cards: list[int], trick_seats: list[int], seat: int, declarer: int,
              trump: int | None, betl: bool, n_in_play: int) -> int:
    """The card ``seat`` plays on the trick ``cards`` (played by ``trick_seats``)."""
    legal = legal_cards(hand, cards, trump)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    mine = _cards(legal)
    if betl:
        if seat == declarer:
            if cards:
                best = cards[winner_index(cards, trump)]
                under = [c for c in mine if not beats(c, best, trump)]
                return max(under, key=lambda c: c & 7) if under else min(mine, key=lambda c: c & 7)
            return min(mine, key=lambda c: c & 7)
        return min(mine, key=lambda c: (c & 7, c))
    if not cards:
        if seat == declarer and trump is not None and (hand & SUIT_MASKS[trump]).bit_count() >= 3:
            return max(_cards(hand & SUIT_MASKS[trump]))
        aces = [c for c in mine if c & 7 == 7 and c >> 3 != trump]
        if aces:
            return aces[0]
        if seat == declarer:
            return max(mine, key=lambda c: (c & 7, c))
        return min(mine, key=lambda c: (c & 7, c))
    wi = winner_index(cards, trump)
    best = cards[wi]
    partner_wins = seat != declarer and trick_seats[wi] != declarer
    if partner_wins and (len(cards) == n_in_play - 1 or best & 7 >= 6):
        return min(mine, key=lambda c: (c & 7, c))
    winners = [c for c in mine if beats(c, best, trump)]
    if winners:
        if len(cards) == n_in_play - 1:
            return min(winners, key=lambda c: (c >> 3 == trump, c & 7))
        return max(winners, key=lambda c: (c >> 3 != trump, c & 7))
    return min(mine, key=lambda c: (c & 7, c))
