"""Many Gymnasium envs stepped in lockstep, every opponent decision batched across them.

:class:`LockstepEnvs` holds ``n`` :class:`~pirate_envs.core.gym_env.PirateGymEnv` and steps them
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

from pirate_envs.core.gym_env import PirateGymEnv

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


class LockstepVecEnv(VecEnv):
    """An SB3 ``VecEnv`` of pirate_envs Gymnasium envs stepped in lockstep in this process."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], seed: int | None = None) -> None:
        self.lockstep = LockstepEnvs([fn() for fn in env_fns], seed=seed)
        first = self.lockstep.envs[0]
        super().__init__(len(env_fns), first.observation_space, first.action_space)
        self._actions: np.ndarray | None = None
        self._masks: list[np.ndarray] | None = None

    @property
    def envs(self) -> list[PirateGymEnv]:
        return self.lockstep.envs

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        if seed is not None:
            self.lockstep.seed(seed)
        return super().seed(seed)

    def reset(self) -> np.ndarray:
        results = self.lockstep.reset(self._seeds, self._options)
        obs, infos = zip(*results, strict=True)
        self.reset_infos = list(infos)
        self._reset_seeds()
        self._reset_options()
        self._masks = None
        return np.stack(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> Any:
        results = self.lockstep.step(self._actions)
        obs, rewards, dones, infos, reset_infos = zip(*results, strict=True)
        self.reset_infos = list(reset_infos)
        self._masks = None
        return np.stack(obs), np.array(rewards, dtype=np.float32), np.array(dones), list(infos)

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [env.render() for env in self.envs]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.envs[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for i in self._get_indices(indices):
            setattr(self.envs[i], attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any):
        return [getattr(self.envs[i], method_name)(*method_args, **method_kwargs) for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
