"""One hand (ruka) of preferans: licitacija, talon, follow round, play and ponuda."""

from __future__ import annotations

from typing import TypeVar

from app.games.base import IllegalAction, NotYourTurn
from app.games.cards import CARD_BY_NAME, CARD_NAMES, cards_of, is_card_name, names_of, parse_card
from app.games.preferans.bidding import Bidding
from app.games.preferans.contracts import CONTRACT_VALUE, CONTRACT_WORDS, Contract
from app.games.preferans.follow import NOT_PLAYED, PLAY, PROLAZ, FollowRound
from app.games.preferans.play import TrickPlay

PRIHVATAM, ODBIJAM = "prihvatam", "odbijam"
NOSIM_SVE, NEMAM_PAD = "nosim sve", "nemam pad"
NUDIM = "nudim"
SKART = "skart"

# Phases, as views and tests name them.
LICITACIJA, TALON, KONTRAKT, PRACENJE, IGRA, KRAJ = (
    "licitacija", "talon", "kontrakt", "pracenje", "igra", "kraj",
)
# How a hand ended.
END_ALL_PASS, END_PROLAZ, END_NOT_PLAYED, END_PLAYED, END_PONUDA = (
    "all pass", "prolaz", "not played", "played", "ponuda",
)


T = TypeVar("T")


def present(part: T | None) -> T:
    """A part of the hand that its phase guarantees."""
    assert part is not None, "a part of the hand asked for before its phase"
    return part


class Ponuda:
    """An open offer of the declarer (section 9, P9)."""

    __slots__ = ("word", "responders", "accepted")

    def __init__(self, word: str, responders: tuple[int, ...]):
        self.word = word
        self.responders = responders
        self.accepted: list[int] = []

    def pending(self) -> list[int]:
        return [s for s in self.responders if s not in self.accepted]

    @property
    def shows_cards(self) -> bool:
        return self.word in (NOSIM_SVE, NEMAM_PAD)


class Hand:
    """The state of one deal from the first bid to the end of play."""

    def __init__(self, index: int, dealer: int, hands: list[int], talon: list[int], refe_open: list[int]):
        self.index = index
        self.dealer = dealer
        self.first = (dealer + 1) % 3
        self.original = list(hands)
        self.talon = list(talon)
        self.hands = list(hands)
        self.declarer_had_refe = False
        self._refe_open = list(refe_open)
        self.bidding = Bidding(self.first)
        self.phase = LICITACIJA
        self.declarer: int | None = None
        self.bid = 0
        self.contract: Contract | None = None
        self.skart = 0
        self.skart_word: str | None = None
        self.talon_shown = False
        self.follow: FollowRound | None = None
        self.play: TrickPlay | None = None
        self.ponuda: Ponuda | None = None
        self.ponuda_log: list[tuple[str, str]] = []  # (offer word, "accepted"/"refused")
        # P12: a refused offer word -> the cards played when it was refused; the same word
        # is legal again only once more cards have been played.
        self.refused_at: dict[str, int] = {}
        self.accepted_ponuda: str | None = None
        self.end: str | None = None
        self.n_actions = 0

    # -- queries -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == KRAJ

    @property
    def turn(self) -> int | None:
        ph = self.phase
        if ph == LICITACIJA:
            return self.bidding.turn
        if ph in (TALON, KONTRAKT):
            return self.declarer
        if ph == PRACENJE:
            return self._follow().turn
        if ph == IGRA and self.ponuda is None:
            return self._play().turn
        return None

    def seats_to_act(self) -> list[int]:
        if self.phase == IGRA and self.ponuda is not None:
            return self.ponuda.pending()
        t = self.turn
        return [] if t is None else [t]

    def legal(self, seat: int) -> list[str]:
        ph = self.phase
        if ph == LICITACIJA:
            return self.bidding.legal(seat)
        if ph == TALON:
            if seat != self.declarer:
                return []
            cs = cards_of(self.hands[seat])
            return [
                f"skart {CARD_NAMES[a]} {CARD_NAMES[b]}" for i, a in enumerate(cs) for b in cs[i + 1:]
            ]
        if ph == KONTRAKT:
            return [w for w in CONTRACT_WORDS if CONTRACT_VALUE[w] >= self.bid] if seat == self.declarer else []
        if ph == PRACENJE:
            return self._follow().legal(seat)
        if ph == IGRA:
            if self.ponuda is not None:
                return [PRIHVATAM, ODBIJAM] if seat in self.ponuda.pending() else []
            play = self._play()
            words = names_of(play.legal(seat)) if seat == play.turn else []
            if seat == self.declarer:
                words += self.offers()
            return words
        return []

    def offers(self) -> list[str]:
        """The ponuda words the declarer may say now (section 9), without those refused
        since the last card (P12)."""
        return [w for w in self._section9_offers() if not self._refused_since_last_card(w)]

    def _refused_since_last_card(self, word: str) -> bool:
        """P12: the same offer again only after at least one more card has been played."""
        at = self.refused_at.get(word)
        return at is not None and at >= self._play().cards_played

    def _section9_offers(self) -> list[str]:
        """The ponuda words of section 9 the declarer could make now, refused or not."""
        if self.phase != IGRA or self.ponuda is not None:
            return []
        if self._contract().is_betl:
            return [NEMAM_PAD]
        follow, play = self._follow(), self._play()
        words = [NOSIM_SVE]
        opp = play.opponents_tricks()
        reach = opp + play.remaining
        if follow.single is not None:
            words += [f"{NUDIM} {n}" for n in (2, 3, 4) if opp < n <= reach]
        elif follow.caller is not None and opp < 4 <= reach:
            words.append(f"{NUDIM} 4")
        return words

    def opponents(self) -> tuple[int, int]:
        d = self._declarer()
        return ((d + 1) % 3, (d + 2) % 3)

    def in_play(self) -> tuple[int, ...]:
        return self.play.seats if self.play is not None else ()

    def responders(self, word: str) -> tuple[int, ...]:
        """Who answers a ponuda (section 9): nosim sve both opponents in play; the
        others the kontra-giver, else the caller, else the single follower, else both."""
        f = self._follow()
        if word == NOSIM_SVE:
            return (f.single,) if f.single is not None else self.opponents()
        for seat in (f.kontra_by, f.caller, f.single):
            if seat is not None:
                return (seat,)
        return self.opponents()

    # The parts of a hand that exist from some phase on (there by then, or a bug).
    def _declarer(self) -> int:
        return present(self.declarer)

    def _contract(self) -> Contract:
        return present(self.contract)

    def _follow(self) -> FollowRound:
        return present(self.follow)

    def _play(self) -> TrickPlay:
        return present(self.play)

    # -- moves ---------------------------------------------------------------------------
    def apply(self, seat: int, word: str) -> None:
        ph = self.phase
        if ph == KRAJ:
            raise IllegalAction("this hand has ended")
        if ph == LICITACIJA:
            self.bidding.apply(seat, word)
            self._after_bidding()
        elif ph == TALON:
            self._skart(seat, word)
        elif ph == KONTRAKT:
            self._announce(seat, word)
        elif ph == PRACENJE:
            follow = self._follow()
            follow.apply(seat, word)
            if follow.done:
                self._after_follow()
        else:
            self._play_word(seat, word)
        self.n_actions += 1

    def _after_bidding(self) -> None:
        b = self.bidding
        if not b.done:
            return
        if b.all_pass:
            self._end(END_ALL_PASS)
            return
        winner = b.winner
        assert winner is not None
        self.declarer = winner
        self.declarer_had_refe = self._refe_open[winner] > 0
        if b.contract is not None:
            self.contract = b.contract
            self._start_follow()
            return
        self.bid = b.bid
        self.talon_shown = True
        for c in self.talon:
            self.hands[winner] |= 1 << c
        self.phase = TALON

    def _skart(self, seat: int, word: str) -> None:
        if seat != self.declarer:
            raise NotYourTurn(f"the declarer (seat {self.declarer}) discards now")
        parts = word.split(" ")
        if len(parts) != 3 or parts[0] != SKART or not all(is_card_name(p) for p in parts[1:]):
            raise IllegalAction("discard two cards with 'skart XX YY', e.g. 'skart 7S 8S'")
        a, b = parse_card(parts[1]), parse_card(parts[2])
        if a == b:
            raise IllegalAction("the skart is two different cards")
        hand = self.hands[seat]
        for c in (a, b):
            if not hand >> c & 1:
                raise IllegalAction(f"{CARD_NAMES[c]} is not among the declarer's 12 cards")
        self.skart = (1 << a) | (1 << b)
        self.skart_word = word
        self.hands[seat] = hand & ~self.skart
        self.phase = KONTRAKT

    def _announce(self, seat: int, word: str) -> None:
        if seat != self.declarer:
            raise NotYourTurn(f"the declarer (seat {self.declarer}) announces the contract now")
        if word not in CONTRACT_VALUE:
            raise IllegalAction(f"announce the contract: one of {', '.join(CONTRACT_WORDS)}")
        if CONTRACT_VALUE[word] < self.bid:
            raise IllegalAction(f"the contract must be at least the bid {self.bid}; {word} is {CONTRACT_VALUE[word]}")
        self.contract = Contract(word, False)
        self._start_follow()

    def _start_follow(self) -> None:
        c = self._contract()
        if c.is_betl:
            kind = "betl"
        elif c.name == "pik" and not c.declared and not self.declarer_had_refe:
            kind = "pik"  # pik sa talonom without an open refe: played only with kontra
        else:
            kind = "normal"
        self.follow = FollowRound(kind, self._declarer())
        self.phase = PRACENJE

    def _after_follow(self) -> None:
        f = self._follow()
        if f.outcome == PROLAZ:
            self._end(END_PROLAZ)
            return
        if f.outcome == NOT_PLAYED:
            self._end(END_NOT_PLAYED)
            return
        assert f.outcome == PLAY
        d, c = self._declarer(), self._contract()
        seats = tuple(sorted((d, f.single))) if f.single is not None else (0, 1, 2)
        if c.is_sans:  # the player before the declarer, else the other follower
            leader = (d + 2) % 3 if (d + 2) % 3 in seats else (d + 1) % 3
        else:  # the first bidder, else the next seat in play
            leader = next(s for s in (self.first, (self.first + 1) % 3, (self.first + 2) % 3) if s in seats)
        self.play = TrickPlay(self.hands, c.trump, seats, leader, d, c.is_betl)
        self.phase = IGRA

    def _play_word(self, seat: int, word: str) -> None:
        po = self.ponuda
        if po is not None:
            if seat not in po.pending():
                raise NotYourTurn(f"the {po.word} offer waits for seat(s) {', '.join(map(str, po.pending()))}")
            if word == ODBIJAM:
                self.ponuda_log.append((po.word, "refused"))
                self.refused_at[po.word] = self._play().cards_played
                self.ponuda = None
            elif word == PRIHVATAM:
                po.accepted.append(seat)
                if not po.pending():
                    self.ponuda_log.append((po.word, "accepted"))
                    self._accept_ponuda(po.word)
            else:
                raise IllegalAction(f"answer the {po.word} offer with prihvatam or odbijam")
            return
        play = self._play()
        c = CARD_BY_NAME.get(word)
        if c is not None:
            if seat != play.turn:
                raise NotYourTurn(f"seat {play.turn} plays now")
            if not play.legal(seat) >> c & 1:
                if not play.hands[seat] >> c & 1:
                    raise IllegalAction(f"{word} is not in seat {seat}'s hand")
                raise IllegalAction(f"{word} may not be played: follow suit, else trump if you can")
            play.play(seat, c)
            if play.over:
                self._end(END_PLAYED)
            return
        if word in (PRIHVATAM, ODBIJAM):
            raise IllegalAction("there is no open offer to answer")
        if word == NOSIM_SVE or word == NEMAM_PAD or word.startswith(NUDIM):
            if seat != self.declarer:
                raise IllegalAction("only the declarer makes a ponuda")
            if word not in self._section9_offers():
                raise IllegalAction(f"{word!r} is not a ponuda the declarer can make now")
            if self._refused_since_last_card(word):
                raise IllegalAction(
                    f"{word!r} was refused and no card has been played since; the same offer again "
                    "only after at least one more card (P12), a different one at once"
                )
            self.ponuda = Ponuda(word, self.responders(word))
            return
        if seat == play.turn:
            raise IllegalAction(f"{word!r} is not a card or a word of the play")
        raise NotYourTurn(f"seat {play.turn} plays now")

    def _accept_ponuda(self, word: str) -> None:
        """The hand ends; the unplayed tricks (P9: an unfinished trick too) go as offered."""
        play, f, d = self._play(), self._follow(), self._declarer()
        self.ponuda = None
        self.accepted_ponuda = word
        if word == NOSIM_SVE:
            play.tricks[d] += play.remaining
        elif word != NEMAM_PAD:  # nemam pad: the declarer takes none of the rest
            # nudim N: the single follower ends with N; after zovem the caller and the
            # called end with 4 together, all counted to the caller (P9)
            n = int(word.split(" ")[1])
            taker = f.single if f.single is not None else f.caller
            assert taker is not None
            for s in self.opponents():
                play.tricks[s] = 0
            play.tricks[taker] = n
            play.tricks[d] = 10 - n
        play.over = True
        self._end(END_PONUDA)

    def _end(self, how: str) -> None:
        self.end = how
        self.phase = KRAJ
