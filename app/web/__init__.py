"""The HTTP and WebSocket face of the Club (FastAPI)."""
