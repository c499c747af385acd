"""Strength of the computer players: duplicate deals, mean points, 95% intervals.

Lora: every sampled deal (partie seed, deal index 0..27, so the contracts come in turn)
is played once per test player and per seat: the test player sits in seat r, the three
other seats are ``pocetnik``, for r = 0..3 (the same cards, seats rotated). The figure
is the test player's mean points per deal (penalties: lower is better). References:
``random`` (random legal cards) and ``oracle`` (sees all hands). The gap figure is the
share of the pocetnik-to-oracle gap that majstor closes.

    .venv/bin/python bench/ai_strength.py --game lora --deals 56 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.ai import make_bot  # noqa: E402
from app.games.lora import LoraPartie  # noqa: E402

LORA_PLAYERS = ("random", "pocetnik", "iskusan", "majstor", "oracle")


def lora_partie_at(seed: int, deal_index: int) -> LoraPartie:
    """The partie of ``seed`` at the start of deal ``deal_index`` (earlier deals played fast:
    the cards of a deal depend on the seed and the index only)."""
    partie = LoraPartie.new(seed=seed)
    while partie.deal_index < deal_index:
        seat = partie.seats_to_act()[0]
        partie.apply(seat, partie.legal_actions(seat)[0])
    return partie


def lora_deal_points(seed: int, deal_index: int, player: str, seat: int) -> int:
    from app.ai.lora.oracle import LoraOracle

    partie = lora_partie_at(seed, deal_index)
    bots = []
    for s in range(4):
        name = player if s == seat else "pocetnik"
        tag = f"{seed}:{deal_index}:{s}"
        bots.append(LoraOracle(partie, tag) if name == "oracle" else make_bot(name, "lora", seed=tag))
    while partie.deal_index == deal_index and not partie.deal.ended:
        s = partie.seats_to_act()[0]
        partie.apply(s, bots[s].choose(partie.view(s), partie.legal_actions(s)))
    return partie.points[deal_index][seat]


def lora_task(args: tuple[int, int, str]) -> tuple[int, int, str, float]:
    seed, deal_index, player = args
    return seed, deal_index, player, statistics.fmean(lora_deal_points(seed, deal_index, player, r) for r in range(4))


def mean_ci(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, half


def gap_share(pocetnik: list[float], majstor: list[float], oracle: list[float], rng: random.Random) -> tuple[float, float, float]:
    """Share of the pocetnik-oracle gap closed by majstor, with a bootstrap 95% interval."""

    def share(idx: list[int]) -> float:
        p = sum(pocetnik[i] for i in idx)
        gap = p - sum(oracle[i] for i in idx)
        return (p - sum(majstor[i] for i in idx)) / gap if gap else float("nan")

    n = len(pocetnik)
    boots = sorted(share([rng.randrange(n) for _ in range(n)]) for _ in range(2000))
    return share(list(range(n))), boots[50], boots[1949]


def run_lora(deals: int, workers: int, players: tuple[str, ...]) -> None:
    samples = [(1000 + i // 28, i % 28) for i in range(deals)]
    tasks = [(seed, k, p) for seed, k in samples for p in players]
    t0 = time.perf_counter()
    per: dict[str, dict[tuple[int, int], float]] = {p: {} for p in players}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for seed, k, p, v in pool.map(lora_task, tasks, chunksize=1):
            per[p][(seed, k)] = v
    elapsed = time.perf_counter() - t0
    print(f"Lora: {deals} deals x 4 seats per player, others pocetnik ({elapsed:.0f} s, {workers} workers)")
    print("mean points per deal of the test player (lower is better), 95% CI:")
    for p in players:
        m, h = mean_ci([per[p][s] for s in samples])
        print(f"  {p:9s} {m:+.3f} +- {h:.3f}")
    if {"pocetnik", "majstor"} <= set(players):
        diff = [per["majstor"][s] - per["pocetnik"][s] for s in samples]
        m, h = mean_ci(diff)
        print(f"  majstor - pocetnik: {m:+.3f} +- {h:.3f} (paired; CI excludes 0: {abs(m) > h})")
    if {"pocetnik", "majstor", "oracle"} <= set(players):
        share, lo, hi = gap_share(
            [per["pocetnik"][s] for s in samples], [per["majstor"][s] for s in samples], [per["oracle"][s] for s in samples], random.Random(0)
        )
        print(f"  share of the pocetnik-to-oracle gap closed by majstor: {share:.2f} (bootstrap 95% CI {lo:.2f}..{hi:.2f})")
    print("per contract, mean points (test player):")
    for contract in range(1, 8):
        row = [s for s in samples if s[1] % 7 + 1 == contract]
        if row:
            print(f"  {contract}: " + "  ".join(f"{p} {statistics.fmean(per[p][s] for s in row):+.2f}" for p in players))


def preferans_task(args: tuple[int, int, str]) -> tuple[int, str, float]:
    """Mean over the three seats of the test player's result per hand after ``hands`` hands."""
    from app.games.preferans import PreferansPartie

    seed, hands, player = args
    per_seat = []
    for seat in range(3):
        partie = PreferansPartie.new({"bule": 60, "refe": 2}, seed=seed)
        bots = [make_bot(player if s == seat else "pocetnik", "preferans", seed=f"{seed}:{s}") for s in range(3)]
        while not partie.finished and partie.deal_index < hands:
            seats = partie.seats_to_act()
            if not seats:
                break
            s = seats[0]
            partie.apply(s, bots[s].choose(partie.view(s), partie.legal_actions(s)))
        played = max(1, min(hands, partie.deal_index))
        per_seat.append((partie.result()["results"][seat] - 10 * 60) / played)  # change from the start (600)
    return seed, player, statistics.fmean(per_seat)


def run_preferans(hands: int, workers: int, players: tuple[str, ...], parties: int = 8) -> None:
    seeds = list(range(2000, 2000 + parties))
    per: dict[str, dict[int, float]] = {p: {} for p in players}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for seed, p, v in pool.map(preferans_task, [(sd, hands, p) for sd in seeds for p in players], chunksize=1):
            per[p][seed] = v
    print(f"Preferans: {parties} parties x 3 seats x {hands} hands per player, others pocetnik ({time.perf_counter() - t0:.0f} s)")
    print("mean result per hand of the test player (section 15 results; lower is better), 95% CI:")
    for p in players:
        m, h = mean_ci([per[p][s] for s in seeds])
        print(f"  {p:9s} {m:+.2f} +- {h:.2f}")
    if {"pocetnik", "majstor"} <= set(players):
        m, h = mean_ci([per["majstor"][s] - per["pocetnik"][s] for s in seeds])
        print(f"  majstor - pocetnik: {m:+.2f} +- {h:.2f} (paired; CI excludes 0: {abs(m) > h})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("lora", "preferans", "both"), default="both")
    ap.add_argument("--deals", type=int, default=28, help="Lora deals (each played 4 times per player)")
    ap.add_argument("--hands", type=int, default=12, help="preferans hands per partie (each partie played 3 times per player)")
    ap.add_argument("--parties", type=int, default=8, help="preferans parties (seeds)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", default=",".join(LORA_PLAYERS))
    args = ap.parse_args()
    players = tuple(args.players.split(","))
    if args.game in ("lora", "both"):
        run_lora(args.deals, args.workers, players)
    if args.game in ("preferans", "both"):
        run_preferans(args.hands, args.workers, tuple(p for p in players if p != "oracle"), args.parties)


if __name__ == "__main__":
    main()
