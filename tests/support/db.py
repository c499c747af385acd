"""Databases of their own for a test (tests/db/test_backup.py, tests/db/test_migrations_upgrade.py):
a fresh PostgreSQL database beside this worker's, the command line on a database URL."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlalchemy import create_engine, text

from app.db.database import normalize_url
from tests.support.backends import PG_BASE_URL, PG_URL
from tests.support.web import ROOT


def cli(*args: str, database_url: str) -> subprocess.CompletedProcess:
    """``python -m app ...`` in a process of its own, on ``database_url``."""
    env = {**os.environ, "KLUB_DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def _admin(statement: str) -> None:
    admin = create_engine(normalize_url(PG_BASE_URL), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            for sql in statement.split(";"):
                c.execute(text(sql))
    finally:
        admin.dispose()


def fresh_pg_database(suffix: str) -> str:
    """A new empty database named after this worker's and ``suffix`` (dropped first if a
    run left it); its URL."""
    head, _, name = PG_URL.rpartition("/")
    name = f"{name.split('?')[0]}_{suffix}"
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE); CREATE DATABASE "{name}"')
    return f"{head}/{name}"


def drop_pg_database(url: str) -> None:
    _admin(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')
