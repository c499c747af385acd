"""Ratings: the Weng-Lin Plackett-Luce updates checked against the paper's formulas,
computer players fixed, what is not rated, idempotent live updates, and the rebuild
giving exactly the live numbers (on every database of the test run)."""

from __future__ import annotations

import math
import random
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.db import Database
from app.db.models import Rating, RatingEvent
from app.ratings import method
from app.ratings.method import BETA, KAPPA, MU, NEW_MEMBER, SIGMA, TAU, Skill, bot_skill, displayed, provisional, rate
from app.ratings.service import current_ratings, rate_pending, rating_history, rebuild
from tests.support.ratings import T0, Seat, add_partie, members, random_parties


# -- the method, from Weng & Lin (2011), Algorithm 4 ------------------------------------------

def reference_rate(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """Weng & Lin, "A Bayesian Approximation Method for Online Ranking" (JMLR 12, 2011),
    Algorithm 4 (Plackett-Luce), one player per team, written from the paper: sigma first
    grows by the dynamics tau; c^2 = sum(sigma_i^2 + beta^2); C_q = {i: r(i) >= r(q)}, A_q
    the number of teams tied with q; gamma_i = sigma_i / c (the paper's choice, OpenSkill's
    default); kappa bounds the variance factor below."""
    sig2 = [s.sigma ** 2 + TAU ** 2 for s in skills]
    c = math.sqrt(sum(v + BETA ** 2 for v in sig2))
    k = len(skills)
    a = [sum(1 for j in range(k) if ranks[j] == ranks[q]) for q in range(k)]
    sum_q = [sum(math.exp(skills[i].mu / c) for i in range(k) if ranks[i] >= ranks[q]) for q in range(k)]
    out = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] > ranks[i]:
                continue
            p = math.exp(skills[i].mu / c) / sum_q[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        omega *= sig2[i] / c
        delta *= math.sqrt(sig2[i]) / c * sig2[i] / c ** 2
        out.append(Skill(skills[i].mu + omega, math.sqrt(sig2[i]) * math.sqrt(max(1 - delta, KAPPA))))
    return out


def close(a: Skill, b: Skill, tol: float = 1e-9) -> bool:
    return abs(a.mu - b.mu) < tol and abs(a.sigma - b.sigma) < tol


def test_two_new_members_by_hand():
    """Equal priors: the winner gains sigma^2 / (2c), the loser loses as much; both sigmas
    shrink by sqrt(1 - gamma sigma^2 / c^2 / 4)."""
    sig2 = SIGMA ** 2 + TAU ** 2  # 10001/144
    c = math.sqrt(2 * (sig2 + BETA ** 2))  # sqrt(173.625)
    gain = sig2 / (2 * c)
    sigma = math.sqrt(sig2) * math.sqrt(1 - (math.sqrt(sig2) / c) * (sig2 / c ** 2) / 4)
    winner, loser = rate([NEW_MEMBER, NEW_MEMBER], [1, 2])
    assert close(winner, Skill(MU + gain, sigma)) and close(loser, Skill(MU - gain, sigma))
    # the same numbers worked out on paper
    assert winner.mu == pytest.approx(27.635389493, abs=1e-8) and loser.mu == pytest.approx(22.364610507, abs=1e-8)
    assert winner.sigma == pytest.approx(8.065901414, abs=1e-8)
    # a draw of equals changes no mu, only sigma
    a, b = rate([NEW_MEMBER, NEW_MEMBER], [1, 1])
    assert a.mu == pytest.approx(MU) and b.mu == pytest.approx(MU) and a.sigma < SIGMA


def test_four_new_members_with_a_tie_by_hand():
    """Places 1, 2, 2, 4 among equals: from the paper's sums, omega is 3/4, -1/12, -1/12 and
    -7/12 of sigma^2 / c; delta 3/16 and 59/144 (both tied and last) of gamma sigma^2 / c^2."""
    sig2 = SIGMA ** 2 + TAU ** 2
    c = math.sqrt(4 * (sig2 + BETA ** 2))
    unit, shrink = sig2 / c, (math.sqrt(sig2) / c) * sig2 / c ** 2
    first, second, third, last = rate([NEW_MEMBER] * 4, [1, 2, 2, 4])
    assert close(first, Skill(MU + 3 / 4 * unit, math.sqrt(sig2 * (1 - 3 / 16 * shrink))))
    assert close(second, Skill(MU - 1 / 12 * unit, math.sqrt(sig2 * (1 - 59 / 144 * shrink))))
    assert close(third, second)
    assert close(last, Skill(MU - 7 / 12 * unit, math.sqrt(sig2 * (1 - 59 / 144 * shrink))))
    assert first.mu == pytest.approx(27.795253, abs=1e-6) and last.mu == pytest.approx(22.825915, abs=1e-6)


@pytest.mark.parametrize("ranks", [[1, 2], [2, 1], [1, 2, 3], [1, 1, 3], [1, 2, 2, 4], [3, 1, 1, 3], [1, 1, 1, 1],
                                   [4, 3, 2, 1]])
def test_the_method_follows_the_paper_for_unequal_ratings(ranks):
    rng = random.Random(len(ranks) * 10 + ranks[0])
    skills = [Skill(rng.uniform(10, 40), rng.uniform(1.5, 8.5)) for _ in ranks]
    for got, want in zip(rate(skills, ranks), reference_rate(skills, ranks)):
        assert close(got, want), (got, want)


def test_displayed_rating_and_provisional_rule():
    assert displayed(NEW_MEMBER) == 1500
    assert displayed(Skill(30.0, 2.0)) == 1500 + 20 * 24
    assert provisional(Skill(25.0, 3.0), method.PROVISIONAL_PARTIES - 1)
    assert provisional(Skill(25.0, method.PROVISIONAL_SIGMA + 0.1), 50)
    assert not provisional(Skill(25.0, method.PROVISIONAL_SIGMA), method.PROVISIONAL_PARTIES)
    assert [displayed(bot_skill(level)) for level in ("random", "pocetnik", "iskusan", "majstor")] == [
        1580, 1740, 1860, 1980]
    assert bot_skill("unknown") == bot_skill("majstor")


# -- in the database -----------------------------------------------------------------------------

@pytest.fixture
def db(database_url):
    database = Database(database_url)
    yield database
    database.dispose()


def _ratings(db: Database) -> dict[tuple[int, str], tuple]:
    with db.read() as s:
        return {(r.member_id, r.game): (r.mu, r.sigma, r.rating, r.parties, r.last_partie_id, r.updated_at)
                for r in s.scalars(select(Rating))}


def _events(db: Database) -> list[tuple]:
    with db.read() as s:
        return [(e.partie_id, e.member_id, e.game, e.place, e.rated, e.mu_before, e.sigma_before, e.mu_after,
                 e.sigma_after, e.rating_after, e.finished_at)
                for e in s.scalars(select(RatingEvent).order_by(RatingEvent.partie_id, RatingEvent.member_id))]


def test_members_are_rated_against_the_fixed_ratings_of_computer_players(db):
    (ana,) = members(db, ["ana"])
    bots = [Seat(None, "majstor"), Seat(None, "pocetnik"), Seat(None, "random")]
    first = add_partie(db, "lora", [Seat(ana), *bots], [2, 1, 3, 4], T0)
    second = add_partie(db, "lora", [Seat(ana), *bots], [1, 2, 2, 4], T0 + timedelta(hours=1))
    assert rate_pending(db) == 2
    fixed = [bot_skill("majstor"), bot_skill("pocetnik"), bot_skill("random")]
    after_first = rate([NEW_MEMBER, *fixed], [2, 1, 3, 4])[0]
    after_second = rate([after_first, *fixed], [1, 2, 2, 4])[0]  # the bots as they were
    mine = current_ratings(db, ana)
    assert set(mine) == {"lora"}
    assert mine["lora"]["mu"] == after_second.mu and mine["lora"]["sigma"] == after_second.sigma
    assert mine["lora"]["rating"] == displayed(after_second) and mine["lora"]["parties"] == 2
    assert mine["lora"]["provisional"] is True
    assert _ratings(db).keys() == {(ana, "lora")}  # nothing stored for a computer player
    history = rating_history(db, ana, "lora")
    assert [(h["partie_id"], h["place"], h["rating"]) for h in history] == [
        (first, 2, displayed(after_first)), (second, 1, displayed(after_second))]
    assert history[0]["finished_at"] == T0
    assert rating_history(db, ana, "preferans") == [] and current_ratings(db, ana + 1) == {}


def test_a_taken_over_seat_is_rated_and_an_otpis_partie_by_its_places(db):
    ana, boki, ceca = members(db, ["ana", "boki", "ceca"])
    add_partie(db, "preferans", [Seat(ana), Seat(boki, taken_over=True), Seat(ceca)], [3, 1, 2], T0,
               extra_result={"otpis": True, "results": [-30, 50, -20]})
    rate_pending(db)
    want = rate([NEW_MEMBER] * 3, [3, 1, 2])
    got = current_ratings(db, boki)["preferans"]
    assert (got["mu"], got["sigma"]) == (want[1].mu, want[1].sigma)
    assert current_ratings(db, ana)["preferans"]["mu"] == want[0].mu


def test_exhibitions_house_rules_and_abandoned_parties_are_not_rated(db):
    ana, boki = members(db, ["ana", "boki"])
    two_bots = [Seat(None, "iskusan"), Seat(None, "iskusan")]
    house = add_partie(db, "lora", [Seat(ana), Seat(boki), *two_bots], [1, 2, 3, 4], T0, settings={"variant": "klub"})
    lorum_house = add_partie(db, "lorum", [Seat(ana), Seat(boki), *two_bots], [1, 2, 3, 4], T0,
                             settings={"sto_jedan": True})
    add_partie(db, "lora", [Seat(ana), Seat(boki), *two_bots], [1, 2, 3, 4], T0, exhibition=True)
    add_partie(db, "lora", [Seat(ana), Seat(boki), *two_bots], [1, 2, 3, 4], status="running")
    add_partie(db, "lora", [Seat(ana), Seat(boki), *two_bots], [1, 2, 3, 4], status="withdrawn")
    no_places = add_partie(db, "lora", [Seat(ana), Seat(boki), *two_bots], None, T0)
    assert rate_pending(db) == 3
    assert _ratings(db) == {}
    events = _events(db)
    # counted for the standings (house rules), but not rated
    assert {(e[0], e[1], e[3], e[4]) for e in events} == {
        (house, ana, 1, False), (house, boki, 2, False), (lorum_house, ana, 1, False), (lorum_house, boki, 2, False),
        (no_places, ana, None, False), (no_places, boki, None, False)}
    assert all(e[5] is None and e[7] is None and e[9] is None for e in events)
    # the Club's own rules with a setting left at null are the Club's
    club_rules = add_partie(db, "lora", [Seat(ana), Seat(boki), *two_bots], [1, 2, 3, 4], T0 + timedelta(hours=1),
                            settings={"variant": None})
    assert rate_pending(db) == 1
    assert current_ratings(db, ana)["lora"]["parties"] == 1
    assert rating_history(db, ana, "lora")[0]["partie_id"] == club_rules


def test_rating_a_partie_twice_counts_once(db):
    ana, boki = members(db, ["ana", "boki"])
    add_partie(db, "preferans", [Seat(ana), Seat(boki), Seat(None, "iskusan")], [1, 2, 3], T0)
    assert rate_pending(db) == 1
    before = (_ratings(db), _events(db))
    assert rate_pending(db) == 0  # the notice published again (a replay, another instance)
    assert (_ratings(db), _events(db)) == before
    assert current_ratings(db, ana)["preferans"]["parties"] == 1
    # a lost notice: the next one catches the partie up, in the order they finished
    later = add_partie(db, "preferans", [Seat(ana), Seat(boki), Seat(None, "iskusan")], [2, 1, 3],
                       T0 + timedelta(hours=2))
    earlier = add_partie(db, "preferans", [Seat(ana), Seat(boki), Seat(None, "iskusan")], [2, 1, 3],
                         T0 + timedelta(hours=1))
    assert rate_pending(db) == 2
    assert [h["partie_id"] for h in rating_history(db, ana, "preferans")][1:] == [earlier, later]


def test_the_rebuild_gives_exactly_the_live_numbers_on_200_random_parties(db, monkeypatch, capsys):
    rng = random.Random(15)
    ids = members(db, [f"igrac{i}" for i in range(12)])
    notices = []

    def notice(pid: int) -> None:
        notices.append(pid)
        if rng.random() < 0.85:  # some notices are lost (a crash): the next one catches up
            rate_pending(db)

    parties = random_parties(db, rng, ids, 200, ["lora", "preferans", "lorum"], after_each=notice)
    rate_pending(db)
    live_ratings, live_events = _ratings(db), _events(db)
    assert len(parties) == 200 and len(live_ratings) > 20 and len(live_events) > 300
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(RatingEvent).where(RatingEvent.rated.is_(False))) > 0
    assert rebuild(db) == len({e[0] for e in live_events})
    assert _ratings(db) == live_ratings
    assert _events(db) == live_events
    # and the command line does the same
    from app.cli import main
    from app.config import get_settings

    monkeypatch.setenv("KLUB_DATABASE_URL", db.url)
    get_settings.cache_clear()
    try:
        assert main(["ratings", "rebuild"]) == 0
    finally:
        get_settings.cache_clear()
    assert "ratings rebuilt from" in capsys.readouterr().out
    assert _ratings(db) == live_ratings and _events(db) == live_events
