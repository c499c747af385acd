"""``python -m tests.support.serve_socket FD [TIMEOUT_KEEP_ALIVE]``: the Club in uvicorn, serving on
an inherited listening TCP socket (:func:`tests.support.web.serve_command`).

Not ``uvicorn --fd``: that takes the descriptor for a Unix socket, so asyncio never sets
TCP_NODELAY on the connections it accepts, and a response written in two parts (headers,
then body) waited for the client's delayed ACK: about 40 ms per HTTP request (and per
WebSocket frame sent right after another one). ``socket.socket(fileno=...)`` reads the
socket's real family, so the connections are TCP connections as in production
(``python -m app serve --host --port``).
"""

from __future__ import annotations

import socket
import sys

import uvicorn


def main(argv: list[str]) -> None:
    sock = socket.socket(fileno=int(argv[0]))
    options = {"timeout_keep_alive": int(argv[1])} if len(argv) > 1 else {}
    config = uvicorn.Config("app.web.main:create_app", factory=True, log_level="warning", **options)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main(sys.argv[1:])
