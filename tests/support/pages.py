"""The Club's pages over HTTP without a browser: the pages' own client (a TestClient that posts
its forms with the session's CSRF token, on a fresh SQLite database), a member registered by
the form, the tournament organizer's form and an admin logged in."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.members.service import ensure_admin

PASSWORD = "secret-pass-1"


class FormClient(TestClient):
    """Posts like the pages' forms: with the session's CSRF token (tests/security/test_security_csrf.py checks it)."""

    def post(self, url, *args, data=None, **kwargs):
        from app.members.cookies import form_token

        token = self.cookies.get("klub_session")
        if token and "json" not in kwargs:
            data = {**(data or {}), "csrf": form_token(token)}
        return super().post(url, *args, data=data, **kwargs)


@pytest.fixture
def client(tmp_path):
    from app.web.main import create_app
    from tests.support.migrated import migrated_sqlite

    url = migrated_sqlite(tmp_path / "klub.db")
    settings = Settings(database_url=url, argon2_time_cost=1, argon2_memory_kib=8192, bot_delay_seconds=0)
    with FormClient(create_app(settings)) as c:
        yield c


def register(c: TestClient, name: str) -> None:
    r = c.post("/register", data={"name": name, "password": PASSWORD, "password2": PASSWORD, "next": "/lobby"},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    assert r.headers["location"] == "/lobby"


FORM = {"name": "Subotnji turnir", "game": "preferans", "format": "svajcarski", "rounds": "2",
        "start_at": "2099-12-24T19:00", "timer": "60", "round_minutes": "60", "pause_minutes": "2",
        "hands": "3", "seeding": "random"}


def as_admin(c) -> None:
    ensure_admin(c.app.state.club.db, "glavni", PASSWORD)
    c.cookies.clear()
    r = c.post("/login", data={"name": "glavni", "password": PASSWORD, "next": "/tournaments"}, follow_redirects=False)
    assert r.status_code == 303
