"""pirate_envs: multi-agent RL environments for pirate board and card games.

    from pirate_envs import potsm_v0
    env = potsm_v0.env(num_players=3)          # PettingZoo AEC
    game = potsm_v0.Game(num_players=3)        # the rules engine

``ENV_IDS`` lists the shipped games (``pirate_envs.core.registry.register_env`` adds one of your own);
``make(env_id, **options)`` builds one by id.
``make_gym(env_id, seat=0, opponents="random", **options)`` is the single-agent Gymnasium view
(also registered as ``pirate_envs/<Name>-v0``, see ``gym_id``), ``SelfPlayPool`` its self-play
opponent pool and ``CheckpointPolicy`` (needs the ``train`` extra) plays a trained checkpoint;
``pirate_envs.shipped.shipped_policy(env_id)`` is the game's shipped agent (the policy spec ``"shipped"``).
``__version__`` comes from ``pirate_envs/_version.py``.
"""

from pirate_envs import _moved  # noqa: F401  (old import paths of moved modules answer from here on)
from pirate_envs._version import __version__ as __version__
from pirate_envs.adapters.gym_env import gym_id, make_gym, register_gym_envs
from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.game import TERMINAL
from pirate_envs.core.registry import ENV_IDS, game_class, make, make_heuristic
from pirate_envs.interop.registry import register_pettingzoo_envs
from pirate_envs.policies.base import Policy, RandomPolicy
from pirate_envs.policies.selfplay import SelfPlayPool

register_gym_envs()
register_pettingzoo_envs()  # pettingzoo.make("aec", "pirate_envs/potsm_v0"), where PettingZoo has a registry


def __getattr__(name: str):
    # CheckpointPolicy is imported on first use: its module is light, but keeping it out of the
    # import keeps ``pirate_envs`` free of any torch / sb3-contrib requirement.
    if name == "CheckpointPolicy":
        from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

        return CheckpointPolicy
    raise AttributeError(f"module 'pirate_envs' has no attribute {name!r}")


__all__ = [
    "ENV_IDS",
    "TERMINAL",
    "CheckpointPolicy",
    "IllegalActionError",
    "InvalidOptionError",
    "Policy",
    "RandomPolicy",
    "SelfPlayPool",
    "game_class",
    "gym_id",
    "make",
    "make_gym",
    "make_heuristic",
]
