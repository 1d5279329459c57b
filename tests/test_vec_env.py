"""``training.vec_env.BatchedSubprocVecEnv``: same results as a DummyVecEnv, masks without a round trip."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv
from vec_env_play import play

import pirate_envs
from training.train import make_training_env
from training.vec_env import BatchedSubprocVecEnv

ENV_ID = pirate_envs.ENV_IDS[0]


def env_fns(count: int, opponents: str = "random") -> list:
    return [functools.partial(make_training_env, ENV_ID, "random", opponents, {}, False)] * count


def test_same_trajectories_as_a_dummy_vec_env():
    fns = env_fns(5)
    dummy = DummyVecEnv(fns)
    batched = BatchedSubprocVecEnv(fns, workers=2)
    try:
        assert batched.slices == [range(0, 2), range(2, 5)]
        expected, got = play(dummy, 60, seed=4), play(batched, 60, seed=4)
        assert len(expected) == len(got) > 60 * 4 + 1, "episodes must end (auto-reset) within the run"
        for a, b in zip(expected, got, strict=True):
            np.testing.assert_array_equal(a, b)
    finally:
        batched.close()


def test_masks_come_from_the_step_and_calls_reach_the_right_envs():
    batched = BatchedSubprocVecEnv(env_fns(2), workers=8)  # more workers than envs: one env each
    try:
        assert batched.slices == [range(0, 1), range(1, 2)]
        batched.seed(1)
        batched.reset()
        cached = batched.env_method("action_masks")
        batched._masks = [None] * 2  # force a round trip to the workers
        asked = batched.env_method("action_masks", indices=[1, 0])  # answers in the order asked
        np.testing.assert_array_equal(asked[0], cached[1])
        np.testing.assert_array_equal(asked[1], cached[0])
        assert not np.array_equal(cached[0], cached[1]), "seat draws differ: the masks tell the envs apart"
        batched.set_attr("marker", 7, indices=[1])
        assert batched.get_attr("marker", indices=[1]) == [7]
        assert batched.has_attr("action_masks") and not batched.has_attr("no_such_attribute")
        assert batched.env_is_wrapped(Monitor) == [True, True]
    finally:
        batched.close()
    batched.close()  # closing twice is harmless


def test_bad_worker_counts_are_rejected():
    with pytest.raises(ValueError, match="workers must be >= 1"):
        BatchedSubprocVecEnv(env_fns(2), workers=0)
    with pytest.raises(ValueError, match="at least one env"):
        BatchedSubprocVecEnv([], workers=2)


def test_training_with_the_batched_kind_reaches_self_play(tmp_path):
    """``vec_env.kind: batched`` in a config: the opponent pool, snapshots included, reaches the workers."""
    import yaml

    from training.checkpoints import latest_checkpoint
    from training.train import main

    run_dir = tmp_path / "run"
    config = {
        "env": {"id": ENV_ID, "seat": "random"},
        "run": {"dir": str(run_dir), "total_timesteps": 128, "seed": 1},
        "vec_env": {"n_envs": 2, "kind": "batched", "workers": 2},
        "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 1},
        "network": {"pi": [16], "vf": [16]},
        "opponents": {"stages": [{"until": 64, "mix": {"heuristic": 1}}, {"until": None, "mix": {"selfplay": 1}}]},
        "eval": {"every": 128, "games": 2},
        "checkpoint": {"every": 128, "keep": 1},
        "logging": {"progress_bar": False, "tensorboard": False},
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main([str(path)]) == 0
    _, state = latest_checkpoint(run_dir)
    assert state["timesteps"] == 128 and state["stage"] == 1 and state["pool"]["snapshots"]
