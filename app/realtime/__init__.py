"""Fan-out of table notices to WebSocket connections, in-process or through Redis."""

from app.realtime.hub import Hub

__all__ = ["Hub"]
