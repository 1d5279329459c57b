"""Stepping a vec env with masked random actions and recording what the learner sees (shared by the
vec-env tests, which compare two vec envs record by record, the reference being SB3's own ``DummyVecEnv``
of ``Monitor``-wrapped envs)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import gymnasium as gym
import numpy as np
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv


def _monitor(fn: Callable[[], gym.Env]) -> Monitor:
    return Monitor(fn())


def reference(fns: list[Callable[[], gym.Env]]) -> DummyVecEnv:
    """SB3's ``DummyVecEnv`` of the envs of ``fns``, each in SB3's ``Monitor``: what the training vec
    envs must match."""
    return DummyVecEnv([functools.partial(_monitor, fn) for fn in fns])


def play(vec, steps: int, seed: int, episode_info: bool = False) -> list:
    """Masks, observations, rewards, dones and terminal observations of ``steps`` masked random steps;
    with ``episode_info`` also each finished episode's return and length and its winners."""
    rng = np.random.default_rng(seed)
    vec.seed(seed)
    record = [vec.reset()]
    for _ in range(steps):
        masks = get_action_masks(vec)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        record += [masks, obs, rewards, dones]
        for info, done in zip(infos, dones, strict=True):
            if done:
                record.append(info["terminal_observation"])
                if episode_info:
                    record += [np.array([info["episode"]["r"], info["episode"]["l"]]), np.array(info["seat_won"])]
    return record


def assert_same_records(expected: list, got: list, episodes_end: bool = True) -> None:
    """Two :func:`play` records equal item by item; with ``episodes_end`` (records made with
    ``episode_info``) at least one episode must have ended, so auto-reset was exercised."""
    assert len(expected) == len(got)
    if episodes_end:
        assert sum(1 for item in expected if item.shape == (2,)) > 0, "an episode must end (auto-reset) in the run"
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_array_equal(a, b)
