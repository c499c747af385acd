"""The type checker checks the engine protocol: each descriptor's engine must be a
``PartieEngine`` (app/games/base.py), and the code that drives engines uses only it."""

from __future__ import annotations

import subprocess
import sys

from tests.support.paths import ROOT


def test_the_engine_protocol_type_checks():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
