"""Tournaments (issue 25, "must show"): seating time, and which format ranks the players better.

(1) Seating: ``next_round`` for fields of 200 and 2,000 players at tables of 3 and of 4,
rounds 2..R of simulated events (each round's standings from random place points added
up, so the order moves as a tournament's does), with the history of the earlier rounds;
CPU time per call, p50 / p95 / max (and the wall time's p95, which a busy machine
inflates), and the repeated meetings of all the events.

(2) Simulated events of computer players of known strength: a field of ``--players``
(a third each pocetnik, iskusan and majstor, strength 0 / 1 / 2, seated at random) plays
``--rounds`` rounds of a short Lora (``--settings``; by default the Club's Lora without
four contracts, 12 deals a partie). Every table of a round is a partie with the round's
seed (``round_seed`` of the event's secret), so the deals of a round are the same at every
table. Round 1 is seated from the secret, each later round by ``next_round`` in the order
of the svajcarski standings (``--seat-by duplikat`` for the other). The SAME parties are
then scored both ways: ``duplicate_standings`` (a board's value is the seat's points in the
deal, lower better) and ``swiss_standings`` (place points 3 / 2 / 1 / 0 by the partie's
places, shared on ties; totals negated so that higher is better). Printed: Spearman's
correlation between each format's final ranking and the true strength per event, their
means with 95% intervals over the events, and the paired difference (duplikat minus
svajcarski) with a t interval and a bootstrap interval over the events.

    .venv/bin/python bench/tournament.py                       # both parts, a few minutes
    .venv/bin/python bench/tournament.py --part seating
    .venv/bin/python bench/tournament.py --part events --events 40 --players 16 --rounds 4 --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.tournaments.scoring import BoardResult, RoundPlaces, duplicate_standings, swiss_standings  # noqa: E402
from app.tournaments.seating import Table, repeated_meetings  # noqa: E402
from app.tournaments.seating_first import first_round  # noqa: E402
from app.tournaments.seating_next import next_round  # noqa: E402
from app.tournaments.secret import round_seed  # noqa: E402

LEVELS = ("pocetnik", "iskusan", "majstor")  # true strength 0, 1, 2
SHORT_LORA = {"variant": "klub", "bez": ["vise", "manje", "zandar", "lora"]}  # dame, herc, kralj: 12 deals
LORA_PLACE_POINTS = (3.0, 2.0, 1.0, 0.0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- (1) seating time --------------------------------------------------------------------


def seating_event(n: int, size: int, rounds: int, seed: int) -> tuple[list[float], list[float], int]:
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    points = dict.fromkeys(players, 0)
    history = [first_round(players, size, f"{seed + 1:064x}")]
    cpu, wall = [], []
    for r in range(2, rounds + 1):
        for table in history[-1]:
            for p in table.players:
                points[p] += rng.choice((0, 1, 2, 3))
        order = sorted(players, key=lambda p: (-points[p], rng.random()))
        c0, t0 = time.process_time(), time.perf_counter()
        history.append(next_round(order, size, history, rounds_left=rounds - r + 1))
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    return cpu, wall, repeated_meetings(history)


def run_seating(rounds: int, events_200: int, events_2000: int) -> None:
    print(f"(1) seating: next_round for rounds 2..{rounds}, with the history; CPU time per call (wall p95)")
    for n, events in ((200, events_200), (2000, events_2000)):
        for size in (3, 4):
            cpu: list[float] = []
            wall: list[float] = []
            repeats = 0
            for e in range(events):
                c, w, rep = seating_event(n, size, rounds, seed=1000 * n + 10 * size + e)
                cpu += c
                wall += w
                repeats += rep
            print(f"  {n:5} players, tables of {size}: {len(cpu)} rounds ({events} events): "
                  f"p50 {1000 * percentile(cpu, 0.5):6.1f} ms, p95 {1000 * percentile(cpu, 0.95):6.1f} ms, "
                  f"max {1000 * max(cpu):6.1f} ms (wall p95 {1000 * percentile(wall, 0.95):6.1f} ms); "
                  f"repeated meetings {repeats}")


# -- (2) simulated events ------------------------------------------------------------------


def place_points(places: list[int], scale: tuple[float, ...]) -> list[float]:
    """Place points by the partie's places (1-based, ties share a place and skip the next):
    players sharing a place share the points of the places they take equally."""
    out = []
    for p in places:
        sharing = places.count(p)
        out.append(sum(scale[p - 1:p - 1 + sharing]) / sharing)
    return out


def play_table(settings: dict, seed: str, seats: tuple[int | None, ...], levels: dict[int, str],
               bot_seed: str) -> dict:
    """One partie with the round's seed; each seat played by its player's level (None: majstor)."""
    from app.ai import make_bot
    from app.games.registry import engine_class

    partie = engine_class("lora").new(settings, seed=seed)
    bots = [make_bot(levels.get(p, "majstor") if p is not None else "majstor", "lora", seed=f"{bot_seed}:{s}")
            for s, p in enumerate(seats)]
    while not partie.finished:
        seat = partie.seats_to_act()[0]
        legal = partie.legal_actions(seat)
        partie.apply(seat, legal[0] if len(legal) == 1 else bots[seat].choose(partie.view(seat), legal))
    return partie.result()


def average_ranks(values: list[float]) -> list[float]:
    """Ranks 1..n of ``values`` (ascending), ties given their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = average_ranks(a), average_ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    var = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return cov / var if var else 0.0


def strength_correlation(standings, strength: dict[int, int]) -> float:
    """Spearman's rho between the standings' places (a shared rank is one place) and strength."""
    players = [s.player for s in standings]
    place = [-(s.rank if s.rank is not None else len(standings) + 1) for s in standings]
    return spearman(place, [strength[p] for p in players])


def run_event(args: tuple[int, int, int, dict, str]) -> dict:
    event, n, rounds, settings, seat_by = args
    rng = random.Random(f"tournament-bench:{event}")
    players = list(range(1, n + 1))
    levels_list = [LEVELS[i % 3] for i in range(n)]
    rng.shuffle(levels_list)
    levels = dict(zip(players, levels_list))
    strength = {p: LEVELS.index(levels[p]) for p in players}
    secret = f"{rng.getrandbits(256):064x}"
    history: list[list[Table]] = []
    board_results: list[BoardResult] = []
    places: list[RoundPlaces] = []
    boards_total = 0
    for r in range(1, rounds + 1):
        if r == 1:
            tables = first_round(players, 4, secret)
        else:
            if seat_by == "duplikat":
                standing = duplicate_standings(board_results, False, players, boards_total)
            else:
                standing = swiss_standings(places, players, r - 1)
            tables = next_round([s.player for s in standing], 4, history, rounds_left=rounds - r + 1)
        history.append(tables)
        seed = round_seed(secret, event + 1, r)
        deals = 0
        for t, table in enumerate(tables, 1):
            result = play_table(settings, seed, table.seats, levels, bot_seed=f"{event}:{r}:{t}")
            deals = len(result["deals"])
            for k, deal in enumerate(result["deals"], 1):
                for s, p in enumerate(table.seats):
                    board_results.append(BoardResult(r, k, t, s, p, float(deal["points"][s])))
            places.append(RoundPlaces(r, t, table.seats, tuple(place_points(result["places"], LORA_PLACE_POINTS)),
                                      tuple(-float(x) for x in result["totals"])))
        boards_total += deals
    dup = duplicate_standings(board_results, False, players, boards_total)
    swiss = swiss_standings(places, players, rounds)
    return {"event": event, "duplikat": strength_correlation(dup, strength),
            "svajcarski": strength_correlation(swiss, strength), "repeats": repeated_meetings(history),
            "boards": boards_total}


def interval(values: list[float]) -> str:
    m = statistics.fmean(values)
    if len(values) < 2:
        return f"{m:+.3f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{m:+.3f} +- {half:.3f}"


def bootstrap(values: list[float], resamples: int = 10_000, seed: int = 7) -> tuple[float, float]:
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def run_events(events: int, n: int, rounds: int, settings: dict, seat_by: str, workers: int) -> None:
    print(f"(2) {events} events of {n} computer players ({', '.join(LEVELS)} a third each), {rounds} rounds "
          f"of Lora {json.dumps(settings)}, the same parties scored both ways; seated by the {seat_by} standings")
    t0 = time.perf_counter()
    jobs = [(e, n, rounds, settings, seat_by) for e in range(events)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            rows = list(pool.map(run_event, jobs))
    else:
        rows = [run_event(job) for job in jobs]
    for row in rows:
        print(f"  event {row['event']:3}: rho duplikat {row['duplikat']:+.3f}, svajcarski {row['svajcarski']:+.3f}"
              f" ({row['boards']} boards, {row['repeats']} repeated meetings)")
    dup = [row["duplikat"] for row in rows]
    swiss = [row["svajcarski"] for row in rows]
    diff = [a - b for a, b in zip(dup, swiss)]
    print(f"  Spearman's rho with the true strength, mean over {events} events with 95% intervals:")
    print(f"    duplikat   {interval(dup)}")
    print(f"    svajcarski {interval(swiss)}")
    lo, hi = bootstrap(diff) if len(diff) > 1 else (diff[0], diff[0])
    print(f"    duplikat - svajcarski (paired) {interval(diff)}; bootstrap 95% {lo:+.3f} .. {hi:+.3f}; "
          f"duplikat better in {sum(d > 0 for d in diff)} of {events} events, equal in {sum(d == 0 for d in diff)}")
    print(f"  ({time.perf_counter() - t0:.0f} s, {workers} worker{'s' if workers > 1 else ''})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("all", "seating", "events"), default="all")
    ap.add_argument("--seating-rounds", type=int, default=9, help="rounds of a seating event (1 + timed ones)")
    ap.add_argument("--events-200", type=int, default=10, help="seating events of 200 players")
    ap.add_argument("--events-2000", type=int, default=2, help="seating events of 2,000 players")
    ap.add_argument("--events", type=int, default=24, help="simulated events of computer players")
    ap.add_argument("--players", type=int, default=12, help="players of a simulated event")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of a simulated event")
    ap.add_argument("--settings", type=json.loads, default=SHORT_LORA, help="Lora's settings as JSON")
    ap.add_argument("--seat-by", choices=("svajcarski", "duplikat"), default="svajcarski")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    if args.part in ("all", "seating"):
        run_seating(args.seating_rounds, args.events_200, args.events_2000)
    if args.part in ("all", "events"):
        run_events(args.events, args.players, args.rounds, args.settings, args.seat_by, args.workers)


if __name__ == "__main__":
    main()
