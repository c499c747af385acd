"""The database out of reach for a moment, and how the Club answers it.

PostgreSQL restarted, stopped or cut off raises SQLAlchemy's ``OperationalError`` or
``InterfaceError`` (a DBAPI connection error: refused, reset, "terminating connection
due to administrator command"), a ``DBAPIError`` whose connection was invalidated, or
the pool's ``TimeoutError`` (no connection came back in time). SQLite's "database is
locked" past its busy timeout is an ``OperationalError`` too. Such a failure changed
nothing that was not rolled back, so the answer is "try again", never "internal":

- HTTP: 503 ``unavailable`` with ``Retry-After`` (app/web/errors.py);
- a table socket: ``{"type": "error", "code": "unavailable", "retry_after": N, "id"}``
  answering the word (app/tables/ws.py), and the socket stays open;
- the computer players look at their table again later (app/bots/runner.py).

The pool pings a connection that rested in it before handing it out (app/db/database.py),
and a disconnect seen on one connection recycles the pool: once the database is back,
the next request connects anew, without a restart (docs/server.md, "Outages").
"""

from __future__ import annotations

import logging

from sqlalchemy import exc as sa_exc

from app.errors import ClubError

RETRY_AFTER_SECONDS = 2
MESSAGE = "the database is out of reach for a moment; try again"


class Unavailable(ClubError):
    status, code = 503, "unavailable"


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database could not be reached (or was busy): try again."""
    if isinstance(error, (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError,
                          sa_exc.DisconnectionError)):
        return True
    return isinstance(error, sa_exc.DBAPIError) and bool(error.connection_invalidated)


def unavailable_error() -> Unavailable:
    return Unavailable(MESSAGE, retry_after=RETRY_AFTER_SECONDS)


def log_failure(logger: logging.Logger, what: str, error: BaseException) -> None:
    """A background loop's failure: one line while the database is out of reach (the loop
    tries again at its next turn), the traceback otherwise."""
    if unavailable(error):
        logger.warning("%s: the database is out of reach (%s)", what, type(error).__name__)
    else:
        logger.error(what, exc_info=error)
