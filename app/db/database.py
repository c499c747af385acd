"""Engines and transactions.

SQLite: WAL, a busy timeout, and ``BEGIN IMMEDIATE`` for every write transaction so a
read-then-write never fails half-way with "database is locked". PostgreSQL: writers
lock the rows they decide on (``SELECT ... FOR UPDATE``, see :func:`for_update`); reads
run in autocommit (one round trip a statement, no transaction).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from app.clock import Clock, SystemClock

SQLITE_BUSY_TIMEOUT_SECONDS = 30
CONNECT_TIMEOUT_SECONDS = 5  # PostgreSQL
DEFAULT_POOL_SIZE = 30  # PostgreSQL connections of an instance (KLUB_DB_POOL_SIZE)
PING_AFTER_IDLE_SECONDS = 1.0  # a pooled PostgreSQL connection idle longer is pinged first


def _sqlite_engine(url: str, begin: str) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        # Let SQLAlchemy, not the driver, decide when a transaction begins.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
        _switch_to_wal(cur)
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        conn.exec_driver_sql(begin)

    return engine


def _switch_to_wal(cur: sqlite3.Cursor) -> None:
    """Put the file in WAL mode, which it keeps. Asking for it takes a lock that does not
    wait on the busy timeout, so connections opened at once to a file not yet in WAL failed
    with "database is locked": it is asked for only while the file is not in it (reading
    the schema's version reads the file's header, waiting like any read, and tells the
    connection the mode), and tried again while another connection holds that lock."""
    cur.execute("PRAGMA schema_version")
    if cur.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_SECONDS
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")  # an in-memory database stays "memory"
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _ping_when_idle(engine: Engine) -> None:
    """A connection that rested in the pool for a while is pinged before it is handed out,
    and one the database dropped (a restart) is replaced, with every other pooled one (as
    ``pool_pre_ping``). One just used is handed out as it is: a ping per checkout was a
    round trip in five of a busy table's reads. Should the database have restarted in that
    moment, the request fails as in the outage (503, try again) and recycles the pool."""

    @event.listens_for(engine, "checkin")
    def _rested_since(_dbapi_conn, record) -> None:
        record.info["checked_in_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn, record, _proxy) -> None:
        checked_in_at = record.info.get("checked_in_at")
        if checked_in_at is None or time.monotonic() - checked_in_at < PING_AFTER_IDLE_SECONDS:
            return  # a new connection, or one just used
        try:
            engine.dialect.do_ping(dbapi_conn)
        except engine.dialect.loaded_dbapi.Error as e:
            raise sa_exc.InvalidatePoolError(str(e)) from e


def normalize_url(url: str) -> str:
    """Accept plain ``postgresql://`` URLs and use psycopg 3 for them."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


class Database:
    """The Club's database: ``read()`` and ``write()`` transactions."""

    def __init__(self, url: str, clock: Clock | None = None, pool_size: int = DEFAULT_POOL_SIZE):
        self.url = normalize_url(url)
        self.clock: Clock = clock or SystemClock()
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.read_engine = _sqlite_engine(self.url, "BEGIN")
            self.write_engine = _sqlite_engine(self.url, "BEGIN IMMEDIATE")
        else:
            # connect_timeout: a database out of reach fails a request in seconds, not after
            # the system's TCP timeout (app/db/outage.py).
            # No overflow: connections opened past the pool for a burst were closed again as
            # soon as they came back, a PostgreSQL process started and ended for each read.
            self.write_engine = create_engine(
                self.url, pool_size=pool_size, max_overflow=0, connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS}
            )
            _ping_when_idle(self.write_engine)
            # Reads run each statement on its own (the same pool): READ COMMITTED gives every
            # statement its own snapshot anyway, and a read no longer costs a BEGIN and a
            # ROLLBACK, two of its three round trips.
            self.read_engine = self.write_engine.execution_options(isolation_level="AUTOCOMMIT")
        self._read = sessionmaker(self.read_engine, expire_on_commit=False)
        self._write = sessionmaker(self.write_engine, expire_on_commit=False)

    @contextmanager
    def read(self) -> Iterator[Session]:
        # Closing (not rolling back) ends the transaction and keeps the loaded objects usable.
        with self._read() as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction that commits at the end of the block, or rolls back on error."""
        with self._write() as session, session.begin():
            yield session

    def ping(self) -> None:
        with self.read_engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.write_engine.dispose()
        if self.read_engine.pool is not self.write_engine.pool:  # SQLite's two engines
            self.read_engine.dispose()


def for_update(stmt, db: Database, of=None):
    """Lock the selected rows (of ``of``) on PostgreSQL; SQLite's BEGIN IMMEDIATE already holds the lock."""
    return stmt if db.is_sqlite else stmt.with_for_update(of=of)
