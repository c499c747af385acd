"""A member solves the problem of the day on a phone (390x844, touch), in Debian's
Chromium: from the lobby's problem of the day to the problem's table, a tap on the best
card, the verdict at once (best, every choice's value, the line, the replay's link), his
rating and streak on his profile. Every wait is on the page's state."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models.problems import Problem
from app.problems import feed, reads
from app.problems.mining import mine_deal
from tests.support.club import Seat, store_finished
from tests.support.ui import shot, watched_page

PHONE = {"width": 390, "height": 844}
PASSWORD = "klupska-lozinka-7"


def test_a_member_solves_the_problem_of_the_day_on_a_phone(live_server, browser):
    club = live_server.club
    pg = watched_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        r = pg.request.post(live_server.url + "/api/auth/register", data={"name": "vesna", "password": PASSWORD},
                            headers={"Origin": live_server.origin})
        assert r.status == 201
        pid = store_finished(club.db, "lorum", [Seat("vesna")] + [Seat()] * 3, rng_seed=7)
        record = feed.open_record(club, pid)
        for k in range(len(record["deals"])):  # a fresh deal each time: mined until one gives a problem
            if feed.store_deal(club, pid, {**mine_deal(record, k), "game": "lorum"}):
                break
        day = reads.problem_of_the_day(club)
        assert day is not None
        with club.db.read() as s:
            best = s.get(Problem, day["id"]).best
        pg.goto(live_server.url + "/lobby")
        pg.locator("#zadatak-dana").wait_for()
        assert day["question"]["sr"] in pg.inner_text("#zadatak-dana")
        pg.tap("#zadatak-dana-solve")
        pg.wait_for_url("**/zadaci?dan=1")
        pg.locator("#zadatak-board button.choice").first.wait_for()
        assert pg.inner_text("#zadatak-question").endswith(day["question"]["sr"])
        # the whole table fits the phone's width, the choices big enough to tap
        assert pg.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        choice = pg.locator(f'#zadatak-board button.choice[data-card="{best}"], '
                            f'#zadatak-board button.choice[data-word="{best}"]')
        box = choice.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40
        shot(pg, "zadatak-phone")
        choice.tap()
        pg.locator('.verdict-title[data-correct="true"]').wait_for()
        verdict = pg.inner_text("#zadatak-verdict")
        assert "Najbolje!" in verdict
        assert pg.locator(f'.verdict-values li.best[data-word="{best}"]').count() == 1
        assert pg.locator("#zadatak-board button.choice").count() == 0  # answered: no more choices
        replay = pg.get_attribute(".zadatak-replay", "href")
        assert replay.startswith(f"/archive/{pid}#deal=")
        assert pg.inner_text("#zadaci-streak") == "1"
        shot(pg, "zadatak-phone-solved")
        with club.db.read() as s:
            p = s.scalars(select(Problem).where(Problem.id == day["id"])).one()
            assert (p.attempts, p.solved) == (1, 1)
        # his profile: the problem rating, the streak, the answer
        pg.goto(live_server.url + "/members/vesna")
        pg.locator("#profile-zadaci").wait_for()
        assert pg.inner_text("#profile-zadaci-streak") == "1"
        assert pg.locator(f'#profile-zadaci li[data-problem="{day["id"]}"].best').count() == 1
    finally:
        from tests.support.ui import close_watched

        close_watched(pg)
