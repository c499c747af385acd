"""A whole partie of computer players through the real server (issue 6, "must show").

    .venv/bin/python bench/exhibition.py --game preferans --level majstor --bule 30 --refe 1
    .venv/bin/python bench/exhibition.py --game lora --level majstor

Starts the Club (uvicorn, a fresh SQLite file, no delay between computer words) as a
subprocess on 127.0.0.1, registers a watcher, proposes an exhibition partie with every
seat the given computer player, and waits until it is finished (or ``--timeout``). It
prints the deals played, the actions, the wall time, the final result, and the time
between one word and the next from the action log (a computer player's decision plus
the server's work on the word, in wall time on a possibly busy machine), the server's
peak memory (the bots run in its threads), and then asks every logged word again of a
bot seeded as the server seeds it, on the same view, here: the CPU time per decision
(the budget's measure) and how many words differ from the server's (0 expected).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import Server  # noqa: E402


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def as_datetime(value: str | datetime) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def replay_decisions(game: str, settings: dict, seed: str, pid: int, level: str,
                     log: list[tuple[int, str]]) -> tuple[list[float], int]:
    """Each logged word asked again of a bot seeded as the server seeds it (``pid:seat``),
    on the same view: its CPU time per decision, and how many words differ."""
    sys.path.insert(0, str(ROOT))
    from app.ai import make_bot
    from app.parties.engines import new_engine

    engine = new_engine(game, settings, seed)
    bots = {}
    cpu: list[float] = []
    differ = 0
    for seat, word in log:
        bot = bots.setdefault(seat, make_bot(level, game, seed=f"{pid}:{seat}"))
        view, legal = engine.view(seat), list(engine.legal_actions(seat))
        t = time.process_time()
        said = bot.choose(view, legal)
        cpu.append(time.process_time() - t)
        differ += said != word
        engine.apply(seat, word)
    return cpu, differ


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("lora", "preferans", "lorum"), default="preferans")
    ap.add_argument("--level", default="majstor", help="pocetnik, iskusan, majstor or random")
    ap.add_argument("--bule", type=int, default=30, help="preferans: bule per player")
    ap.add_argument("--refe", type=int, default=1, help="preferans: refe per player")
    ap.add_argument("--timeout", type=float, default=3600, help="give up after this many seconds")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="klub-exhibition-"))
    db_url = f"sqlite:///{tmp / 'klub.db'}"
    env = {**os.environ, "KLUB_DATABASE_URL": db_url}
    subprocess.run([sys.executable, "-m", "app", "migrate"], env=env, cwd=ROOT, check=True, capture_output=True)
    server = Server(db_url, None, {}, None)  # bench/load.py's: a live uvicorn, no delay between bot words
    server.start()
    try:
        try:
            server.wait_ready()
        except RuntimeError as e:
            print(e, file=sys.stderr)
            return 1
        origin = server.origin
        watcher = httpx.Client(base_url=origin, timeout=30, headers={"Origin": origin})
        r = watcher.post("/api/auth/register", json={"name": "posmatrac", "password": "gleda-partiju-7"})
        r.raise_for_status()
        n = 4 if args.game in ("lora", "lorum") else 3
        settings = {"bule": args.bule, "refe": args.refe} if args.game == "preferans" else {}
        seats = [{"kind": "bot", "bot": args.level}] * n
        r = watcher.post("/api/parties", json={"game": args.game, "exhibition": True, "settings": settings, "seats": seats})
        if r.status_code != 201:
            print(f"the proposal was refused: {r.status_code} {r.text}", file=sys.stderr)
            return 1
        pid = r.json()["id"]
        started = time.monotonic()
        last_report = 0.0
        finished = False
        while time.monotonic() - started < args.timeout:
            view = watcher.get(f"/api/parties/{pid}/view").json()
            if view.get("status") == "finished":
                finished = True
                break
            if time.monotonic() - last_report > 30:
                last_report = time.monotonic()
                v = view.get("view") or {}
                hand = v.get("hand") or v.get("deal") or {}
                extra = f", bule {v['result']['bule']}" if isinstance(v.get("result"), dict) and "bule" in v["result"] else ""
                print(f"  {time.monotonic() - started:6.0f} s: version {view.get('version')}, "
                      f"deal {hand.get('deal_index', v.get('deal_index'))}{extra}", flush=True)
            time.sleep(1)
        wall = time.monotonic() - started
        rss = peak_rss_mb(server.pid)
        engine = create_engine(db_url)
        with engine.connect() as c:
            log = [(row[0], row[1], as_datetime(row[2])) for row in c.execute(
                text("SELECT seat, word, created_at FROM actions WHERE partie_id = :p ORDER BY seq"), {"p": pid})]
            game_settings, seed = c.execute(text("SELECT settings, seed FROM parties WHERE id = :p"), {"p": pid}).one()
        engine.dispose()
        stamps = [at for _, _, at in log]
        view = watcher.get(f"/api/parties/{pid}/view").json()
        v = view.get("view") or {}
        deals = (v.get("deal_index") if "deal_index" in v else None)
        if deals is None:
            deals = (v.get("hand") or v.get("deal") or {}).get("deal_index")
        gaps = [(b - a).total_seconds() for a, b in zip(stamps, stamps[1:])]
        print(f"{args.game}, {n} x {args.level}{', ' + str(settings) if settings else ''}: "
              f"{'finished' if finished else 'NOT finished'} in {wall:.0f} s; {len(stamps)} actions; "
              f"last deal index {deals}")
        if gaps:
            print(f"time from one word to the next (decision + server): p50 {percentile(gaps, 0.5):.3f} s, "
                  f"p95 {percentile(gaps, 0.95):.3f} s, max {max(gaps):.3f} s")
        print(f"server peak RSS {rss:.0f} MB")
        cpu, differ = replay_decisions(args.game, json.loads(game_settings) if isinstance(game_settings, str) else game_settings,
                                       seed, pid, args.level, [(seat, word) for seat, word, _ in log])
        if cpu:
            print(f"the same decisions replayed here, CPU time per decision: p50 {percentile(cpu, 0.5):.3f} s, "
                  f"p95 {percentile(cpu, 0.95):.3f} s, max {max(cpu):.3f} s over {len(cpu)}; "
                  f"{differ} words differ from the server's (0: the bots are deterministic)")
        if isinstance(v.get("result"), dict):
            print(f"result: {v['result']}")
        return 0 if finished else 2
    finally:
        server.stop()

if __name__ == "__main__":
    sys.exit(main())
