"""Reward modes shared by the games: their rule options (``reward_mode``, ``score_scale``) and the returns
they give (win/lose, score margin).

A game declares its reward options with :func:`reward_options` in its ``option_specs``; the base
:class:`~pirate_envs.core.game.Game` reads them into ``game.reward_mode`` and ``game.score_scale``, and the
game's ``_returns`` builds its figures from the functions below.
"""

from __future__ import annotations

from collections.abc import Sequence

from pirate_envs.core.options import Option

REWARD_MODES = ("win", "score")
MARGIN_BY_SCALE = "'win' (+1/-1) or 'score' (margin / score_scale)"


def reward_options(rule: str, default_scale: float | None = None, modes: str = MARGIN_BY_SCALE) -> tuple[Option, ...]:
    """The ``reward_mode`` option (``"win"``, the default, or ``"score"``), and with ``default_scale`` the
    ``score_scale`` option (the divisor of the score margin, a positive number defaulting to it).

    ``rule`` is the rule id the help texts cite (``"PSM-1020"``); ``modes`` describes the two modes for a
    game whose score mode has no ``score_scale`` option (a fixed divisor, a team result).
    """
    options = (Option("reward_mode", "win", str, f"{rule}: {modes}", choices=REWARD_MODES),)
    if default_scale is None:
        return options
    doc = f"{rule}: divisor of the score margin in 'score' mode"
    return (*options, Option("score_scale", default_scale, float, doc, minimum=1e-9))


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


def clipped_margin(own: float, best_other: float, scale: float) -> float:
    """``(own - best_other) / scale`` clipped to [-1, 1]: one seat's return in a clipped score mode."""
    return float(min(1.0, max(-1.0, (own - best_other) / scale)))


def team_win_loss_returns(winners: Sequence[int], num_players: int) -> list[float]:
    """+1 to every seat in ``winners`` (a team, or tied winners; possibly empty), -1 to every other seat."""
    won = set(winners)
    return [1.0 if seat in won else -1.0 for seat in range(num_players)]
