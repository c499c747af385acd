"""The standings page on a big Club (issue 15): how fast ``GET /standings`` answers.

Builds a fresh SQLite database (in a temporary folder, or ``--database``) with
``--members`` members and ``--parties`` finished parties of every game (members and
computer players at random, places with ties, a few parties of house rules), rates them
all with the Club's own rebuild (``app.ratings.service.rebuild``, which writes the rating
events), then logs one member in and times ``--requests`` requests of the standings page
through the app (Starlette's TestClient: the whole app, no network) for each game and
period, and of ``GET /api/standings``. Prints the build and rebuild times and p50/p95/max.

    .venv/bin/python bench/standings.py
    .venv/bin/python bench/standings.py --members 1000 --parties 20000 --requests 50
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

PASSWORD = "bench-lozinka-7x"
LEVELS = ("random", "pocetnik", "iskusan", "majstor")


def places_of(rng: random.Random, n: int) -> list[int]:
    scores = [rng.randint(0, 3 if rng.random() < 0.3 else 60) for _ in range(n)]
    return [1 + sum(1 for t in scores if t > mine) for mine in scores]


def build(url: str, members: int, parties: int, seed: int) -> None:
    """Members and finished parties, written with bulk inserts."""
    from app.db import Database
    from app.db.migrate import upgrade
    from app.db.models import Member, Partie, PartieSeat
    from app.games.registry import descriptors

    upgrade(url)
    db = Database(url)
    rng = random.Random(seed)
    games = [(d.code, d.seats, d.house_keys) for d in descriptors()]
    start = datetime.now(timezone.utc) - timedelta(days=730)
    step = timedelta(days=730) / parties
    with db.write() as s:
        s.execute(insert(Member), [{"id": i, "name": f"clan{i:04d}", "name_key": f"clan{i:04d}",
                                    "password_hash": "-", "role": "member", "disabled": False,
                                    "created_at": start} for i in range(2, members + 2)])
        partie_rows, seat_rows = [], []
        for pid in range(1, parties + 1):
            code, n, house = rng.choice(games)
            at_table = rng.sample(range(2, members + 2), k=rng.choices(range(1, n + 1), [1] * (n - 1) + [4])[0])
            seats = at_table + [None] * (n - len(at_table))
            rng.shuffle(seats)
            finished = start + step * pid
            settings = {house[0]: "house"} if house and rng.random() < 0.05 else {}
            partie_rows.append({"id": pid, "game": code, "settings": settings, "status": "finished",
                                "exhibition": False, "proposer_id": next(m for m in seats if m is not None),
                                "seed": "0" * 32, "version": 1, "result": {"places": places_of(rng, n)},
                                "created_at": finished - timedelta(hours=1), "started_at": finished - timedelta(hours=1),
                                "finished_at": finished})
            for i, m in enumerate(seats):
                seat_rows.append({"partie_id": pid, "seat": i, "kind": "member" if m else "bot", "member_id": m,
                                  "answer": "accepted", "bot": None if m else rng.choice(LEVELS), "away": False,
                                  "taken_over": False, "takeover_votes": []})
        s.execute(insert(Partie), partie_rows)
        s.execute(insert(PartieSeat), seat_rows)
    db.dispose()


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  max {ordered[-1] * 1000:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--parties", type=int, default=20000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--database", help="a SQLite file to (re)build; default: a temporary one")
    args = parser.parse_args()

    from fastapi.testclient import TestClient
    from sqlalchemy import func, select

    from app.config import Settings
    from app.db import Database
    from app.db.models import RatingEvent
    from app.games.registry import codes
    from app.members import passwords
    from app.members.service import register
    from app.ratings.service import rebuild
    from app.ratings.standings import PERIODS
    from app.web.main import create_app

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.database) if args.database else Path(tmp) / "standings.db"
        path.unlink(missing_ok=True)
        url = f"sqlite:///{path}"
        t = time.perf_counter()
        build(url, args.members, args.parties, args.seed)
        print(f"built {args.members} members and {args.parties} finished parties in {time.perf_counter() - t:.1f} s")
        db = Database(url)
        t = time.perf_counter()
        counted = rebuild(db)
        with db.read() as s:
            events = s.scalar(select(func.count()).select_from(RatingEvent))
        print(f"rebuild: {counted} parties, {events} rating events in {time.perf_counter() - t:.1f} s")
        passwords.set_cost(1, 8192)
        register(db, "bench", PASSWORD)
        db.dispose()

        settings = Settings(database_url=url, site_origin="http://testserver", argon2_time_cost=1,
                            argon2_memory_kib=8192, _env_file=None)
        with TestClient(create_app(settings), headers={"Origin": "http://testserver"}) as client:
            r = client.post("/api/auth/login", json={"name": "bench", "password": PASSWORD})
            assert r.status_code == 200, r.text
            for game in codes():
                for period in PERIODS:
                    url_path = f"/standings?game={game}&period={period}"
                    first = client.get(url_path)
                    assert first.status_code == 200, first.text[:300]
                    rows = first.text.count("<tr data-member=")
                    times = []
                    for _ in range(args.requests):
                        t = time.perf_counter()
                        client.get(url_path)
                        times.append(time.perf_counter() - t)
                    print(f"GET {url_path:40} {rows:5} rows  {percentiles(times)}")
            times = []
            for _ in range(args.requests):
                t = time.perf_counter()
                client.get(f"/api/standings?game={codes()[0]}")
                times.append(time.perf_counter() - t)
            print(f"GET /api/standings?game={codes()[0]:22} {'':10} {percentiles(times)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
