"""Tortuga 1667 (``tortuga_v0``): components, rules engine, observer, renderer and heuristic bot.

Rules: ``docs/rules/tortuga.md``; documentation: ``docs/tortuga.md``.
"""

from pirate_envs.games.tortuga.game import TortugaGame, TortugaState
from pirate_envs.games.tortuga.heuristic import HeuristicPolicy

__all__ = ["HeuristicPolicy", "TortugaGame", "TortugaState"]
