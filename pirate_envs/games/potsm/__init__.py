"""Pirates of the Spanish Main: The Card Game (``potsm_v0``): components, rules engine, observer.

Rules: ``docs/rules/potsm.md``; documentation: ``docs/potsm.md``.
"""

from pirate_envs.games.potsm.game import PotsmGame, PotsmState
from pirate_envs.games.potsm.heuristic import HeuristicPolicy

__all__ = ["HeuristicPolicy", "PotsmGame", "PotsmState"]
