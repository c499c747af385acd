"""Run a command and print what it cost the whole machine: wall time and busy core-seconds.

The busy time is read from /proc/stat before and after, so it counts every process the
command starts (the served Club, Chromium's renderer and GPU processes); ``/usr/bin/time``
counts only the descendants that were waited for, and misses Chromium's. Run it on a
quiet machine: whatever else runs is counted too.

    .venv/bin/python bench/machine_cpu.py .venv/bin/python -m pytest -q -m soak \\
        tests/ui/test_ui_browser_house.py::test_contract_choice_with_extra_deals
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def busy_seconds() -> float:
    """Core-seconds the machine has spent on anything but idle and I/O wait since boot."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: machine_cpu.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    busy, start = busy_seconds(), time.monotonic()
    code = subprocess.call(argv)
    wall = time.monotonic() - start
    print(f"wall {wall:.1f} s, machine busy {busy_seconds() - busy:.1f} core-s, exit {code}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
