"""Fixtures for the web and database tests (tests/test_web_*.py).

Every test gets an empty, migrated database: a fresh SQLite file, and also PostgreSQL
when ``KLUB_TEST_DATABASE_URL`` is set (the tests run once per backend; the PostgreSQL
run also uses Redis when ``KLUB_TEST_REDIS_URL`` is set).
"""

from __future__ import annotations

import os

import pytest

# The tests register many members from one address (127.0.0.1, "testclient"): raise the
# registration throttle for every Settings() and every server process they start.
# tests/test_security_register.py checks the real default.
os.environ.setdefault("KLUB_REGISTER_MAX_PER_ADDRESS", "1000000")

PG_URL = os.environ.get("KLUB_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("KLUB_TEST_REDIS_URL")

BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(scope="session")
def _pg_schema():
    """Drop and re-create the PostgreSQL schema once per run, then migrate it."""
    from sqlalchemy import create_engine, text

    from app.db.database import normalize_url
    from app.db.migrate import upgrade

    engine = create_engine(normalize_url(PG_URL))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    upgrade(PG_URL)
    return PG_URL


def _truncate_pg(url: str) -> None:
    from sqlalchemy import create_engine, text

    from app.db.database import normalize_url
    from app.db.models import Base

    engine = create_engine(normalize_url(url))
    names = ", ".join(t.name for t in Base.metadata.sorted_tables)
    with engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
def database_url(backend, tmp_path, request) -> str:
    if backend == "postgresql":
        url = request.getfixturevalue("_pg_schema")
        _truncate_pg(url)
        return url
    from app.db.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'klub.db'}"
    upgrade(url)
    return url


@pytest.fixture
def redis_url(backend) -> str | None:
    if backend == "postgresql" and REDIS_URL:
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
        return REDIS_URL
    return None


@pytest.fixture
def settings(database_url, redis_url):
    from app.config import Settings

    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        site_origin="http://testserver",
        bot_delay_seconds=0,
        default_bot="random",
        deadline_poll_seconds=0.2,
        argon2_time_cost=1,
        argon2_memory_kib=8192,
        _env_file=None,
    )


@pytest.fixture
def app(settings):
    from app.web.main import create_app

    return create_app(settings)


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, headers={"Origin": app.state.club.settings.site_origin}) as c:  # as a browser (CSRF)
        yield c


@pytest.fixture
def live_server(settings):
    """The Club on a real uvicorn in a thread; yields its base URL."""
    from tests.web_helpers import LiveServer

    server = LiveServer(settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()
