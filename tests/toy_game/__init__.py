"""Pieces of Eight: the toy game that shows how a game is added (CONTRIBUTING.md, "Add a game").

The package reads in the order of its rules file (``rules.md``): ``coins.py`` (components and actions),
``game.py`` (setup, turns, scoring, determinisation), ``observation.py``, ``view.py``, ``heuristic.py``,
and the public env module ``pieces_of_eight_v0.py``. It lives in the tests, outside the package, and
joins the registry with ``pirate_envs.core.registry.register_env`` (see ``tests/test_toy_game.py``).
"""

from .game import PiecesOfEightGame, PiecesOfEightState
from .heuristic import HeuristicPolicy

ENV_ID = PiecesOfEightGame.game_id
MODULE = f"{__name__}.pieces_of_eight_v0"

__all__ = ["ENV_ID", "MODULE", "HeuristicPolicy", "PiecesOfEightGame", "PiecesOfEightState"]
