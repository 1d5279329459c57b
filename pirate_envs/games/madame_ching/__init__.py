"""Madame Ching (``madame_ching_v0``): components, rules engine, observer, renderer and heuristic bot.

Rules: ``docs/rules/madame_ching.md``; documentation: ``docs/madame_ching.md``.
"""

from pirate_envs.games.madame_ching.game import MadameChingGame, MadameChingState
from pirate_envs.games.madame_ching.heuristic import HeuristicPolicy

__all__ = ["HeuristicPolicy", "MadameChingGame", "MadameChingState"]
