"""Dead Man's Draw (``dead_mans_draw_v0``): components, rules engine, observer, heuristic bot.

Rules: ``docs/rules/dead_mans_draw.md``; documentation: ``docs/dead_mans_draw.md``.
"""

from pirate_envs.games.dead_mans_draw.game import DmdGame, DmdState
from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy

__all__ = ["DmdGame", "DmdState", "HeuristicPolicy"]
