"""Run the Alembic migrations from code (``python -m app migrate``, ``serve``, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.db.database import normalize_url

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(database_url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    # ConfigParser interpolation: a '%' in a password must be doubled.
    cfg.set_main_option("sqlalchemy.url", normalize_url(database_url).replace("%", "%%"))
    cfg.attributes["skip_logging"] = True  # leave the server's (or pytest's) logging alone
    return cfg


def upgrade(database_url: str, revision: str = "head") -> None:
    from app.db.database import Database

    # Create the SQLite file's folder and switch it to WAL before Alembic connects (its
    # first connection does that: the engines connect only when used).
    db = Database(database_url)
    try:
        db.ping()
    finally:
        db.dispose()
    command.upgrade(alembic_config(database_url), revision)
