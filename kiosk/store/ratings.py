"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), without dependencies.

Each rated match is one rating period for both players: both are updated at once from their
ratings before the match. A player who sits out a period keeps their rating; only their
deviation grows (``idle``). Scores: 1 win, 0 loss (a match has no draw; 0.5 is accepted anyway).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's conversion factor between the Glicko scale and its internal scale."""
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2)."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility iteration."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale: rating, deviation (RD) and volatility."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois variant of regula falsi on f(x)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
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


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one period with ``games`` (opponent's rating before, score 0..1)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return idle(player)
    v_inv = 0.0
    total = 0.0
    for opponent, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score!r}")
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma_new = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new)


def idle(player: Rating) -> Rating:
    """``player`` after a period without games: the deviation grows, nothing else changes."""
    phi = player.rd / SCALE
    phi_new = math.sqrt(phi * phi + player.volatility * player.volatility)
    return Rating(player.rating, min(SCALE * phi_new, DEFAULT_RD), player.volatility)


def rate_match(first: Rating, second: Rating, first_score: float, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' ratings after one match between them (``first_score``: 1 first won, 0 lost)."""
    return (
        rate(first, [(second, first_score)], tau),
        rate(second, [(first, 1.0 - first_score)], tau),
    )
