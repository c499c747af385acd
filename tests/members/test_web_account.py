"""A member's account (issue 23, item 6): changing the password (page and API; the other
sessions end, this one stays) and an admin's one-time reset link (valid 24 h, single use,
only its token's hash stored; all the member's sessions end). Every refused request is a
4xx with a message and changes nothing."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import PasswordReset
from app.members.cookies import form_token
from app.members.service import ensure_admin
from tests.support.security import PASSWORD, client_for, snapshot

NEW = "nova-lozinka-42"


def error(r) -> tuple[int, str, str]:
    body = r.json()["error"]
    assert body["message"], body
    return r.status_code, body["code"], body["message"]


def csrf(c: TestClient) -> str:
    return form_token(c.cookies.get("klub_session"))


def admin_client(app) -> TestClient:
    ensure_admin(app.state.club.db, "admin", "admin-lozinka-1")
    c = TestClient(app)
    c.headers["Origin"] = app.state.club.settings.site_origin
    assert c.post("/api/auth/login", json={"name": "admin", "password": "admin-lozinka-1"}).status_code == 200
    return c


def test_changing_the_password_ends_the_other_sessions_and_keeps_this_one(app):
    here = client_for(app, "ana")
    there = client_for(app, "ana", register=False)
    assert there.get("/api/me").status_code == 200
    r = here.post("/account/password", data={"csrf": csrf(here), "old_password": PASSWORD, "new_password": NEW,
                                            "new_password2": NEW})
    assert r.status_code == 200 and 'id="password-changed"' in r.text
    assert here.get("/api/me").json()["name"] == "ana"
    assert there.get("/api/me").status_code == 401
    fresh = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    assert fresh.post("/api/auth/login", json={"name": "ana", "password": PASSWORD}).status_code == 401
    assert fresh.post("/api/auth/login", json={"name": "ana", "password": NEW}).status_code == 200


def test_a_refused_password_change_says_why_and_changes_nothing(app):
    db = app.state.club.db
    here = client_for(app, "ana")
    there = client_for(app, "ana", register=False)
    before = snapshot(db)
    for form, code, status in [
        ({"old_password": PASSWORD, "new_password": NEW, "new_password2": NEW + "x"}, "passwords_differ", 422),
        ({"old_password": PASSWORD, "new_password": "kratka", "new_password2": "kratka"}, "invalid_password", 422),
        ({"old_password": PASSWORD, "new_password": "password123", "new_password2": "password123"},
         "common_password", 422),
        # last: a wrong current password counts as a failed login of the account
        ({"old_password": "pogresna-1", "new_password": NEW, "new_password2": NEW}, "bad_credentials", 403),
    ]:
        r = here.post("/account/password", data={"csrf": csrf(here), **form})
        assert r.status_code == status, (form, r.status_code)
        assert 'id="form-error"' in r.text and 'id="password-changed"' not in r.text
        if code != "bad_credentials":
            assert snapshot(db) == before, code
    # without the form token: refused, nothing changed
    r = here.post("/account/password", data={"old_password": PASSWORD, "new_password": NEW, "new_password2": NEW})
    assert r.status_code == 403
    # the API: the same errors as JSON
    assert error(here.post("/api/auth/password", json={"old_password": "pogresna-1", "new_password": NEW}))[:2] == (
        403, "bad_credentials")
    assert error(here.post("/api/auth/password", json={"old_password": PASSWORD, "new_password": "kratka"}))[:2] == (
        422, "invalid_password")
    assert there.get("/api/me").status_code == 200  # nobody was logged out
    anonymous = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    assert anonymous.post("/api/auth/password", json={"old_password": PASSWORD, "new_password": NEW}).status_code == 401
    assert anonymous.get("/account", follow_redirects=False).headers["location"].startswith("/login")


def test_an_admin_reset_link_works_once_within_24_hours(app):
    db = app.state.club.db
    admin = admin_client(app)
    ana = client_for(app, "ana")
    r = admin.post("/api/members/ana/password-reset")
    assert r.status_code == 201, r.text
    link = r.json()
    token = link["path"].removeprefix("/reset/")
    assert link["member"] == "ana" and link["url"].endswith(link["path"]) and len(token) >= 40
    with db.read() as s:
        rows = s.scalars(select(PasswordReset)).all()
        assert [row.id for row in rows] == [hashlib.sha256(token.encode()).hexdigest()]  # only the hash is kept
        assert timedelta(hours=23, minutes=59) < rows[0].expires_at - rows[0].created_at <= timedelta(hours=24)
    anonymous = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    page = anonymous.get(link["path"])
    assert page.status_code == 200 and "ana" in page.text and 'id="reset-password-form"' in page.text
    # a refused new password: the link still works
    r = anonymous.post(link["path"], data={"new_password": "kratka", "new_password2": "kratka"})
    assert r.status_code == 422 and 'id="form-error"' in r.text
    r = anonymous.post(link["path"], data={"new_password": NEW, "new_password2": NEW}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login?reset=1")
    assert ana.get("/api/me").status_code == 401  # every session of hers ended
    assert anonymous.post("/api/auth/login", json={"name": "ana", "password": NEW}).status_code == 200
    # once only
    used = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    assert used.get(link["path"]).status_code == 404
    assert error(used.post("/api/auth/reset", json={"token": token, "new_password": "treca-lozinka-9"}))[:2] == (
        404, "invalid_reset_link")


def test_a_reset_link_expires_after_24_hours(app, clock):
    db = app.state.club.db
    admin = admin_client(app)
    client_for(app, "ana")
    token = admin.post("/api/members/ana/password-reset").json()["path"].removeprefix("/reset/")
    clock.advance(hours=23, minutes=59)
    assert TestClient(app).get(f"/reset/{token}").status_code == 200  # a minute left
    clock.advance(minutes=1)
    anonymous = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    before = snapshot(db)
    page = anonymous.get(f"/reset/{token}")
    assert page.status_code == 410 and "Ova veza za novu lozinku je istekla" in page.text
    assert error(anonymous.post("/api/auth/reset", json={"token": token, "new_password": NEW}))[:2] == (
        410, "reset_link_expired")
    assert snapshot(db) == before
    assert anonymous.post("/api/auth/login", json={"name": "ana", "password": PASSWORD}).status_code == 200


def test_reset_links_are_for_admins_and_known_members(app):
    db = app.state.club.db
    admin = admin_client(app)
    ana = client_for(app, "ana")
    before = snapshot(db)
    assert error(ana.post("/api/members/admin/password-reset"))[:2] == (403, "admin_only")
    assert error(admin.post("/api/members/nobody/password-reset"))[:2] == (404, "no_such_member")
    anonymous = TestClient(app, headers={"Origin": app.state.club.settings.site_origin})
    assert anonymous.post("/api/members/ana/password-reset").status_code == 401
    assert error(anonymous.post("/api/auth/reset", json={"token": "x" * 43, "new_password": NEW}))[:2] == (
        404, "invalid_reset_link")
    assert anonymous.get("/reset/unknown-token").status_code == 404
    # the page's forms: a member's is refused, an unknown name is named
    r = ana.post("/account/reset-link", data={"csrf": csrf(ana), "name": "admin"})
    assert r.status_code == 403
    r = admin.post("/account/reset-link", data={"csrf": csrf(admin), "name": "nobody"})
    assert r.status_code == 404 and 'id="reset-error"' in r.text
    assert snapshot(db) == before
    # a new link replaces the member's earlier unused one
    first = admin.post("/api/members/ana/password-reset").json()["path"]
    r = admin.post("/account/reset-link", data={"csrf": csrf(admin), "name": "ana"})
    assert r.status_code == 200
    second = re.search(r'id="reset-link" readonly value="[^"]*(/reset/[^"]+)"', r.text).group(1)
    assert anonymous.get(first).status_code == 404 and anonymous.get(second).status_code == 200
    # only an admin sees the reset form on the account page
    assert 'id="reset-form"' in admin.get("/account").text and 'id="reset-form"' not in ana.get("/account").text


def test_the_register_form_states_the_name_rule_before_any_error(client):
    page = client.get("/register?lang=en").text
    assert re.search(r'<p class="name-rule" id="name-rule">A name has 3 to 32 letters, digits', page)
    assert 'aria-describedby="name-rule"' in page
    assert "Ime ima od 3 do 32" in client.get("/register?lang=sr-Latn").text
    assert 'id="name-rule"' not in client.get("/login").text
