"""Problems mined from finished random-and-computer parties (issue 41, "must show"):

    .venv/bin/python bench/zadaci.py --parties 1000 --jobs 2 --solve-every 10   # the issue's count (hours)
    .venv/bin/python bench/zadaci.py --parties 2 --deals 6                      # a quick look
    .venv/bin/python bench/zadaci.py --game lora --start 300 --parties 200 --jobs 2 --solve-every 10 \
        --save bench/results/zadaci-lora.jsonl                                 # a piece of a run ...
    .venv/bin/python bench/zadaci.py --report bench/results/zadaci-*.jsonl.gz  # ... and the pieces' report

Plays ``--parties`` parties of each game in this process (seat 0 a random player, the
others the ``--level`` computer player; preferans to 30 bule), mines the first
``--deals`` deals of each (all: 0; with a number the play stops once those have ended,
the rest of the partie would be mined the same way) exactly as the analysis workers do
(:func:`app.problems.mining.mine_deal`: the deal's analysis, then the problems), and
asks the ``majstor`` computer player each problem from the seat's own view (hidden
cards hidden). Prints per game: deals mined, problems (per partie and per deal, by
theme), the analysis' CPU seconds per deal and the mining's own beyond it, and the share
of the problems majstor solves, overall and by how clear the problem is (the best's lead
over the second best, in the problem's unit). CPU time of one core (process time), summed
over the ``--jobs`` processes that play the parties side by side; ``--solve-every K`` asks
majstor every K-th problem only (a sample: majstor's search costs more than the mining).
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.ai import RandomBot  # noqa: E402
from app.ai.registry import build_bot  # noqa: E402
from app.analysis.deal import analyse_deal  # noqa: E402
from app.games.registry import descriptors, engine_class  # noqa: E402
from app.problems.mining import engine_at_deal, problems_of  # noqa: E402

SETTINGS = {"preferans": {"bule": 30, "refe": 1}}


def play(game: str, seed: int, level: str, deals: int = 0, settings: dict | None = None, random_seats: int = 1):
    """A finished partie's record: seat 0 random, the others the computer player of ``level``
    (with ``deals``: played until that many deals have ended, the deals mined), and whether
    it finished."""
    cls = engine_class(game)
    engine = cls.new(settings if settings is not None else SETTINGS.get(game, {}), seed=f"zadaci-{game}-{seed}")
    bots = [(RandomBot(seed if s == 0 else f"{seed}-{s}") if s < random_seats else build_bot(level, game, f"{seed}-{s}"))
            for s in range(engine.n_seats)]
    while not engine.finished and not (deals and engine.deal_index >= deals):
        seat = engine.seats_to_act()[0]
        legal = engine.legal_actions(seat)
        word = legal[0] if len(legal) == 1 else bots[seat].choose(engine.view(seat), legal)
        engine.apply(seat, word)
    return engine.to_record([f"p{s}" for s in range(engine.n_seats)]), engine.finished


def engine_ended(record, n: int) -> bool:
    """Whether the record's deal n-1 has ended (the record of a stopped play ends in the deal in play)."""
    engine = engine_at_deal(record, n - 1)
    for seat, word in record["deals"][n - 1]["actions"]:
        engine.apply(seat, word)
    return engine.finished or engine.needs_deal or engine.deal_index > n - 1


def majstor_solves(record, problem) -> bool:
    engine = engine_at_deal(record, problem["deal"])
    for seat, word in record["deals"][problem["deal"]]["actions"][: problem["step"] - 1]:
        engine.apply(seat, word)
    seat = problem["seat"]
    bot = build_bot("majstor", record["game"], f"zadatak-{problem['deal']}-{problem['step']}")
    return bot.choose(engine.view(seat), list(engine.legal_actions(seat))) == problem["best"]


EDGES = (2, 4, 8, 16)


def bucket(lead: float) -> tuple[int, str]:
    """The lead's bucket: its order and its label."""
    for i, edge in enumerate(EDGES):
        if lead < edge:
            return i, f"<{edge}"
    return len(EDGES), f">={EDGES[-1]}"


def one_partie(job: tuple[str, int, str, int, int, dict | None, int]) -> dict:
    """Play and mine one partie: its deals' CPU figures and its problems (majstor's answer
    on every ``solve_every``-th, counted from the partie's number so the sample spreads)."""
    game, i, level, deal_limit, solve_every, settings, random_seats = job
    t0 = time.process_time()
    record, finished = play(game, i, level, deal_limit, settings, random_seats)
    out: dict = {"play_s": round(time.process_time() - t0, 3), "analysis_s": [], "mining_s": [], "problems": []}
    n = len(record["deals"]) if not deal_limit else min(deal_limit, len(record["deals"]))
    if record["deals"] and not engine_ended(record, n):
        n -= 1  # the deal in play when the play stopped has not ended
    out["deals"] = n
    out["finished"] = finished
    for k in range(n):
        t0 = time.process_time()
        analysis = analyse_deal(record, k)
        t1 = time.process_time()
        problems = problems_of(record, k, analysis)
        t2 = time.process_time()
        out["analysis_s"].append(round(t1 - t0, 4))
        out["mining_s"].append(round(t2 - t1, 5))
        for p in problems:
            asked = (i + len(out["problems"])) % solve_every == 0
            out["problems"].append({"unit": p["unit"], "margin": round(p["margin"], 3), "theme": p["data"]["theme_name"]["en"],
                                    "solved": majstor_solves(record, p) if asked else None})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parties", type=int, default=2, help="finished parties per game (the issue: 1000)")
    ap.add_argument("--start", type=int, default=0, help="the first partie's number (its seed): a run in pieces")
    ap.add_argument("--deals", type=int, default=0, help="mine only the first N deals of each partie (0: all)")
    ap.add_argument("--level", default="iskusan", help="the computer players' level at seats 1..")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing and mining side by side")
    ap.add_argument("--solve-every", type=int, default=1, help="ask majstor every K-th problem (1: all)")
    ap.add_argument("--settings", type=json.loads, default=None,
                    help='the parties\' settings as JSON (default: preferans {"bule": 30, "refe": 1})')
    ap.add_argument("--random-seats", type=int, default=1,
                    help="seats (from 0) of a random player, the others --level's (0: computer players only)")
    ap.add_argument("--save", type=Path, default=None,
                    help="append each partie's figures to this JSON-lines file as it ends (a stopped run keeps them)")
    ap.add_argument("--report", type=Path, nargs="+", default=None,
                    help="play nothing: the report of parties saved by --save (files .jsonl or .jsonl.gz, "
                         "pieces of one run; a partie saved twice counts once)")
    args = ap.parse_args()
    if args.report:
        for game, outs in saved(args.report).items():
            if not args.game or game in args.game:
                report(game, outs[0]["config"], [o["out"] for o in outs])
        return
    with multiprocessing.get_context("spawn").Pool(max(1, args.jobs)) as pool:
        for d in descriptors():
            if d.problems is None or (args.game and d.code not in args.game):
                continue
            config = {"level": args.level, "deals": args.deals, "solve_every": args.solve_every,
                      "settings": args.settings, "random_seats": args.random_seats}
            jobs = [(d.code, i, args.level, args.deals, args.solve_every, args.settings, args.random_seats)
                    for i in range(args.start, args.start + args.parties)]
            outs = []
            for n, (i, out) in enumerate(pool.imap_unordered(numbered, jobs), 1):
                outs.append(out)
                if args.save:
                    with args.save.open("a") as f:
                        f.write(json.dumps({"game": d.code, "i": i, "config": config, "out": out}) + "\n")
                if n % max(1, args.parties // 20) == 0:
                    print(f"  {d.code} partie {n}/{args.parties}: {sum(o['deals'] for o in outs)} deals mined, "
                          f"{sum(len(o['problems']) for o in outs)} problems so far", flush=True)
            report(d.code, config, outs)


def numbered(job: tuple) -> tuple[int, dict]:
    return job[1], one_partie(job)


def saved(paths: list[Path]) -> dict[str, list[dict]]:
    """The saved parties by game, each once (by its number), in number order; every piece
    of a game must have been run with the same options."""
    by_game: dict[str, dict[int, dict]] = defaultdict(dict)
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as f:
            for line in f:
                entry = json.loads(line)
                parties = by_game[entry["game"]]
                first = next(iter(parties.values()), entry)
                if first["config"] != entry["config"]:
                    sys.exit(f"{path}: partie {entry['i']} of {entry['game']} was run with other options "
                             f"({entry['config']} against {first['config']})")
                parties[entry["i"]] = entry
    return {game: [parties[i] for i in sorted(parties)] for game, parties in by_game.items()}


def report(game: str, config: dict, parties: list[dict]) -> None:
    deals = 0
    found: list[dict] = []
    analysis_s: list[float] = []
    mining_s: list[float] = []
    play_s = 0.0
    finished = 0
    for out in parties:
        finished += out["finished"]
        deals += out["deals"]
        play_s += out["play_s"]
        analysis_s += out["analysis_s"]
        mining_s += out["mining_s"]
        found += out["problems"]
    total = len(found)
    n = len(parties)
    print(f"{game}: {n} parties ({config['random_seats']} random + {config['level']}, played in {play_s:.0f} s CPU; "
          f"{finished} finished), {deals} deals mined: "
          f"{total} problems ({total / max(1, n):.1f} per partie, {total / max(1, deals):.2f} per deal)")
    if analysis_s:
        print(f"  CPU per deal: analysis mean {statistics.mean(analysis_s):.2f} s (median {statistics.median(analysis_s):.2f}), "
              f"mining beyond it mean {statistics.mean(mining_s):.3f} s "
              f"({100 * sum(mining_s) / max(1e-9, sum(analysis_s)):.1f}% of the analysis)")
    print(f"  themes: {dict(Counter(p['theme'] for p in found).most_common())}")
    asked = [p for p in found if p["solved"] is not None]
    if asked:
        ok = sum(p["solved"] for p in asked)
        print(f"  majstor solves {ok} of {len(asked)} asked ({100 * ok / len(asked):.0f}%); by the best's lead:")
        by_lead: dict[tuple[str, int, str], list[int]] = defaultdict(lambda: [0, 0])
        for p in asked:
            b = by_lead[(p["unit"], *bucket(p["margin"]))]
            b[0] += p["solved"]
            b[1] += 1
        for key in sorted(by_lead):
            n_ok, n = by_lead[key]
            print(f"    {key[0]} {key[2]}: {n_ok}/{n} ({100 * n_ok / n:.0f}%)")


if __name__ == "__main__":
    main()
