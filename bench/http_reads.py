"""Server CPU per HTTP read of a table and per registration, on a Club in its own process.

    .venv/bin/python bench/http_reads.py [--n 300]

A Lora partie of fresh members (tests/support/audit.py start_partie) on a fresh SQLite
file; each read is sent ``--n`` times by one client, and the server process's user and
system CPU (from /proc) are divided by the count (docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KLUB_REGISTER_MAX_PER_ADDRESS", "1000000")

from app.config import Settings  # noqa: E402
from tests.support.audit import start_partie  # noqa: E402
from tests.support.migrated import migrated_sqlite  # noqa: E402
from tests.support.web import ServerProcess, member  # noqa: E402

READS = ["/view", "/legal", "/score-sheet", "", "/events?since=0", "/record"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=300)
    args = p.parse_args()
    folder = Path(tempfile.mkdtemp())
    settings = Settings(database_url=migrated_sqlite(folder / "klub.db"), site_origin="http://x",
                        argon2_time_cost=1, argon2_memory_kib=1024, _env_file=None)
    server = ServerProcess(settings)
    server.start()

    def cpu() -> tuple[float, float]:
        fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) / os.sysconf("SC_CLK_TCK"), int(fields[12]) / os.sysconf("SC_CLK_TCK")

    def measure(label: str, n: int, step) -> None:
        (u0, s0), t0 = cpu(), time.perf_counter()
        for i in range(n):
            step(i)
        (u1, s1), wall = cpu(), time.perf_counter() - t0
        print(f"{label:18} server user {1000 * (u1 - u0) / n:.2f} ms  sys {1000 * (s1 - s0) / n:.2f} ms"
              f"  wall {1000 * wall / n:.2f} ms")

    try:
        pid, clients, _ = start_partie(server.url, "lora", random.Random(1))
        c = clients[0]
        for path in READS:
            c.get(f"/api/parties/{pid}{path}")
            measure(path or "/ (the partie)", args.n, lambda _i, path=path: c.get(f"/api/parties/{pid}{path}"))
        measure("register", max(1, args.n // 6), lambda i: member(server.url, f"bench{i}").close())
        measure("404", args.n, lambda _i: c.get("/nothing-here"))
    finally:
        server.close()


if __name__ == "__main__":
    main()
