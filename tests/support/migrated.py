"""Migrated SQLite databases for the tests, at the price of a file copy.

Running the Alembic migrations costs 0.3-1 s per database; the suite makes hundreds. Each
process migrates one template file once and copies it for every test that asks.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path


@functools.cache
def _template() -> Path:
    from app.db.migrate import upgrade

    path = Path(tempfile.mkdtemp(prefix="klub-template-")) / "klub.db"
    upgrade(f"sqlite:///{path}")
    return path


def migrated_sqlite(path: Path) -> str:
    """A SQLite database at ``path``, migrated to the head revision; returns its URL."""
    template = _template()
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    wal = template.with_name(template.name + "-wal")
    if wal.exists():  # normally checkpointed away when the migration's engine closed
        shutil.copyfile(wal, path.with_name(path.name + "-wal"))
    return f"sqlite:///{path}"
