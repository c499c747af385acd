"""gzip (issue 39): pages, JSON, scripts and styles leave compressed to a client that
accepts it (app/web/compression.py); the streams (the bot API's NDJSON, any
text/event-stream) and the sockets are never compressed nor held back; a page's form
token is masked afresh every time (BREACH), and every masked form is taken."""

from __future__ import annotations

import asyncio
import json
import re

from starlette.responses import StreamingResponse

from app.web.compression import CompressionMiddleware
from tests.support.api import ORIGIN, register
from tests.support.bots import bearer, new_bot

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def test_pages_json_scripts_and_styles_leave_gzipped(app):
    ana = register(app, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    page = ana.get(f"/table/{pid}", headers=GZIP).text
    script = re.search(r'src="(/static/js/table\.js\?v=\w+)"', page).group(1)
    style = re.search(r'href="(/static/css/klub\.css\?v=\w+)"', page).group(1)
    for path, kind in ((f"/table/{pid}", "text/html"), ("/lobby", "text/html"), ("/rules", "text/html"),
                       ("/openapi.json", "application/json"), (f"/api/parties/{pid}/view", "application/json"),
                       (script, "text/javascript"), (style, "text/css")):
        packed, raw = ana.get(path, headers=GZIP), ana.get(path, headers=PLAIN)
        assert packed.status_code == raw.status_code == 200, path
        assert packed.headers["content-type"].startswith(kind), path
        assert packed.headers["content-encoding"] == "gzip" and "accept-encoding" in packed.headers["vary"].lower(), path
        assert "content-encoding" not in raw.headers, path
        if kind != "text/html":  # a page differs from one read to the next (its masked token)
            assert packed.content == raw.content, path  # httpx took the gzip off
        assert int(packed.headers["content-length"]) < len(raw.content) / 2, path
    # A small answer goes as it is (the gzip header would cost more than it saves).
    small = ana.get("/api/me", headers=GZIP)
    assert small.status_code == 200 and "content-encoding" not in small.headers


def test_the_form_token_is_masked_afresh_on_every_page_and_each_is_taken(app):
    ana = register(app, "ana")
    tokens = [re.search(r'name="csrf" value="([0-9a-f]+)"', ana.get("/lobby", headers=GZIP).text).group(1)
              for _ in range(3)]
    assert len(set(tokens)) == 3 and all(len(t) == 128 for t in tokens)
    plain = ana.get("/api/me").json()["csrf_token"]
    assert all(plain not in t for t in tokens)
    ana.headers.pop("Origin")  # a client that says nothing of where it comes from must bring the token
    for token in tokens + [plain]:
        r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3},
                     headers={"X-CSRF-Token": token})
        assert r.status_code == 201, r.text
    forged = tokens[0][:64] + tokens[1][64:]
    r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}, headers={"X-CSRF-Token": forged})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_token_invalid"


def test_the_bot_event_stream_is_neither_compressed_nor_held_back(app, client):
    ana = register(app, "ana")
    token = new_bot(ana, "robo")
    with client.stream("GET", "/api/bot/stream", headers={**bearer(token), **GZIP}) as stream:
        assert stream.status_code == 200 and stream.headers["content-type"].startswith("application/x-ndjson")
        assert "content-encoding" not in stream.headers
        lines = stream.iter_lines()  # the first line arrives while the stream stays open
        assert json.loads(next(lines))["type"] == "hello"


def test_the_table_socket_works_for_a_client_that_accepts_gzip(app, client):
    ana = register(app, "ana")
    pid = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot"}] * 3}).json()["id"]
    cookie = "; ".join(f"{k}={v}" for k, v in ana.cookies.items())
    with client.websocket_connect(f"/ws/parties/{pid}", headers={**ORIGIN, **GZIP, "Cookie": cookie}) as ws:
        frame = ws.receive_json()
        assert frame["type"] == "state" and frame["view"]["seat"] == 0


def test_an_event_stream_passes_chunk_by_chunk_uncompressed():
    """A text/event-stream of the size gzip would take: each chunk goes on as it comes, as it
    is; the second is only written once the first has been sent (a held-back first chunk
    would never let it be)."""
    first_sent = asyncio.Event()

    async def events():
        yield b"data: " + b"x" * 2000 + b"\n\n"
        await first_sent.wait()
        yield b"data: two\n\n"

    app = CompressionMiddleware(StreamingResponse(events(), media_type="text/event-stream"))
    sent: list[dict] = []

    async def send(message):
        sent.append(message)
        if message["type"] == "http.response.body" and message.get("body", b"").startswith(b"data: x"):
            first_sent.set()

    async def receive():
        await asyncio.Event().wait()  # the client stays

    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.4"}, "http_version": "1.1",
             "method": "GET", "path": "/events", "raw_path": b"/events", "query_string": b"", "root_path": "",
             "headers": [(b"accept-encoding", b"gzip")], "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
             "scheme": "http"}
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    start = sent[0]
    assert start["type"] == "http.response.start"
    assert b"content-encoding" not in {k.lower() for k, _ in start["headers"]}
    bodies = [m.get("body", b"") for m in sent[1:] if m["type"] == "http.response.body"]
    assert bodies[0].startswith(b"data: xxx") and b"data: two\n\n" in bodies
