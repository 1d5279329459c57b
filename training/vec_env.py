"""A subprocess vec env that runs several envs per worker and sends their action masks with each step.

SB3's ``SubprocVecEnv`` gives every env its own process, and MaskablePPO then asks every env for
its action mask in a second round trip before each step. On a machine with few cores that IPC
costs more than the parallel stepping saves (see ``docs/training.md``, Throughput). Here:

- the envs are split into ``workers`` contiguous slices, one process each, so one message per
  worker carries all of its envs' actions and one reply all of their results;
- every reply also carries each env's ``action_masks()`` after the step (after the automatic
  reset when an episode ended), and ``env_method("action_masks")`` is answered from that cache,
  with no round trip.

Everything else (auto-reset with ``terminal_observation``, ``TimeLimit.truncated``, seeds and
reset options, ``env_method``/``get_attr``/``set_attr``) behaves as in ``SubprocVecEnv``, so
results match a ``DummyVecEnv`` with the same env functions and seeds.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv, VecEnvIndices
from stable_baselines3.common.vec_env.patch_gym import _patch_env

MASKS = "action_masks"


def _masks_of(env: gym.Env) -> np.ndarray | None:
    try:
        return env.get_wrapper_attr(MASKS)()
    except AttributeError:
        return None


def _worker(remote: Any, parent_remote: Any, env_fns: CloudpickleWrapper, lockstep: bool = False) -> None:
    from stable_baselines3.common.env_util import is_wrapped

    parent_remote.close()
    from .lockstep import single_blas_thread

    single_blas_thread()  # the network opponents' batched passes: see single_blas_thread
    envs = [_patch_env(fn()) for fn in env_fns.var]
    reset_infos: list[dict[str, Any]] = [{} for _ in envs]
    together = None
    if lockstep:
        from .lockstep import LockstepEnvs

        together = LockstepEnvs(envs)
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if together is not None and cmd == "step":
            stepped = together.step(data)
            remote.send([(*result, mask) for result, mask in zip(stepped, together.masks(), strict=True)])
        elif together is not None and cmd == "reset":
            seeds, options = zip(*data, strict=True)
            if seeds[0] is not None:
                together.seed(seeds[0])
            started = together.reset(seeds, options)
            remote.send([(*result, mask) for result, mask in zip(started, together.masks(), strict=True)])
        elif cmd == "step":
            results = []
            for i, (env, action) in enumerate(zip(envs, data, strict=True)):
                obs, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                info["TimeLimit.truncated"] = truncated and not terminated
                if done:
                    info["terminal_observation"] = obs
                    obs, reset_infos[i] = env.reset()
                results.append((obs, reward, done, info, reset_infos[i], _masks_of(env)))
            remote.send(results)
        elif cmd == "reset":
            results = []
            for i, (env, (seed, options)) in enumerate(zip(envs, data, strict=True)):
                obs, reset_infos[i] = env.reset(seed=seed, **({"options": options} if options else {}))
                results.append((obs, reset_infos[i], _masks_of(env)))
            remote.send(results)
        elif cmd == "get_spaces":
            remote.send((envs[0].observation_space, envs[0].action_space))
        elif cmd == "env_method":
            name, args, kwargs, local = data
            remote.send([envs[i].get_wrapper_attr(name)(*args, **kwargs) for i in local])
        elif cmd == "get_attr":
            name, local = data
            remote.send([envs[i].get_wrapper_attr(name) for i in local])
        elif cmd == "has_attr":
            try:
                for env in envs:
                    env.get_wrapper_attr(data)
                remote.send(True)
            except AttributeError:
                remote.send(False)
        elif cmd == "set_attr":
            name, value, local = data
            for i in local:
                setattr(envs[i], name, value)
            remote.send(None)
        elif cmd == "is_wrapped":
            wrapper, local = data
            remote.send([is_wrapped(envs[i], wrapper) for i in local])
        elif cmd == "render":
            remote.send([env.render() for env in envs])
        elif cmd == "close":
            for env in envs:
                env.close()
            remote.close()
            break
        else:  # pragma: no cover - programming error
            raise NotImplementedError(f"unknown command {cmd!r}")


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` envs in ``workers`` processes (contiguous slices); masks come back with every step.

    ``start_method`` defaults to ``forkserver`` where available, else ``spawn`` (as SB3's
    ``SubprocVecEnv``), so the env functions must be picklable (cloudpickle). With ``lockstep`` each
    worker steps its slice together (:class:`training.lockstep.LockstepEnvs`): the network opponents of
    a slice decide in one batch per round.
    """

    def __init__(
        self,
        env_fns: list[Callable[[], gym.Env]],
        workers: int = 2,
        start_method: str | None = None,
        lockstep: bool = False,
    ):
        n_envs = len(env_fns)
        if n_envs < 1:
            raise ValueError("BatchedSubprocVecEnv needs at least one env function")
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        workers = min(workers, n_envs)
        if start_method is None:
            start_method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        ctx = mp.get_context(start_method)
        bounds = np.linspace(0, n_envs, workers + 1).round().astype(int)
        self.slices = [range(int(lo), int(hi)) for lo, hi in itertools.pairwise(bounds)]
        self.waiting = False
        self.closed = False
        self.remotes, self.processes = [], []
        for part in self.slices:
            remote, work_remote = ctx.Pipe()
            fns = CloudpickleWrapper([env_fns[i] for i in part])
            process = ctx.Process(target=_worker, args=(work_remote, remote, fns, lockstep), daemon=True)
            process.start()
            work_remote.close()
            self.remotes.append(remote)
            self.processes.append(process)
        self.remotes[0].send(("get_spaces", None))
        observation_space, action_space = self.remotes[0].recv()
        super().__init__(n_envs, observation_space, action_space)
        self._masks: list[np.ndarray | None] = [None] * n_envs

    # --- stepping ---------------------------------------------------------------------------------
    def step_async(self, actions: np.ndarray) -> None:
        for remote, part in zip(self.remotes, self.slices, strict=True):
            remote.send(("step", [actions[i] for i in part]))
        self.waiting = True

    def step_wait(self) -> Any:
        results = [item for remote in self.remotes for item in remote.recv()]
        self.waiting = False
        obs, rewards, dones, infos, self.reset_infos, masks = zip(*results, strict=True)
        self._masks = list(masks)
        return np.stack(obs), np.stack(rewards), np.stack(dones), list(infos)

    def reset(self) -> Any:
        self.reset_async()
        return self.reset_wait()

    def reset_async(self) -> None:
        """Send every worker its envs' reset seeds and options; :meth:`reset_wait` collects the results."""
        for remote, part in zip(self.remotes, self.slices, strict=True):
            remote.send(("reset", [(self._seeds[i], self._options[i]) for i in part]))

    def reset_wait(self) -> Any:
        results = [item for remote in self.remotes for item in remote.recv()]
        obs, self.reset_infos, masks = zip(*results, strict=True)
        self._masks = list(masks)
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def close(self) -> None:
        if self.closed:
            return
        if self.waiting:
            for remote in self.remotes:
                remote.recv()
        for remote in self.remotes:
            remote.send(("close", None))
        for process in self.processes:
            process.join()
        for remote in self.remotes:
            remote.close()
        self.closed = True

    # --- per-env calls ----------------------------------------------------------------------------
    def _by_worker(self, indices: VecEnvIndices) -> list[tuple[Any, list[int], list[int]]]:
        """(remote, local indices, global indices) per worker holding one of ``indices``."""
        wanted = list(self._get_indices(indices))
        out = []
        for remote, part in zip(self.remotes, self.slices, strict=True):
            mine = [i for i in wanted if i in part]
            if mine:
                out.append((remote, [i - part.start for i in mine], mine))
        return out

    def _ask(self, indices: VecEnvIndices, message: Callable[[list[int]], tuple[str, Any]]) -> list[Any]:
        """Send ``message(local indices)`` to each worker concerned; the answers in the order of ``indices``."""
        targets = self._by_worker(indices)
        for remote, local, _ in targets:
            remote.send(message(local))
        answers = {i: item for remote, _, mine in targets for i, item in zip(mine, remote.recv(), strict=True)}
        return [answers[i] for i in self._get_indices(indices)]

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any):
        if method_name == MASKS and not method_args and not method_kwargs:
            wanted = list(self._get_indices(indices))
            if all(self._masks[i] is not None for i in wanted):
                return [self._masks[i].copy() for i in wanted]
        self._forget_masks(indices)  # the method may change an env (a reset, say): ask the workers next time
        return self._ask(indices, lambda local: ("env_method", (method_name, method_args, method_kwargs, local)))

    def _forget_masks(self, indices: VecEnvIndices) -> None:
        for i in self._get_indices(indices):
            self._masks[i] = None

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._ask(indices, lambda local: ("get_attr", (attr_name, local)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._forget_masks(indices)
        targets = self._by_worker(indices)
        for remote, local, _ in targets:
            remote.send(("set_attr", (attr_name, value, local)))
        for remote, _, _ in targets:
            remote.recv()

    def has_attr(self, attr_name: str) -> bool:
        for remote in self.remotes:
            remote.send(("has_attr", attr_name))
        return all([remote.recv() for remote in self.remotes])

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return self._ask(indices, lambda local: ("is_wrapped", (wrapper_class, local)))

    def get_images(self) -> Sequence[np.ndarray | None]:
        for remote in self.remotes:
            remote.send(("render", None))
        return [image for remote in self.remotes for image in remote.recv()]
