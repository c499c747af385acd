"""Time per decision and memory of the computer players (all seats the same level).

    .venv/bin/python bench/ai_speed.py --game lora --deals 28 --level majstor
    .venv/bin/python bench/ai_speed.py --game preferans --deals 12 --level majstor
    .venv/bin/python bench/ai_speed.py --game lora --deals 32 --settings '{"variant": "libijska", "opklade": true}'
    .venv/bin/python bench/ai_speed.py --game lorum --deals 36 --settings '{"sto_jedan": true, "makk": true}'

Prints p50 / p95 / max of the CPU time per decision (all decisions the server would
ask for, and separately those with more than one legal word) and the peak RSS of the
process. Budgets for majstor: p50 <= 0.3 s, p95 <= 1.0 s, max <= 3 s, <= 300 MB.
``--settings``: Lora's house rules (JSON), e.g. Libyan Lora with three seats (the seats
follow the settings), or Lórum's options (``sto_jedan``, ``makk``).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.ai import make_bot  # noqa: E402
from app.games.registry import engine_class  # noqa: E402


def run(game: str, deals: int, level: str, seed: int, settings: dict | None = None) -> None:
    cls = engine_class(game)
    partie = cls.new({"bule": 60, "refe": 2} if game == "preferans" else settings or {}, seed=seed)
    n_seats = partie.n_seats
    bots = [make_bot(level, game, seed=f"{seed}:{s}") for s in range(n_seats)]
    times: list[float] = []
    choices: list[float] = []
    while not partie.finished and partie.deal_index < deals:
        seats = partie.seats_to_act()
        if not seats:
            break
        s = seats[0]
        view, legal = partie.view(s), partie.legal_actions(s)
        t = time.process_time()  # CPU time: the machine is shared, wall time would count others' work
        word = bots[s].choose(view, legal)
        dt = time.process_time() - t
        times.append(dt)
        if len(legal) > 1:
            choices.append(dt)
        partie.apply(s, word)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rules = f", settings {json.dumps(settings)}" if settings else ""
    print(f"{game}{rules}, {n_seats} x {level}, {deals} deals, seed {seed}")
    for label, xs in (("all decisions", times), ("with a choice", choices)):
        xs = sorted(xs)
        if xs:
            print(f"  {label:14s} n={len(xs):5d}  p50 {xs[len(xs) // 2]:.3f} s  p95 {xs[int(len(xs) * 0.95)]:.3f} s  max {xs[-1]:.3f} s")
    print(f"  peak RSS {rss_mb:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("lora", "lorum", "preferans"), default="lora")
    ap.add_argument("--deals", type=int, default=7)
    ap.add_argument("--level", default="majstor")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--settings", default="{}", help="Lora house rules or Lórum options as JSON, e.g. '{\"variant\": \"libijska\"}'")
    args = ap.parse_args()
    run(args.game, args.deals, args.level, args.seed, json.loads(args.settings))


if __name__ == "__main__":
    main()
