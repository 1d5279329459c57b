"""Many Gymnasium envs stepped in lockstep, every opponent decision batched across them.

:class:`LockstepEnvs` holds ``n`` :class:`~pirate_envs.adapters.gym_env.PirateGymEnv` and steps them
together: the learner's actions go in, then, round after round, every env whose opponent is to
act is grouped by that opponent's policy, and a policy with ``act_batch`` (a network: a
checkpoint, a self-play snapshot) decides for its whole group in one forward pass. Policies
without ``act_batch`` (random, the heuristic bots, search bots) decide row by row with each env's
own generator, exactly as in :meth:`PirateGymEnv.step`: with such opponents the envs give exactly
the results of stepping each env on its own (``tests/test_lockstep.py`` checks it).

Episode bookkeeping is done here as SB3's ``Monitor`` does it (``info["episode"]`` with the return
``r``, length ``l`` and time ``t`` when an episode ends), and finished envs are reset at once
(``terminal_observation`` in their info), so :class:`LockstepVecEnv` is a complete SB3 ``VecEnv``
in one process. :mod:`training.vec_env` uses :class:`LockstepEnvs` inside each worker process of
its ``batched`` kind when ``vec_env.lockstep`` is on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from pirate_envs.adapters.gym_env import PirateGymEnv

MASKS = "action_masks"


def single_blas_thread() -> None:
    """Limit numpy's BLAS to one thread in this process, for good.

    The network opponents' batched forward passes (``act_batch``: numpy matrix products) cross
    OpenBLAS's threshold for going multi-threaded at a few dozen rows; on a machine whose cores are
    already busy (the trainer, the env workers) its threads then wait for each other: a 64-row pass
    of a 128x128 network took 13-37 ms instead of 0.5 ms (measured on 2 loaded cores).
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def unwrap(env: gym.Env) -> PirateGymEnv:
    """The :class:`PirateGymEnv` inside ``env`` (a Monitor, say); a clear error for another env."""
    inner = getattr(env, "unwrapped", env)
    if not isinstance(inner, PirateGymEnv):
        raise TypeError(f"lockstep stepping needs pirate_envs Gymnasium envs (make_gym); got {type(inner).__name__}")
    return inner


class LockstepEnvs:
    """``n`` games stepped together, with one batched decision per network opponent per round."""

    def __init__(self, envs: Sequence[gym.Env], seed: int | None = None) -> None:
        self.envs = [unwrap(env) for env in envs]
        if not self.envs:
            raise ValueError("LockstepEnvs needs at least one env")
        single_blas_thread()
        self.rng = np.random.default_rng(seed)  # the batched opponents' draws
        self.start = time.time()
        self._returns = [0.0] * len(self.envs)
        self._lengths = [0] * len(self.envs)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    # --- opponents -------------------------------------------------------------------------------
    def play_opponents(self, indices: Sequence[int]) -> None:
        """Let the opponents of ``indices`` act until each of those envs waits for its learner (or is over)."""
        active = list(indices)
        while active:
            groups: dict[int, tuple[Any, list[tuple[int, int]]]] = {}
            waiting = []
            for i in active:
                turn = self.envs[i].waiting_opponent()
                if turn is None:
                    continue
                seat, policy = turn
                waiting.append(i)
                groups.setdefault(id(policy), (policy, []))[1].append((i, seat))
            for policy, rows in groups.values():
                batched = getattr(policy, "act_batch", None)
                if batched is None or len(rows) == 1:
                    for i, seat in rows:
                        env = self.envs[i]
                        env.apply_opponent_action(seat, env.opponent_action(seat, policy, env.np_random))
                    continue
                states = [self.envs[i].state for i, _ in rows]
                observations = np.stack(
                    [state.observation(seat) for state, (_, seat) in zip(states, rows, strict=True)]
                )
                masks = np.stack([state.legal_action_mask() for state in states])
                for (i, seat), action in zip(rows, batched(observations, masks, self.rng), strict=True):
                    self.envs[i].apply_opponent_action(seat, int(action))
            active = waiting

    # --- episodes -------------------------------------------------------------------------------
    def reset(self, seeds: Sequence[int | None], options: Sequence[dict[str, Any] | None]) -> list[tuple]:
        """Reset every env; ``(observation, info)`` per env."""
        for env, seed, option in zip(self.envs, seeds, options, strict=True):
            env.begin_reset(seed=seed, options=option or None)
        everyone = range(len(self.envs))
        self.play_opponents(everyone)
        self._returns = [0.0] * len(self.envs)
        self._lengths = [0] * len(self.envs)
        return [env.finish_reset() for env in self.envs]

    def step(self, actions: Sequence[int]) -> list[tuple]:
        """One learner action per env; per env ``(observation, reward, done, info, reset_info)``, where a
        finished env has been reset (``info["terminal_observation"]``, ``info["episode"]``)."""
        envs = self.envs
        early: dict[int, tuple] = {}
        for i, (env, action) in enumerate(zip(envs, actions, strict=True)):
            ended = env.apply_learner_action(int(action))
            if ended is not None:
                early[i] = ended
        self.play_opponents([i for i in range(len(envs)) if i not in early])
        results: list[Any] = [None] * len(envs)
        finished = []
        for i, env in enumerate(envs):
            obs, reward, terminated, truncated, info = early[i] if i in early else env.finish_step()
            self._returns[i] += reward
            self._lengths[i] += 1
            done = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            if done:
                info["terminal_observation"] = obs
                info["episode"] = {
                    "r": round(self._returns[i], 6),
                    "l": self._lengths[i],
                    "t": round(time.time() - self.start, 6),
                }
                self._returns[i], self._lengths[i] = 0.0, 0
                env.begin_reset()
                finished.append(i)
            results[i] = (obs, reward, done, info)
        self.play_opponents(finished)
        out = []
        for i, (obs, reward, done, info) in enumerate(results):
            reset_info: dict[str, Any] = {}
            if done:
                obs, reset_info = envs[i].finish_reset()
            out.append((obs, reward, done, info, reset_info))
        return out

    def masks(self) -> list[np.ndarray]:
        return [env.action_masks() for env in self.envs]


def offloaded_count(n_envs: int, offload: float) -> int:
    """How many of ``n_envs`` envs an ``offload`` share sends to the worker (at least one stays here)."""
    return min(n_envs - 1, round(n_envs * offload))


class LockstepVecEnv(VecEnv):
    """An SB3 ``VecEnv`` of pirate_envs Gymnasium envs stepped in lockstep in this process.

    With ``offload`` > 0, that share of the envs (the last ones) is stepped in lockstep by one worker
    process (:class:`training.vec_env.BatchedSubprocVecEnv`) *while* this process steps the rest:
    ``step_async`` sends the worker its actions and returns, ``step_wait`` steps the local envs and
    then collects the worker's results, so on two cores the env stepping runs on both while the
    network's forward pass and the PPO update stay here. Results are those of the same envs stepped
    without offloading (``tests/test_lockstep.py``).
    """

    def __init__(self, env_fns: list[Callable[[], gym.Env]], seed: int | None = None, offload: float = 0.0) -> None:
        if not 0.0 <= offload < 1.0:
            raise ValueError(f"offload must be in [0, 1), got {offload}")
        n_remote = offloaded_count(len(env_fns), offload)
        self.n_local = len(env_fns) - n_remote
        self.lockstep = LockstepEnvs([fn() for fn in env_fns[: self.n_local]], seed=seed)
        self.remote = None
        if n_remote > 0:
            from .vec_env import BatchedSubprocVecEnv

            self.remote = BatchedSubprocVecEnv(env_fns[self.n_local :], workers=1, lockstep=True)
        first = self.lockstep.envs[0]
        super().__init__(len(env_fns), first.observation_space, first.action_space)
        self._actions: np.ndarray | None = None
        self._masks: list[np.ndarray] | None = None

    @property
    def envs(self) -> list[PirateGymEnv]:
        """The envs stepped in this process (all of them without offloading)."""
        return self.lockstep.envs

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        if seed is not None:
            self.lockstep.seed(seed)
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
        results = self.lockstep.reset(self._seeds[: self.n_local], self._options[: self.n_local])
        obs, infos = zip(*results, strict=True)
        self.reset_infos = list(infos)
        obs = list(obs)
        if self.remote is not None:
            obs += list(self.remote.reset_wait())
            self.reset_infos += list(self.remote.reset_infos)
        self._reset_seeds()
        self._reset_options()
        self._masks = None
        return np.stack(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions
        if self.remote is not None:
            self.remote.step_async(actions[self.n_local :])

    def step_wait(self) -> Any:
        results = self.lockstep.step(self._actions[: self.n_local])
        obs, rewards, dones, infos, reset_infos = (list(part) for part in zip(*results, strict=True))
        if self.remote is not None:
            remote_obs, remote_rewards, remote_dones, remote_infos = self.remote.step_wait()
            obs += list(remote_obs)
            rewards += list(remote_rewards)
            dones += list(remote_dones)
            infos += remote_infos
            reset_infos += list(self.remote.reset_infos)
        self.reset_infos = reset_infos
        self._masks = None
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
        return [False for _ in self._get_indices(indices)]
