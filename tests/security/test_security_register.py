"""Registration is throttled per client address (the real default: 5 accounts an hour)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import LoginFailure, Member
from app.errors import ClubError
from tests.support.security import PASSWORD, snapshot

DEFAULT_LIMIT = Settings.model_fields["register_max_per_address"].default
DEFAULT_WINDOW = Settings.model_fields["register_window_seconds"].default
SR_TEXT = "Previše novih naloga sa ove adrese; pokušajte kasnije."
EN_TEXT = "Too many new accounts from this address; try again later."


@pytest.fixture
def throttled(settings):
    """The app with the default registration limit (conftest raises it for the other tests)."""
    from app.web.main import create_app

    assert (DEFAULT_LIMIT, DEFAULT_WINDOW) == (5, 3600)
    real = settings.model_copy(update={"register_max_per_address": DEFAULT_LIMIT,
                                       "register_window_seconds": DEFAULT_WINDOW})
    return create_app(real)


def members_count(app) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(func.count()).select_from(Member))


def register(c: TestClient, name: str):
    return c.post("/api/auth/register", json={"name": name, "password": PASSWORD})


def test_five_accounts_per_address_then_429_and_nothing_created(throttled):
    app = throttled
    with TestClient(app) as c:
        # Failed registrations do not use up the address's accounts.
        assert register(c, "x").status_code == 422
        assert c.post("/api/auth/register", json={"name": "kratka", "password": "short"}).status_code == 422
        for k in range(DEFAULT_LIMIT):
            r = register(TestClient(app), f"clan{k}")
            assert r.status_code == 201, r.text
            if k == 0:
                assert register(c, "clan0").json()["error"]["code"] == "name_taken"
        before = snapshot(app.state.club.db)
        r = register(c, "sesti")
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "too_many_registrations"
        assert "too many new accounts from this address" in r.json()["error"]["message"]
        assert 3500 <= int(r.headers["Retry-After"]) <= DEFAULT_WINDOW
        assert snapshot(app.state.club.db) == before  # nothing created, nothing counted
        # The HTML registration form shares the limit, and says so in the page's language
        # (Serbian by default).
        page = c.post("/register", data={"name": "sedmi", "password": PASSWORD, "password2": PASSWORD},
                      follow_redirects=False)
        assert page.status_code == 429 and SR_TEXT in page.text, page.text
        assert "too many new accounts" not in page.text.lower()
        assert 3500 <= int(page.headers["Retry-After"]) <= DEFAULT_WINDOW
        page = c.post("/register?lang=en", data={"name": "sedmi", "password": PASSWORD, "password2": PASSWORD},
                      follow_redirects=False)
        assert page.status_code == 429 and EN_TEXT in page.text and SR_TEXT not in page.text
        c.cookies.delete("klub_lang")
        assert snapshot(app.state.club.db) == before
        assert members_count(app) == DEFAULT_LIMIT
        # Members of that address still log in.
        assert c.post("/api/auth/login", json={"name": "clan1", "password": PASSWORD}).status_code == 200

    # Another address is not affected.
    with TestClient(app, client=("203.0.113.9", 50000)) as other:
        assert register(other, "drugi").status_code == 201

    # Another instance on the same database agrees.
    from app.web.main import create_app

    with TestClient(create_app(app.state.club.settings)) as c2:
        assert register(c2, "treci").status_code == 429

    # When the window has passed the address may register again.
    with app.state.club.db.write() as s:
        for row in s.scalars(select(LoginFailure)):
            row.created_at -= timedelta(seconds=DEFAULT_WINDOW)
    with TestClient(app) as c:
        assert register(c, "kasnije").status_code == 201


def test_the_form_registers_under_the_limit_and_refuses_over_it(throttled):
    app = throttled
    with TestClient(app) as c:
        for k in range(DEFAULT_LIMIT):
            c.cookies.clear()
            r = c.post("/register", data={"name": f"forma{k}", "password": PASSWORD, "password2": PASSWORD},
                       follow_redirects=False)
            assert r.status_code == 303, r.text[:300]
        c.cookies.clear()
        r = c.post("/register", data={"name": "forma9", "password": PASSWORD, "password2": PASSWORD},
                   follow_redirects=False)
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert register(c, "api9").status_code == 429
    assert members_count(app) == DEFAULT_LIMIT


RACERS = 10


def _race(settings, calls) -> list[str]:
    """Run ``calls[i](club_i)`` at once, each with its own Club (as if from its own instance)."""
    import threading

    from app.club import Club

    clubs = [Club.from_settings(settings) for _ in calls]
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            calls[i](clubs[i])
            outcomes.append("created")
        except ClubError as e:
            outcomes.append(e.code)
        except Exception as e:  # noqa: BLE001 - every failure is an outcome to count
            outcomes.append(repr(e)[:300])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in clubs:
        c.db.dispose()
    return outcomes


def _register_rows(app, address: str) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(func.count()).select_from(LoginFailure).where(LoginFailure.key == f"register:{address}"))


def test_simultaneous_registrations_from_one_address_pass_the_limit_exactly(throttled):
    """10 registrations from one address at once, through 10 Clubs on one database (the
    advisory lock on PostgreSQL, BEGIN IMMEDIATE on SQLite): exactly the limit passes."""
    from app.members.service import create_account

    app, address = throttled, "198.51.100.7"
    settings = app.state.club.settings
    calls = [lambda club, i=i: create_account(club.db, club.settings, f"trka{i}", PASSWORD, address) for i in range(RACERS)]
    outcomes = _race(settings, calls)
    assert sorted(outcomes) == sorted(["created"] * DEFAULT_LIMIT + ["too_many_registrations"] * (RACERS - DEFAULT_LIMIT)), outcomes
    assert members_count(app) == DEFAULT_LIMIT
    assert _register_rows(app, address) == DEFAULT_LIMIT


def test_failed_simultaneous_registrations_give_their_slots_back(throttled):
    """Some of them fail (a name taken before, or by another racer); no failure keeps a slot,
    so the address still has exactly limit - created registrations left."""
    from app.members.service import create_account

    app, address = throttled, "198.51.100.8"
    settings = app.state.club.settings
    with TestClient(app, client=("203.0.113.10", 50000)) as other:
        assert register(other, "zauzeto").status_code == 201
    names = ["zauzeto", "zauzeto", "dupla", "dupla", "dupla"] + [f"slobodan{i}" for i in range(RACERS - 5)]
    calls = [lambda club, n=n: create_account(club.db, club.settings, n, PASSWORD, address) for n in names]
    outcomes = _race(settings, calls)
    created = outcomes.count("created")
    assert set(outcomes) <= {"created", "name_taken", "too_many_registrations"}, outcomes
    assert 1 <= created <= DEFAULT_LIMIT, outcomes
    with app.state.club.db.read() as s:
        made = s.scalars(select(Member.name).where(Member.name != "zauzeto")).all()
    assert len(made) == created and len(set(made)) == created and "zauzeto" not in made
    assert _register_rows(app, address) == created
    for i in range(DEFAULT_LIMIT - created):
        create_account(app.state.club.db, app.state.club.settings, f"kasnije{i}", PASSWORD, address)
    with pytest.raises(ClubError) as refused:
        create_account(app.state.club.db, app.state.club.settings, "prekobrojan", PASSWORD, address)
    assert refused.value.code == "too_many_registrations"


def test_simultaneous_registrations_of_one_name_create_it_once(throttled):
    """The same name from 10 addresses at once: one account, the others name_taken (not a 500
    from the database's unique key on PostgreSQL), and no address keeps a slot for it."""
    from app.members.service import create_account

    app = throttled
    addresses = [f"198.51.100.{20 + i}" for i in range(RACERS)]
    outcomes = _race(app.state.club.settings, [lambda club, a=a: create_account(club.db, club.settings, "isto", PASSWORD, a) for a in addresses])
    assert sorted(outcomes) == sorted(["created"] + ["name_taken"] * (RACERS - 1)), outcomes
    assert members_count(app) == 1
    assert sum(_register_rows(app, a) for a in addresses) == 1


def test_a_name_is_the_whole_rule_not_a_prefix(client):
    """"$" also matched before a trailing newline: "bob\\n" was registered next to "bob".
    The rule is matched against the whole name; control characters are refused (a NUL, as
    in any text, before the name's rule: app/web/nul.py)."""
    for name in ["bob\n", "bob\r\n", "bo\x00b", "\nbob", "bob\t", "b o b"]:
        r = register(client, name)
        assert r.status_code == 422, (name, r.text)
        assert r.json()["error"]["code"] == ("nul_character" if "\x00" in name else "invalid_name")
    assert register(client, "bob").status_code == 201
    with client.app.state.club.db.read() as s:
        assert s.scalars(select(Member.name)).all() == ["bob"]
