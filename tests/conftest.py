"""The fixtures of every test (docs/architecture.md, "Tests"; the helpers they share are in tests/support/).

Every test gets an empty, migrated database: a fresh SQLite file, and also PostgreSQL
when ``KLUB_TEST_DATABASE_URL`` is set (the tests run once per backend; the PostgreSQL
run also uses Redis when ``KLUB_TEST_REDIS_URL`` is set).
"""

from __future__ import annotations

import os

import pytest

from tests.support.backends import BACKENDS, PG_BASE_URL, PG_URL, REDIS_URL

# The tests register many members from one address (127.0.0.1, "testclient"): raise the
# registration throttle for every Settings() and every server process they start.
# tests/security/test_security_register.py checks the real default.
os.environ.setdefault("KLUB_REGISTER_MAX_PER_ADDRESS", "1000000")
# Mining problems analyses every deal of every partie a test finishes (its analysis workers,
# a core each): off for every Settings() and every server process the tests start; the tests
# of tests/problems turn it on where they need it.
os.environ["KLUB_PROBLEMS_MINING"] = "false"


@pytest.fixture(scope="session")
def _pg_schema():
    """This worker's PostgreSQL database, made anew once per run and migrated."""
    from sqlalchemy import create_engine, text

    from app.db.database import normalize_url
    from app.db.migrate import upgrade

    if PG_URL != PG_BASE_URL:
        admin = create_engine(normalize_url(PG_BASE_URL), isolation_level="AUTOCOMMIT")
        name = PG_URL.rsplit("/", 1)[1]
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
            # A worker's own database, dropped at the next run: a commit need not wait for
            # the disk (PostgreSQL keeps it in memory for up to 0.2 s; only PostgreSQL's own
            # crash would lose it, and no test crashes PostgreSQL: the outage tests cut its
            # connections). The Club's acknowledgements still follow its commits.
            conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
        admin.dispose()
    else:
        engine = create_engine(normalize_url(PG_URL))
        with engine.begin() as conn:
            conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
        engine.dispose()
    upgrade(PG_URL)
    return PG_URL


_EMPTYING: dict[str, tuple] = {}  # url -> (engine, the statements that empty its tables)


def _truncate_pg(url: str) -> None:
    """Empty every table and restart the ids: DELETE rather than TRUNCATE, which costs
    100-400 ms per test for its fixed work per table (the tables of a test are tiny)."""
    from sqlalchemy import create_engine, text

    from app.db.database import normalize_url
    from app.db.models import Base

    if url not in _EMPTYING:
        engine = create_engine(normalize_url(url), pool_size=1, pool_pre_ping=True)
        with engine.connect() as conn:
            sequences = list(conn.execute(text(
                "SELECT quote_ident(sequence_schema) || '.' || quote_ident(sequence_name)"
                " FROM information_schema.sequences")).scalars())
        statements = [
            # no foreign-key checks while emptying (the order of the cycles does not matter)
            "SET LOCAL session_replication_role = replica",
            *(f'DELETE FROM "{t.name}"' for t in reversed(Base.metadata.sorted_tables)),
            *(f"ALTER SEQUENCE {name} RESTART" for name in sequences),
        ]
        _EMPTYING[url] = (engine, "; ".join(statements))
    engine, sql = _EMPTYING[url]
    with engine.begin() as conn:
        conn.exec_driver_sql(sql)


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.hookimpl(tryfirst=True)  # before -m selects: the marker added here counts
def pytest_collection_modifyitems(config, items):
    """A test marked ``one_database`` (a long scenario: a whole evening, a route walk, a
    traveller per house rule) checks what the Club decides more than how a database stores
    it: its PostgreSQL variant runs with the long runs (``make soak``, which CI runs too),
    so every test still runs on both databases while ``make test`` stays short."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if (callspec is not None and callspec.params.get("backend") == "postgresql"
                and item.get_closest_marker("one_database")):
            item.add_marker(pytest.mark.soak)


@pytest.fixture
def database_url(backend, tmp_path, request) -> str:
    if backend == "postgresql":
        url = request.getfixturevalue("_pg_schema")
        _truncate_pg(url)
        return url
    from tests.support.migrated import migrated_sqlite

    return migrated_sqlite(tmp_path / "klub.db")


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
        problems_mining=False,  # every partie a test finishes would be analysed (tests/problems turn it on)
        argon2_time_cost=1,
        argon2_memory_kib=1024,  # 1 MiB: a fast hash (about 0.7 ms), the tests register many members
        _env_file=None,
    )


@pytest.fixture
def clock():
    """The Club's clock, standing still until the test moves it (``clock.advance(seconds)``);
    a test that asks for it gets an ``app`` and a ``live_server`` running on it."""
    from app.clock import ManualClock

    return ManualClock()


@pytest.fixture
def app(settings, request):
    from app.web.main import create_app

    return create_app(settings, _clock_of(request))


def _clock_of(request):
    return request.getfixturevalue("clock") if "clock" in request.fixturenames else None


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, headers={"Origin": app.state.club.settings.site_origin}) as c:  # as a browser (CSRF)
        app.state.test_portal = c.portal
        try:
            yield c
        finally:
            app.state.test_portal = None


def _share_the_served_portal() -> None:
    """A TestClient made beside the ``client`` fixture's (a member's own client, without
    ``with``) sends its requests through the event loop that runs the app, as a browser's
    requests reach one server: Starlette would start a thread and an event loop for each
    of its requests (about 1 ms each), and the app's hub, which wakes sockets on its own
    loop, could not wake that client's sockets."""
    import contextlib

    from starlette.testclient import TestClient

    own_portal = TestClient._portal_factory

    @contextlib.contextmanager
    def portal_factory(self):
        shared = getattr(getattr(self.app, "state", None), "test_portal", None) if self.portal is None else None
        if shared is not None:
            yield shared
        else:
            with own_portal(self) as portal:
                yield portal

    TestClient._portal_factory = portal_factory


_share_the_served_portal()


@pytest.fixture
def live_server(settings, request):
    """The Club on a real uvicorn in a thread; yields its base URL."""
    from tests.support.web import LiveServer

    server = LiveServer(settings, _clock_of(request))
    server.start()
    try:
        yield server
    finally:
        server.stop()


# The browser tests (tests/ui/test_ui_browser*.py): one served Club per worker, shared by the
# modules (a module that needs a Club of its own, other settings or an admin, defines its
# own ``server``); one Chromium per module, since Playwright's sync API keeps an event loop
# running in the worker's thread while it is open, and the tests that call asyncio.run()
# cannot run then. Every test gets its own browser context (``page``).


@pytest.fixture(scope="module")
def browser():
    from tests.support.ui import CHROMIUM, CHROMIUM_ARGS, need_chromium

    need_chromium()
    from playwright.sync_api import sync_playwright

    from tests.support import axe

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        axe.hook(b)  # every page a browser test opens is checked by axe-core (tests/support/axe.py)
        yield b
        try:
            axe.assert_contexts_clean(b)  # the contexts the module's tests left open
        finally:
            b.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    from tests.support.ui import own_server

    yield from own_server(tmp_path_factory, "ui")


@pytest.fixture
def page(browser):
    """A page in a fresh context that fails the test on a JavaScript error or a CSP violation."""
    from tests.support.ui import close_watched, watched_page

    pg = watched_page(browser)
    yield pg
    close_watched(pg)
