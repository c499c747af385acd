"""Persistence: typed SQLAlchemy models, the engine setup and migrations."""

from app.db.database import Database

__all__ = ["Database"]
