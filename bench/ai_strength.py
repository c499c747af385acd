"""Strength of the computer players: duplicate deals, mean points, 95% intervals.

Lora: every sampled deal (partie seed, deal index 0..27, so the contracts come in turn)
is played once per test player and per seat: the test player sits in seat r, the three
other seats are ``pocetnik``, for r = 0..3 (the same cards, seats rotated). The figure
is the test player's mean points per deal (penalties: lower is better). References:
``random`` (random legal cards) and ``oracle`` (sees all hands). The gap figure is the
share of the pocetnik-to-oracle gap that majstor closes.

Preferans: every deal is one hand from a fresh partie, played three times per test
player (the test player in seat 0, 1, 2; the others pocetnik); see
``bench/preferans_duplicate.py`` for the figure (result per hand against the table).

    .venv/bin/python bench/ai_strength.py --game lora --deals 56 --workers 2
    .venv/bin/python bench/ai_strength.py --game lora --settings '{"variant": "hrvatska"}' --deals 64
    .venv/bin/python bench/ai_strength.py --game lora --settings '{"variant": "klub", "izbor": true}' --deals 56

House rules (``--settings``): the deals of such a partie in turn (Croatian Lora's eight
contracts, or the contracts the first players choose with ``izbor``); Croatian points are
good when positive, so the figure there is the points *lost* (minus the points), lower
is better as everywhere here. Libyan Lora plays its 32 (24 with three seats) deals in
turn, with its bets when ``opklade`` is on; with three seats the test player sits in
each of the three seats against two pocetnik (a void deal counts as played, with its
points: 0, or the dealer's +8 after the third):
    .venv/bin/python bench/ai_strength.py --game lora --settings '{"variant": "libijska", "opklade": true}' --deals 64
    .venv/bin/python bench/ai_strength.py --game lora --settings '{"variant": "libijska", "igraca": 3}' --deals 48
    .venv/bin/python bench/ai_strength.py --game preferans --hands 300 --players pocetnik,majstor,oracle --workers 2
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.ai import make_bot  # noqa: E402
from app.games.lora import LoraPartie  # noqa: E402

LORA_PLAYERS = ("random", "pocetnik", "iskusan", "majstor", "oracle")
LADDER = (("iskusan", "pocetnik"), ("majstor", "iskusan"), ("majstor", "pocetnik"), ("oracle", "majstor"))


def partie_class(game: str) -> type[LoraPartie]:
    """Lora's partie or Lórum's (a LoraPartie with Lórum's contracts and chips)."""
    if game == "lorum":
        from app.games.lorum import LorumPartie

        return LorumPartie
    return LoraPartie


def oracle_for(game: str, partie: LoraPartie, tag: str):
    if game == "lorum":
        from app.ai.lorum.oracle import LorumOracle

        return LorumOracle(partie, tag)
    from app.ai.lora.oracle import LoraOracle

    return LoraOracle(partie, tag)


def lora_partie_at(seed: int, deal_index: int, settings: dict | None = None, game: str = "lora") -> LoraPartie:
    """The partie of ``seed`` at the start of deal ``deal_index`` (earlier deals played fast:
    the cards of a deal depend on the seed and the index only)."""
    partie = partie_class(game).new(settings or {}, seed=seed)
    while partie.deal_index < deal_index:
        seat = partie.seats_to_act()[0]
        partie.apply(seat, partie.legal_actions(seat)[0])
    return partie


def lora_deal_points(seed: int, deal_index: int, player: str, seat: int, settings: dict | None = None,
                     game: str = "lora", field: str = "pocetnik") -> int:
    """The points of ``seat`` in the deal, as a cost: lower is better (Croatian points and
    Lórum's chips turned), the other seats played by ``field``."""
    partie = lora_partie_at(seed, deal_index, settings, game)
    bots = []
    for s in range(partie.n_seats):
        name = player if s == seat else field
        tag = f"{seed}:{deal_index}:{s}"
        bots.append(oracle_for(game, partie, tag) if name == "oracle" else make_bot(name, game, seed=tag))
    while partie.deal_index == deal_index and not partie.deal.ended:
        s = partie.seats_to_act()[0]
        partie.apply(s, bots[s].choose(partie.view(s), partie.legal_actions(s)))
    highest_wins = game == "lorum" or (partie.house is not None and partie.house.schedule.highest_wins)
    return (-1 if highest_wins else 1) * partie.points[deal_index][seat]


def lora_task(args: tuple[int, int, str, str, str, str]) -> tuple[int, int, str, float]:
    seed, deal_index, player, settings, game, field = args
    rules = json.loads(settings)
    n_seats = partie_class(game).seats_for(rules)
    return seed, deal_index, player, statistics.fmean(
        lora_deal_points(seed, deal_index, player, r, rules, game, field) for r in range(n_seats))


def lora_contract(seed: int, deal_index: int, settings: dict, game: str = "lora") -> str:
    """The contract a deal plays (with izbor: the one its first player chose, as pocetnik)."""
    partie = lora_partie_at(seed, deal_index, settings, game)
    if partie.house is None:
        return str(partie.view(None)["deal"]["contract"])
    first = partie.seats_to_act()[0]
    words = partie.legal_actions(first)
    if words and words[0].startswith("ugovor "):
        partie.apply(first, make_bot("pocetnik", "lora", seed=f"{seed}:{deal_index}").choose(partie.view(first), words))
    return str(partie.view(None)["deal"]["contract"])


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


def print_ladder(per: dict[str, list[float]], players: tuple[str, ...]) -> None:
    """Each step of the ladder as a paired difference (lower is better), and the gap share."""
    for a, b in LADDER:
        if {a, b} <= set(players):
            m, h = mean_ci([x - y for x, y in zip(per[a], per[b])])
            print(f"  {a} - {b}: {m:+.3f} +- {h:.3f} (paired; CI excludes 0: {abs(m) > h})")
    if {"pocetnik", "majstor", "oracle"} <= set(players):
        share, lo, hi = gap_share(per["pocetnik"], per["majstor"], per["oracle"], random.Random(0))
        print(f"  share of the pocetnik-to-oracle gap closed by majstor: {share:.2f} (bootstrap 95% CI {lo:.2f}..{hi:.2f})")


def run_lora(deals: int, workers: int, players: tuple[str, ...], settings: dict | None = None,
             game: str = "lora", field: str = "pocetnik", first_seed: int = 1000) -> None:
    settings = settings or {}
    engine = partie_class(game)
    per_partie = engine.new(settings).n_deals
    n_seats = engine.seats_for(settings)
    samples = [(first_seed + i // per_partie, i % per_partie) for i in range(deals)]
    tasks = [(seed, k, p, json.dumps(settings), game, field) for seed, k in samples for p in players]
    t0 = time.perf_counter()
    per: dict[str, dict[tuple[int, int], float]] = {p: {} for p in players}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for seed, k, p, v in pool.map(lora_task, tasks, chunksize=1):
            per[p][(seed, k)] = v
    elapsed = time.perf_counter() - t0
    rules = f", settings {json.dumps(settings)}" if settings else ""
    unit = "chips lost" if game == "lorum" else "points"
    print(f"{game.capitalize()}{rules}: {deals} deals x {n_seats} seats per player, others {field} "
          f"({elapsed:.0f} s, {workers} workers)")
    print(f"mean {unit} per deal of the test player (lower is better), 95% CI:")
    for p in players:
        m, h = mean_ci([per[p][s] for s in samples])
        print(f"  {p:9s} {m:+.3f} +- {h:.3f}")
    print_ladder({p: [per[p][s] for s in samples] for p in players}, players)
    print(f"per contract, mean {unit} (test player):")
    contracts = {s: lora_contract(*s, settings, game) for s in samples}
    for contract in dict.fromkeys(contracts.values()):
        row = [s for s in samples if contracts[s] == contract]
        print(f"  {contract}: " + "  ".join(f"{p} {statistics.fmean(per[p][s] for s in row):+.2f}" for p in players))


def preferans_task(args: tuple[int, str, str]) -> tuple[int, str, list]:
    from preferans_duplicate import deal_task

    return deal_task(args)


def run_preferans(deals: int, workers: int, players: tuple[str, ...], field: str = "pocetnik") -> None:
    from preferans_duplicate import HandOutcome

    samples = list(range(deals))
    per: dict[str, dict[int, list[HandOutcome]]] = {p: {} for p in players}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for deal, p, outcomes in pool.map(preferans_task, [(d, p, field) for d in samples for p in players], chunksize=1):
            per[p][deal] = outcomes
    print(f"Preferans: {deals} deals x 3 seats per player, others {field}, one hand from a fresh partie "
          f"({time.perf_counter() - t0:.0f} s, {workers} workers)")
    print("mean result per hand of the test player against the table (own change minus the mean change;")
    print("section 15, lower is better), 95% CI; own = his own result change:")
    rel = {p: [statistics.fmean(o.relative for o in per[p][d]) for d in samples] for p in players}
    own = {p: [statistics.fmean(o.own for o in per[p][d]) for d in samples] for p in players}
    for p in players:
        m, h = mean_ci(rel[p])
        mo, ho = mean_ci(own[p])
        print(f"  {p:9s} {m:+7.2f} +- {h:5.2f}   own {mo:+7.2f} +- {ho:5.2f}")
    print_ladder(rel, players)
    for a in ("majstor", "iskusan", "oracle"):
        if {a, "pocetnik"} <= set(players):
            print_breakdown(a, per[a], per["pocetnik"], samples)
    print("the test player as declarer: hands declared, made (declarer success rate), mean result against the table:")
    for p in players:
        mine = [o for d in samples for o in per[p][d] if o.declarer]
        played = [o for o in mine if o.passed is not None]
        made = sum(bool(o.passed) for o in played)
        rate = f"{made / len(played):.2f}" if played else "-"
        mean = f"{statistics.fmean(o.relative for o in mine):+.1f}" if mine else "-"
        print(f"  {p:9s} declared {len(mine):4d} of {3 * deals} hands, made {made}/{len(played)} = {rate}, result {mean}")
    print("contracts the test player declared (share of his hands):")
    for p in players:
        counts: dict[str, int] = {}
        for d in samples:
            for o in per[p][d]:
                if o.declarer and o.contract:
                    counts[o.contract] = counts.get(o.contract, 0) + 1
        row = "  ".join(f"{c} {n / (3 * deals):.3f}" for c, n in sorted(counts.items(), key=lambda x: -x[1]))
        print(f"  {p:9s} {row}")


def print_breakdown(name: str, mine: dict, base: dict, samples: list[int]) -> None:
    """Where ``name`` gains or loses against pocetnik on the same deal and seat, by the part
    each played (declarer and contract, the follow words, nobody declaring)."""
    rows: dict[tuple[str, str], list[float]] = {}
    for d in samples:
        for o, b in zip(mine[d], base[d]):
            rows.setdefault((b.role, o.role), []).append(o.relative - b.relative)
    n = 3 * len(samples)
    print(f"{name} against pocetnik by part played (pocetnik's part -> {name}'s part: hands, "
          f"mean difference, contribution per hand; lower is better):")
    for (rb, ro), xs in sorted(rows.items(), key=lambda kv: sum(kv[1])):
        if any(xs):
            print(f"  {rb:28s} -> {ro:28s} {len(xs):4d} {statistics.fmean(xs):+8.1f} {sum(xs) / n:+7.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("lora", "lorum", "preferans", "all"), default="all")
    ap.add_argument("--deals", type=int, default=28, help="Lora deals (each played once per seat and player)")
    ap.add_argument("--hands", type=int, default=60, help="preferans deals (each played 3 times per player, seats rotated)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", default=",".join(LORA_PLAYERS))
    ap.add_argument("--field", default="pocetnik", help="the level of the other seats (e.g. majstor: a harder field)")
    ap.add_argument("--first-seed", type=int, default=1000, help="Lora/Lórum: the partie seed of the first deals")
    ap.add_argument("--settings", default="{}", help="Lora house rules as JSON, e.g. '{\"variant\": \"hrvatska\"}'")
    args = ap.parse_args()
    players = tuple(args.players.split(","))
    for game in ("lora", "lorum"):
        if args.game in (game, "all"):
            run_lora(args.deals, args.workers, players, json.loads(args.settings) if game == "lora" else {},
                     game, args.field, args.first_seed)
    if args.game in ("preferans", "all"):
        run_preferans(args.hands, args.workers, players, args.field)


if __name__ == "__main__":
    main()
