"""The training vec env of this process: :class:`LockstepVecEnv`, an SB3 ``VecEnv`` over one
:class:`~training.stepper.EnvStepper`.

It serves two layouts of ``vec_env.kind`` (``training.train.build_vec_env``):

- ``dummy``: every opponent decides row by row from its env's generator (``batch_opponents=False``):
  the results of SB3's ``DummyVecEnv`` over ``Monitor``-wrapped envs, without either;
- ``lockstep``: a network opponent decides for every env waiting on it in one batch
  (``batch_opponents=True``). With ``offload`` > 0, that share of the envs (the last ones) is stepped
  by one worker process (:class:`training.vec_env.BatchedSubprocVecEnv`) *while* this process steps
  the rest: ``step_async`` sends the worker its actions and returns, ``step_wait`` steps the local
  envs and then collects the worker's results, so on two cores the env stepping runs on both while
  the network's forward pass and the PPO update stay here. Results are those of the same envs
  stepped without offloading (``tests/test_lockstep.py``).

``LockstepEnvs`` is the stepper's former name (kept for old callers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from pirate_envs.adapters.gym_env import PirateGymEnv

from .stepper import EnvStepper, single_blas_thread, unwrap, wrapped_in

LockstepEnvs = EnvStepper

__all__ = ["LockstepEnvs", "LockstepVecEnv", "offloaded_count", "single_blas_thread", "unwrap"]


def offloaded_count(n_envs: int, offload: float) -> int:
    """How many of ``n_envs`` envs an ``offload`` share sends to the worker (at least one stays here)."""
    return min(n_envs - 1, round(n_envs * offload))


class LockstepVecEnv(VecEnv):
    """An SB3 ``VecEnv`` of pirate_envs Gymnasium envs stepped together in this process (see the module docstring)."""

    def __init__(
        self,
        env_fns: list[Callable[[], gym.Env]],
        seed: int | None = None,
        offload: float = 0.0,
        batch_opponents: bool = True,
    ) -> None:
        if not 0.0 <= offload < 1.0:
            raise ValueError(f"offload must be in [0, 1), got {offload}")
        n_remote = offloaded_count(len(env_fns), offload)
        self.n_local = len(env_fns) - n_remote
        self._built = [fn() for fn in env_fns[: self.n_local]]
        self.stepper = EnvStepper(self._built, seed=seed, batch_opponents=batch_opponents)
        self.remote = None
        if n_remote > 0:
            from .vec_env import BatchedSubprocVecEnv

            self.remote = BatchedSubprocVecEnv(env_fns[self.n_local :], workers=1, lockstep=batch_opponents)
        first = self.stepper.envs[0]
        super().__init__(len(env_fns), first.observation_space, first.action_space)
        self._actions: np.ndarray | None = None

    @property
    def envs(self) -> list[PirateGymEnv]:
        """The envs stepped in this process (all of them without offloading)."""
        return self.stepper.envs

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        if seed is not None:
            self.stepper.seed(seed)
            if self.remote is not None:  # its envs' seeds, and its batched-opponent generator's
                self.remote.seed(seed + self.n_local)
        return super().seed(seed)

    def set_options(self, options: list[dict] | dict | None = None) -> None:
        super().set_options(options)
        if self.remote is not None:
            self.remote.set_options(list(self._options[self.n_local :]))

    def reset(self) -> np.ndarray:
        if self.remote is not None:
            self.remote.reset_async()
        results = self.stepper.reset(self._seeds[: self.n_local], self._options[: self.n_local])
        obs = [observation for observation, _ in results]
        self.reset_infos = [info for _, info in results]
        if self.remote is not None:
            obs += list(self.remote.reset_wait())
            self.reset_infos += list(self.remote.reset_infos)
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions
        if self.remote is not None:
            self.remote.step_async(actions[self.n_local :])

    def step_wait(self) -> Any:
        results = self.stepper.step(self._actions[: self.n_local])
        obs, rewards, dones, infos, reset_infos = (list(part) for part in zip(*results, strict=True))
        if self.remote is not None:
            remote_obs, remote_rewards, remote_dones, remote_infos = self.remote.step_wait()
            obs += list(remote_obs)
            rewards += list(remote_rewards)
            dones += list(remote_dones)
            infos += remote_infos
            reset_infos += list(self.remote.reset_infos)
        self.reset_infos = reset_infos
        return np.stack(obs), np.array(rewards, dtype=np.float32), np.array(dones), infos

    def close(self) -> None:
        for env in self.envs:
            env.close()
        if self.remote is not None:
            self.remote.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        images = [env.render() for env in self.envs]
        return images + (list(self.remote.get_images()) if self.remote is not None else [])

    def _split(self, indices: VecEnvIndices) -> tuple[list[int], list[int]]:
        """``indices`` as (local env indices, the worker's env indices)."""
        wanted = list(self._get_indices(indices))
        return [i for i in wanted if i < self.n_local], [i - self.n_local for i in wanted if i >= self.n_local]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        local, remote = self._split(indices)
        values = [getattr(self.envs[i], attr_name) for i in local]
        return values + (self.remote.get_attr(attr_name, remote) if remote else [])

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        local, remote = self._split(indices)
        for i in local:
            setattr(self.envs[i], attr_name, value)
        if remote:
            self.remote.set_attr(attr_name, value, remote)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any):
        local, remote = self._split(indices)
        values = [getattr(self.envs[i], method_name)(*method_args, **method_kwargs) for i in local]
        if remote:
            values += self.remote.env_method(method_name, *method_args, indices=remote, **method_kwargs)
        return values

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        local, remote = self._split(indices)
        values = [wrapped_in(self._built[i], wrapper_class) for i in local]
        return values + (self.remote.env_is_wrapped(wrapper_class, remote) if remote else [])
