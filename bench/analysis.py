"""CPU time of the replay's analysis of one deal (app/analysis/deal.py), per game, on the
example records the tests use (tests/data/examples/):

    .venv/bin/python bench/analysis.py

Prints, per record, the deals analysed and the median and slowest deal (CPU seconds,
one core; the worker process does exactly this per request).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.analysis.deal import analyse_deal  # noqa: E402

EXAMPLES = ROOT / "tests" / "data" / "examples"


def main() -> None:
    for path in sorted(EXAMPLES.rglob("*.json")):
        record = json.loads(path.read_text())
        times = []
        for k in range(len(record["deals"])):
            t0 = time.process_time()
            analyse_deal(record, k)
            times.append(time.process_time() - t0)
        slowest = max(range(len(times)), key=times.__getitem__)
        print(f"{path.relative_to(EXAMPLES)}: {len(times)} deals, median {statistics.median(times):.3f} s, "
              f"slowest {times[slowest]:.3f} s (deal {slowest + 1})")


if __name__ == "__main__":
    main()
