"""Glicko-2 (app/problems/glicko.py) on Glickman's worked example, and the ratings of a
member and a problem moving by it over a scripted sequence of answers."""

from __future__ import annotations

import math

import pytest

from app.problems.glicko import MIN_DEVIATION, Glicko, answer, update


def test_glickmans_worked_example():
    """"Example of the Glicko-2 system" (Glickman, 2013): a 1500 player (RD 200, volatility
    0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), with
    τ = 0.5: 1464.06, RD 151.52, volatility 0.05999 (the paper rounds its steps: the exact
    computation gives 1464.05)."""
    after = update(Glicko(1500, 200, 0.06), [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)],
                   tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    """Step 6 alone: φ' = sqrt(φ² + σ²) on Glicko-2's scale."""
    after = update(Glicko(1500, 200, 0.06), [])
    phi = 200 / 173.7178
    assert after.rating == 1500
    assert after.deviation == pytest.approx(173.7178 * math.sqrt(phi * phi + 0.06 ** 2))


def test_a_scripted_sequence_of_answers():
    """A member answers four problems: best, not, best, best. After each both ratings are
    Glicko-2's update from the ratings before it (the member scored 1 or 0 against the
    problem, the problem the other); a best answer raises the member and lowers the problem,
    and the deviations shrink to no less than the floor."""
    member = Glicko()
    problems = [Glicko(1500), Glicko(1650, 120), Glicko(1400, 80), Glicko(1800, 60)]
    script = [True, False, True, True]
    for problem, solved in zip(problems, script):
        m2, p2 = answer(member, problem, solved)
        assert m2 == update(member, [(problem, 1.0 if solved else 0.0)], min_deviation=MIN_DEVIATION)
        assert p2 == update(problem, [(member, 0.0 if solved else 1.0)], min_deviation=MIN_DEVIATION)
        assert (m2.rating > member.rating) == solved
        assert (p2.rating < problem.rating) == solved
        assert m2.deviation < member.deviation and m2.deviation >= MIN_DEVIATION
        member = m2
    # the first answer of a newcomer against a new problem: +/- the same, about 162 points
    first, _ = answer(Glicko(), Glicko(), True)
    worst, _ = answer(Glicko(), Glicko(), False)
    assert first.rating - 1500 == pytest.approx(1500 - worst.rating)
    assert 150 < first.rating - 1500 < 175
