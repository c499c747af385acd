"""The REST API as the tests use it: a member registered on the test app (a TestClient with
the site's Origin), error codes, waiting for one's turn, playing a partie to its end."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

PASSWORD = "klupska-lozinka-7"


ORIGIN = {"Origin": "http://testserver"}  # the settings fixture's site; writes with a cookie need it (CSRF)


def register(app, name: str) -> TestClient:
    c = TestClient(app, headers=ORIGIN)
    r = c.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def error_code(r) -> str:
    return r.json()["error"]["code"]


def my_turn_state(c: TestClient, partie_id: int) -> dict:
    from tests.support.web import wait_for

    return wait_for(lambda: (st := c.get(f"/api/parties/{partie_id}/view").json())["legal"] and st)


def play_to_end(member: TestClient, pid: int, served: TestClient, max_frames: int = 20000) -> None:
    """Play random legal words at the member's seat until the partie ends.

    The table socket's frames say when it is his turn (the computer players' words arrive
    as events), so the loop waits on the server, never on a timer; the words go by HTTP,
    which the socket's frame limit does not slow down. The socket is opened through
    ``served``, the client whose event loop runs the app (its hub wakes only that loop's
    sockets), with the member's session cookie.
    """
    rng = random.Random(pid)
    cookie = "; ".join(f"{k}={v}" for k, v in member.cookies.items())
    with served.websocket_connect(f"/ws/parties/{pid}", headers={"Origin": str(served.base_url), "Cookie": cookie}) as ws:
        for _ in range(max_frames):
            frame = ws.receive_json()
            if frame["type"] not in ("state", "event"):
                continue
            if frame.get("finished"):
                return
            if frame["legal"]:
                word = rng.choice(frame["legal"])
                r = member.post(f"/api/parties/{pid}/actions", json={"word": word, "version": frame["version"]})
                assert r.status_code == 200 or error_code(r) == "stale_version", r.text
    raise AssertionError("the partie did not finish")
