"""The tournament pages without a browser: the list and the organizer's form, its errors in
the page's language, the tournament page's actions by form (register, leave, start,
pause, remove), the admin naming an organizer, and the missing pages."""

from __future__ import annotations

import re

from tests.support.pages import FORM, PASSWORD, as_admin, client, register  # noqa: F401


def test_organizer_form_errors_and_actions(client):  # noqa: F811
    register(client, "clan")
    page = client.get("/tournaments")
    assert page.status_code == 200 and "Turniri" in page.text and "tournament-form" not in page.text
    r = client.post("/tournaments", data=FORM)
    assert r.status_code == 403 and "Turnire raspisuju samo administratori" in r.text

    as_admin(client)
    assert "tournament-form" in client.get("/tournaments").text
    r = client.post("/tournaments", data={**FORM, "hands": "4"})  # not a multiple of 3
    assert r.status_code == 422 and 'role="alert"' in r.text and "Ta podešavanja nisu dozvoljena" in r.text
    r = client.post("/tournaments", data={**FORM, "start_at": "juče"})
    assert r.status_code == 422 and "Početak je datum i vreme" in r.text
    r = client.post("/tournaments", data={**FORM, "place_points": "tri dva"})
    assert r.status_code == 422 and "Poeni za plasman su brojevi" in r.text
    r = client.post("/tournaments", data=FORM, follow_redirects=False)
    assert r.status_code == 303
    path = r.headers["location"]
    tid = int(re.fullmatch(r"/tournaments/(\d+)", path).group(1))
    page = client.get(path)
    assert "Subotnji turnir" in page.text and "švajcarski sistem" in page.text and "commitment" in page.text
    assert "start-round" in page.text  # the organizer's controls

    # an admin names a member an organizer on /account
    r = client.post("/account/organizer", data={"name": "clan", "organizer": "on"})
    assert r.status_code == 200 and "clan sada organizuje turnire" in r.text
    r = client.post("/account/organizer", data={"name": "niko", "organizer": "on"})
    assert r.status_code == 404 and 'id="organizer-error"' in r.text

    # a member registers and leaves by the page's forms
    client.cookies.clear()
    client.post("/login", data={"name": "clan", "password": PASSWORD, "next": "/lobby"})
    r = client.post(f"/tournaments/{tid}/register", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == path
    page = client.get(path)
    assert "leave-tournament" in page.text and "clan" in page.text
    r = client.post(f"/tournaments/{tid}/register")
    assert r.status_code == 409 and "Već ste prijavljeni" in r.text
    r = client.post(f"/tournaments/{tid}/start")  # he organizes, but not this one
    assert r.status_code == 403 and "To može samo organizator turnira" in r.text
    assert client.post(f"/tournaments/{tid}/leave", follow_redirects=False).status_code == 303
    assert "join-tournament" in client.get(path).text
    # English on request
    page = client.get(path + "?lang=en")
    assert "Swiss" in page.text and "Join" in page.text


def test_missing_and_refused_tournament_pages(client):  # noqa: F811
    register(client, "gost")
    assert client.get("/tournaments/4242").status_code == 404
    assert client.get("/tournaments/4242/rounds/1/boards/1").status_code == 404
    assert client.post("/tournaments/4242/register").status_code == 404
    assert client.post("/tournaments/1/dance").status_code == 404
    client.cookies.clear()
    r = client.get("/tournaments", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
