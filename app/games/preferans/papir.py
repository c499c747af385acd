"""The papir (score sheet): bule, supe, refe, and every line written on it."""

from __future__ import annotations

from typing import Any


class Papir:
    """Running score of a partie. ``supe[i][j]`` is what seat i has written against seat j."""

    def __init__(self, bule: int, refe_limit: int):
        self.start = bule
        self.refe_limit = refe_limit
        self.bule = [bule, bule, bule]
        self.supe = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
        self.refe_written = [0, 0, 0]
        self.refe_played = [0, 0, 0]
        self.bule_history: list[list[int]] = [[bule], [bule], [bule]]
        self.supe_history: list[list[list[int]]] = [[[], [], []] for _ in range(3)]
        self.lines: list[dict[str, Any]] = []
        self.line_results: list[list[int]] = []  # each line's change of the results (section 15)

    @property
    def total(self) -> int:
        return self.bule[0] + self.bule[1] + self.bule[2]

    def refe_open(self, seat: int) -> int:
        return self.refe_written[seat] - self.refe_played[seat]

    def refe_receivers(self) -> list[int]:
        """Seats a refe can be written to now (section 10, P5)."""
        if min(self.bule) < 0:
            return []
        return [s for s in range(3) if self.refe_written[s] < self.refe_limit]

    def write(self, line: dict[str, Any], bule: list[int], supe: list[list[int]],
              refe_written: list[int] = (), refe_played: list[int] = ()) -> None:
        """Write one line: bule changes, supe written (supe[i][j] by i against j), refe marks."""
        for s in range(3):
            if bule[s]:
                self.bule[s] += bule[s]
                self.bule_history[s].append(self.bule[s])
            for j in range(3):
                if supe[s][j]:
                    self.supe[s][j] += supe[s][j]
                    self.supe_history[s][j].append(self.supe[s][j])
        for s in refe_written:
            self.refe_written[s] += 1
        for s in refe_played:
            self.refe_played[s] += 1
        self.lines.append(line)
        self.line_results.append(_results_of(bule, supe))

    def results(self) -> list[int]:
        """Section 15: supe written against him - supe he wrote + 10 x bule."""
        return _results_of(self.bule, self.supe)

    def deal_results(self, n_deals: int) -> list[list[int]]:
        """For each of the first ``n_deals`` hands, the change it made in each seat's
        result (section 15): its own line and the odlazak u bulu of its falls (P10), which
        name the hand; an otpis belongs to no hand."""
        out = [[0, 0, 0] for _ in range(n_deals)]
        for line, change in zip(self.lines, self.line_results):
            k = line.get("deal")
            if isinstance(k, int) and 0 <= k < n_deals:
                out[k] = [a + b for a, b in zip(out[k], change)]
        return out

    def places(self) -> list[int]:
        """Places 1..3 by result with the four tie-breaks of section 15 (P7); never shared."""
        results = self.results()
        order = _rank(list(range(3)), results, self.bule, self.supe)
        places = [0, 0, 0]
        for place, seat in enumerate(order, 1):
            places[seat] = place
        return places

    def sheet(self) -> dict[str, Any]:
        """The papir as the screens draw it: left supe | bule | right supe for each player."""
        players = []
        for s in range(3):
            left, right = (s - 1) % 3, (s + 1) % 3
            players.append({
                "left": {"against": left, "supe": list(self.supe_history[s][left])},
                "bule": list(self.bule_history[s]),
                "right": {"against": right, "supe": list(self.supe_history[s][right])},
                "refe": {"open": self.refe_open(s), "played": self.refe_played[s]},
                "kapa": self.bule[s] <= 0,
            })
        return {"players": players, "lines": [dict(line) for line in self.lines]}


def _results_of(bule: list[int], supe: list[list[int]]) -> list[int]:
    """The change of :meth:`Papir.results` that these bule and supe changes make."""
    return [sum(supe[j][i] for j in range(3)) - sum(supe[i]) + 10 * bule[i] for i in range(3)]


def _rank(seats: list[int], results: list[int], bule: list[int], supe: list[list[int]]) -> list[int]:
    """Seats best first: result, then fewer bule, then (two equal only) more supe written
    to the other, then more supe written in total, then the lower seat."""
    groups: dict[int, list[int]] = {}
    for s in seats:
        groups.setdefault(results[s], []).append(s)
    out: list[int] = []
    for key in sorted(groups):
        out += _break(groups[key], 1, bule, supe)
    return out


def _break(group: list[int], step: int, bule: list[int], supe: list[list[int]]) -> list[int]:
    if len(group) == 1:
        return group
    if step == 1:
        key = {s: bule[s] for s in group}
    elif step == 2:
        if len(group) != 2:
            return _break(group, 3, bule, supe)
        a, b = group
        key = {a: -supe[a][b], b: -supe[b][a]}
    elif step == 3:
        key = {s: -sum(supe[s]) for s in group}
    else:
        return sorted(group)
    sub: dict[int, list[int]] = {}
    for s in group:
        sub.setdefault(key[s], []).append(s)
    out: list[int] = []
    for k in sorted(sub):
        out += _break(sub[k], step + 1, bule, supe)
    return out


def declared_hands(lines: list[dict[str, Any]], seat: int) -> list[tuple[bool, str | None]]:
    """The hands ``seat`` declared, from a finished partie's papir lines, each as (made, its
    contract): a line naming him the declarer, ``passed`` telling whether he made it (a hand
    not played, as pik with the talon without kontra, counts for neither). A profile's
    statistics (the descriptor's ``declared_hands``)."""
    return [(bool(line["passed"]), str(line["contract"]) if line.get("contract") else None)
            for line in lines if line.get("declarer") == seat and "passed" in line]
