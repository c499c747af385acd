"""Issue 36, items 8 and 11, without a browser: a member who cannot join a tournament reads
why (half of the rounds have started, the organizer removed him, it is over, it allows no
bots); a started tournament says when it started, not that it starts at a time gone by;
the organizer's form marks the fields of one game or one format, names its time zone and
reads the start in the zone it was filled in. The browser's part: tests/ui/test_ui_browser_times.py."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from types import SimpleNamespace

from tests.support.pages import FORM, PASSWORD, as_admin, client, register  # noqa: F401


def _as(c, name: str) -> None:
    c.cookies.clear()
    r = c.post("/login", data={"name": name, "password": PASSWORD, "next": "/lobby"}, follow_redirects=False)
    assert r.status_code == 303, r.text


def _members(c, *names: str) -> None:
    for name in names:
        c.cookies.clear()
        register(c, name)


def _create(c, **form) -> str:
    r = c.post("/tournaments", data={**FORM, **form}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"]


def _closed(page: str) -> str | None:
    found = re.search(r'class="muted join-closed" data-reason="(\w+)">([^<]*)<', page)
    return found and found.group(1)


def test_a_member_who_cannot_join_reads_why(client):  # noqa: F811
    _members(client, "prvi", "drugi", "treci", "kasni")
    as_admin(client)
    path = _create(client)  # preferans, Swiss, two rounds
    for name in ("prvi", "drugi", "treci"):
        _as(client, name)
        assert client.post(path + "/register", follow_redirects=False).status_code == 303
    _as(client, "kasni")
    page = client.get(path).text
    assert "join-tournament" in page and _closed(page) is None
    assert re.search(r'class="muted start-time">Počinje <time datetime="2099-12-24T18:00:00\+00:00" class="local-time">'
                     r"24\. 12\. 2099\. 19:00 \(Europe/Belgrade\)</time>", page)

    as_admin(client)
    assert client.post(path + "/start", follow_redirects=False).status_code == 303  # round 1 of 2: half
    assert client.post(path + "/remove", data={"name": "treci"}, follow_redirects=False).status_code == 303

    _as(client, "kasni")
    page = client.get(path).text
    assert "join-tournament" not in page and _closed(page) == "registration_closed"
    assert "Prijave su zatvorene: počela je polovina kola." in page
    assert "half of the rounds have started" in client.get(path + "?lang=en").text
    client.get(path + "?lang=sr-Latn")
    # a started tournament: when it started, never "starts" at a time gone by
    assert 'class="muted start-time">Počeo <time' in page and "Počinje" not in page
    listing = client.get("/tournaments").text
    assert "Prijave su zatvorene: počela je polovina kola." in listing and "join-tournament" not in listing

    _as(client, "treci")
    page = client.get(path).text
    assert _closed(page) == "removed" and "Organizator vas je uklonio sa ovog turnira." in page
    _as(client, "prvi")
    page = client.get(path).text
    assert _closed(page) is None and "leave-tournament" in page  # he plays: nothing to explain


def test_an_ended_tournament_and_a_bot_say_why(client):  # noqa: F811
    from app.web.pages.tournaments import join_closed

    _members(client, "clan")
    as_admin(client)
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M")
    path = _create(client, start_at=now, tz="UTC")  # due at once with nobody registered: cancelled
    _as(client, "clan")
    page = client.get(path).text
    assert _closed(page) == "tournament_over" and "Ovaj turnir je završen." in page
    assert "Trebalo je da počne" in page and "Počinje" not in page
    bot = SimpleNamespace(role="bot")
    open_one = {"me": {"registered": False, "removed": False, "may_join": True}, "status": "registration",
                "bots_allowed": False}
    assert join_closed(open_one, bot) == "bots_not_allowed"
    assert join_closed({**open_one, "bots_allowed": True}, bot) is None


def test_the_organizers_form_marks_its_fields_and_reads_the_start_in_its_zone(client):  # noqa: F811
    as_admin(client)
    page = client.get("/tournaments").text
    assert re.search(r'<label class="tournament-hands" data-for="preferans">', page)
    assert re.search(r'<label class="tournament-place-points" data-for="svajcarski">', page)
    form = page[page.index('id="tournament-form"'):]
    assert '<span class="tz-name">Europe/Belgrade</span>' in form and 'name="tz"' in form and "UTC" not in form
    assert re.search(r'name="start_at" value="[0-9T:-]{16}" data-at="[0-9T:.+-]+"', form)
    # filled in New York: 19:00 there is 23:00 UTC in July
    path = _create(client, start_at="2099-07-04T19:00", tz="America/New_York")
    data = client.get("/api" + path).json()
    assert data["start_at"] == "2099-07-04T23:00:00+00:00"
    # a zone the server does not know (or none: no JavaScript): the Club's, which the page names
    path = _create(client, start_at="2099-07-04T19:00", tz="Mars/Olympus")
    assert client.get("/api" + path).json()["start_at"] == "2099-07-04T17:00:00+00:00"
