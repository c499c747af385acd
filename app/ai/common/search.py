"""What the open-cards searches share: a node budget; for the trick searches a
transposition table of value bounds at trick boundaries (alpha-beta with fail-soft
bounds) and searching one card of each run of equivalent cards; for the max-n searches
(every seat for itself) the choice among the costs of the moves."""

from __future__ import annotations

INF = 1 << 20


class SearchAborted(Exception):
    """The node budget ran out before the answer was known."""


class NodeBudget:
    """Counts a search's nodes against ``node_limit`` (None: no limit)."""

    def __init__(self, node_limit: int | None = None):
        self.nodes = 0
        self.node_limit = node_limit

    def spend(self) -> None:
        """One more node; SearchAborted once the budget is spent."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchAborted


def maxn_prefers(v: tuple[int, ...], best: tuple[int, ...] | None, chooser: int, me: int) -> bool:
    """Max-n with a cautious tie rule: does ``chooser`` prefer the costs ``v`` (every seat's)
    to ``best``? His own cost lower; at an equal cost, when he is not me, the one worse for me."""
    return best is None or v[chooser] < best[chooser] or (
        v[chooser] == best[chooser] and chooser != me and v[me] > best[me]
    )


class BoundedSearch(NodeBudget):
    """A search that counts its nodes against ``node_limit`` and keeps ``tt``: for a
    position key, the (lower, upper) bounds of its value found so far. A subclass
    searches a trick from its lead in ``_lead`` (``ctx``: whatever else its values depend on)."""

    def __init__(self, node_limit: int | None = None):
        super().__init__(node_limit)
        self.tt: dict[int, tuple[int, int]] = {}

    def _lead(self, hands: list[int], leader: int, ctx: int, alpha: int, beta: int) -> int:
        raise NotImplementedError

    def _bounded(self, key: int, lo: int, hi: int, alpha: int, beta: int, hands: list[int], leader: int,
                 ctx: int) -> int:
        """The value of the position ``key`` at a trick boundary, known to lie in [lo, hi]:
        from the table if its bounds settle it in the window (alpha, beta), else searched
        by ``_lead`` (one node of the budget) and its new bounds stored."""
        entry = self.tt.get(key)
        if entry is not None:
            if entry[0] > lo:
                lo = entry[0]
            if entry[1] < hi:
                hi = entry[1]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        self.spend()
        v = self._lead(hands, leader, ctx, a, b)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        self.tt[key] = (lo, hi)
        return v


def representatives(legal: int, present: int, special: int = 0) -> list[int]:
    """One card of each run of equivalent legal cards, lowest first. Two legal cards of
    a suit are equivalent when no card still present (in a hand or on the trick) lies
    between them and ``special`` (a mask of cards that score) holds both or neither."""
    out: list[int] = []
    while legal:
        shift = ((legal & -legal).bit_length() - 1) & ~7  # the lowest suit left
        lb = legal >> shift & 0xFF
        legal ^= lb << shift
        key = shift << 24 | (special >> shift & 0xFF) << 16 | (present >> shift & 0xFF) << 8 | lb
        runs = _RUNS.get(key)
        if runs is None:
            runs = _RUNS[key] = _suit_runs(lb, present >> shift & 0xFF, special >> shift & 0xFF, shift)
        out += runs
    return out


# A search asks for the same few suit layouts millions of times: each suit's answer is kept
# by its (suit, special, present, legal) bytes. Legal cards are present, so at most 3^8
# layouts per suit and scoring class.
_RUNS: dict[int, tuple[int, ...]] = {}


def _suit_runs(legal: int, present: int, special: int, shift: int) -> tuple[int, ...]:
    """``representatives`` within one suit's byte (cards ``shift`` + rank)."""
    out = []
    for r in range(8):
        if not legal >> r & 1:
            continue
        below = present & ((1 << r) - 1)
        if below:
            p = below.bit_length() - 1
            if legal >> p & 1 and (special >> p & 1) == (special >> r & 1):
                continue
        out.append(shift + r)
    return tuple(out)
