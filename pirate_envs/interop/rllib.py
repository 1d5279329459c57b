"""Ray RLlib pieces: the masked PPO module, the env creator and the checkpoint policy.

Needs the ``rllib`` extra (``pip install -c constraints.txt -e '.[rllib]'``); nothing else in
``pirate_envs`` imports this module, so the package itself never needs ray.

- :class:`MaskedPPOTorchRLModule`: RLlib's default PPO module (MLP encoder, policy and value heads)
  for our dict observations ``{"observation", "action_mask"}``. The networks see only
  ``"observation"`` (optionally squashed by ``sign(x) * log(1 + |x|)``, as the SB3 configs'
  ``signed_log`` features); the mask replaces the logits of illegal actions by the smallest float
  in *every* forward pass (exploration, inference and training), so illegal actions are never
  sampled — also not while exploring, the pitfall of masks applied only to greedy actions — and the
  PPO ratios and entropies are those of the masked distribution.
- :func:`make_rllib_env` / :func:`register_rllib_env`: our wrapped AEC env inside RLlib's
  ``PettingZooEnv`` (turn-based: only the agent to act gets an observation; every seat gets its
  final reward when the game ends). ``illegal_action`` as the env's (``"terminate"`` by default,
  so RLlib's env pre-check and unmasked modules run; ``training.rllib_train`` uses ``"raise"``).
- :class:`RLlibObservationKeys`: RLlib's own example ``ActionMaskingTorchRLModule`` reads
  ``{"observations", "action_mask"}`` (float mask); ``make_rllib_env(..., observation_key="observations")``
  renames our PettingZoo-style ``"observation"`` key for it.
- :class:`RLlibCheckpointPolicy`: plays an RLlib module checkpoint through the
  :class:`~pirate_envs.policies.base.Policy` protocol, so ``training.evaluation.evaluate`` (spec
  ``rllib:PATH``) can run tournaments with it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

from pirate_envs.policies.base import check_spaces, legal_indices

OBSERVATION_KEY = "observation"
MASK_KEY = "action_mask"
FEATURES = ("flat", "signed_log")
# model_config key of the input transform (the rest of model_config is RLlib's DefaultModelConfig)
FEATURES_KEY = "pirate_features"
ENV_NAME_PREFIX = "pirate_envs_"


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module over ``{"observation", "action_mask"}`` dict observations.

    The encoder and heads are built for the ``"observation"`` Box alone; the module keeps the dict
    space as its ``observation_space`` so RLlib's connectors pass the mask through.
    """

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {
            OBSERVATION_KEY,
            MASK_KEY,
        }:
            raise ValueError(
                f"MaskedPPOTorchRLModule needs a Dict observation space with keys {OBSERVATION_KEY!r} and "
                f"{MASK_KEY!r} (a pirate_envs AEC env); got {observation_space}"
            )
        self._space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space[OBSERVATION_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()
        config = self.model_config or {}
        features = config.get(FEATURES_KEY) if isinstance(config, dict) else getattr(config, FEATURES_KEY, None)
        if features not in (None, *FEATURES):
            raise ValueError(f"model_config[{FEATURES_KEY!r}] must be one of {', '.join(FEATURES)}; got {features!r}")
        self._signed_log = features == "signed_log"
        # The networks are built; from now on the module's space is the env's dict space.
        self.observation_space = self._space_with_mask

    def _split(self, batch: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        """(the batch with the bare observation, the action mask); the input batch is not changed."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return batch, None
        features = obs[OBSERVATION_KEY]
        if self._signed_log:
            features = torch.sign(features) * torch.log1p(torch.abs(features))
        inner = dict(batch)
        inner[Columns.OBS] = features
        return inner, obs[MASK_KEY]

    @staticmethod
    def _mask(outputs: dict[str, Any], mask: Any) -> dict[str, Any]:
        if mask is not None:
            logits = outputs[Columns.ACTION_DIST_INPUTS]
            floor = torch.finfo(logits.dtype).min
            outputs[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0, logits, torch.full_like(logits, floor))
        return outputs

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        inner, _ = self._split(batch)
        return super().compute_values(inner, embeddings)


# --- envs ---------------------------------------------------------------------------------------------
RLLIB_EXAMPLE_OBSERVATION_KEY = "observations"  # ray.rllib.examples ... ActionMaskingTorchRLModule


class RLlibObservationKeys(BaseWrapper):
    """Our AEC env with observations ``{"observations": Box(float32), "action_mask": Box(float32)}``: the
    layout RLlib's example ``ActionMaskingTorchRLModule`` (and RLlib's ``ActionMaskEnv``) expect."""

    def __init__(self, env: AECEnv, observation_key: str = RLLIB_EXAMPLE_OBSERVATION_KEY) -> None:
        super().__init__(env)
        inner = env.observation_space(env.possible_agents[0])
        self.observation_key = observation_key
        self._space = gym.spaces.Dict(
            {
                observation_key: inner[OBSERVATION_KEY],
                MASK_KEY: gym.spaces.Box(0.0, 1.0, shape=inner[MASK_KEY].shape, dtype=np.float32),
            }
        )

    def observation_space(self, agent: str) -> gym.Space:
        self.env.observation_space(agent)  # an unknown agent raises the env's own error
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        obs = self.env.observe(agent)
        return {self.observation_key: obs[OBSERVATION_KEY], MASK_KEY: obs[MASK_KEY].astype(np.float32)}


def make_rllib_env(
    env_id: str,
    options: dict[str, Any] | None = None,
    illegal_action: str = "terminate",
    observation_key: str = OBSERVATION_KEY,
):
    """Our wrapped AEC env of ``env_id`` inside RLlib's ``PettingZooEnv``.

    ``observation_key="observations"`` gives the observation layout of RLlib's own example
    ``ActionMaskingTorchRLModule`` (:class:`RLlibObservationKeys`); the default is ours (PettingZoo's),
    which :class:`MaskedPPOTorchRLModule` reads.
    """
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from pirate_envs.core.registry import make

    env = make(env_id, illegal_action=illegal_action, **dict(options or {}))
    if observation_key != OBSERVATION_KEY:
        env = RLlibObservationKeys(env, observation_key)
    return PettingZooEnv(env)


def rllib_env_name(env_id: str) -> str:
    return f"{ENV_NAME_PREFIX}{env_id}"


def register_rllib_env(env_id: str, illegal_action: str = "terminate") -> str:
    """Register ``env_id`` with ``ray.tune`` (``env_config`` = rule options); returns the RLlib env name."""
    from ray.tune.registry import register_env

    name = rllib_env_name(env_id)
    register_env(name, lambda env_config: make_rllib_env(env_id, dict(env_config), illegal_action=illegal_action))
    return name


# --- checkpoints as policies --------------------------------------------------------------------------
def find_module_dir(path: str | Path, module_id: str | None = None) -> Path:
    """The RLModule directory inside an RLlib checkpoint.

    ``path`` may be an algorithm checkpoint (``.../learner_group/learner/rl_module/<id>`` below it), a
    multi-module directory (``rl_module``) or one module's own directory. With several modules
    (one per seat) ``module_id`` picks one; by default the only one, or ``shared``, or ``player_0``.
    """
    root = Path(path)
    if not root.exists():
        raise FileNotFoundError(f"RLlib checkpoint not found: {root}")
    for candidate in (root / "learner_group" / "learner" / "rl_module", root / "rl_module", root):
        if not candidate.is_dir():
            continue
        modules = sorted(p for p in candidate.iterdir() if (p / "class_and_ctor_args.pkl").is_file())
        if modules:  # a multi-module directory: one sub-directory per module
            names = [p.name for p in modules]
            if module_id is not None:
                if module_id not in names:
                    raise ValueError(f"RLlib checkpoint {root} has no module {module_id!r}; it has {', '.join(names)}")
                return candidate / module_id
            for preferred in ("shared", "player_0"):
                if preferred in names:
                    return candidate / preferred
            return modules[0]
        if (candidate / "class_and_ctor_args.pkl").is_file() and any(candidate.glob("module_state*")):
            return candidate  # one module's own directory
    raise ValueError(f"{root} is not an RLlib checkpoint (no learner_group/learner/rl_module/<module> inside)")


class RLlibCheckpointPolicy:
    """Plays one module of an RLlib checkpoint: the arg-max legal action (default) or a draw from the
    masked distribution with the caller's ``rng``. Spec for ``resolve_policy``: ``rllib:PATH`` or
    ``rllib:PATH#MODULE_ID``."""

    def __init__(self, path: str | Path, module_id: str | None = None, deterministic: bool = True) -> None:
        from ray.rllib.core.rl_module.rl_module import RLModule

        self.path = str(path)
        self.module_dir = find_module_dir(path, module_id)
        self.deterministic = deterministic
        self.name = f"rllib:{self.module_dir.name}"
        self.module = RLModule.from_checkpoint(self.module_dir.resolve())  # RLlib reads relative paths as URIs
        self.module.eval()
        space = self.module.observation_space
        inner = space[OBSERVATION_KEY] if isinstance(space, gym.spaces.Dict) else space
        self.observation_shape = tuple(inner.shape)
        self.num_actions = int(self.module.action_space.n)

    def check_compatible(self, observation_shape: tuple[int, ...], num_actions: int, where: str = "") -> None:
        problem = check_spaces(
            f"RLlib checkpoint {self.path}",
            (self.observation_shape, self.num_actions),
            (observation_shape, num_actions),
            where,
        )
        if problem:
            raise ValueError(problem)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        batch = {
            Columns.OBS: {
                OBSERVATION_KEY: torch.as_tensor(np.asarray(observation, dtype=np.float32)[None]),
                MASK_KEY: torch.as_tensor(np.asarray(action_mask, dtype=np.float32)[None]),
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].double().numpy()
        scores = logits[legal]
        if self.deterministic:
            return int(legal[int(np.argmax(scores))])
        probs = np.exp(scores - scores.max())
        return int(legal[rng.choice(legal.size, p=probs / probs.sum())])

    def __repr__(self) -> str:
        return f"RLlibCheckpointPolicy({self.path!r}, module={self.module_dir.name!r})"
