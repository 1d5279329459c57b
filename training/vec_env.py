"""A subprocess vec env that steps several envs per worker and sends their action masks with each step.

SB3's ``SubprocVecEnv`` gives every env its own process, and MaskablePPO then asks every env for
its action mask in a second round trip before each step. On a machine with few cores that IPC
costs more than the parallel stepping saves (see ``docs/training.md``, Throughput). Here:

- the envs are split into ``workers`` contiguous slices, one process each, so one message per
  worker carries all of its envs' actions and one reply all of their results;
- each worker steps its slice with the one stepper of the training vec envs
  (:class:`training.stepper.EnvStepper`: auto-reset, ``terminal_observation``, ``TimeLimit.truncated``,
  ``info["episode"]``), its opponents batched across the slice with ``lockstep``;
- every reply also carries each env's ``action_masks()`` after the step (after the automatic
  reset when an episode ended), and ``env_method("action_masks")`` is answered from that cache,
  with no round trip.

Seeds and reset options, ``env_method``/``get_attr``/``set_attr`` behave as in ``SubprocVecEnv``, so
results match a ``DummyVecEnv`` of ``Monitor``-wrapped envs with the same env functions and seeds. A
worker that fails (an env function that raises, an env that is not a pirate_envs Gymnasium env, an
error while stepping) sends its traceback and stops; the call that was waiting raises it as
:class:`EnvWorkerError`.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv, VecEnvIndices
from stable_baselines3.common.vec_env.patch_gym import _patch_env

from .stepper import EnvStepper, wrapped_in

MASKS = "action_masks"


class EnvWorkerError(RuntimeError):
    """A worker process of :class:`BatchedSubprocVecEnv` failed; the message holds its traceback."""


class _Failure:
    """What a failed worker sends instead of an answer."""

    def __init__(self, command: str, details: str) -> None:
        self.command = command
        self.details = details


def _answer(stepper: EnvStepper, envs: list[gym.Env], cmd: str, data: Any) -> Any:
    """The worker's reply to one command (None for ``close``, which the caller handles)."""
    if cmd == "step":
        stepped = stepper.step(data)
        return [(*result, mask) for result, mask in zip(stepped, stepper.masks(), strict=True)]
    if cmd == "reset":
        seeds, options = zip(*data, strict=True)
        if seeds[0] is not None:
            stepper.seed(seeds[0])
        started = stepper.reset(seeds, options)
        return [(*result, mask) for result, mask in zip(started, stepper.masks(), strict=True)]
    inner = stepper.envs
    if cmd == "get_spaces":
        return inner[0].observation_space, inner[0].action_space
    if cmd == "env_method":
        name, args, kwargs, local = data
        return [getattr(inner[i], name)(*args, **kwargs) for i in local]
    if cmd == "get_attr":
        name, local = data
        return [getattr(inner[i], name) for i in local]
    if cmd == "has_attr":
        return all(hasattr(env, data) for env in inner)
    if cmd == "set_attr":
        name, value, local = data
        for i in local:
            setattr(inner[i], name, value)
        return None
    if cmd == "is_wrapped":
        wrapper, local = data
        return [wrapped_in(envs[i], wrapper) for i in local]
    if cmd == "render":
        return [env.render() for env in inner]
    raise NotImplementedError(f"unknown command {cmd!r}")  # pragma: no cover - programming error


def _worker(remote: Any, parent_remote: Any, env_fns: CloudpickleWrapper, lockstep: bool = False) -> None:
    parent_remote.close()
    cmd = "start"
    try:
        envs = [_patch_env(fn()) for fn in env_fns.var]
        stepper = EnvStepper(envs, batch_opponents=lockstep)
        while True:
            try:
                cmd, data = remote.recv()
            except (EOFError, KeyboardInterrupt):
                break
            if cmd == "close":
                for env in stepper.envs:
                    env.close()
                remote.close()
                break
            remote.send(_answer(stepper, envs, cmd, data))
    except Exception:
        try:
            remote.send(_Failure(cmd, traceback.format_exc()))
            remote.close()
        except OSError:  # the parent has gone: nobody is left to tell
            pass


def _receive(remote: Any) -> Any:
    """A worker's answer; its failure raised as :class:`EnvWorkerError`."""
    answer = remote.recv()
    if isinstance(answer, _Failure):
        raise EnvWorkerError(f"a vec env worker failed ({answer.command!r}):\n{answer.details}")
    return answer


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` envs in ``workers`` processes (contiguous slices); masks come back with every step.

    ``start_method`` defaults to ``forkserver`` where available, else ``spawn`` (as SB3's
    ``SubprocVecEnv``), so the env functions must be picklable (cloudpickle) and make pirate_envs
    Gymnasium envs (``make_gym``). With ``lockstep`` the network opponents of a slice decide in one batch
    per round (the stepper's ``batch_opponents``); without it every decision is the one the env makes alone.
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
        try:
            observation_space, action_space = _receive(self.remotes[0])
        except EnvWorkerError:
            self.closed = True
            for process in self.processes:
                process.kill()
            raise
        super().__init__(n_envs, observation_space, action_space)
        self._masks: list[np.ndarray | None] = [None] * n_envs

    # --- stepping ---------------------------------------------------------------------------------
    def step_async(self, actions: np.ndarray) -> None:
        for remote, part in zip(self.remotes, self.slices, strict=True):
            remote.send(("step", [actions[i] for i in part]))
        self.waiting = True

    def step_wait(self) -> Any:
        self.waiting = False
        results = [item for remote in self.remotes for item in _receive(remote)]
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
        results = [item for remote in self.remotes for item in _receive(remote)]
        obs, self.reset_infos, masks = zip(*results, strict=True)
        self._masks = list(masks)
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for remote in self.remotes:
            try:
                if self.waiting:
                    remote.recv()
                remote.send(("close", None))
            except (EOFError, OSError):  # a worker that failed has stopped already
                pass
        for process in self.processes:
            process.join()
        for remote in self.remotes:
            remote.close()

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
        answers = {i: item for remote, _, mine in targets for i, item in zip(mine, _receive(remote), strict=True)}
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
            _receive(remote)

    def has_attr(self, attr_name: str) -> bool:
        for remote in self.remotes:
            remote.send(("has_attr", attr_name))
        return all([_receive(remote) for remote in self.remotes])

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return self._ask(indices, lambda local: ("is_wrapped", (wrapper_class, local)))

    def get_images(self) -> Sequence[np.ndarray | None]:
        for remote in self.remotes:
            remote.send(("render", None))
        return [image for remote in self.remotes for image in _receive(remote)]
