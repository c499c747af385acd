"""The analysis' worker processes end with their server: a server killed (SIGKILL, no
shutdown) leaves no worker behind, computing or idle."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def write_pid_and_wait(path: str) -> None:  # a computation that would outlive its server
    Path(path).write_text(str(os.getpid()))
    time.sleep(120)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by its new parent) is gone too
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_killed_servers_worker_ends_by_itself(tmp_path):
    pid_file = tmp_path / "worker.pid"
    server = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from app.analysis.workers import WorkerPool
        from tests.analysis.test_analysis_workers import write_pid_and_wait
        pool = WorkerPool(1)
        pool.start("k", write_pid_and_wait, ({str(pid_file)!r},), store=lambda result: None)
        time.sleep(120)
    """)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert server.poll() is None, "the server process ended early"
            assert time.monotonic() < deadline, "the worker never started its computation"
            time.sleep(0.05)
        worker = int(pid_file.read_text())
        assert alive(worker)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    deadline = time.monotonic() + 20
    while alive(worker):
        assert time.monotonic() < deadline, f"worker {worker} outlived its killed server"
        time.sleep(0.05)
