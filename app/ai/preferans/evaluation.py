"""Quick trick counts of a preferans hand, for the auction, the škart and following."""

from __future__ import annotations

from itertools import combinations

from app.ai.preferans.knowledge import SUIT_WORDS

ACE, KING, QUEEN, JACK = 7, 6, 5, 4
TRICKS_TO_MAKE = 6


def suit_tricks(cards: int, is_trump: bool) -> float:
    """Tricks one suit of a hand is worth (``cards``: the suit's ranks as an 8-bit mask)."""
    n = cards.bit_count()
    if not n:
        return 0.0
    t = 0.0
    a, k, q, j = (cards >> ACE) & 1, (cards >> KING) & 1, (cards >> QUEEN) & 1, (cards >> JACK) & 1
    t += a
    if k:
        t += 1.0 if a else 0.6 if n >= 2 else 0.1
    if q and n >= 3:
        t += 0.9 if a and k else 0.5 if a or k else 0.25
    if j and n >= 4 and a + k + q >= 2:
        t += 0.5
    if is_trump:
        t += max(0, n - 3) * 0.9
    elif n >= 5:
        t += (n - 4) * 0.5
    return min(t, float(n))


def contract_tricks(hand: int, trump: int | None) -> float:
    """Expected declarer tricks with ``trump`` (None: sans)."""
    total = 0.0
    for s in range(4):
        cards = (hand >> (8 * s)) & 0xFF
        total += suit_tricks(cards, s == trump)
        if trump is not None and s != trump and cards.bit_count() <= 1:
            # a short side suit lets spare trumps ruff
            spare = max(0, ((hand >> (8 * trump)) & 0xFF).bit_count() - 3)
            total += min(spare, 2 - cards.bit_count()) * 0.6
    return total


def betl_risk(hand: int) -> float:
    """How likely the hand takes a trick in betl: low cards and short suits are safe."""
    risk = 0.0
    for s in range(4):
        cards = (hand >> (8 * s)) & 0xFF
        n = cards.bit_count()
        # the k-th lowest card must be at most rank 2k (7, 9, J, K) to duck every lead
        ranks = [r for r in range(8) if (cards >> r) & 1]
        for i, r in enumerate(ranks):
            if r > 2 * i + (1 if n <= 2 else 0):
                risk += 1.0 if r >= 5 else 0.6
    return risk


def best_contract(hand: int) -> tuple[str, float]:
    """The best suit or sans for this hand and its expected tricks."""
    options = [(SUIT_WORDS[t], contract_tricks(hand, t)) for t in range(4)]
    options.append(("sans", contract_tricks(hand, None) - 0.5))
    return max(options, key=lambda o: (o[1], -"pik karo herc tref sans".split().index(o[0])))


def best_skart(hand12: int, contract: str | None = None) -> tuple[int, int]:
    """The two cards to discard from the 12 that keep the most tricks."""
    cards = [c for c in range(32) if (hand12 >> c) & 1]
    best, best_value = (cards[0], cards[1]), -1e9
    for a, b in combinations(cards, 2):
        rest = hand12 & ~(1 << a) & ~(1 << b)
        if contract == "betl":
            value = -betl_risk(rest)
        elif contract in SUIT_WORDS:
            value = contract_tricks(rest, SUIT_WORDS.index(contract))
        else:
            value = best_contract(rest)[1]
        if value > best_value:
            best, best_value = (a, b), value
    return best


def defence_tricks(hand: int, trump: int | None) -> float:
    """Tricks a defender's hand is worth against a contract with ``trump``."""
    total = 0.0
    for s in range(4):
        cards = (hand >> (8 * s)) & 0xFF
        n = cards.bit_count()
        a, k = (cards >> ACE) & 1, (cards >> KING) & 1
        if s == trump:
            total += a + (0.7 if k and n >= 2 else 0) + (0.5 if n >= 4 else 0)
        else:
            total += a * (0.9 if n <= 5 else 0.6) + (0.5 if k and n >= 2 and n <= 4 else 0)
    return total


