"""Interop with outside RL libraries: PettingZoo's env registry and RLlib checkpoint detection
(:mod:`.registry`, no extra install) and the RLlib module and env wrappers (:mod:`.rllib`, the ``rllib``
extra). OpenSpiel's games are :mod:`pirate_envs.openspiel`.
"""
