"""What one seat knows in a preferans hand, read from its view alone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.cards import CARD_BY_NAME, FULL_MASK, SUIT_MASKS, mask_of

SUIT_WORDS = ("pik", "karo", "herc", "tref")
HAND_SIZE = 10


@dataclass
class PreferansKnowledge:
    seat: int
    phase: str
    hand: int
    declarer: int | None = None
    contract: str | None = None  # pik .. tref, betl, sans
    trump: int | None = None
    declared: bool = False  # igra: the talon stays closed
    talon: int = 0  # the talon, once shown
    skart: int = 0  # my own škart, when I am the declarer and have discarded
    in_play: tuple[int, ...] = ()
    trick: list[tuple[int, int]] = field(default_factory=list)
    trick_counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    tricks_done: int = 0
    played: int = 0
    played_by: list[int] = field(default_factory=lambda: [0, 0, 0])
    forbidden: list[int] = field(default_factory=lambda: [0, 0, 0])
    ponude: list[tuple[str, str]] = field(default_factory=list)  # offers made in this hand and how they ended

    @property
    def betl(self) -> bool:
        return self.contract == "betl"

    def hand_size(self, seat: int) -> int:
        return HAND_SIZE - self.played_by[seat].bit_count()

    @property
    def unknown(self) -> int:
        return FULL_MASK & ~self.hand & ~self.played & ~self.skart


def read_view(view: dict[str, Any]) -> PreferansKnowledge:
    h = view["hand"]
    know = PreferansKnowledge(seat=view["seat"], phase=h["phase"], hand=_mask(h.get("cards") or h.get("hand") or []))
    know.declarer = h.get("declarer")
    c = h.get("contract")
    if c:
        know.contract = c["name"]
        know.trump = c["trump"]
        know.declared = "igra" in c["label"]
    if h.get("talon"):
        know.talon = _mask(h["talon"])
    if h.get("skart") and know.declarer == know.seat:
        know.skart = _mask(h["skart"])
    know.in_play = tuple(h.get("in_play") or ())
    if "trick_counts" in h:
        know.trick_counts = list(h["trick_counts"])
    tricks = [[(s, CARD_BY_NAME[w]) for s, w in t["cards"]] for t in h.get("tricks", [])]
    trick = [(s, CARD_BY_NAME[w]) for s, w in h.get("trick", [])]
    know.tricks_done = len(tricks)
    know.trick = trick
    for cards in [*tricks, trick]:
        if not cards:
            continue
        led = cards[0][1] >> 3
        for s, x in cards:
            know.played |= 1 << x
            know.played_by[s] |= 1 << x
            if x >> 3 != led:
                know.forbidden[s] |= SUIT_MASKS[led]
                if know.trump is not None and x >> 3 != know.trump:
                    know.forbidden[s] |= SUIT_MASKS[know.trump]
    know.ponude = [(w, how) for w, how in h.get("ponude", [])]
    shown = (h.get("ponuda") or {}).get("declarer_hand")
    if shown and know.declarer is not None:  # a claim shows the declarer's cards
        shown_mask = _mask(shown)
        for s in range(3):
            if s == know.declarer:
                know.forbidden[s] |= FULL_MASK & ~shown_mask
            elif s != know.seat:
                know.forbidden[s] |= shown_mask
    return know


def _mask(words: list[str]) -> int:
    return mask_of(CARD_BY_NAME[w] for w in words)
