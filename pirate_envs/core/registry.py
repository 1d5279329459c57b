"""The env registry: env ids, their public modules, and ``make``.

Each game registers one line here; everything that iterates over "every game" (the conformance
suite, the benchmark, the training pipeline) reads ``ENV_IDS`` and ``game_class``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from pirate_envs.core.errors import InvalidOptionError

# env id -> public module (which exposes env, raw_env, Game, HeuristicPolicy)
_MODULES: dict[str, str] = {
    "potsm_v0": "pirate_envs.potsm_v0",
    "dead_mans_draw_v0": "pirate_envs.dead_mans_draw_v0",
    "madame_ching_v0": "pirate_envs.madame_ching_v0",
    "tortuga_v0": "pirate_envs.tortuga_v0",
}

ENV_IDS: tuple[str, ...] = tuple(_MODULES)


def env_module(env_id: str) -> ModuleType:
    if env_id not in _MODULES:
        raise InvalidOptionError(f"unknown env id {env_id!r}; registered env ids: {', '.join(ENV_IDS)}")
    return importlib.import_module(_MODULES[env_id])


def game_class(env_id: str):
    """The rules-engine ``Game`` class of ``env_id``."""
    return env_module(env_id).Game


def feature_env_ids() -> tuple[str, ...]:
    """The env ids whose games define per-action features (``Game.action_feature_size > 0``)."""
    return tuple(e for e in ENV_IDS if game_class(e)().action_feature_size)


def make(env_id: str, **options: Any):
    """The wrapped PettingZoo AEC env of ``env_id`` (same as ``pirate_envs.<env_id>.env(**options)``)."""
    return env_module(env_id).env(**options)


def make_heuristic(env_id: str, num_players: int | None = None, **options: Any):
    """The heuristic bot of ``env_id`` for a given player count and options."""
    module = env_module(env_id)
    game = module.Game(num_players=num_players, **options)
    return module.HeuristicPolicy(game)
