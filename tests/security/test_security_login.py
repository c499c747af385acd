"""Security of accounts: the same answer for an unknown name, throttling, the password policy, argon2id."""

from __future__ import annotations

import pytest
from argon2 import extract_parameters, Type
from fastapi.testclient import TestClient

from app.members import passwords, service, throttle
from tests.support.security import PASSWORD, client_for


def test_unknown_name_and_wrong_password_get_the_same_answer(client, app):
    client_for(app, "ana")
    wrong = client.post("/api/auth/login", json={"name": "ana", "password": "pogresna-lozinka"})
    unknown = client.post("/api/auth/login", json={"name": "niko", "password": "pogresna-lozinka"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.content == unknown.content
    # The page's form too.
    wrong = client.post("/login", data={"name": "ana", "password": "pogresna-lozinka"})
    unknown = client.post("/login", data={"name": "niko", "password": "pogresna-lozinka"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.text.replace("ana", "X") == unknown.text.replace("niko", "X")


def test_throttling_per_address_with_retry_after(client, app):
    client_for(app, "ana")
    limit = app.state.club.settings.login_max_failures
    for i in range(limit):  # spread over names: the address is what counts
        r = client.post("/api/auth/login", json={"name": f"ime{i % 3}", "password": "pogresna-lozinka"})
        assert r.status_code == 401
    r = client.post("/api/auth/login", json={"name": "ana", "password": PASSWORD})
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "too_many_attempts"
    retry = int(r.headers["retry-after"])
    assert 0 < retry <= app.state.club.settings.login_window_seconds
    # The login page answers the same way.
    page = client.post("/login", data={"name": "ana", "password": PASSWORD}, follow_redirects=False)
    assert page.status_code == 429 and int(page.headers["retry-after"]) > 0


def test_throttling_per_account_across_addresses_and_instances(app, settings):
    from app.web.main import create_app

    client_for(app, "ana")
    db = app.state.club.db
    limit = settings.login_max_failures
    for i in range(limit):
        with pytest.raises(Exception) as e:
            service.login(db, settings, "ana", "pogresna-lozinka", f"10.0.0.{i}")
        assert getattr(e.value, "code", None) == "bad_credentials"
    # Even the right password from a fresh address is refused now...
    with pytest.raises(throttle.TooManyAttempts):
        service.login(db, settings, "ANA", PASSWORD, "10.9.9.9")
    # ...and a second instance on the same database agrees (the failures are rows, not memory).
    other = create_app(settings)
    with TestClient(other) as c:
        r = c.post("/api/auth/login", json={"name": "ana", "password": PASSWORD})
        assert r.status_code == 429 and "retry-after" in r.headers
    # Another account from those addresses is not affected.
    client_for(app, "boki")
    service.login(db, settings, "boki", PASSWORD, "10.0.0.1")


def test_throttle_window_passes_and_success_clears_the_account(app, settings):
    from datetime import timedelta

    from sqlalchemy import select

    from app.db.models import LoginFailure

    client_for(app, "ana")
    db = app.state.club.db
    for i in range(settings.login_max_failures - 1):
        with pytest.raises(Exception):
            service.login(db, settings, "ana", "pogresna-lozinka", f"10.1.0.{i}")
    service.login(db, settings, "ana", PASSWORD, "10.2.0.1")  # under the limit: fine, and clears the account
    for i in range(settings.login_max_failures):
        with pytest.raises(Exception):
            service.login(db, settings, "ana", "pogresna-lozinka", f"10.3.0.{i}")
    with pytest.raises(throttle.TooManyAttempts):
        service.login(db, settings, "ana", PASSWORD, "10.4.0.1")
    with db.write() as s:  # the window passes
        for row in s.scalars(select(LoginFailure)):
            row.created_at -= timedelta(seconds=settings.login_window_seconds + 1)
    service.login(db, settings, "ana", PASSWORD, "10.4.0.1")


def test_wrong_current_passwords_count_as_failed_logins(app, settings):
    ana = client_for(app, "ana")
    for _ in range(settings.login_max_failures):
        r = ana.post("/api/auth/password", json={"old_password": "pogresna-lozinka", "new_password": "nova-lozinka-5"})
        assert r.status_code == 403
    r = ana.post("/api/auth/password", json={"old_password": PASSWORD, "new_password": "nova-lozinka-5"})
    assert r.status_code == 429 and "retry-after" in r.headers
    assert client_for(app, "boki").post("/api/auth/login", json={"name": "ana", "password": PASSWORD}).status_code == 429


def test_password_policy(client):
    def register(name, password):
        return client.post("/api/auth/register", json={"name": name, "password": password})

    assert register("ana", "a" * 3 + "b9!").json()["error"]["code"] == "invalid_password"  # 6
    assert register("ana", "kratka7").json()["error"]["code"] == "invalid_password"  # 7
    for common in ["password", "12345678", "qwertyuiop", "Password1", "iloveyou", "lozinka123", "11111111"]:
        r = register("ana", common)
        assert r.status_code == 422 and r.json()["error"]["code"] == "common_password", common
    assert register("ana", "osam-zn8").status_code == 201  # 8 characters
    long = "duga lozinka sa razmacima i ćirilicom: ђурђевак " * 3  # 64+ characters, spaces, unicode
    assert len(long) > 64
    r = client.post("/api/auth/password", json={"old_password": "osam-zn8", "new_password": long})
    assert r.status_code == 200, r.text
    assert client.post("/api/auth/login", json={"name": "ana", "password": long}).status_code == 200
    r = client.post("/api/auth/password", json={"old_password": long, "new_password": "password1"})
    assert r.json()["error"]["code"] == "common_password"
    assert sum(1 for _ in passwords.COMMON_PASSWORDS.open()) < 5000


def test_common_password_list_is_shipped_and_lower_case():
    words = passwords._common()
    assert 1000 < len(words) < 5000
    assert all(w == w.lower() for w in words)
    assert passwords.is_common("QWERTY123") and not passwords.is_common("klupska-lozinka-7")


def test_argon2id_with_at_least_owasp_parameters():
    encoded = passwords.default_hasher().hash("klupska-lozinka-7")
    assert encoded.startswith("$argon2id$")
    p = extract_parameters(encoded)
    assert p.type is Type.ID
    assert p.memory_cost >= 19 * 1024 and p.time_cost >= 2 and p.parallelism >= 1
    # The server uses these defaults unless a cost is configured (the tests configure a cheap one).
    from app.config import Settings

    s = Settings(_env_file=None)
    assert s.argon2_time_cost is None and s.argon2_memory_kib is None
