"""Log lines: uvicorn's text by default; with ``KLUB_LOG_FORMAT=json`` one JSON object a line.

A JSON line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``,
``message`` and ``request_id`` (the HTTP request or WebSocket the line was written for,
app/web/proxies.py; null outside one), ``exception`` when there is a traceback, and for
uvicorn's access lines also ``client``, ``method``, ``path`` and ``status``. Every
logger's lines go through it, uvicorn's own included (``python -m app serve`` starts
uvicorn without its logging configuration then; :func:`configure` also takes over the
handlers uvicorn set up, for a Club started by uvicorn itself).
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.config import Settings

# The id of the request being served (set by app.web.proxies.ClientMiddleware).
REQUEST_ID: ContextVar[str | None] = ContextVar("klub_request_id", default=None)
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")
ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or REQUEST_ID.get(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            line.update(zip(ACCESS_FIELDS, record.args))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(settings: Settings) -> None:
    """With ``log_format == "json"``: every logger writes JSON lines to stderr (INFO and up,
    uvicorn's loggers at the level uvicorn gave them). Text leaves logging as it is."""
    if settings.log_format != "json":
        return
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return  # the app made twice in one process (a reload, the tests)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.handlers = [handler]
    root.setLevel(logging.INFO)
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
