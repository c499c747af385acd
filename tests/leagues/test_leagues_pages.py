"""The league pages (issue 40): the list and the organizers' form, a league's page (the
next evening's register and skip buttons and countdown, the calendar, the season table),
its organizers' buttons, a closed season's page kept readable, the profile's leagues; in
Serbian by default, in English on request; every bad form a clear 4xx page that changes
nothing."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.support.api import register
from tests.support.tournaments import admin_client, body


def csrf(c, path: str = "/leagues") -> str:
    return re.search(r'name="csrf" value="([^"]+)"', c.get(path).text).group(1)


def error_of(html: str) -> tuple[str, str] | None:
    m = re.search(r'class="error" role="alert" data-code="([^"]*)">([^<]*)<', html)
    return (m.group(1), m.group(2)) if m else None


def form_of(clock, **more) -> dict[str, str]:
    b = body(clock)
    return {"name": b["name"], "game": "preferans", "format": "svajcarski", "rounds": "1", "hands": "3",
            "weekday": str(b["weekday"]), "start_time": "20:00", "zone": "Europe/Belgrade",
            "first_date": b["first_date"], "evenings": "4", "best_of": "3", "scoring": "places",
            "scale": "10 8 6 5", "timer": "60", "round_minutes": "90", "pause_minutes": "2", "open_hours": "24",
            "preferans.bule": "30", **more}


def test_the_organizer_s_form_and_its_refusals(client, app, clock):
    admin = admin_client(app)
    ana = register(app, "ana")
    assert 'id="league-form"' in admin.get("/leagues").text
    page = ana.get("/leagues").text
    assert 'id="league-form"' not in page and "Lige" in page and 'href="/leagues"' in page  # the navigation's link
    r = ana.post("/leagues", data={"csrf": csrf(ana), **form_of(clock)}, follow_redirects=False)
    assert r.status_code == 403 and error_of(r.text)[0] == "not_an_organizer"
    token = csrf(admin)
    for change, code, status in [({"scale": "5 8"}, "invalid_scale", 422), ({"best_of": "9"}, "invalid_best_of", 422),
                                 ({"first_date": "sutra"}, "invalid_date", 422),
                                 ({"skipped_dates": "2026-13-01"}, "invalid_date", 422),
                                 ({"rounds": "tri"}, "invalid_rounds", 422), ({"zone": "Mars/Olympus"}, "invalid_zone", 422),
                                 ({"start_time": "25:00"}, "invalid_time", 422)]:
        r = admin.post("/leagues", data={"csrf": token, **form_of(clock, **change)}, follow_redirects=False)
        code_shown, text = error_of(r.text)
        assert (r.status_code, code_shown) == (status, code) and text, (change, r.status_code, text)
        assert f'value="{form_of(clock, **change)["name"]}"' in r.text  # the form keeps what was typed
    assert admin.get("/api/leagues").json() == {"upcoming": [], "running": [], "finished": []}
    r = admin.post("/leagues", data={"csrf": token, **form_of(clock, bots_allowed="on")}, follow_redirects=False)
    assert r.status_code == 303
    lid = int(r.headers["location"].rsplit("/", 1)[1])
    data = admin.get(f"/api/leagues/{lid}").json()
    assert (data["settings"]["bule"], data["scale"], data["bots_allowed"], data["best_of"]) == (30, [10, 8, 6, 5], True, 3)


def test_a_member_registers_skips_and_the_organizer_closes(client, app, clock):
    admin = admin_client(app)
    lg = admin.post("/api/leagues", json=body(clock)).json()
    lid = lg["id"]
    ana = register(app, "ana")
    page = ana.get(f"/leagues/{lid}").text
    assert "Prijavi se za sezonu" in page and "league-register" in page
    start = datetime.fromisoformat(lg["calendar"][0]["starts_at"])
    seconds = int((start - clock.now()).total_seconds())
    assert f'data-seconds="{seconds}"' in page  # the countdown, from the Club's clock
    assert "league-pause" not in page and "move-evening" not in page  # not hers to run
    token = csrf(ana, f"/leagues/{lid}")
    assert ana.post(f"/leagues/{lid}/register", data={"csrf": token}, follow_redirects=False).status_code == 303
    page = ana.get(f"/leagues/{lid}").text
    assert "league-entered" in page and 'data-player="ana"' in page
    ana.post(f"/leagues/{lid}/skip", data={"csrf": token, "evening": "1"})
    assert "league-skipped" in ana.get(f"/leagues/{lid}").text
    assert ana.get(f"/api/leagues/{lid}").json()["calendar"][0]["skipped"] is True
    r = ana.post(f"/leagues/{lid}/skip", data={"csrf": token, "evening": "1"})
    assert r.status_code == 409 and error_of(r.text) == ("already_skipped", "To veče već preskačete.")
    ana.post(f"/leagues/{lid}/unskip", data={"csrf": token, "evening": "1"})
    assert "league-entered" in ana.get(f"/leagues/{lid}").text
    r = ana.post(f"/leagues/{lid}/pause", data={"csrf": token})
    assert r.status_code == 403 and error_of(r.text)[0] == "not_the_organizer"
    r = ana.post(f"/leagues/{lid}/dance", data={"csrf": token})
    assert r.status_code == 404
    assert ana.post(f"/leagues/{lid}/register", data={}).status_code == 403  # no form token
    assert ana.get(f"/api/leagues/{lid}").json()["status"] == "active"
    # the organizer: a bad move is refused with its reason, in Serbian
    admin_token = csrf(admin, f"/leagues/{lid}")
    page = admin.get(f"/leagues/{lid}").text
    assert "league-pause" in page and page.count('class="move-evening"') == 4
    wall = (start + timedelta(days=8)).astimezone(ZoneInfo("Europe/Belgrade")).strftime("%Y-%m-%dT%H:%M")  # past evening 2
    r = admin.post(f"/leagues/{lid}/move", data={"csrf": admin_token, "evening": "1", "starts_at": wall,
                                                 "zone": "Europe/Belgrade"})
    assert r.status_code == 422 and error_of(r.text)[0] == "invalid_move" and "prethodnog" in error_of(r.text)[1]
    r = admin.post(f"/leagues/{lid}/move", data={"csrf": admin_token, "evening": "1", "starts_at": "juče",
                                                 "zone": "Europe/Belgrade"})
    assert r.status_code == 422 and error_of(r.text)[0] == "invalid_start"
    assert admin.get(f"/api/leagues/{lid}").json()["calendar"] == lg["calendar"]  # nothing moved
    wall = (start + timedelta(hours=1)).astimezone(ZoneInfo("Europe/Belgrade")).strftime("%Y-%m-%dT%H:%M")
    assert admin.post(f"/leagues/{lid}/move", data={"csrf": admin_token, "evening": "1", "starts_at": wall,
                                                    "zone": "Europe/Belgrade"}, follow_redirects=False).status_code == 303
    moved = admin.get(f"/api/leagues/{lid}").json()["calendar"][0]
    assert moved["moved"] and datetime.fromisoformat(moved["starts_at"]) == start + timedelta(hours=1)
    assert admin.post(f"/leagues/{lid}/pause", data={"csrf": admin_token}, follow_redirects=False).status_code == 303
    assert "league-resume" in admin.get(f"/leagues/{lid}").text
    assert admin.post(f"/leagues/{lid}/close", data={"csrf": admin_token}, follow_redirects=False).status_code == 303
    # closed: the page is the season's archive, the list shows it among the past seasons
    page = ana.get(f"/leagues/{lid}").text
    assert 'data-status="closed"' in page and 'data-player="ana"' in page and "league-register" not in page
    assert "league-pause" not in admin.get(f"/leagues/{lid}").text
    listing = ana.get("/leagues").text
    assert listing.index(f'data-league="{lid}"') > listing.index("Prošle sezone")
    # the profile lists his leagues; English on request
    profile = ana.get("/members/ana").text
    assert 'class="profile-leagues"' in profile and f'href="/leagues/{lid}"' in profile
    assert "Season table" in ana.get(f"/leagues/{lid}?lang=en").text
    assert ana.get("/leagues/999").status_code == 404
