"""A whole preferans partie: deals, hands, the papir, words between hands, records."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from app.games.base import DealError, EngineBase, GameError, IllegalAction, NotYourTurn, once_per_version
from app.games.cards import (
    CARD_NAMES, check_partition, deal_one_by_one, mask_of, parse_cards, shuffled_deck,
)
from app.games.preferans.between import OTPIS, PREUZIMAM_PAD, SIDE_WORDS, VRACAM_PAD, FallWindow, SideOffer
from app.games.preferans.bidding import DALJE
from app.games.preferans.follow import MOZE, NE_PRATIM
from app.games.preferans.hand import KRAJ, ODBIJAM, PRIHVATAM, Hand
from app.games.preferans import limit, record
from app.games.preferans.papir import Papir
from app.games.preferans.scoring import otpis_shares, score_hand
from app.games.preferans.settings import normalize_settings as normalize_preferans_settings



class PreferansPartie(EngineBase):
    """Serbian preferans by the Club's rules and rulings P1-P13 (``docs/rulings.md``; the rules
    page ``/rules/preferans``)."""

    game: ClassVar[str] = "preferans"
    n_seats = 3
    pile_key = "talon"
    # Words the game never waits for: random play says them only now and then.
    optional_words: ClassVar[frozenset[str]] = frozenset(
        {"otpis", "preuzimam pad", "vracam pad", "nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4"}
    )
    # A timed-out decision (docs/rulings.md): the auction's dalje, the follow round's
    # ne pratim, the kontra round's moze, an offer's odbijam; otherwise (škart, the
    # contract, a card, the igra suit) the computer player chooses.
    timeout_words: ClassVar[tuple[str, ...]] = (DALJE, NE_PRATIM, MOZE, ODBIJAM)
    deadline_word: ClassVar[str | None] = limit.ROK  # a tournament round's deadline (P13)

    def __init__(self, settings: dict[str, Any], seed: int | str | None = None):
        self.settings = settings
        self.seed = seed
        self.version = 0
        self._papir = Papir(settings["bule"], settings["refe"])
        self.hand: Hand | None = None
        self.hands_ended = 0
        self.last_hand: Hand | None = None  # the most recently ended hand
        self.deals: list[dict[str, Any]] = []  # the record's deals: hands, talon, actions
        self.side_offer: SideOffer | None = None
        self.fall_window: FallWindow | None = None
        self.otpis_accepted = False
        # P12: hands ended when an otpis was last refused; proposed again only after the next hand.
        self.otpis_refused_at: int | None = None
        self._finished = False  # bule sum 0 or an accepted otpis; cached, it is asked every word
        self.ended_by: str | None = None  # why it ended (app.games.preferans.limit)
        self.deadline_said = False  # the round's deadline (P13): the partie ends after the hand in play
        if seed is not None:
            self._deal_from_seed()

    settings_rule = staticmethod(normalize_preferans_settings)

    # -- state ---------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def needs_deal(self) -> bool:
        return self.seed is None and not self.finished and (self.hand is None or self.hand.over)

    @property
    def deal_index(self) -> int:
        """The index of the deal in play, or of the next one when a deal is due."""
        return len(self.deals) if self.hand is None or self.hand.over else len(self.deals) - 1

    @property
    def dealer(self) -> int:
        return self.deal_index % 3

    def _between_hands(self) -> bool:
        """After a hand, before the first word of the next one (the time of an otpis)."""
        hand = self.hand
        return self.hands_ended > 0 and not self._finished and (
            hand is None or hand.phase == KRAJ or hand.n_actions == 0
        )

    def _otpis_refused_this_break(self) -> bool:
        """P12: an otpis refused after a hand waits for the end of the next hand."""
        return self.otpis_refused_at is not None and self.otpis_refused_at >= self.hands_ended

    def _hand_in_play(self) -> bool:
        """A hand has had its first word and has not ended (the deadline waits for it)."""
        hand = self.hand
        return hand is not None and not hand.over and hand.n_actions > 0

    def accepts_deadline(self) -> bool:
        """The round's deadline word is taken once, in a partie with ``deljenja`` (P13)."""
        return self.settings.get("deljenja") is not None and not self._finished and not self.deadline_said

    def _offer_open(self) -> bool:
        return self.side_offer is not None or (self.hand is not None and self.hand.ponuda is not None)

    # -- dealing -------------------------------------------------------------------------
    def _deal_from_seed(self) -> None:
        index = len(self.deals)
        deck = shuffled_deck(self.seed, index)  # type: ignore[arg-type]
        first = (index % 3 + 1) % 3
        hands = deal_one_by_one(deck, 3, 10, first)
        self._begin(hands, sorted(deck[30:]))

    def start_deal(self, hands: object, talon: object = None) -> None:
        if self.finished:
            raise DealError("the partie is over; no more deals")
        if self.seed is not None:
            raise DealError("a seeded partie deals by itself")
        if not self.needs_deal:
            raise DealError("the hand in play has not ended yet")
        if not isinstance(hands, (list, tuple)) or len(hands) != 3:
            raise DealError("preferans needs exactly 3 hands")
        parsed = [parse_cards(h, count=10) for h in hands]
        if talon is None:
            raise DealError("a preferans deal needs its talon of 2 cards")
        tal = parse_cards(talon, count=2)
        check_partition(parsed, tal)
        self._begin(parsed, tal)

    def _begin(self, hands: list[list[int]], talon: list[int]) -> None:
        index = len(self.deals)
        self.deals.append({
            "hands": [[CARD_NAMES[c] for c in h] for h in hands],
            "talon": [CARD_NAMES[c] for c in talon],
            "actions": [],
        })
        refe_open = [self._papir.refe_open(s) for s in range(3)]
        self.hand = Hand(index, index % 3, [mask_of(h) for h in hands], talon, refe_open)

    # -- protocol ------------------------------------------------------------------------
    def seats_to_act(self) -> list[int]:
        if self._finished:
            return []
        if self.side_offer is not None:
            return self.side_offer.pending()
        hand = self.hand
        if hand is None or hand.phase == KRAJ:
            return []
        return hand.seats_to_act()

    def legal_actions(self, seat: int) -> list[str]:
        if self._finished or seat not in (0, 1, 2):
            return []
        so = self.side_offer
        if so is not None:
            return [PRIHVATAM, ODBIJAM] if seat in so.pending() else []
        hand = self.hand
        words = hand.legal(seat) if hand is not None and hand.phase != KRAJ else []
        if hand is None or hand.ponuda is None:
            if self._between_hands() and not self._otpis_refused_this_break():
                words.append(OTPIS)
            fw = self.fall_window
            if fw is not None:
                if fw.can_take(seat):
                    words.append(PREUZIMAM_PAD)
                elif fw.can_return(seat):
                    words.append(VRACAM_PAD)
        return words

    def apply(self, seat: int, word: str) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1, 2):
            raise IllegalAction(f"there is no seat {seat!r}")
        if not isinstance(word, str):
            raise IllegalAction(f"a word is a string, got {word!r}")
        if self._finished:
            raise IllegalAction("the partie is over")
        if word == limit.ROK:
            self._deadline(seat)
        elif self.side_offer is not None:
            self._answer_side_offer(seat, word)
        elif word in SIDE_WORDS:
            self._side_word(seat, word)
        else:
            hand = self.hand
            if hand is None or hand.phase == KRAJ:
                raise NotYourTurn("no hand is in play: the next deal is due")
            hand.apply(seat, word)
            self.deals[-1]["actions"].append([seat, word])
            if hand.over:
                self._end_hand()
        self.version += 1

    # -- words between hands --------------------------------------------------------------
    def _log_side(self, seat: int, word: str) -> None:
        hand = self.hand
        fresh = hand is not None and not hand.over and hand.n_actions == 0
        target = self.deals[-2] if fresh and len(self.deals) > 1 else self.deals[-1]
        target["actions"].append([seat, word])

    def _deadline(self, seat: int) -> None:
        """The round's deadline (P13): the partie ends by otpis after the hand in play, or
        at once when none is in play (an open otpis or fall offer then lapses)."""
        if self.settings.get("deljenja") is None:
            raise IllegalAction(f"{limit.ROK!r} is a tournament round's deadline: only a partie with deljenja takes it")
        if self.deadline_said:
            raise IllegalAction("the round's deadline has already been said")
        if not self.deals:
            raise NotYourTurn("no hand has been dealt yet")
        self._log_side(seat, limit.ROK)
        self.deadline_said = True
        if not self._hand_in_play():
            self._end_by_otpis(limit.DEADLINE)

    def _side_word(self, seat: int, word: str) -> None:
        if self._offer_open():
            raise IllegalAction("another offer is open; it must be answered first")
        if word == OTPIS:
            if not self._between_hands():
                raise IllegalAction("an otpis is proposed only between hands")
            if self._otpis_refused_this_break():
                raise IllegalAction(
                    "an otpis was refused after this hand; it may be proposed again only after the next hand (P12)"
                )
            self.side_offer = SideOffer(word, seat, tuple(s for s in range(3) if s != seat))
        else:
            fw = self.fall_window
            if word == PREUZIMAM_PAD:
                if fw is None or not fw.can_take(seat):
                    raise IllegalAction("there is no fall this seat may take over now")
                responders = (fw.other(seat),)
            else:
                if fw is None or not fw.can_return(seat):
                    raise IllegalAction("this seat has taken over no fall it could return")
                responders = (fw.other(seat),)
            self.side_offer = SideOffer(word, seat, responders)
        self._log_side(seat, word)

    def _answer_side_offer(self, seat: int, word: str) -> None:
        so = self.side_offer
        assert so is not None
        if seat not in so.pending():
            raise NotYourTurn(f"the {so.word} offer waits for seat(s) {', '.join(map(str, so.pending()))}")
        if word not in (PRIHVATAM, ODBIJAM):
            raise IllegalAction(f"answer the {so.word} offer with prihvatam or odbijam")
        self._log_side(seat, word)
        if word == ODBIJAM:
            self.side_offer = None
            if so.word == OTPIS:
                self.otpis_refused_at = self.hands_ended
            else:
                self.fall_window.closed = True  # type: ignore[union-attr]
            return
        so.accepted.append(seat)
        if so.pending():
            return
        self.side_offer = None
        if so.word == OTPIS:
            self._otpis(so)
        else:
            self._transfer_fall(so)

    def _entry(self, so: SideOffer) -> tuple[dict[str, Any], list[int], list[list[int]]]:
        """What the offer ``so`` writes on the papir once accepted: the line, the bule
        changes and the supe written (``supe[i][j]`` by i against j)."""
        if so.word == OTPIS:
            return self._otpis_entry()
        fw = self.fall_window
        assert fw is not None
        take = so.word == PREUZIMAM_PAD
        bule, supe = fw.transfer(so.by, 1 if take else -1)
        line = {"deal": fw.hand_index, "kind": "odlazak u bulu" if take else "vracen pad",
                "by": so.by, "fallen": fw.other(so.by), "v": fw.v}
        return line, bule, supe

    def _otpis_entry(self) -> tuple[dict[str, Any], list[int], list[list[int]]]:
        """Section 14: each seat's bule fall by his share of the remaining sum."""
        next_first = (self.hands_ended % 3 + 1) % 3
        shares = otpis_shares(self._papir, next_first)
        return ({"kind": "otpis", "after_deal": self.hands_ended - 1, "shares": shares},
                [-x for x in shares], [[0, 0, 0], [0, 0, 0], [0, 0, 0]])

    def if_accepted(self) -> dict[str, Any] | None:
        """The consequence of the open otpis proposal or fall offer if it is accepted,
        shown before the answers (public: the papir and the offer are): each seat's bule
        change and bule after, the supe each seat would write (``supe[i][j]`` by i against
        j), the results of section 15 after it, and, when it ends the partie (an otpis),
        the places. Computed by writing :meth:`_entry` on a copy of the papir, as the
        acceptance writes it on the papir itself. None while no such offer is open."""
        so = self.side_offer
        if so is None:
            return None
        line, bule, supe = self._entry(so)
        after = copy.deepcopy(self._papir)
        after.write(line, bule, supe)
        ends = so.word == OTPIS
        return {
            "bule": list(bule), "bule_after": list(after.bule), "supe": [list(row) for row in supe],
            "results": after.results(), "ends": ends, "places": after.places() if ends else None,
        }

    def _transfer_fall(self, so: SideOffer) -> None:
        fw = self.fall_window
        assert fw is not None
        line, bule, supe = self._entry(so)
        fw.taker = so.by if so.word == PREUZIMAM_PAD else None
        self._papir.write(line, bule, supe)

    def _otpis(self, so: SideOffer) -> None:
        line, bule, supe = self._entry(so)
        self._papir.write(line, bule, supe)
        self.otpis_accepted = True
        self._finish(limit.OTPIS)

    def _end_by_otpis(self, reason: str) -> None:
        """P13: the otpis of section 14 without a question; its line says why."""
        line, bule, supe = self._otpis_entry()
        line["reason"] = reason
        self._papir.write(line, bule, supe)
        self.side_offer = None
        self._finish(reason)

    def _finish(self, reason: str) -> None:
        self._finished = True
        self.ended_by = reason
        self.fall_window = None

    # -- end of a hand --------------------------------------------------------------------
    def _end_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        score = score_hand(hand, self._papir)
        self._papir.write(score.line, score.bule, score.supe, score.refe_written, score.refe_played)
        self.hands_ended += 1
        self.last_hand = hand
        self.fall_window = None
        hands = self.settings.get("deljenja")
        if self._papir.total == 0:
            self._finish(limit.BULE)
        elif hands is not None and self.hands_ended >= hands:
            self._end_by_otpis(limit.DELJENJA)
        elif self.deadline_said:
            self._end_by_otpis(limit.DEADLINE)
        elif score.falls and hand.play is not None and len(hand.play.seats) == 3:
            self.fall_window = FallWindow(hand.index, hand.declarer, score.v, score.falls,  # type: ignore[arg-type]
                                          hand.opponents(), score.supe)
        if not self.finished and self.seed is not None:
            self._deal_from_seed()

    # -- results, records, views ------------------------------------------------------------
    def result(self) -> dict[str, Any]:
        return record.result_of(self)

    def papir(self) -> dict[str, Any]:
        return self._papir.sheet()

    # the views' papir and result: one object each per version (every seat shows the same)
    shown_result = once_per_version("result")
    shown_papir = once_per_version("papir")

    def hand_results(self) -> list[list[int]]:
        """For each ended hand, the change it made in each seat's result (section 15;
        :meth:`Papir.deal_results`): lower is better, as the result."""
        return self._papir.deal_results(self.hands_ended)

    def to_record(self, players: list[str]) -> dict[str, Any]:
        return record.record_of(self, players)

    def shown_deal(self, deal_index: int) -> dict[str, Any]:
        """The whole deal of an ended hand (three hands, talon, škart): public (section 4)."""
        return record.shown_deal_of(self, deal_index)

    def view(self, seat: int | None) -> dict[str, Any]:
        from app.games.preferans.views import partie_view

        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1, 2)):
            raise GameError(f"there is no seat {seat!r}; a view is for seat 0, 1, 2 or None (spectator)")

        return partie_view(self, seat)
