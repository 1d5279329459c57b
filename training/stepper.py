"""The one stepper of the training vec envs: :class:`EnvStepper` steps a list of pirate_envs Gymnasium envs together.

Every training layout (``vec_env.kind``) steps its envs through it: :class:`training.lockstep.LockstepVecEnv`
in this process (the ``dummy`` and ``lockstep`` kinds) and each worker process of
:class:`training.vec_env.BatchedSubprocVecEnv` (``subproc``, ``batched``, ``batched_lockstep``); a
worker with one env is the stepper's one-env case. One :meth:`EnvStepper.step`:

1. plays every env's learner action (an illegal one that ends the episode ends only that env's);
2. lets the opponents act until each env waits for its learner again or is over. With
   ``batch_opponents`` the envs are played round by round: the envs waiting on the same policy form a
   group, and a policy with ``act_batch`` (a network: a checkpoint, a self-play snapshot) decides for
   its whole group in one call with the stepper's own generator. Otherwise, and for policies without
   ``act_batch`` (random, the heuristic bots, search bots), each decision is the one
   :meth:`PirateGymEnv.step` would make, from the env's own generator: those envs give exactly the
   results of stepping each env alone (``tests/test_lockstep.py``);
3. keeps SB3 ``Monitor``'s episode record (``info["episode"]`` with the return ``r``, length ``l`` and
   seconds since the stepper started ``t``) and a ``VecEnv``'s conventions (``info["TimeLimit.truncated"]``,
   ``info["terminal_observation"]``) and resets every finished env at once, its reset info kept per env
   as a ``DummyVecEnv`` keeps it.

The envs are the :class:`~pirate_envs.adapters.gym_env.PirateGymEnv` themselves (a wrapper around one is
looked through), so no ``Monitor`` is needed around them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.env_util import is_wrapped
from stable_baselines3.common.monitor import Monitor

from pirate_envs.adapters.gym_env import PirateGymEnv

StepResult = tuple[np.ndarray, float, bool, dict[str, Any], dict[str, Any]]


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
        raise TypeError(
            f"the training vec envs step pirate_envs Gymnasium envs (pirate_envs.make_gym); got {type(inner).__name__}"
        )
    return inner


def wrapped_in(env: gym.Env, wrapper_class: type[gym.Wrapper]) -> bool:
    """``VecEnv.env_is_wrapped`` of an env given to a stepper: True for ``Monitor``, whose episode record the
    stepper keeps (so SB3's tools that look for it, such as ``evaluate_policy``, read ``info["episode"]``),
    else whether ``env`` as built is wrapped in ``wrapper_class``."""
    return wrapper_class is Monitor or is_wrapped(env, wrapper_class)


class EnvStepper:
    """``envs`` stepped together, finished episodes recorded and reset (see the module docstring)."""

    def __init__(self, envs: Sequence[gym.Env], seed: int | None = None, batch_opponents: bool = True) -> None:
        self.envs = [unwrap(env) for env in envs]
        if not self.envs:
            raise ValueError("EnvStepper needs at least one env")
        single_blas_thread()
        self.batch_opponents = batch_opponents
        self.rng = np.random.default_rng(seed)  # the batched opponents' draws
        self.start = time.time()
        n = len(self.envs)
        self._returns = [0.0] * n
        self._lengths = [0] * n
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(n)]

    def seed(self, seed: int | None) -> None:
        """Seed the generator of the batched opponents' decisions."""
        self.rng = np.random.default_rng(seed)

    # --- opponents -------------------------------------------------------------------------------
    def play_opponents(self, indices: Sequence[int]) -> None:
        """Let the opponents of ``indices`` act until each of those envs waits for its learner (or is over)."""
        if not self.batch_opponents:
            for i in indices:
                self.envs[i].play_opponents()
            return
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
                self._decide(policy, rows)
            active = waiting

    def _decide(self, policy: Any, rows: list[tuple[int, int]]) -> None:
        """One decision of ``policy`` in each ``(env index, seat)`` of ``rows``: one batch where it can."""
        batched = getattr(policy, "act_batch", None)
        if batched is None or len(rows) == 1:
            for i, seat in rows:
                env = self.envs[i]
                env.apply_opponent_action(seat, env.opponent_action(seat, policy, env.np_random))
            return
        states = [self.envs[i].state for i, _ in rows]
        observations = np.stack([state.observation(seat) for state, (_, seat) in zip(states, rows, strict=True)])
        masks = np.stack([state.legal_action_mask() for state in states])
        for (i, seat), action in zip(rows, batched(observations, masks, self.rng), strict=True):
            self.envs[i].apply_opponent_action(seat, int(action))

    # --- episodes -------------------------------------------------------------------------------
    def reset(
        self, seeds: Sequence[int | None], options: Sequence[dict[str, Any] | None]
    ) -> list[tuple[np.ndarray, dict[str, Any]]]:
        """Reset every env (``reset(seed=..., options=...)`` each); ``(observation, info)`` per env."""
        for env, seed, option in zip(self.envs, seeds, options, strict=True):
            env.begin_reset(seed=seed, options=option or None)
        self.play_opponents(range(len(self.envs)))
        n = len(self.envs)
        self._returns = [0.0] * n
        self._lengths = [0] * n
        started = [env.finish_reset() for env in self.envs]
        self.reset_infos = [info for _, info in started]
        return started

    def step(self, actions: Sequence[int]) -> list[StepResult]:
        """One learner action per env; per env ``(observation, reward, done, info, reset_info)``, where a
        finished env has been reset (``observation`` is its new game's; ``info["terminal_observation"]`` and
        ``info["episode"]`` tell the one that ended)."""
        envs = self.envs
        early: dict[int, tuple] = {}
        for i, (env, action) in enumerate(zip(envs, actions, strict=True)):
            ended = env.apply_learner_action(int(action))
            if ended is not None:  # an illegal action ended this episode: no opponent moves
                early[i] = ended
        self.play_opponents([i for i in range(len(envs)) if i not in early] if early else range(len(envs)))
        results: list[Any] = [None] * len(envs)
        finished = []
        for i, env in enumerate(envs):
            obs, reward, terminated, truncated, info = early[i] if i in early else env.finish_step()
            done = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            self._returns[i] += reward
            self._lengths[i] += 1
            if done:
                info["terminal_observation"] = obs
                info["episode"] = self._episode_record(i)
                env.begin_reset()
                finished.append(i)
            results[i] = (obs, reward, done, info)
        if finished:
            self.play_opponents(finished)
            for i in finished:
                obs, self.reset_infos[i] = envs[i].finish_reset()
                results[i] = (obs, *results[i][1:])
        reset_infos = self.reset_infos
        return [(*result, reset_infos[i]) for i, result in enumerate(results)]

    def _episode_record(self, i: int) -> dict[str, Any]:
        """SB3 Monitor's ``info["episode"]`` of env ``i``'s episode that just ended; its counts start again."""
        record = {"r": round(self._returns[i], 6), "l": self._lengths[i], "t": round(time.time() - self.start, 6)}
        self._returns[i], self._lengths[i] = 0.0, 0
        return record

    def masks(self) -> list[np.ndarray]:
        """Every env's legal-action mask (bool) for its learner's next decision."""
        return [env.action_masks() for env in self.envs]
