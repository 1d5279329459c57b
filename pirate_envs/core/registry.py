"""The env registry: env ids, their public modules, and ``make``.

Each shipped game registers one line in ``_SHIPPED``; everything that iterates over "every game" (the
conformance suite, the env fingerprints, the benchmark, the training pipeline, the arena) reads ``ENV_IDS``,
which is exactly those games.

A game that lives outside the package (a game of your own, the toy game of the tests) joins with
:func:`register_env`: from then on ``env_module``, ``game_class``, ``make``, ``make_heuristic`` and what is
built on them (``make_gym``, the ``"heuristic"`` and search policy specs, ``pirate_envs.openspiel.register_game``)
know its id, and :func:`registered_env_ids` lists it. ``ENV_IDS`` stays the shipped games: a registered game
brings no shipped checkpoint, config, ladder or recorded fingerprint, so the tools that promise those for
every id of ``ENV_IDS`` keep their promise. :func:`unregister_env` takes a registered game out again (a test
that registers one unregisters it when it ends).
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any

from pirate_envs.core.errors import InvalidOptionError

# env id -> public module (which exposes env, raw_env, Game, HeuristicPolicy)
_SHIPPED: dict[str, str] = {
    "potsm_v0": "pirate_envs.potsm_v0",
    "dead_mans_draw_v0": "pirate_envs.dead_mans_draw_v0",
    "madame_ching_v0": "pirate_envs.madame_ching_v0",
    "tortuga_v0": "pirate_envs.tortuga_v0",
}

ENV_IDS: tuple[str, ...] = tuple(_SHIPPED)

# games registered from outside the package, in registration order
_REGISTERED: dict[str, str] = {}

# what the adapters need of a public env module
MODULE_NAMES = ("env", "raw_env", "Game", "HeuristicPolicy")
# lower-case words joined by underscores, then the version: what gym_id and pettingzoo_id can name
_ENV_ID = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*_v[0-9]+")


def registered_env_ids() -> tuple[str, ...]:
    """Every env id ``make`` knows: the shipped games (``ENV_IDS``), then those added by :func:`register_env`."""
    return ENV_IDS + tuple(_REGISTERED)


def register_env(env_id: str, module_name: str) -> None:
    """Make the game of public module ``module_name`` (an importable name, e.g. ``"my_games.cutlass_v0"``)
    known by ``env_id``.

    The module must expose ``env``, ``raw_env``, ``Game`` and ``HeuristicPolicy`` as the shipped
    ``pirate_envs/<game>_v0.py`` modules do, and its ``Game.game_id`` must be ``env_id``. It is imported here,
    so a wrong name fails now. ``env_id`` is lower-case words joined by underscores ending in ``_v<number>``
    and may not be a shipped id. Registering the same id with the same module again does nothing.
    ``ENV_IDS`` does not change (see the module docstring). Raises ``InvalidOptionError`` naming what is wrong.
    """
    if not isinstance(env_id, str) or not _ENV_ID.fullmatch(env_id):
        raise InvalidOptionError(
            f"register_env: env id {env_id!r} must be lower-case words joined by '_' and end in _v<number> "
            "(e.g. 'pieces_of_eight_v0')"
        )
    if env_id in _SHIPPED:
        raise InvalidOptionError(f"register_env: {env_id!r} is a shipped game; shipped env ids: {', '.join(ENV_IDS)}")
    if not isinstance(module_name, str) or not module_name:
        raise InvalidOptionError(f"register_env: module_name must be an importable module name, got {module_name!r}")
    if _REGISTERED.get(env_id, module_name) != module_name:
        raise InvalidOptionError(
            f"register_env: {env_id!r} is already registered to module {_REGISTERED[env_id]!r}; "
            f"unregister_env({env_id!r}) first to register {module_name!r}"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InvalidOptionError(f"register_env: cannot import module {module_name!r} for {env_id!r}: {exc}") from None
    missing = [name for name in MODULE_NAMES if not hasattr(module, name)]
    if missing:
        raise InvalidOptionError(
            f"register_env: module {module_name!r} lacks {', '.join(missing)}; a public env module exposes "
            f"{', '.join(MODULE_NAMES)}"
        )
    game_id = getattr(module.Game, "game_id", None)
    if game_id != env_id:
        raise InvalidOptionError(
            f"register_env: {module_name}.Game.game_id is {game_id!r}, not the env id {env_id!r} it is registered as"
        )
    _REGISTERED[env_id] = module_name


def unregister_env(env_id: str) -> None:
    """Undo :func:`register_env` (``InvalidOptionError`` for a shipped id or one not registered). Registrations
    made elsewhere with the id (Gymnasium's ``pirate_envs/<Name>-v0``, pyspiel's name) are not removed."""
    if env_id in _SHIPPED:
        raise InvalidOptionError(f"unregister_env: {env_id!r} is a shipped game and stays registered")
    if env_id not in _REGISTERED:
        registered = ", ".join(_REGISTERED) or "none"
        raise InvalidOptionError(
            f"unregister_env: {env_id!r} is not registered; games added by register_env: {registered}"
        )
    del _REGISTERED[env_id]


def env_module(env_id: str) -> ModuleType:
    """The public env module of ``env_id`` (``InvalidOptionError`` naming the registered ids for an unknown one)."""
    module_name = (_SHIPPED.get(env_id) or _REGISTERED.get(env_id)) if isinstance(env_id, str) else None
    if module_name is None:
        raise InvalidOptionError(f"unknown env id {env_id!r}; registered env ids: {', '.join(registered_env_ids())}")
    return importlib.import_module(module_name)


def game_class(env_id: str):
    """The rules-engine ``Game`` class of ``env_id``."""
    return env_module(env_id).Game


def feature_env_ids() -> tuple[str, ...]:
    """The env ids whose games define per-action features (``Game.action_feature_size > 0``)."""
    return tuple(e for e in registered_env_ids() if game_class(e)().action_feature_size)


def make(env_id: str, **options: Any):
    """The wrapped PettingZoo AEC env of ``env_id`` (same as ``pirate_envs.<env_id>.env(**options)``)."""
    return env_module(env_id).env(**options)


def make_heuristic(env_id: str, num_players: int | None = None, **options: Any):
    """The heuristic bot of ``env_id`` for a given player count and options."""
    module = env_module(env_id)
    game = module.Game(num_players=num_players, **options)
    return module.HeuristicPolicy(game)
