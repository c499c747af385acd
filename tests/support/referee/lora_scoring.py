"""Points of Lora's trick contracts in each variant, and when each such deal ends (V8).

Every function gets the finished ``TrickState`` (and the 3-player kitty); points are in
the variant's own sense: klub and libijska penalties (lowest total wins), hrvatska
rewards (highest total wins).
"""

from __future__ import annotations

from collections.abc import Callable

from .bets import Bet
from .cards import JACK_OF_CLUBS, KING_OF_HEARTS, is_heart, is_queen
from .settings import LoraRules
from .tricks import EndTest, TrickState


def queens_taken(state: TrickState, seat: int) -> int:
    """Queens in the seat's tricks (a kitty queen counts for nobody, V11)."""
    return sum(1 for card in state.taken[seat] if is_queen(card))


def hearts_taken(state: TrickState, seat: int, kitty: list[str]) -> int:
    """Hearts in the seat's tricks, plus the kitty's hearts for the last trick's winner."""
    hearts = sum(1 for card in state.taken[seat] if is_heart(card))
    if state.all_played and state.winners[-1] == seat:
        hearts += sum(1 for card in kitty if is_heart(card))
    return hearts


def _all_or_each(counts: list[int], total: int, each: int, all_of_them: int) -> list[int]:
    """``each`` per counted card, unless one player has all ``total``: he gets
    ``all_of_them`` and the others 0."""
    if total in counts:
        return [all_of_them if count == total else 0 for count in counts]
    return [each * count for count in counts]


def _to_taker(state: TrickState, card: str, points: int, shift: int = 0) -> list[int]:
    """``points`` to the seat ``shift`` places after the taker of ``card``."""
    result = [0] * state.n_seats
    taker = state.taker_of(card)
    if taker is not None:
        result[(taker + shift) % state.n_seats] += points
    return result


def cards_taken(state: TrickState, test: Callable[[str], bool]) -> int:
    """How many cards passing ``test`` have been taken by anyone."""
    return sum(1 for cards in state.taken for card in cards if test(card))


def deciding_trick(rules: LoraRules, contract: str) -> int:
    """The trick whose winner counts: kralj 8th (6th with kralj_sesti), hrvatska's
    kralj_zadnji the last, libijska's sesti the 6th (8th with 3 players)."""
    if contract == "kralj":
        return 6 if rules.kralj_sesti else 8
    if contract == "sesti":
        return 6 if rules.n_seats == 4 else 8
    return 8


# ---- when a trick contract ends --------------------------------------------------

def end_test(rules: LoraRules, contract: str, kitty: list[str]) -> EndTest:
    """The early-end test of a trick contract (V8, lora.sr.md section 5): true once the
    deal's points can no longer change."""
    queens_out = 4 - sum(1 for card in kitty if is_queen(card))
    kitty_hearts = any(is_heart(card) for card in kitty)

    def never(state: TrickState) -> bool:
        """The contract plays all its tricks."""
        return False

    def all_queens(state: TrickState) -> bool:
        """Every queen outside the kitty is taken."""
        return cards_taken(state, is_queen) == queens_out

    def all_hearts(state: TrickState) -> bool:
        """All 8 hearts are taken; a heart in the kitty goes to the last trick's winner,
        so then every trick is played."""
        return not kitty_hearts and cards_taken(state, is_heart) == 8

    def king(state: TrickState) -> bool:
        """K♥ is taken."""
        return state.taker_of(KING_OF_HEARTS) is not None

    def jack(state: TrickState) -> bool:
        """J♣ is taken."""
        return state.taker_of(JACK_OF_CLUBS) is not None

    def king_and_sixth(state: TrickState) -> bool:
        """kralj_sesti: K♥ is taken and the 6th trick is played (V4)."""
        return king(state) and len(state.winners) >= 6

    def counted_trick(state: TrickState) -> bool:
        """libijska sesti: the counted trick is played."""
        return len(state.winners) >= deciding_trick(rules, "sesti")

    def pair(state: TrickState) -> bool:
        """libijska dvojica: two players have 3 (with 3 players 4) tricks each."""
        return two_with(state, dvojica_need(rules))

    if rules.variant == "klub":
        tests = {"dame": all_queens, "herc": all_hearts, "zandar": jack}
        if rules.kralj_sesti:
            tests["kralj"] = king_and_sixth
    elif rules.variant == "hrvatska":
        tests = {"babe": all_queens, "herc": all_hearts}
    else:
        tests = {"herc": all_hearts, "dame": all_queens, "kralj_herc": king, "zandar": jack,
                 "sesti": counted_trick, "dvojica": pair}
    return tests.get(contract, never)


def dvojica_need(rules: LoraRules) -> int:
    """Tricks each of the two players needs in dvojica: 3, with 3 players 4."""
    return 3 if rules.n_seats == 4 else 4


def two_with(state: TrickState, need: int) -> bool:
    """True once at least two players have ``need`` tricks each (libijska dvojica)."""
    return sum(1 for seat in range(state.n_seats) if state.tricks_of(seat) >= need) >= 2


# ---- points ----------------------------------------------------------------------

def klub_points(rules: LoraRules, contract: str, state: TrickState) -> list[int]:
    """Klub contracts 1-6 (lora.sr.md section 5; V4 kralj_sesti, V7 parovi)."""
    seats = range(state.n_seats)
    if contract == "vise":
        return [-state.tricks_of(s) for s in seats]
    if contract == "manje":
        return [state.tricks_of(s) for s in seats]
    if contract == "dame":
        return [2 * queens_taken(state, s) for s in seats]
    if contract == "herc":
        return _all_or_each([hearts_taken(state, s, []) for s in seats], 8, 1, -8)
    if contract == "zandar":
        if rules.parovi:
            return [a + b for a, b in zip(_to_taker(state, JACK_OF_CLUBS, 6),
                                          _to_taker(state, JACK_OF_CLUBS, 2, shift=2))]
        return _to_taker(state, JACK_OF_CLUBS, 8)
    if contract == "kralj":
        points = _to_taker(state, KING_OF_HEARTS, 4)
        points[state.winners[deciding_trick(rules, "kralj") - 1]] += 4
        return points
    raise AssertionError(contract)


def hrvatska_points(contract: str, state: TrickState, forecasts: list[int]) -> list[int]:
    """Hrvatska trick contracts (V9): positive points are good."""
    seats = range(state.n_seats)
    if contract in ("vise", "slepi"):
        return [state.tricks_of(s) for s in seats]
    if contract == "manje":
        return [-state.tricks_of(s) for s in seats]
    if contract == "kralj_zadnji":
        king_taker, last_winner = state.taker_of(KING_OF_HEARTS), state.winners[-1]
        points = [0] * state.n_seats
        if king_taker == last_winner:
            points[last_winner] = 8
        else:
            assert king_taker is not None  # all 8 tricks are played
            points[king_taker] = points[last_winner] = -4
        return points
    if contract == "babe":
        return _all_or_each([queens_taken(state, s) for s in seats], 4, -2, 8)
    if contract == "herc":
        return _all_or_each([hearts_taken(state, s, []) for s in seats], 8, -1, 8)
    if contract == "prognoza":
        return [4 if state.tricks_of(s) == forecasts[s] else -4 for s in seats]
    raise AssertionError(contract)


def libijska_points(rules: LoraRules, contract: str, state: TrickState,
                    kitty: list[str]) -> list[int] | None:
    """Libijska trick contracts (V10, V11); None for a void dvojica."""
    seats = range(state.n_seats)
    if contract == "herc":
        return _all_or_each([hearts_taken(state, s, kitty) for s in seats], 8, 1, -8)
    if contract == "kralj_herc":
        return _to_taker(state, KING_OF_HEARTS, 8)
    if contract == "dame":
        return _all_or_each([queens_taken(state, s) for s in seats], 4, 2, -8)
    if contract == "zandar":
        return _to_taker(state, JACK_OF_CLUBS, 8, shift=1)
    if contract == "sesti":
        points = [0] * state.n_seats
        points[state.winners[deciding_trick(rules, "sesti") - 1]] = 8
        return points
    if contract == "stihovi":
        return _all_or_each([state.tricks_of(s) for s in seats], state.n_tricks, 1, -state.n_tricks)
    if contract == "dvojica":
        need = dvojica_need(rules)
        if not two_with(state, need):
            return None
        each = 4 if rules.n_seats == 4 else 8
        return [0 if state.tricks_of(s) >= need else each for s in seats]
    raise AssertionError(contract)


def bet_came_true(rules: LoraRules, contract: str, state: TrickState, kitty: list[str], bet: Bet) -> bool:
    """Whether a bet of a trick contract holds on the deal's final counts (V12): hearts in
    herc (kitty hearts to the last trick's winner), queens in dame (kitty queens for
    nobody), tricks in stihovi and dvojica, the counted trick in sesti."""
    if contract == "sesti":
        won = state.winners[deciding_trick(rules, "sesti") - 1] == bet.bettor
        return won == (bet.claim == "da")
    if contract == "herc":
        actual = hearts_taken(state, bet.bettor, kitty)
    elif contract == "dame":
        actual = queens_taken(state, bet.bettor)
    else:
        actual = state.tricks_of(bet.bettor)
    return actual == bet.count
