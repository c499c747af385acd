"""Core statements compiled once per dialect and run on the driver's cursor.

A word runs four statements, and SQLAlchemy's own work for each execution (the compiled
cache lookup, the execution context, parameter and row objects) was about a sixth of the
server's CPU under load (docs/performance.md). Here the SQL and the conversion of every
parameter are still SQLAlchemy's (compiled once per dialect, with the columns' bind
processors: UTC datetimes, JSON); only the per-execution machinery is skipped. Use it on a
Connection inside its transaction (``engine.begin()``): the cursor is that transaction's.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection
from sqlalchemy.sql import ClauseElement


class Prepared:
    def __init__(self, statement: ClauseElement):
        self.statement = statement
        self._compiled: dict[str, tuple[str, list[str] | None, dict[str, Any]]] = {}

    def _for(self, dialect) -> tuple[str, list[str] | None, dict[str, Any]]:
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            c = self.statement.compile(dialect=dialect)
            names = list(c.positiontup) if c.positional else None
            compiled = self._compiled[dialect.name] = (c.string, names, dict(c._bind_processors))
        return compiled

    def rows(self, conn: Connection, params: dict[str, Any]) -> list[tuple]:
        """Execute with ``params`` (by bind parameter name); the rows, if it returns any."""
        sql, names, processors = self._for(conn.dialect)
        if processors:
            params = {k: (processors[k](v) if k in processors else v) for k, v in params.items()}
        args = [params[name] for name in names] if names is not None else params
        cursor = conn.connection.dbapi_connection.cursor()
        try:
            cursor.execute(sql, args)
            return cursor.fetchall() if cursor.description is not None else []
        finally:
            cursor.close()

    def run_many(self, conn: Connection, params_list: list[dict[str, Any]]) -> None:
        """Execute once per parameter set, in one ``executemany`` (psycopg sends them all
        before reading the answers: one round trip for the lot)."""
        if not params_list:
            return
        sql, names, processors = self._for(conn.dialect)
        rows = []
        for params in params_list:
            if processors:
                params = {k: (processors[k](v) if k in processors else v) for k, v in params.items()}
            rows.append([params[name] for name in names] if names is not None else params)
        cursor = conn.connection.dbapi_connection.cursor()
        try:
            cursor.executemany(sql, rows)
        finally:
            cursor.close()
