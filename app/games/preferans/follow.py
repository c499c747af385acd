"""Praćenje, zvanje, kontra (section 8) with the exact words and order of rulings P8."""

from __future__ import annotations

from app.games.base import IllegalAction, NotYourTurn

PRATIM, NE_PRATIM, SAM, ZOVEM, KONTRA, MOZE, REKONTRA = (
    "pratim", "ne pratim", "sam", "zovem", "kontra", "moze", "rekontra",
)

# How the hand goes on once the round is over.
PLAY, PROLAZ, NOT_PLAYED = "play", "prolaz", "not played"


class FollowRound:
    """The round of follow statements, calls and kontra after the contract is known.

    ``kind`` is ``"betl"``, ``"pik"`` (pik sa talonom without an open refe of the
    declarer) or ``"normal"``. When ``done``, ``outcome`` is PLAY, PROLAZ (nobody
    follows) or NOT_PLAYED (pik without kontra), and the play set-up is in
    ``followers``/``single``/``caller``/``called``/``kontra_by``/``kontra_factor``.
    """

    __slots__ = (
        "kind", "declarer", "o1", "o2", "said", "stage", "turn", "kontra_by", "rekontra",
        "single", "caller", "called", "outcome", "done", "_pik_queue",
    )

    def __init__(self, kind: str, declarer: int):
        self.kind = kind
        self.declarer = declarer
        self.o1 = (declarer + 1) % 3
        self.o2 = (declarer + 2) % 3
        self.said: list[tuple[int, str]] = []
        self.kontra_by: int | None = None
        self.rekontra = False
        self.single: int | None = None
        self.caller: int | None = None
        self.called: int | None = None
        self.outcome: str | None = None
        self.done = False
        self._pik_queue: list[int] = []
        self.stage = "k1" if kind == "betl" else "o1"
        self.turn: int | None = self.o1

    @property
    def kontra_factor(self) -> int:
        return 1 if self.kontra_by is None else (4 if self.rekontra else 2)

    def _first_word(self, seat: int) -> str | None:
        for s, w in self.said:
            if s == seat:
                return w
        return None

    def legal(self, seat: int) -> list[str]:
        if self.done or seat != self.turn:
            return []
        st = self.stage
        if st == "o1":
            return [PRATIM, NE_PRATIM]
        if st == "o2":
            if self._first_word(self.o1) == PRATIM:
                return [PRATIM, NE_PRATIM]
            if self.kind == "pik":
                return [KONTRA, NE_PRATIM]
            return [SAM, KONTRA, ZOVEM, NE_PRATIM]
        if st in ("k1", "k2", "pik"):
            return [KONTRA, MOZE]
        if st == "single":
            return [KONTRA, ZOVEM, SAM]
        if st == "rekontra":
            return [REKONTRA, MOZE]
        raise AssertionError(st)

    def apply(self, seat: int, word: str) -> None:
        if self.done or seat != self.turn:
            raise NotYourTurn(f"seat {seat} has nothing to say in the follow round now")
        legal = self.legal(seat)
        if word not in legal:
            raise IllegalAction(f"{word!r} is not allowed now; say one of {', '.join(legal)}")
        self.said.append((seat, word))
        if word == KONTRA:
            self.kontra_by = seat
            self.stage, self.turn = "rekontra", self.declarer
            return
        if word == REKONTRA or (self.stage == "rekontra" and word == MOZE):
            self.rekontra = word == REKONTRA
            self._finish(PLAY)
            return
        st = self.stage
        if st == "o1":
            self.stage, self.turn = "o2", self.o2
        elif st == "o2":
            first = self._first_word(self.o1)
            if word == SAM:
                self.single = seat
                self._finish(PLAY)
            elif word == ZOVEM:
                self.caller, self.called = seat, self.o1
                self._finish(PLAY)
            elif self.kind == "pik":
                self._pik_queue = [s for s in (self.o1, self.o2) if self._first_word(s) == PRATIM]
                self._next_pik()
            elif first == PRATIM and word == PRATIM:
                self.stage, self.turn = "k1", self.o1
            elif first == PRATIM:
                self.stage, self.turn = "single", self.o1
            else:
                self._finish(PROLAZ)
        elif st == "k1":  # both follow (or betl): after moze the second opponent chooses
            self.stage, self.turn = "k2", self.o2
        elif st == "k2":
            self._finish(PLAY)
        elif st == "pik":
            self._next_pik()
        elif st == "single":
            if word == ZOVEM:
                self.caller, self.called = seat, self.o2
            else:
                self.single = seat
            self._finish(PLAY)

    def _next_pik(self) -> None:
        if self._pik_queue:
            self.stage, self.turn = "pik", self._pik_queue.pop(0)
        else:
            self._finish(NOT_PLAYED)

    def _finish(self, outcome: str) -> None:
        self.outcome, self.done, self.turn = outcome, True, None
