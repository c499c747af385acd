"""Run the Alembic migrations from code (``python -m app migrate``, ``serve``, tests).

On PostgreSQL the upgrade holds an advisory lock (:data:`MIGRATION_LOCK`): instances
started together on an empty database migrate one after the other, the later ones finding
the schema up to date (both creating the tables at once failed one of them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config

from sqlalchemy import text

from app.db.database import Database, normalize_url

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(database_url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    # ConfigParser interpolation: a '%' in a password must be doubled.
    cfg.set_main_option("sqlalchemy.url", normalize_url(database_url).replace("%", "%%"))
    cfg.attributes["skip_logging"] = True  # leave the server's (or pytest's) logging alone
    return cfg


MIGRATION_LOCK = 0x6B6C7562  # "klub": the key of PostgreSQL's advisory lock around an upgrade


def upgrade(database_url: str, revision: str = "head") -> None:
    # Create the SQLite file's folder and switch it to WAL before Alembic connects (its
    # first connection does that: the engines connect only when used).
    db = Database(database_url)
    try:
        db.ping()
        with migration_lock(db):
            command.upgrade(alembic_config(database_url), revision)
    finally:
        db.dispose()


@contextmanager
def migration_lock(db: Database) -> Iterator[None]:
    """PostgreSQL: hold the Club's migration lock (waiting for another instance's upgrade to
    end) on a connection of its own; SQLite: nothing (one file, one server)."""
    if db.is_sqlite:
        yield
        return
    with db.write_engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        conn.commit()  # a session's lock: it outlives the transaction
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()
