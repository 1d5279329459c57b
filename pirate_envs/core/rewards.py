"""Reward modes shared by the games: win/lose and score margin."""

from __future__ import annotations

from collections.abc import Sequence


def win_loss_returns(winner: int, num_players: int) -> list[float]:
    """+1 to the single winner, -1 to every other seat."""
    return [1.0 if seat == winner else -1.0 for seat in range(num_players)]


def score_margin_returns(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's score minus the best other seat's score, divided by ``scale``."""
    out = []
    for seat, own in enumerate(scores):
        best_other = max(s for t, s in enumerate(scores) if t != seat)
        out.append((own - best_other) / scale)
    return out


def team_win_loss_returns(winners: Sequence[int], num_players: int) -> list[float]:
    """+1 to every seat in ``winners`` (a team, possibly empty), -1 to every other seat."""
    won = set(winners)
    return [1.0 if seat in won else -1.0 for seat in range(num_players)]
