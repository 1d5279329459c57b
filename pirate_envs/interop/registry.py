"""Hooks for outside RL libraries that need no extra install: PettingZoo's env registry and the
detection of RLlib checkpoints (the RLlib pieces themselves are in :mod:`pirate_envs.interop.rllib`).

PettingZoo >= 1.27 has a registry like Gymnasium's; every game of ``ENV_IDS`` is registered there as
``pirate_envs/<env_id>`` (PettingZoo normalises ``_v0`` to ``-v0``), so::

    import pettingzoo, pirate_envs
    env = pettingzoo.make("aec", "pirate_envs/potsm_v0", num_players=3)   # == potsm_v0.env(num_players=3)

Our envs are AEC only (turn-based, ``is_parallelizable: False``), so nothing is registered under
``"parallel"``. Older PettingZoo versions have no registry; registration is then skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

PETTINGZOO_NAMESPACE = "pirate_envs"


def pettingzoo_id(env_id: str) -> str:
    """The PettingZoo registry id of a game: ``potsm_v0`` -> ``pirate_envs/potsm-v0``."""
    base, sep, version = env_id.rpartition("_v")
    if not sep or not version.isdigit():
        raise ValueError(f"env id {env_id!r} does not end in _v<number>")
    return f"{PETTINGZOO_NAMESPACE}/{base}-v{version}"


def register_pettingzoo_envs() -> bool:
    """Register every game with PettingZoo's ``"aec"`` registry (idempotent).

    Returns False (and does nothing) when the installed PettingZoo has no registry.
    """
    import pettingzoo

    from pirate_envs.core.registry import ENV_IDS

    registry = getattr(pettingzoo, "aec_registry", None)
    register = getattr(pettingzoo, "register", None)
    if registry is None or register is None:
        return False
    for env_id in ENV_IDS:
        name = pettingzoo_id(env_id)
        if name not in registry:
            # registry.make(env_id, **options) is the game's public env(**options); no game module is imported here
            register("aec", name, entry_point="pirate_envs.core.registry:make", kwargs={"env_id": env_id})
    return True


# --- RLlib checkpoints ---------------------------------------------------------------------------------
RLLIB_MARKERS = ("learner_group", "rl_module", "class_and_ctor_args.pkl")


def is_rllib_checkpoint(path: str | Path) -> bool:
    """Whether ``path`` is a directory written by RLlib (an algorithm, multi-module or module checkpoint)."""
    root = Path(path)
    return root.is_dir() and any((root / marker).exists() for marker in RLLIB_MARKERS)


def rllib_checkpoint_policy(path: str | Path, **kwargs: Any):
    """A :class:`~pirate_envs.interop.rllib.RLlibCheckpointPolicy` for an RLlib checkpoint directory.

    Raises ``ValueError`` for a directory that is not one, and ``ImportError`` naming the extra when ray is
    not installed.
    """
    if not is_rllib_checkpoint(path):
        raise ValueError(
            f"{path} is a directory but not an RLlib checkpoint (expected learner_group/ inside); "
            "SB3 checkpoints are .zip files"
        )
    try:
        from pirate_envs.interop.rllib import RLlibCheckpointPolicy
    except ImportError as err:
        raise ImportError(
            f"{path} is an RLlib checkpoint; playing it needs ray[rllib]: "
            f"pip install -c constraints.txt -e '.[rllib]' ({err})"
        ) from err
    return RLlibCheckpointPolicy(path, **kwargs)
