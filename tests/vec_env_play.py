"""Stepping a vec env with masked random actions and recording what the learner sees (shared by the
vec-env tests, which compare two vec envs record by record)."""

from __future__ import annotations

import numpy as np
from sb3_contrib.common.maskable.utils import get_action_masks


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
