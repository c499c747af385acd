"""Helpers for the preferans tests: crafted deals and scripted words, the scenarios other modules
start from (both fall, a called player falls), and the computer players' tests' seeded deals."""

from __future__ import annotations

from app.games.cards import CARD_NAMES, deal_one_by_one, shuffled_deck
from app.games.preferans import PreferansPartie

# Crafted deals (seat 0, 1, 2, talon). In deal 0 seat 0 deals and seat 1 bids first.
# Deal B: every seat has a long suit: 0 spades, 1 hearts, 2 clubs.
DEAL_B = (
    "7S 8S 9S TS JS QS KS AS KD 9D",
    "7H 8H 9H TH JH QH KH AH JD QD",
    "7C 8C 9C TC JC QC KC AC AD TD",
    "7D 8D",
)
# Deal A: as B, but seat 0 holds both high diamonds.
DEAL_A = (
    "7S 8S 9S TS JS QS KS AS KD AD",
    "7H 8H 9H TH JH QH KH AH JD QD",
    "7C 8C 9C TC JC QC KC AC 9D TD",
    "7D 8D",
)
# Deal C: seat 1 can take every trick in sans or hearts.
DEAL_C = (
    "7S 8S 9S TS JS QS KS 7D 8D 9D",
    "AS AH KH QH JH TH 9H 8H 7H AC",
    "7C 8C 9C TC JC QC KC TD JD QD",
    "KD AD",
)
# Deal D: seat 1 holds the lowest cards (betl); the talon has the two top diamonds.
DEAL_D = (
    "9S TS JS QS KS AS 9D TD JD QD",
    "7S 8S 7H 8H 9H 7C 8C 9C 7D 8D",
    "TH JH QH KH AH TC JC QC KC AC",
    "KD AD",
)


def new(settings: dict | None = None) -> PreferansPartie:
    return PreferansPartie.new(settings or {"bule": 60, "refe": 2})


def deal(p: PreferansPartie, d=DEAL_B) -> None:
    *hands, talon = d
    p.start_deal([h.split() for h in hands], talon.split())


def say(p: PreferansPartie, script: str) -> None:
    """Apply ``"1:2 2:dalje 0:ne pratim"``: seat, colon, word; words may contain spaces
    (``0:ne pratim``, ``1:skart 7D 8D``); items are separated by commas or by a seat prefix."""
    for seat, word in parse_script(script):
        p.apply(seat, word)


def parse_script(script: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for token in script.split():
        if len(token) >= 2 and token[0] in "012" and token[1] == ":":
            out.append((int(token[0]), token[2:]))
        else:
            seat, word = out[-1]
            out[-1] = (seat, f"{word} {token}")
    return out


def cards(p: PreferansPartie, sequence: str) -> None:
    """Play cards in order, each by the seat whose turn it is."""
    for c in sequence.split():
        (seat,) = p.seats_to_act()
        p.apply(seat, c)


def bid_script(first: int, declarer: int, bid: str = "2") -> list[tuple[int, str]]:
    return [((first + k) % 3, bid if (first + k) % 3 == declarer else "dalje") for k in range(3)]


def ordinary(p: PreferansPartie, declarer: int, contract: str, bid: str = "2", skart: str = "7D 8D") -> None:
    """``declarer`` wins the licitacija with ``bid``, discards ``skart`` and announces."""
    first = (p.deal_index % 3 + 1) % 3
    for seat, word in bid_script(first, declarer, bid):
        p.apply(seat, word)
    p.apply(declarer, f"skart {skart}")
    p.apply(declarer, contract)


def prolaz(p: PreferansPartie, declarer: int, contract: str, d=DEAL_B) -> None:
    """A whole hand in which nobody follows ``declarer``'s contract (crafted deal ``d``)."""
    deal(p, d)
    ordinary(p, declarer, contract, skart=d[3])
    p.apply((declarer + 1) % 3, "ne pratim")
    p.apply((declarer + 2) % 3, "ne pratim")


def all_pass(p: PreferansPartie, d=DEAL_B) -> None:
    deal(p, d)
    first = (p.deal_index % 3 + 1) % 3
    for k in range(3):
        p.apply((first + k) % 3, "dalje")

# Deal E: deal D with the two top diamonds in seat 1's hand (a betl he must lose).
DEAL_E = (DEAL_D[0], "7S 8S 7H 8H 9H 7C 8C 9C KD AD", DEAL_D[2], "7D 8D")

# Scripted play for the crafted deals (comments give the tricks, derived by hand).
# Deal A/B, herc by seat 1 leading: he runs his eight hearts; seat 2 throws clubs, seat 0 spades.
HEARTS8 = "AH 7C 7S KH 8C 8S QH 9C 9S JH TC TS TH JC JS 9H QC QS 8H KC KS 7H AC AS"
# Deal B after HEARTS8: QD AD 9D (seat 2 wins), TD KD JD (seat 0 wins): 8 / 1 / 1.
B_END_8_1_1 = "QD AD 9D TD KD JD"
# Deal B after HEARTS8: QD TD 9D (seat 1 wins), JD AD KD (seat 2 wins): 9 / 0 / 1 (seats 1 / 0 / 2).
B_END_9_0_1 = "QD TD 9D JD AD KD"
# Deal A after HEARTS8: QD TD KD (seat 0 wins), AD JD 9D (seat 0 wins): 8 / 2 / 0.
A_END_8_2_0 = "QD TD KD AD JD 9D"
# Deal B, tref by seat 1, all three in play: seat 2 trumps the AH and runs clubs: 5 tricks.
TREF_FIVE = "AH 7C 7S 8C 8S KH 9C 9S QH TC TS JH JC JS TH"
# Deal D, betl by seat 1 (skart KD AD): seat 0 takes every trick.
BETL_PASS = "7S TH 9S TS 8S JH JS 7H TC QS 8H JC KS 9H QC AS 7C KC 9D 7D AC TD 8D QH JD 8C KH QD 9C AH"


SIM_SETTINGS = {"bule": 60, "refe": 2}  # the computer players' simulation tests (tests/ai)


def dealt(seed: int) -> tuple[list[list[str]], list[str]]:
    deck = shuffled_deck(f"test-sim:{seed}", 0)
    hands = deal_one_by_one(deck, 3, 10, 1)
    return [[CARD_NAMES[c] for c in h] for h in hands], [CARD_NAMES[c] for c in deck[30:]]


def replay(hands: list[list[str]], talon: list[str], actions: list[tuple[int, str]]) -> PreferansPartie:
    partie = PreferansPartie.new(SIM_SETTINGS)
    partie.start_deal(hands, talon)
    for s, w in actions:
        partie.apply(s, w)
    return partie


def both_fell():
    """Deal 0: herc by 1 (v 8), 9 tricks; seats 0 (0 tricks) and 2 (1 trick) both fall."""
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "herc")
    say(p, "2:pratim 0:pratim 2:moze 0:moze")
    cards(p, HEARTS8 + " " + B_END_9_0_1)
    assert p.result()["bule"] == [68, 52, 68]
    assert p.result()["supe"] == [[0, 0, 0], [0, 0, 0], [0, 8, 0]]
    return p


def zovem_fall():
    """Deal 0: herc by 1, 0 calls 2; caller 0 falls (v 8) and writes 2 x 8."""
    p = new()
    deal(p, DEAL_B)
    ordinary(p, 1, "herc")
    say(p, "2:ne pratim 0:zovem")
    cards(p, HEARTS8 + " " + B_END_8_1_1)
    assert p.result()["bule"] == [68, 52, 60]
    return p
