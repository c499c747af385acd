"""CSRF: a write with the session cookie but neither Origin nor Sec-Fetch-Site needs the session's token.

(The forms' own token check with a same-origin browser is in tests/security/test_security_http.py.)
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.members.cookies import form_token
from app.web.security import MAX_FORM_BODY
from tests.support.security import PASSWORD, client_for, snapshot

SITE = "http://testserver"
WRITES = [
    ("POST", "/api/parties", {"json": {"game": "lora", "seats": [{"kind": "bot"}] * 3}}),
    ("POST", "/api/auth/logout", {}),
    ("POST", "/api/auth/password", {"json": {"old_password": PASSWORD, "new_password": "druga-lozinka-9"}}),
    ("PUT", "/api/parties/1/seats/1", {"json": {"kind": "open"}}),
    ("POST", "/api/auth/login", {"json": {"name": "ana", "password": PASSWORD}}),
    ("POST", "/logout", {"data": {}}),
    ("POST", "/lobby/propose", {"data": {"game": "lora", "seat1": "bot", "seat2": "bot", "seat3": "bot"}}),
]


def bare(app, name: str) -> TestClient:
    """A logged-in client that sends no Origin and no Sec-Fetch-Site (curl, a script, an old browser)."""
    c = client_for(app, name)
    del c.headers["Origin"]
    return c


@pytest.mark.parametrize("method,path,body", WRITES)
def test_a_write_with_the_cookie_and_no_origin_needs_the_token(app, method, path, body):
    ana = bare(app, "ana")
    client_for(app, "boki").post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3})
    db = app.state.club.db
    before = snapshot(db)
    r = ana.request(method, path, **body)
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "csrf_token_missing"
    assert "X-CSRF-Token" in r.json()["error"]["message"]
    assert "content-security-policy" in r.headers
    assert snapshot(db) == before  # the refused write changed nothing
    # Another session's token is no better.
    other = form_token(client_for(app, "ceca").cookies.get("klub_session"))
    before = snapshot(db)
    r = ana.request(method, path, headers={"X-CSRF-Token": other}, **body)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_token_invalid", r.text
    if "data" in body:  # the form's csrf field is checked the same way
        r = ana.request(method, path, data={**body["data"], "csrf": other})
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_token_invalid", r.text
    assert snapshot(db) == before
    assert ana.get("/api/me").status_code == 200  # reads need nothing


def test_the_token_header_the_form_field_or_a_same_origin_header_pass(app):
    ana = bare(app, "ana")
    token = ana.get("/api/me").json()["csrf_token"]
    assert token == form_token(ana.cookies.get("klub_session"))
    seats = {"game": "lora", "seats": [{"kind": "open"}] * 3}
    assert ana.post("/api/parties", json=seats, headers={"X-CSRF-Token": token}).status_code == 201
    assert ana.post("/api/parties", json=seats, headers={"Origin": SITE}).status_code == 201
    assert ana.post("/api/parties", json=seats, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 201
    # A form with its csrf field and no header: the body still reaches the page.
    form = {"game": "lora", "seat1": "bot", "seat2": "bot", "seat3": "bot", "csrf": token}
    r = ana.post("/lobby/propose", data=form, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/"), r.text[:300]
    # The login and register answers carry the new session's token.
    login = TestClient(app).post("/api/auth/login", json={"name": "ana", "password": PASSWORD})
    assert login.json()["csrf_token"] == form_token(login.cookies.get("klub_session"))
    assert ana.post("/api/auth/logout", headers={"X-CSRF-Token": token}).status_code == 200


def test_an_oversized_form_without_headers_is_refused(app):
    ana = bare(app, "ana")
    token = form_token(ana.cookies.get("klub_session"))
    before = snapshot(app.state.club.db)
    form = {"pad": "x" * MAX_FORM_BODY, "game": "lora", "seat1": "bot", "seat2": "bot", "seat3": "bot", "csrf": token}
    r = ana.post("/lobby/propose", data=form)
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_token_missing"
    assert snapshot(app.state.club.db) == before


def test_without_a_session_cookie_login_and_register_need_no_header(app):
    """Scripts register and log in without headers; a browser's cross-site login is refused (login CSRF)."""
    c = TestClient(app)
    assert c.post("/api/auth/register", json={"name": "ana", "password": PASSWORD}).status_code == 201
    c.cookies.clear()
    assert c.post("/api/auth/login", json={"name": "ana", "password": PASSWORD}).status_code == 200
    c.cookies.clear()
    for headers in [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}]:
        r = c.post("/api/auth/login", json={"name": "ana", "password": PASSWORD}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
        r = c.post("/login", data={"name": "ana", "password": PASSWORD}, headers=headers)
        assert r.status_code == 403 and "set-cookie" not in r.headers
