"""Sequential probability ratio test (SPRT) of one policy against another, game by game.

``training.evaluation.evaluate --sprt --policies A B`` plays A in one seat against ``n − 1`` copies of B,
seats rotated and deals seeded exactly as in a tournament (game ``g`` of seed ``s`` is the same
game as in ``run_tournament``), and stops as soon as Wald's SPRT accepts one hypothesis:

- H0: A is ``elo0`` rating points stronger than B (default 0: no stronger);
- H1: A is ``elo1`` points stronger (default 50).

Points are those of the reference ladders (``training.evaluation.ladder``): with one A seat against ``n − 1`` B
seats, A's seat wins with probability ``p(elo) = 1 / (1 + (n − 1) · 10^(−elo/400))`` (the ladder's
``win_probability(elo, 0, n)``; two players: 0 points = 0.5, 50 points = 0.571). Each game scores
A's share of the winners: 1 for a win, 0 for a loss, ``k / w`` when A is one of ``w`` winners (a
Dead Man's Draw tie counts 1/2, as a draw in chess); a game without a winner scores nothing and only
counts as played. The log-likelihood ratio adds
``x log(p1/p0) + (1 − x) log((1 − p1)/(1 − p0))`` per scored game (exact for win/loss; a tie
counts as half a win and half a loss, which overstates its variance, so ties make the test
conservative rather than hasty). The test stops at ``LLR ≥ log((1 − β)/α)`` (accept H1) or
``LLR ≤ log(β/(1 − α))`` (accept H0); defaults ``α = β = 0.05``. ``max_games`` caps it: no
decision then.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..inputs import InputError
from . import ladder

DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 50.0
DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds: accept H0 at or below the lower, H1 at or above the upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def game_score(winners: list[int], a_seats: list[int]) -> float | None:
    """A's share of the winners (None for a game without a winner)."""
    if not winners:
        return None
    return sum(seat in a_seats for seat in winners) / len(winners)


class SPRT:
    """The running test: feed game scores with :meth:`add`; :attr:`decision` is None, ``"H0"`` or ``"H1"``."""

    def __init__(self, p0: float, p1: float, alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> None:
        if not 0.0 < p0 < p1 < 1.0:
            raise InputError(f"SPRT needs 0 < p0 < p1 < 1 (elo0 < elo1); got p0={p0:.4f}, p1={p1:.4f}")
        for name, value in (("alpha", alpha), ("beta", beta)):
            if not 0.0 < value < 0.5:
                raise InputError(f"SPRT {name} must be in (0, 0.5); got {value}")
        self.p0, self.p1, self.alpha, self.beta = p0, p1, alpha, beta
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self.win_step = math.log(p1 / p0)
        self.loss_step = math.log((1.0 - p1) / (1.0 - p0))
        self.llr = 0.0
        self.score = 0.0
        self.scored = 0
        self.decision: str | None = None

    def add(self, score: float | None) -> str | None:
        if score is not None and self.decision is None:
            self.llr += score * self.win_step + (1.0 - score) * self.loss_step
            self.score += score
            self.scored += 1
            if self.llr >= self.upper:
                self.decision = "H1"
            elif self.llr <= self.lower:
                self.decision = "H0"
        return self.decision


def run_sprt(
    env_id: str,
    num_players: int | None,
    first: Any,
    second: Any,
    elo0: float = DEFAULT_ELO0,
    elo1: float = DEFAULT_ELO1,
    alpha: float = DEFAULT_ALPHA,
    beta: float = DEFAULT_BETA,
    max_games: int = 1000,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``first`` against ``second`` until the SPRT decides or ``max_games`` are played (module docstring)."""
    from ..inputs import policy_label
    from .tournament import play_seated_game, prepare_tournament, seating

    if elo1 <= elo0:
        raise InputError(f"--elo1 must be above --elo0; got elo0={elo0}, elo1={elo1}")
    labels = [policy_label(first), policy_label(second)]
    if labels[0] == labels[1]:
        labels[1] += "#2"
    policies = dict(zip(labels, (first, second), strict=True))
    tournament = prepare_tournament(env_id, num_players, policies, max_games, seed, 1, options)
    n = tournament.num_players
    # A's seat is elo0 (H0) or elo1 (H1) points above each of the n − 1 B seats
    test = SPRT(ladder.win_probability(elo0, 0.0, n), ladder.win_probability(elo1, 0.0, n), alpha, beta)
    games = 0
    for g in range(max_games):
        seats = seating(g, 2, n)
        record = play_seated_game(tournament.game, tournament.policies, labels, seats, seed, g)
        games += 1
        test.add(game_score(record["winners"], [s for s, p in enumerate(seats) if p == 0]))
        if test.decision is not None:
            break
    return {
        "env_id": env_id,
        "num_players": n,
        "first": labels[0],
        "second": labels[1],
        "elo0": elo0,
        "elo1": elo1,
        "p0": test.p0,
        "p1": test.p1,
        "alpha": alpha,
        "beta": beta,
        "bounds": [test.lower, test.upper],
        "decision": test.decision,
        "games": games,
        "scored_games": test.scored,
        "score": test.score,
        "llr": test.llr,
        "seed": seed,
    }


def sprt_line(result: Mapping[str, Any]) -> str:
    """The one-line verdict, e.g. ``SPRT: H1 accepted ... after 31 games, LLR 2.97``."""
    a, b = result["first"], result["second"]
    meaning = {
        "H1": f"H1 accepted: {a} is stronger than {b} by {result['elo1']:g} points or more",
        "H0": f"H0 accepted: {a} is not stronger than {b} by more than {result['elo0']:g} points",
        None: "no decision",
    }[result["decision"]]
    low, high = result["bounds"]
    return (
        f"SPRT: {meaning}; {result['games']} games played, LLR {result['llr']:.3f} (bounds {low:.3f}, {high:.3f}); "
        f"score {result['score']:g}/{result['scored_games']}; elo0={result['elo0']:g} elo1={result['elo1']:g} "
        f"(p0={result['p0']:.3f} p1={result['p1']:.3f}) alpha={result['alpha']:g} beta={result['beta']:g}\n"
    )
