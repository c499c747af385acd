"""Security of sessions: cookie flags and name, randomness, a new id at login, expiry, logout."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from app.db.models import LoginSession
from app.members.service import session_id_of
from app.members.cookies import form_token
from tests.support.security import PASSWORD, client_for
from tests.support.web import member, recv, ws_connect


def test_cookie_flags_on_plain_http(client):
    r = client.post("/api/auth/register", json={"name": "ana", "password": PASSWORD})
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("klub_session=")  # plain name on http://127.0.0.1 so local use works
    low = cookie.lower()
    assert "httponly" in low and "samesite=lax" in low and "path=/" in low and "domain=" not in low
    assert "secure" not in low


def test_cookie_is_host_prefixed_and_secure_on_https(settings):
    from app.web.main import create_app

    https = settings.model_copy(update={"site_origin": "https://testserver"})
    with TestClient(create_app(https), base_url="https://testserver", headers={"Origin": "https://testserver"}) as c:
        r = c.post("/api/auth/register", json={"name": "ana", "password": PASSWORD})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-klub_session=")
        low = cookie.lower()
        assert "secure" in low and "httponly" in low and "samesite=lax" in low and "path=/" in low
        assert "domain=" not in low
        assert c.get("/api/me").json()["name"] == "ana"
        # The plain name is not accepted over https.
        token = c.cookies.get("__Host-klub_session")
        plain = TestClient(c.app, base_url="https://testserver", cookies={"klub_session": token})
        assert plain.get("/api/me").status_code == 401
        # The pages' login form sets the same cookie; logout clears it.
        r = c.post("/login", data={"name": "ana", "password": PASSWORD}, follow_redirects=False)
        assert r.headers["set-cookie"].startswith("__Host-klub_session=")
        new = c.cookies.get("__Host-klub_session")
        r = c.post("/logout", data={"csrf": form_token(new)}, follow_redirects=False)
        assert "__Host-klub_session=" in r.headers["set-cookie"] and 'max-age=0' in r.headers["set-cookie"].lower()


def test_session_tokens_have_at_least_128_bits(app):
    tokens = []
    for i in range(20):
        c = client_for(app, f"igrac{i}")
        tokens.append(c.cookies.get("klub_session"))
    assert len(set(tokens)) == len(tokens)
    for t in tokens:
        # URL-safe base64: 6 bits a character.
        assert len(t) * 6 >= 128 + 6, t
    # The characters look random (no fixed parts): a rough entropy check over all tokens.
    counts = Counter("".join(tokens))
    n = sum(counts.values())
    entropy = -sum(c / n * math.log2(c / n) for c in counts.values())
    assert entropy > 5.5
    # The database keeps only the SHA-256 of the token.
    with app.state.club.db.read() as s:
        ids = {row.id for row in s.query(LoginSession)}
    assert not ids & set(tokens) and {session_id_of(t) for t in tokens} <= ids


def test_new_session_id_at_login_and_old_one_refused(app):
    ana = client_for(app, "ana")
    old = ana.cookies.get("klub_session")
    for path, kwargs in [("/api/auth/login", {"json": {"name": "ana", "password": PASSWORD}}),
                         ("/login", {"data": {"name": "ana", "password": PASSWORD}})]:
        r = ana.post(path, follow_redirects=False, **kwargs)
        assert r.status_code in (200, 303)
        new = ana.cookies.get("klub_session")
        assert new != old
        assert TestClient(app, cookies={"klub_session": old}).get("/api/me").status_code == 401
        assert TestClient(app, cookies={"klub_session": new}).get("/api/me").status_code == 200
        old = new


@pytest.mark.parametrize("which", ["idle", "absolute"])
def test_idle_and_absolute_expiry(app, settings, clock, which):
    ana = client_for(app, "ana")
    token = ana.cookies.get("klub_session")
    assert ana.get("/api/me").status_code == 200
    db = app.state.club.db
    idle = timedelta(hours=settings.session_idle_hours)
    if which == "idle":
        clock.advance(idle.total_seconds() - 1)
        assert ana.get("/api/me").status_code == 200  # used just in time: the idle time starts again
        clock.advance(idle.total_seconds() + 1)
    else:
        # Used often enough never to be idle, until the absolute limit from the login.
        lived = timedelta(0)
        while lived + idle / 2 < timedelta(days=settings.session_max_days):
            clock.advance((idle / 2).total_seconds())
            lived += idle / 2
            assert ana.get("/api/me").status_code == 200, lived
        clock.advance((idle / 2).total_seconds())
    r = ana.get("/api/me")
    assert r.status_code == 401 and r.json()["error"]["code"] == "session_ended"
    with db.read() as s:
        assert s.get(LoginSession, session_id_of(token)) is None
    # The absolute expiry is fixed at login: activity does not extend it.
    ana = client_for(app, "ana", register=False)
    with db.read() as s:
        row = s.get(LoginSession, session_id_of(ana.cookies.get("klub_session")))
        assert row.expires_at - row.created_at == timedelta(days=settings.session_max_days)


@pytest.mark.parametrize("how", ["api", "page"])
def test_logout_refuses_the_old_cookie_and_closes_its_websockets(live_server, how):
    ana = member(live_server.url, "ana")
    token = ana.cookies.get("klub_session")
    r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3})
    pid = r.json()["id"]

    async def run():
        async with await ws_connect(live_server, pid, ana) as ws:
            assert (await recv(ws))["type"] == "state"
            if how == "api":
                r = await asyncio.to_thread(ana.post, "/api/auth/logout")
            else:
                r = await asyncio.to_thread(
                    ana.post, "/logout", data={"csrf": form_token(token)}, headers={"Origin": live_server.origin}
                )
            assert r.status_code in (200, 303)
            frame = await recv(ws)
            assert frame["type"] == "error" and frame["code"] == "session_ended"
            with pytest.raises(Exception) as closed:
                await recv(ws)
            assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4401

    asyncio.run(run())
    import httpx

    stale = httpx.Client(base_url=live_server.url, cookies={"klub_session": token}, headers={"Origin": live_server.origin})
    assert stale.get("/api/me").status_code == 401
    assert stale.post(f"/api/parties/{pid}/withdraw").status_code == 401
