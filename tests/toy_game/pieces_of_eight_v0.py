"""Pieces of Eight — ``pieces_of_eight_v0`` (a toy game of the tests, not a shipped game).

A trick-taking game of hidden coins for 2 or 3 players. Nine coins worth 1 to 9 are shuffled and three
dealt to each player; in turn each plays one coin face up, the highest coin takes the trick, and after
three tricks the largest pile wins. Full rules: ``tests/toy_game/rules.md``.

=================== ==========================================================================
Import              ``import toy_game.pieces_of_eight_v0`` (with ``tests/`` on ``sys.path``)
Agents              ``player_0 .. player_{n-1}``, n = 2 or 3 (default 2)
Action space        ``Discrete(9)``: action a plays the coin worth a + 1
Observation         ``Dict(observation=Box(float32, (10 + 19n,)), action_mask=Box(int8))``
Rewards             at the end only: ``win`` (+1 every winner, -1 others) or ``score`` (margin / 45)
Options             ``num_players``, ``reward_mode`` (``win``), ``max_decisions`` (100)
=================== ==========================================================================

Version history: v0 — first release.
"""

from pirate_envs.adapters.aec import make_env_functions

from .game import PiecesOfEightGame
from .heuristic import HeuristicPolicy

Game = PiecesOfEightGame
env, raw_env = make_env_functions(PiecesOfEightGame)

__all__ = ["Game", "HeuristicPolicy", "env", "raw_env"]
