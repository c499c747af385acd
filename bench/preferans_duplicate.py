"""Duplicate single hands of preferans for the strength benchmark.

Each sample is one deal played from a fresh partie (dealer seat 0, bule 60, no refe):
the test player sits in seat r and the other two seats are ``pocetnik`` (or the
``field`` level), for r = 0, 1, 2
(the same cards, the test player in each place). The figure of a hand is the test
player's section-15 result change measured against the table: his change minus the mean
change of the three seats (lower is better). The final results of a finished partie sum
to 0, so this is what a hand is worth towards the final standing; the raw change of his
own result is reported too.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from app.ai import make_bot
from app.games.cards import CARD_NAMES, deal_one_by_one, shuffled_deck
from app.games.preferans import PreferansPartie

SETTINGS = {"bule": 60, "refe": 2}
DEAL_SEED = "bench-preferans"
FOLLOW_WORDS = ("pratim", "ne pratim", "sam", "zovem", "kontra", "moze", "rekontra")
TALKING = ("licitacija", "talon", "kontrakt", "pracenje")


@dataclass
class HandOutcome:
    relative: float  # the test seat's result change minus the table mean
    own: int  # the test seat's result change
    declarer: bool  # the test seat declared
    contract: str | None  # the contract label (igra-... for declared games) of the hand, if any
    passed: bool | None  # the declarer made it (None: nobody declared, or not played)
    played: bool  # the cards were played (or ended by a ponuda)
    end: str | None
    said: tuple[str, ...] = ()  # the test seat's words in the auction and the follow round

    @property
    def role(self) -> str:
        """The test seat's part in the hand, for the per-decision breakdown."""
        if self.declarer:
            return f"declares {self.contract}"
        if self.contract is None:
            return "nobody declares"
        follow = [w for w in self.said if w in FOLLOW_WORDS]
        return "defends: " + (" ".join(follow) if follow else "-")


def deal_cards(deal: int) -> tuple[list[list[str]], list[str]]:
    deck = shuffled_deck(DEAL_SEED, deal)
    hands = deal_one_by_one(deck, 3, 10, 1)
    return [[CARD_NAMES[c] for c in h] for h in hands], [CARD_NAMES[c] for c in deck[30:]]


def play_hand(deal: int, player: str, seat: int, field: str = "pocetnik") -> HandOutcome:
    from app.ai.preferans.oracle import PreferansOracle

    hands, talon = deal_cards(deal)
    partie = PreferansPartie.new(SETTINGS)
    partie.start_deal(hands, talon)
    bots: list[Any] = []
    for s in range(3):
        tag = f"{deal}:{s}"
        if s != seat:
            bots.append(make_bot(field, "preferans", seed=tag))
        elif player == "oracle":
            bots.append(PreferansOracle(partie, tag))
        else:
            bots.append(make_bot(player, "preferans", seed=tag))
    said: list[str] = []
    while partie.hands_ended == 0:
        s = partie.seats_to_act()[0]
        view = partie.view(s)
        word = bots[s].choose(view, partie.legal_actions(s))
        if s == seat and view["hand"]["phase"] in TALKING:
            said.append(word)
        partie.apply(s, word)
    results = partie.result()["results"]
    start = 10 * SETTINGS["bule"]
    changes = [r - start for r in results]
    line = partie.papir()["lines"][-1]
    hand = partie.last_hand
    assert hand is not None
    return HandOutcome(
        relative=changes[seat] - statistics.fmean(changes),
        own=changes[seat],
        declarer=hand.declarer == seat,
        contract=hand.contract.label if hand.contract is not None else None,
        passed=line.get("passed"),
        played=hand.end in ("played", "ponuda"),
        end=hand.end,
        said=tuple(said),
    )


def deal_task(args: tuple[int, str, str]) -> tuple[int, str, list[HandOutcome]]:
    deal, player, field = args
    return deal, player, [play_hand(deal, player, r, field) for r in range(3)]
