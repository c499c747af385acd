"""Two instances started together on an empty PostgreSQL database (``python -m app serve``
twice at once): both migrate (one after the other, under the migration lock:
app/db/migrate.py), both serve, and only the one that created the first start's accounts
prints their passwords (app/cli.py; the other used to exit on "the name 'admin' is
taken")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.support.backends import PG_BASE_URL, PG_URL, REDIS_URL
from tests.support.web import ROOT


RUNNING = re.compile(r"running on http://127\.0\.0\.1:(\d+)")
BANNER = "First start of an empty Club"
ORIGIN = "http://127.0.0.1"  # both instances' KLUB_SITE_ORIGIN (their ports are the system's choice)


def _admin_engine():
    from sqlalchemy import create_engine

    from app.db.database import normalize_url

    return create_engine(normalize_url(PG_BASE_URL), isolation_level="AUTOCOMMIT")


def _empty_database() -> tuple[str, str]:
    from sqlalchemy import text

    name = f"{PG_URL.rsplit('/', 1)[1].split('?')[0]}_first_start"
    engine = _admin_engine()
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return name, f"{PG_URL.rsplit('/', 1)[0]}/{name}"


def _drop(name: str) -> None:
    from sqlalchemy import text

    engine = _admin_engine()
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


class Serve:
    """``python -m app serve --port 0`` and what it prints."""

    def __init__(self, env: dict[str, str]):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", "0"],
            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines: list[str] = []
        self.port: int | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if self.port is None and (m := RUNNING.search(line)):
                self.port = int(m.group(1))

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _login(port: int, name: str, password: str) -> int:
    url = f"http://127.0.0.1:{port}"
    r = httpx.post(f"{url}/api/auth/login", json={"name": name, "password": password},
                   headers={"Origin": ORIGIN}, timeout=10)
    return r.status_code


@pytest.mark.skipif(
    not (PG_URL and REDIS_URL), reason="needs PostgreSQL and Redis (KLUB_TEST_DATABASE_URL, KLUB_TEST_REDIS_URL)"
)
def test_two_instances_started_together_on_an_empty_database():
    import redis

    name, url = _empty_database()
    redis.Redis.from_url(REDIS_URL).flushdb()
    env = {**os.environ, "KLUB_DATABASE_URL": url, "KLUB_REDIS_URL": REDIS_URL,
           "KLUB_SITE_ORIGIN": ORIGIN, "KLUB_ARGON2_TIME_COST": "1", "KLUB_ARGON2_MEMORY_KIB": "1024"}
    servers = [Serve(env), Serve(env)]  # at once: both find the database empty
    try:
        deadline = time.monotonic() + 60
        while not all(s.port for s in servers):
            exited = [s for s in servers if s.proc.poll() is not None]
            assert not exited, f"an instance exited ({exited[0].proc.returncode}):\n{exited[0].output}"
            assert time.monotonic() < deadline, "\n---\n".join(s.output for s in servers)
            time.sleep(0.05)
        printed = [s for s in servers if BANNER in s.output]
        assert len(printed) == 1, "\n---\n".join(s.output for s in servers)
        passwords = dict(re.findall(r"^\s+(admin|demo)\s+(\S+)$", printed[0].output, re.M))
        assert set(passwords) == {"admin", "demo"}, printed[0].output
        for s in servers:  # the accounts printed work on both instances
            assert s.port is not None
            assert _login(s.port, "admin", passwords["admin"]) == 200
            assert _login(s.port, "demo", passwords["demo"]) == 200
        from tests.support.crash import _query

        assert _query(url, "SELECT name, role FROM members ORDER BY name") == [("admin", "admin"), ("demo", "member")]
    finally:
        for s in servers:
            s.stop()
        _drop(name)


def test_the_first_start_accounts_are_created_once_by_one_of_several_at_once(database_url):
    """The accounts' part alone, four at once on an empty, migrated database (threads held
    at a barrier until each has found the database empty): exactly one creates them. On
    both databases (SQLite too: one file, two servers' first starts)."""
    from app import cli
    from app.members import service

    barrier = threading.Barrier(4)
    count = service.count_members

    def counted(db):
        n = count(db)
        barrier.wait(timeout=10)  # all four have seen an empty database
        return n

    outcomes: list = []

    def start():
        try:
            outcomes.append(cli.first_start_accounts(database_url))
        except Exception as e:  # noqa: BLE001 (the old code raised "the name 'admin' is taken")
            outcomes.append(e)

    service.count_members = counted
    try:
        threads = [threading.Thread(target=start) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        service.count_members = count
    created = [o for o in outcomes if o]
    assert len(outcomes) == 4 and len(created) == 1, outcomes
    assert [name for name, _ in created[0]] == ["admin", "demo"]
