"""Evaluation matches: one policy against fixed opponents, seats rotated, as win rates.

:func:`play_matches` is the quick evaluation the training loop runs every ``eval.every`` steps (and
the fallback for a checkpoint's ``eval.json`` when no fuller tournament tool is available). Deals
are played *duplicate style*: deal ``d`` (seeded ``seed + d``) is played once from every seat, so
seat and card luck cancel out across a block of ``num_players`` games. A game counts as a win when
the learner's seat is among the winners (``info["is_success"]`` of the Gymnasium adapter); a
truncated game counts as played and not won.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pirate_envs.adapters.gym_env import make_gym
from pirate_envs.policies.base import Policy

from .stats import wilson_interval


@dataclass
class MatchResult:
    """Outcome of ``games`` games of one policy against one kind of opponent."""

    opponent: str
    games: int = 0
    wins: int = 0
    truncated: int = 0
    total_return: float = 0.0
    games_by_seat: list[int] = field(default_factory=list)
    wins_by_seat: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_return(self) -> float:
        return self.total_return / self.games if self.games else 0.0

    def wilson_interval(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        low, high = self.wilson_interval()
        data.update(win_rate=self.win_rate, mean_return=self.mean_return, win_rate_ci95=[low, high])
        return data


def play_matches(
    learner: Policy,
    env_id: str,
    opponent: Any,
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    opponent_name: str | None = None,
) -> MatchResult:
    """Play ``games`` games of ``learner`` against ``opponent`` in every other seat, seats rotating."""
    env = make_gym(env_id, seat=0, opponents=opponent, illegal_action="raise", **(options or {}))
    n = env.num_players
    name = opponent_name or (opponent if isinstance(opponent, str) else repr(opponent))
    result = MatchResult(opponent=name, games_by_seat=[0] * n, wins_by_seat=[0] * n)
    learner_rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for game in range(games):
        seat = game % n
        observation, _ = env.reset(seed=seed + game // n, options={"seat": seat})
        done = False
        while not done:
            mask = env.action_masks().astype(np.int8)
            action = learner.act(observation, mask, learner_rng)
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        won = bool(info["is_success"])  # the learner's seat is among the winners
        result.games += 1
        result.games_by_seat[seat] += 1
        result.wins += won
        result.wins_by_seat[seat] += won
        result.truncated += bool(truncated)
        result.total_return += float(reward)
    result.seconds = time.perf_counter() - start
    env.close()
    return result
