"""The databases and Redis numbers of this test process (tests/conftest.py's fixtures use
them; a test that starts servers of its own names them too)."""

from __future__ import annotations

import os

# pytest-xdist runs the suite in several worker processes ("gw0", "gw1", ...): each has
# its own PostgreSQL database and its own Redis database number, so no two workers share
# rows, schemas or notices. Without xdist the one process is worker 0.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
WORKER_INDEX = int(WORKER[2:]) if WORKER.startswith("gw") else 0
MAX_WORKERS = 8  # Redis has 16 database numbers: 15 - i for worker i, and 7 - i beside it


def _pg_worker_url(base: str | None) -> str | None:
    if not base or not WORKER:
        return base
    head, _, name = base.rpartition("/")
    return f"{head}/{name.split('?')[0]}_{WORKER}"


def redis_db_url(db: int) -> str | None:
    """The test Redis (``KLUB_TEST_REDIS_URL``) with another database number."""
    base = os.environ.get("KLUB_TEST_REDIS_URL")
    if not base:
        return None
    head = base.rsplit("/", 1)[0] if base.count("/") > 2 else base
    return f"{head}/{db}"


if WORKER_INDEX >= MAX_WORKERS:
    raise RuntimeError(f"at most {MAX_WORKERS} pytest-xdist workers: each needs two Redis databases of its own")
PG_BASE_URL = os.environ.get("KLUB_TEST_DATABASE_URL")
PG_URL = _pg_worker_url(PG_BASE_URL)
REDIS_URL = redis_db_url(15 - WORKER_INDEX)
REDIS_SPARE_URL = redis_db_url(7 - WORKER_INDEX)  # a second database of this worker's own (tests/realtime/test_hub.py)

BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])
