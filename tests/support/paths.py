"""The places the tests read from: the project's root and the Club's example records."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "examples"  # the Club's example records, copied with the project
