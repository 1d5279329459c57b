"""Outcome statistics of finished games: winners, placements, Wilson intervals, OpenSkill ratings.

Everything here is game-agnostic and works on plain per-game records (returns, scores, the
winner seats), so it can be unit-tested without playing a game.

- :func:`placements` — 1-based finishing places per seat, by return then score (ties share).
- :func:`wilson_interval` — the Wilson score interval of a binomial proportion.
- :func:`openskill_ratings` — Plackett-Luce ratings of policies from a sequence of games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import sqrt

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


def placements(returns: Sequence[float], scores: Sequence[float], winners: Sequence[int] = ()) -> list[int]:
    """1-based place per seat: winners first, then by return, then by score; equal keys share a place."""
    keys = [(seat in winners, float(r), float(s)) for seat, (r, s) in enumerate(zip(returns, scores, strict=True))]
    return [1 + sum(other > key for other in keys) for key in keys]


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``trials`` (``(0.0, 1.0)`` when there are none)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends (no rounding dust)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def openskill_ratings(labels: Sequence[str], games: Iterable[tuple[Sequence[int], Sequence[int]]]) -> dict[str, dict]:
    """OpenSkill Plackett-Luce ratings of the policies ``labels`` over ``games``, in order.

    Each game is ``(policy index per seat, place per seat)`` (place 1 is best). Every seat is
    one team of one player. When one policy holds several seats of a game, each seat is rated
    as a copy of the policy's current rating and the policy takes the mean of its copies' new
    ``mu`` and ``sigma`` — so a policy is never rewarded just for holding more seats.
    Returns ``{label: {"mu", "sigma", "ordinal"}}`` (ordinal = mu − 3·sigma).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    for seat_policy, places in games:
        teams = [[model.rating(mu=ratings[p].mu, sigma=ratings[p].sigma)] for p in seat_policy]
        rated = model.rate(teams, ranks=list(places))
        for p in set(seat_policy):
            copies = [rated[seat][0] for seat, q in enumerate(seat_policy) if q == p]
            mu = sum(c.mu for c in copies) / len(copies)
            sigma = sum(c.sigma for c in copies) / len(copies)
            ratings[p] = model.rating(mu=mu, sigma=sigma, name=labels[p])
    return {
        label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for label, r in zip(labels, ratings, strict=True)
    }
