"""Where the shipped agents and training configs are, in a checkout and in an installed wheel.

The repository keeps them in its top-level ``checkpoints/<env_id>/`` (``model.zip``, ``config.yaml``,
``eval.json``, ``eval.md``) and ``configs/`` (``<env_id>.yaml``, ``quickstart.yaml``, ``rllib/*.yaml``)
folders. The wheel carries the same files as package data, under ``pirate_envs/checkpoints/`` and
``pirate_envs/configs/`` (``pyproject.toml`` maps the two folders there; nothing is copied in git).
This module finds them in either place::

    from pirate_envs.shipped import shipped_policy, shipped_checkpoint, shipped_config
    policy = shipped_policy("potsm_v0")            # a CheckpointPolicy (needs the train extra)
    shipped_checkpoint("potsm_v0")                 # Path of checkpoints/potsm_v0/model.zip
    shipped_config("potsm_v0")                     # Path of configs/potsm_v0.yaml

The policy spec ``"shipped"`` (``--checkpoint shipped``, ``--opponents shipped``,
``make_gym(..., opponents="shipped")``) names the game's shipped agent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SHIPPED = "shipped"
_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    """``pirate_envs/<name>`` in a wheel install, else the checkout's top-level ``<name>/``."""
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def in_checkout() -> bool:
    """Whether the shipped files are a checkout's top-level folders (not an installed wheel's package data)."""
    return not (_PACKAGE / "checkpoints").is_dir()


def checkpoints_dir() -> Path:
    """The folder holding one ``<env_id>/`` folder per shipped agent."""
    return _data_dir("checkpoints")


def configs_dir() -> Path:
    """The folder holding the training configs (``<env_id>.yaml``, ``quickstart.yaml``, ``rllib/``)."""
    return _data_dir("configs")


def shipped_env_ids() -> list[str]:
    """Env ids that have a shipped agent (a ``model.zip``)."""
    folder = checkpoints_dir()
    return sorted(p.parent.name for p in folder.glob("*/model.zip")) if folder.is_dir() else []


def config_names() -> list[str]:
    """Names :func:`shipped_config` accepts: the top-level YAML files of ``configs/`` without ``.yaml``."""
    folder = configs_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def shipped_checkpoint(env_id: str) -> Path:
    """The shipped MaskablePPO ``model.zip`` of ``env_id``; an env without one raises ``ValueError``."""
    path = checkpoints_dir() / env_id / "model.zip"
    if not path.is_file():
        have = ", ".join(shipped_env_ids()) or "none found"
        raise ValueError(f"no shipped agent for {env_id!r}; shipped agents: {have} (looked in {checkpoints_dir()})")
    return path


def shipped_config(name: str) -> Path:
    """The shipped training config ``configs/<name>.yaml`` (``name`` is an env id or ``quickstart``)."""
    path = configs_dir() / f"{name}.yaml"
    if not path.is_file():
        have = ", ".join(config_names()) or "none found"
        raise ValueError(f"no shipped config {name!r}; shipped configs: {have} (looked in {configs_dir()})")
    return path


def config_path(text: str | Path) -> Path:
    """A YAML path as given, or, when no such file exists and ``text`` is a shipped config's name (a game id
    such as ``potsm_v0``, or ``quickstart``), that shipped config."""
    path = Path(text)
    if not path.exists() and isinstance(text, str) and text in config_names():
        return shipped_config(text)
    return path


def shipped_policy(env_id: str, deterministic: bool = True) -> Any:
    """The shipped agent of ``env_id`` as a :class:`~pirate_envs.networks.checkpoint_policy.CheckpointPolicy`
    (the ``act(observation, action_mask, rng)`` protocol of every policy); needs the ``train`` extra."""
    from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

    return CheckpointPolicy(shipped_checkpoint(env_id), deterministic=deterministic)
