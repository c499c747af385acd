"""Security of HTTP: headers on every response, CSRF (Fetch Metadata, Origin, form tokens), no writes on GET."""

from __future__ import annotations

import re

import pytest

from app.members.cookies import _unmasked, form_token
from tests.support.security import (
    check_headers,
    client_for,
    csp_directives,
    members_partie,
    snapshot,
)


def test_security_headers_on_pages_api_static_and_errors(client, app):
    ana = client_for(app, "ana")
    responses = [
        client.get("/"),
        client.get("/login"),
        client.get("/rules/lora"),
        client.get("/static/css/klub.css"),
        client.get("/static/js/common.js"),
        client.get("/static/favicon.svg"),
        client.get("/healthz"),
        client.get("/openapi.json"),
        client.get("/api/me"),  # 401
        client.get("/no/such/page"),  # 404
        client.post("/api/auth/login", json={"name": "x"}),  # 422
        ana.get("/lobby"),
        ana.get("/api/lobby"),
        ana.get("/archive"),
        client.post("/api/auth/logout", headers={"Origin": "https://evil.example"}),  # 403 refused
    ]
    for r in responses:
        check_headers(r)
    check_headers(client.get("/docs"), docs=True)
    # What the pages legitimately need, and no more.
    csp = csp_directives(client.get("/lobby").headers["content-security-policy"])
    assert csp["style-src"] == "style-src 'self'"
    assert csp["connect-src"].startswith("connect-src 'self'")


def test_security_headers_on_an_unexpected_error(app):
    from fastapi.testclient import TestClient

    @app.get("/boom-for-test")
    def boom():
        raise RuntimeError("boom")

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/boom-for-test")
    assert r.status_code == 500 and r.json()["error"]["code"] == "internal"
    check_headers(r)


def test_pages_have_no_inline_scripts_or_styles(client, app):
    pid, clients = members_partie(app)
    ana = clients[0]
    for path in ["/", "/login", "/register", "/lobby", f"/table/{pid}", f"/archive/{pid}", "/archive", "/rules/preferans"]:
        html = (ana if path not in ("/", "/login", "/register") else client).get(path).text
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=", html), path  # no inline event handlers
        assert not re.search(r"<style\b|\sstyle=", html), path


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
    ],
)
def test_cross_site_writes_are_refused(app, headers):
    ana = client_for(app, "ana")
    before = snapshot(app.state.club.db)
    for method, path, body in [
        ("POST", "/api/parties", {"game": "lora", "seats": [{"kind": "bot"}] * 3}),
        ("POST", "/api/auth/logout", None),
        ("POST", "/api/auth/password", {"old_password": "klupska-lozinka-7", "new_password": "druga-lozinka-9"}),
        ("PUT", "/api/parties/1/seats/1", {"kind": "open"}),
        ("POST", "/logout", None),
        ("POST", "/lobby/propose", None),
    ]:
        r = ana.request(method, path, json=body, headers=headers)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["error"]["code"] == "bad_origin"
    assert snapshot(app.state.club.db) == before
    assert ana.get("/api/me").status_code == 200


def test_same_origin_writes_pass(app):
    ana = client_for(app, "ana")
    for headers in [{"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}, {}]:
        r = ana.post("/api/parties", json={"game": "lora", "seats": [{"kind": "open"}] * 3}, headers=headers)
        assert r.status_code == 201, r.text


def test_page_forms_carry_a_session_bound_token(app):
    ana = client_for(app, "ana")
    boki = client_for(app, "boki")
    token = ana.cookies.get("klub_session")
    lobby = ana.get("/lobby").text
    found = set(re.findall(r'name="csrf" value="([0-9a-f]*)"', lobby))
    # each page masks the token afresh (BREACH): the same token under other bytes
    assert found and {_unmasked(t) for t in found} == {form_token(token)}
    again = set(re.findall(r'name="csrf" value="([0-9a-f]*)"', ana.get("/lobby").text))
    assert again != found and {_unmasked(t) for t in again} == {form_token(token)}
    assert lobby.count('name="csrf"') == lobby.count('method="post"') >= 4  # every form of a member has it
    db = app.state.club.db
    before = snapshot(db)
    form = {"game": "lora", "seat1": "bot", "seat2": "bot", "seat3": "bot"}
    # No token, an empty one, and another member's token: refused, nothing changes.
    for extra in [{}, {"csrf": ""}, {"csrf": form_token(boki.cookies.get("klub_session"))}]:
        r = ana.post("/lobby/propose", data={**form, **extra}, follow_redirects=False)
        assert r.status_code == 403 and "obrazac je istekao" in r.text.lower(), r.text[:300]
        assert ana.post("/logout", data=extra, follow_redirects=False).status_code == 403
        assert ana.post("/lobby/1/join", data=extra, follow_redirects=False).status_code == 403
    assert snapshot(db) == before
    assert ana.get("/api/me").status_code == 200
    # With the token the forms work.
    r = ana.post("/lobby/propose", data={**form, "csrf": form_token(token)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    r = ana.post("/logout", data={"csrf": form_token(token)}, follow_redirects=False)
    assert r.status_code == 303
    assert ana.get("/api/me").status_code == 401


def _fill(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: values[m.group(1)], path)


def test_no_get_route_changes_state(app):
    """Call every GET route (API and pages) as a seated member and as a spectator: no row changes."""
    pid, clients = members_partie(app, "preferans")
    ana = clients[0]
    rec = ana.get(f"/api/parties/{pid}/record").json()
    imported = ana.post("/api/records", json=rec)
    assert imported.status_code == 201, imported.text
    record_id = str(imported.json()["id"])
    dule = client_for(app, "dule")
    values = {"partie_id": str(pid), "deal_index": "0", "deal": "0", "game": "lora", "code": "en", "record_id": record_id, "path": "css/klub.css",
              "name": "ana", "token": "no-such-token", "tournament_id": "1", "round_no": "1", "board": "1",
              "league_id": "1", "problem_id": "1"}
    gets = [path for path, methods in all_routes(app) if "GET" in methods]
    assert "/api/parties/{partie_id}/view" in gets and "/lobby" in gets and "/table/{partie_id}" in gets
    db = app.state.club.db
    app.state.club.push.load_keys()  # made at the start of a served Club (its lifespan), not by a GET
    before = snapshot(db)
    for who in (ana, dule):
        for path in gets:
            url = _fill(path, values)
            params = {"since": "0"} if path.endswith("/events") else None
            r = who.get(url, params=params, follow_redirects=False)
            assert r.status_code < 500, (url, r.status_code, r.text[:300])
    assert snapshot(db) == before
    # Routes that change state are not reachable by GET.
    for path, methods in all_routes(app):
        if methods & {"POST", "PUT", "PATCH", "DELETE"}:
            assert "GET" not in methods, path


def all_routes(app) -> list[tuple[str, set[str]]]:
    """(path, methods) of every HTTP route, also inside included routers (FastAPI >= 0.16x)."""
    out = []
    for route in app.routes:
        if hasattr(route, "effective_route_contexts"):
            out += [(c.path, set(c.methods or ())) for c in route.effective_route_contexts()]
        elif getattr(route, "methods", None):
            out.append((route.path, set(route.methods)))
    return out
