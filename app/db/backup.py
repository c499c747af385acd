"""Backups and restores of the Club's database (``python -m app backup FILE``, ``restore FILE``).

SQLite: the online backup API copies the file while the Club serves. The copy is made in
one step, inside one read transaction: in WAL mode that transaction reads one snapshot
(every commit before it, none after) and writers go on meanwhile. The copy is a single
file in rollback-journal mode, checked (``PRAGMA quick_check``) before it takes its name.

PostgreSQL: ``pg_dump`` in its custom format (``--no-owner``), which also dumps one
snapshot of a serving database; ``pg_restore`` loads it.

A restore refuses to overwrite a database that holds rows unless told to (``force``).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import create_engine, func, inspect, select, table
from sqlalchemy.engine import URL, make_url

from app.db.database import SQLITE_BUSY_TIMEOUT_SECONDS, normalize_url

SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_HEADER = b"PGDMP"
# How much of a client program's error output a message quotes.
STDERR_LINES = 8


class BackupError(Exception):
    """A backup or restore that cannot be done; its message is the command line's answer."""


def _url(database_url: str) -> URL:
    return make_url(normalize_url(database_url))


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("the database is in memory: there is nothing to copy")
    return Path(url.database)


def _part(path: Path) -> Path:
    """Where a file is written before it takes its name (beside it: one file system)."""
    return path.with_name(f".{path.name}.part-{os.getpid()}")


def _check_target(source: Path | None, target: Path, force: bool) -> None:
    if source is not None and target.exists() and target.resolve() == source.resolve():
        raise BackupError(f"{target} is the Club's database itself")
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name the backup file")
    if target.exists() and not force:
        raise BackupError(f"{target} exists: name another file, or add --force to replace it")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent}")


def _header(path: Path, size: int) -> bytes:
    try:
        with path.open("rb") as f:
            return f.read(size)
    except OSError as e:
        raise BackupError(f"cannot read {path}: {e.strerror or e}") from None


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- SQLite ---------------------------------------------------------------------------


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_SECONDS, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
    return conn


def _quick_check(conn: sqlite3.Connection, what: object) -> None:
    answer = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if answer != ["ok"]:
        raise BackupError(f"{what} fails SQLite's check: {'; '.join(answer[:5])}")


def sqlite_backup(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite file ``source`` at ``target`` (replaced whole)."""
    if _header(source, len(SQLITE_HEADER)) != SQLITE_HEADER:
        raise BackupError(f"{source} is not a SQLite database")
    part = _part(target)
    try:
        src = _sqlite_connect(source)
        try:
            dst = sqlite3.connect(part, isolation_level=None)
            try:
                # pages=-1: every page in one step, so one read transaction, one snapshot
                # (copied in steps, a write by the server between two of them would restart it).
                src.backup(dst, pages=-1)
                dst.execute("PRAGMA journal_mode=DELETE")  # one file, not a file and its WAL
                _quick_check(dst, "the copy")
            finally:
                dst.close()
        finally:
            src.close()
        _fsync(part)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)


def _sqlite_rows(conn: sqlite3.Connection) -> int:
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return sum(conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names if name != "alembic_version")


def sqlite_restore(backup: Path, target: Path, force: bool) -> None:
    """Copy the backup ``backup`` into the SQLite database ``target`` (through SQLite, so
    a WAL beside the target file cannot outlive its old pages)."""
    head = _header(backup, len(SQLITE_HEADER))
    if head.startswith(PG_DUMP_HEADER):
        raise BackupError(f"{backup} is a pg_dump archive: the Club's database is SQLite")
    if head != SQLITE_HEADER:
        raise BackupError(f"{backup} is not a SQLite database")
    src = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        _quick_check(src, backup)
        if src.execute("SELECT 1 FROM sqlite_master WHERE name = 'alembic_version'").fetchone() is None:
            raise BackupError(f"{backup} is not a database of the Club (it has no alembic_version)")
        target.parent.mkdir(parents=True, exist_ok=True)
        dst = _sqlite_connect(target)
        try:
            rows = _sqlite_rows(dst)
            if rows and not force:
                raise BackupError(_refusal(target, rows))
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode=WAL")
            _quick_check(dst, target)
        finally:
            dst.close()
    finally:
        src.close()


def _refusal(where: object, rows: int) -> str:
    counted = f"{rows} row" if rows == 1 else f"{rows} rows"
    return f"{where} is not empty ({counted}): stop the Club and add --force to replace it with the backup"


# -- PostgreSQL -----------------------------------------------------------------------


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The URL as libpq reads it, and an environment with its password (not on the command line)."""
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _run(program: str, args: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run([program, *args], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupError(
            f"{program} was not found: install PostgreSQL's client programs of the server's major version"
            f" or newer (Debian: postgresql-client), or name the program with --{what.replace('_', '-')} PATH"
        ) from None
    except OSError as e:
        raise BackupError(f"cannot run {program}: {e.strerror or e}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()][-STDERR_LINES:]
        hint = ""
        if "version mismatch" in done.stderr:
            hint = f"\n{program} must be of the server's major version or newer ({program} --version)"
        raise BackupError(f"{what} failed (exit {done.returncode}):\n  " + "\n  ".join(lines) + hint)


def pg_backup(url: URL, target: Path, pg_dump: str = "pg_dump") -> None:
    conninfo, env = _libpq(url)
    part = _part(target)
    try:
        _run(pg_dump, ["--format=custom", "--no-owner", "--file", str(part), "--dbname", conninfo], env, "pg_dump")
        _fsync(part)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)


def _pg_contents(url: URL) -> tuple[int, int]:
    """(tables, rows outside alembic_version) of the database's own schema."""
    engine = create_engine(url, pool_pre_ping=True)
    try:
        with engine.connect() as conn:
            names = inspect(conn).get_table_names()
            rows = sum(conn.scalar(select(func.count()).select_from(table(name))) or 0
                       for name in names if name != "alembic_version")
        return len(names), rows
    finally:
        engine.dispose()


def pg_restore(url: URL, backup: Path, force: bool, pg_restore: str = "pg_restore") -> None:
    head = _header(backup, len(SQLITE_HEADER))
    if head == SQLITE_HEADER:
        raise BackupError(f"{backup} is a SQLite database: the Club's database is PostgreSQL")
    if not head.startswith(PG_DUMP_HEADER):
        raise BackupError(f"{backup} is not a pg_dump archive of the custom format")
    tables, rows = _pg_contents(url)
    if rows and not force:
        raise BackupError(_refusal(f"the database {url.database}", rows))
    conninfo, env = _libpq(url)
    # Tables there already (a migrated database, or --force): dropped first, in one
    # transaction with the load, so a failed restore leaves the database as it was.
    clean = ["--clean", "--if-exists"] if tables else []
    _run(pg_restore, ["--no-owner", "--no-acl", "--single-transaction", "--exit-on-error", *clean,
                      "--dbname", conninfo, str(backup)], env, "pg_restore")


# -- the commands ---------------------------------------------------------------------


def backup(database_url: str, target: Path, force: bool = False, pg_dump: str = "pg_dump") -> str:
    """Copy the database at ``database_url`` to ``target``; what was done, in words."""
    url = _url(database_url)
    if url.get_backend_name() == "sqlite":
        source = _sqlite_path(url)
        if not source.exists():
            raise BackupError(f"there is no database at {source}")
        _check_target(source, target, force)
        sqlite_backup(source, target)
        return f"backed up {source} to {target} (SQLite, {target.stat().st_size} bytes)"
    if url.get_backend_name() == "postgresql":
        _check_target(None, target, force)
        pg_backup(url, target, pg_dump)
        return f"backed up the database {url.database} to {target} (pg_dump, custom format)"
    raise BackupError(f"cannot back up a {url.get_backend_name()} database")


def restore(database_url: str, backup_file: Path, force: bool = False, pg_restore_program: str = "pg_restore") -> str:
    """Load ``backup_file`` into the database at ``database_url``; what was done, in words."""
    if not backup_file.is_file():
        raise BackupError(f"there is no file {backup_file}")
    url = _url(database_url)
    if url.get_backend_name() == "sqlite":
        target = _sqlite_path(url)
        if target.exists() and target.resolve() == backup_file.resolve():
            raise BackupError(f"{backup_file} is the Club's database itself")
        sqlite_restore(backup_file, target, force)
        return f"restored {backup_file} into {target}"
    if url.get_backend_name() == "postgresql":
        pg_restore(url, backup_file, force, pg_restore_program)
        return f"restored {backup_file} into the database {url.database}"
    raise BackupError(f"cannot restore into a {url.get_backend_name()} database")
