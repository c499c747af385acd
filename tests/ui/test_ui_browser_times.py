"""Issue 36, items 8 and 11, in a real browser: the organizer's form shows only the fields of
the chosen game and format; an organizer whose browser is in New York announces a tournament
at 19:00 his time (23:00 UTC), the form and the page naming his zone; a member in Belgrade
goes on holiday until a time of his and proposes a slow partie whose weekends are his own.
Nothing the member reads says UTC. Tests wait on state, never on time."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from tests.support.browser import log_in, register
from tests.support.ui import close_watched, watched_page

NEW_YORK = "America/New_York"
BELGRADE = "Europe/Belgrade"


def _expect():
    from playwright.sync_api import expect

    return expect


def _organizer(browser, server):
    from app.db import Database
    from app.members.service import ensure_admin

    db = Database(server.db_url)
    ensure_admin(db, "zonski", "zonski-lozinka-1")
    db.write_engine.dispose()
    pg = watched_page(browser, timezone_id=NEW_YORK)
    log_in(pg, server, "zonski", "zonski-lozinka-1")
    return pg


def test_the_organizers_form_shows_the_chosen_game_and_formats_fields(browser, server):
    expect = _expect()
    pg = _organizer(browser, server)
    pg.goto(server.url + "/tournaments")
    form = pg.locator("#tournament-form")
    hands, points = form.locator("label.tournament-hands"), form.locator("label.tournament-place-points")
    preferans = form.locator("select[name='preferans.bule']")
    lora = form.locator("select[name='lora.variant']")
    form.locator("input[name=game][value=lora]").check()
    form.locator("input[name=format][value=duplikat]").check()
    for hidden in (hands, points, preferans):
        expect(hidden).to_be_hidden()
    expect(lora).to_be_visible()
    form.locator("input[name=game][value=preferans]").check()
    for shown in (hands, preferans):
        expect(shown).to_be_visible()
    expect(lora).to_be_hidden()
    expect(points).to_be_hidden()
    form.locator("input[name=format][value=svajcarski]").check()
    expect(points).to_be_visible()
    expect(form.locator("input[name=place_points]")).to_be_enabled()
    form.locator("input[name=game][value=lora]").check()
    expect(hands).to_be_hidden()
    expect(form.locator("input[name=hands]")).to_be_disabled()  # not sent for a game without it
    close_watched(pg)


def test_a_tournament_announced_in_new_york_starts_at_new_yorks_time(browser, server):
    expect = _expect()
    pg = _organizer(browser, server)
    pg.goto(server.url + "/tournaments")
    form = pg.locator("#tournament-form")
    expect(form.locator(".tz-name")).to_have_text(NEW_YORK)
    expect(form.locator("input[name=tz]")).to_have_value(NEW_YORK)
    # the start it offers: half an hour from now on New York's clock
    offered = datetime.strptime(form.locator("input[name=start_at]").input_value(), "%Y-%m-%dT%H:%M")
    offered = offered.replace(tzinfo=ZoneInfo(NEW_YORK))
    assert abs(offered - (datetime.now(timezone.utc) + timedelta(minutes=30))) < timedelta(minutes=5)
    assert "UTC" not in form.inner_text()
    form.locator("input[name=name]").fill("Njujorško veče")
    form.locator("input[name=game][value=lora]").check()
    form.locator("input[name=start_at]").fill("2099-07-04T19:00")
    form.locator("button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/tournaments/\d+$"))
    tid = int(pg.url.rsplit("/", 1)[1])
    data = pg.request.get(f"{server.url}/api/tournaments/{tid}").json()
    assert data["start_at"] == "2099-07-04T23:00:00+00:00"
    start = pg.locator(".start-time time")
    expect(start).to_contain_text("19:00")  # shown on the reader's clock
    assert "UTC" not in pg.inner_text("main") and "+00:00" not in pg.inner_text("main")
    pg.goto(server.url + "/tournaments")
    expect(pg.locator(f"article[data-tournament='{tid}'] time.local-time")).to_contain_text("19:00")
    close_watched(pg)


def test_a_holiday_and_weekends_on_a_belgrade_clock(browser, server):
    expect = _expect()
    pg = watched_page(browser, timezone_id=BELGRADE)
    register(pg, server, "zona")
    pg.goto(server.url + "/account")
    form = pg.locator("#holiday-form")
    expect(form.locator(".tz-name")).to_have_text(BELGRADE)
    until = (datetime.now(timezone.utc) + timedelta(days=2)).replace(second=0, microsecond=0)
    local = until.astimezone(ZoneInfo(BELGRADE))
    form.locator("input[name=until]").fill(local.strftime("%Y-%m-%dT%H:%M"))
    form.locator("button[type=submit]").click()
    on = pg.locator("#on-holiday time.local-time")
    expect(on).to_contain_text(local.strftime("%H:%M"))
    vacation = pg.request.get(server.url + "/api/me/vacation").json()
    assert datetime.fromisoformat(vacation["holiday"]["until"]) == until
    assert "UTC" not in pg.inner_text("#vacation")

    pg.goto(server.url + "/lobby")
    form = pg.locator("#propose-form")
    form.locator("input[name=game][value=preferans]").check()
    form.locator("select[name=timer]").select_option("43200")
    expect(form.locator("#slow-options")).to_be_visible()
    expect(form.locator("#slow-options .tz-name")).to_have_text(BELGRADE)
    assert "UTC" not in form.inner_text()
    form.locator("input[name=weekends_off]").check()
    form.locator("button[type=submit]").click()
    pg.wait_for_url(re.compile(r".*/table/\d+$"))
    pid = int(pg.url.rsplit("/", 1)[1])
    summary = pg.request.get(f"{server.url}/api/parties/{pid}").json()
    assert summary["weekends_off"] and summary["weekend_zone"] == BELGRADE
    expect(pg.locator("#slow-rules")).to_contain_text(BELGRADE)
    close_watched(pg)
