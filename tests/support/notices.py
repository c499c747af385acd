"""The live notices' socket (``/ws/notices``) as a member's client: opened, and a frame of a kind
waited for."""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from tests.support.web import cookie_header, recv


async def notices(server, client, lobby: bool = False, origin: str | None = None):
    url = f"{server.ws_url}/ws/notices" + ("?lobby=1" if lobby else "")
    headers = {"Origin": origin or server.origin}
    if client is not None:
        headers["Cookie"] = cookie_header(client)
    return await connect(url, additional_headers=headers, open_timeout=10)


async def frame_of(ws, kind: str | None = None, ftype: str = "notice", timeout: float = 20) -> dict:
    """The next frame of this type (and notice kind), skipping the others."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await recv(ws, timeout=max(0.1, deadline - loop.time()))
        if frame["type"] == ftype and (kind is None or frame.get("kind") == kind):
            return frame
