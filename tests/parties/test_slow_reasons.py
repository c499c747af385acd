"""Issue 39, item 7, slow parties: a holiday is not charged for the weekend hours of a
weekends-off partie; a standing clock says why and until when; the lobby's time left
counts the vacation hours that will be spent (docs/rulings.md, "Slow parties").

The Club's clock is a ManualClock that starts on a Monday morning (UTC) and is moved."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.clock import ManualClock
from app.db.models import PartieSeat
from app.parties.slow_time import HOUR, Pauses, charged_hours, standing
from tests.support.api import register
from tests.support.web import wait_for

UTC = timezone.utc
MONDAY = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
YEAR = 240  # KLUB_VACATION_DAYS_PER_YEAR's 10 days, in hours


def at(day: int, hour: float = 0) -> datetime:
    """January 2025, day ``day`` (the 6th is a Monday), ``hour`` UTC."""
    return datetime(2025, 1, day, tzinfo=UTC) + timedelta(hours=hour)


@pytest.fixture
def clock():
    return ManualClock(MONDAY)


def seat_row(app, pid: int, seat: int) -> PartieSeat:
    with app.state.club.db.read() as s:
        return s.get(PartieSeat, (pid, seat))


def with_bots(c, app, **options) -> int:
    """A slow preferans partie of the member of ``c`` and two computer players, at his turn."""
    r = c.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1}, "timer": HOUR,
                                     "seats": [{"kind": "bot"}, {"kind": "bot"}], **options})
    assert r.status_code == 201, r.text
    pid = r.json()["id"]
    wait_for(lambda: seat_row(app, pid, 0).turn_since is not None)
    return pid


def test_the_hours_a_holiday_costs():
    friday, tuesday = at(10, 12), at(14, 12)  # Friday noon to Tuesday noon: 96 hours, 48 of them a weekend (UTC)
    assert charged_hours(friday, tuesday, None) == 96  # no partie, or one that counts weekends
    assert charged_hours(friday, tuesday, [None]) == 48
    assert charged_hours(friday, tuesday, [None, None, "UTC"]) == 48
    # two zones: free only the hours that are a weekend in both (Tokyo's is Friday 15:00 to Sunday 15:00 UTC)
    assert charged_hours(friday, tuesday, [None, "Asia/Tokyo"]) == 96 - 39
    assert charged_hours(at(11, 1), at(11, 2, ), [None]) == 0  # a Saturday hour
    assert charged_hours(at(10, 23.5), at(11, 0.5), [None]) == 1  # half an hour counts: rounded up
    assert charged_hours(at(10, 23.5), at(11, 0.5), [None], round) == 0  # (given back: rounded down)


def test_why_a_clock_stands_and_until_when():
    weekends = Pauses(weekends=True)
    assert standing(at(11, 10), weekends) == [("weekend", at(13))]
    assert standing(at(10, 10), weekends) == []
    # a holiday that touches the weekend: both, in order
    both = Pauses(weekends=True, holiday=(at(10, 20), at(14, 6)))
    assert standing(at(10, 21), both) == [("holiday", at(14, 6))]
    assert standing(at(11, 3), both) == [("holiday", at(14, 6))]  # the holiday ends later: it is the reason
    early = Pauses(weekends=True, holiday=(at(9, 20), at(11, 6)))
    assert standing(at(9, 21), early) == [("holiday", at(11, 6)), ("weekend", at(13))]
    assert standing(at(11, 7), early) == [("weekend", at(13))]
    assert standing(at(11, 7), Pauses(holiday=(at(9, 20), at(11, 6)))) == []


def test_a_holiday_is_not_charged_for_a_weekends_off_parties_weekend(client, app, clock):
    ana, bora, cica = register(app, "ana"), register(app, "bora"), register(app, "cica")
    pid = with_bots(ana, app, weekends_off=True)
    until = at(14, 12)  # from Monday 6th 9:00 to Tuesday 14th 12:00: 195 hours, 48 of them the weekend
    r = ana.put("/api/me/holiday", json={"until": until.isoformat()})
    assert r.status_code == 200, r.text
    assert r.json()["hours_left"] == YEAR - (195 - 48)
    # his clock stands, and says why and until when
    clock.advance(days=5)  # Saturday 11th, 9:00: the holiday goes on until Tuesday, the weekend within it
    mine = ana.get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"][0]
    assert mine["paused"] and mine["stands"] == [{"why": "holiday", "until": until.isoformat()}]
    # back on Saturday: the hours not used come back by the same rule (the weekend's were never paid)
    r = ana.delete("/api/me/holiday")
    assert r.status_code == 200 and r.json()["hours_left"] == YEAR - (4 * 24 + 15)  # Monday 9:00 to Friday's end
    mine = ana.get(f"/api/parties/{pid}/clocks").json()["slow"]["clocks"][0]
    assert mine["stands"] == [{"why": "weekend", "until": at(13).isoformat()}]
    # a partie that counts weekends: every hour is charged; none at all: every hour too
    with_bots(bora, app)
    assert bora.put("/api/me/holiday", json={"until": at(13, 9).isoformat()}).json()["hours_left"] == YEAR - 48
    assert cica.put("/api/me/holiday", json={"until": at(13, 9).isoformat()}).json()["hours_left"] == YEAR - 48
    # a proposal he accepted counts as his partie: ana's own now counts weekends too
    r = ana.post("/api/parties", json={"game": "preferans", "settings": {"bule": 30, "refe": 1}, "timer": HOUR,
                                       "seats": [{"kind": "member", "name": "cica"}, {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    before = ana.get("/api/me/vacation").json()["hours_left"]
    assert ana.put("/api/me/holiday", json={"until": at(13, 9).isoformat()}).json()["hours_left"] == before - 48


def test_the_lobby_counts_the_vacation_that_will_be_spent(client, app, clock):
    ana = register(app, "ana")
    pid = with_bots(ana, app, bank=2 * HOUR)
    mine = next(p for p in ana.get("/api/lobby").json()["playing"] if p["id"] == pid)["my_clock"]
    assert mine["left"] == 3 * HOUR and mine["vacation_left"] == YEAR
    assert mine["with_vacation"] == 3 * HOUR + YEAR * HOUR
    page = ana.get("/lobby/live").text
    assert "vaše vreme: 10 d 3 h" in page.lower() and "(sa 240 h odmora koji će se potrošiti)" in page
    # a holiday's hours are spent already: they are no longer to spend
    assert ana.put("/api/me/holiday", json={"until": (MONDAY + timedelta(hours=10)).isoformat()}).status_code == 200
    mine = next(p for p in ana.get("/api/lobby").json()["playing"] if p["id"] == pid)["my_clock"]
    assert mine["vacation_left"] == YEAR - 10 and mine["with_vacation"] == 3 * HOUR + (YEAR - 10) * HOUR
