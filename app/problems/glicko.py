"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), pure.

A member's answer to a problem is one game between the member and the problem: 1 for the
member when he found the best word, 0 when not; both are rated, each answer a rating
period of one game (as lichess rates its puzzles). The numbers are on Glicko's scale
(1500, deviation 350 for a newcomer).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale factor (400 / ln 10)
TAU = 0.5  # the system constant: how much the volatility may change (the paper's example)
EPSILON = 0.000001  # the convergence tolerance of the volatility's iteration
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
MIN_DEVIATION = 45.0  # a floor, as lichess keeps one, so ratings keep moving


@dataclass(frozen=True)
class Glicko:
    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, games: Iterable[tuple[Glicko, float]], tau: float = TAU,
           min_deviation: float = 0.0) -> Glicko:
    """The player's rating after one rating period of ``games`` (the opponent's rating
    before the period, the player's score: 1, 0.5 or 0); no games: only the deviation grows."""
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    results = [((o.rating - START) / SCALE, o.deviation / SCALE, s) for o, s in games]
    if not results:
        phi_new = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, max(min_deviation, phi_new * SCALE), sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, s in results:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (s - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(START + SCALE * mu_new, max(min_deviation, SCALE * phi_new), sigma_new)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def answer(member: Glicko, problem: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The member's and the problem's ratings after his answer (both from the ratings
    before it)."""
    score = 1.0 if solved else 0.0
    return (update(member, [(problem, score)], min_deviation=MIN_DEVIATION),
            update(problem, [(member, 1.0 - score)], min_deviation=MIN_DEVIATION))
