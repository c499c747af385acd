"""The Club's service errors: an HTTP status, a stable code and a plain message.

Routers turn them into ``{"error": {"code", "message", ...}}`` bodies and the WebSocket
into ``{"type": "error", ...}`` frames; a failed call changes nothing.
"""

from __future__ import annotations

from typing import Any


class ClubError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None, **extra: Any):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


class NotAuthenticated(ClubError):
    status, code = 401, "not_authenticated"


class Forbidden(ClubError):
    status, code = 403, "forbidden"


class NotFound(ClubError):
    status, code = 404, "not_found"


class Conflict(ClubError):
    status, code = 409, "conflict"


class Invalid(ClubError):
    status, code = 422, "invalid"
