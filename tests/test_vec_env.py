"""``training.vec_env.BatchedSubprocVecEnv``: same results as a DummyVecEnv, masks without a round trip; and
the layout each ``vec_env.kind`` builds around the one stepper."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from stable_baselines3.common.monitor import Monitor
from vec_env_play import assert_same_records, play, reference

import pirate_envs
from training.config import validate_config
from training.config_types import TrainConfig
from training.lockstep import LockstepVecEnv
from training.train import build_vec_env, make_training_env
from training.vec_env import BatchedSubprocVecEnv, EnvWorkerError

ENV_ID = pirate_envs.ENV_IDS[0]


def env_fns(count: int, opponents: str = "random") -> list:
    return [functools.partial(make_training_env, ENV_ID, "random", opponents, {}, False)] * count


def test_same_trajectories_as_a_dummy_vec_env():
    fns = env_fns(5)
    batched = BatchedSubprocVecEnv(fns, workers=2)
    try:
        assert batched.slices == [range(0, 2), range(2, 5)]
        expected, got = (
            play(reference(fns), 60, seed=4, episode_info=True),
            play(batched, 60, seed=4, episode_info=True),
        )
        assert_same_records(expected, got)
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


def _cartpole():
    import gymnasium

    return gymnasium.make("CartPole-v1")


def _broken_env():
    raise OSError("no table to play on")


@pytest.mark.parametrize(
    ("fn", "message"),
    [(_cartpole, "TypeError: the training vec envs step pirate_envs"), (_broken_env, "OSError: no table to play on")],
)
def test_a_worker_that_cannot_start_says_why(fn, message):
    with pytest.raises(EnvWorkerError, match=message):
        BatchedSubprocVecEnv([fn, fn], workers=1)


def test_a_worker_that_fails_while_stepping_says_why_and_closes():
    batched = BatchedSubprocVecEnv(env_fns(2), workers=2)
    try:
        batched.seed(0)
        batched.reset()
        masks = np.stack(batched.env_method("action_masks"))
        illegal = int(np.flatnonzero(~masks[1])[0])  # the training envs raise on an illegal action
        with pytest.raises(EnvWorkerError, match=r"(?s)\('step'\).*IllegalActionError"):
            batched.step(np.array([int(np.flatnonzero(masks[0])[0]), illegal]))
    finally:
        batched.close()
    assert all(not process.is_alive() for process in batched.processes)


def config_of(kind: str, **vec_env) -> TrainConfig:
    data = {
        "env": {"id": "dead_mans_draw_v0", "seat": "random"},
        "run": {"total_timesteps": 64},
        "vec_env": {"kind": kind, "n_envs": 4, **vec_env},
        "ppo": {"n_steps": 16, "batch_size": 16},
    }
    return TrainConfig.from_dict(validate_config(data))


@pytest.mark.parametrize(
    ("kind", "settings", "layout"),
    [
        ("dummy", {}, ("here", False, 4)),
        ("lockstep", {}, ("here", True, 4)),
        ("lockstep", {"offload": 0.5}, ("here", True, 2)),
        ("subproc", {}, ("workers", False, 4)),
        ("batched", {"workers": 2}, ("workers", False, 2)),
        ("batched_lockstep", {"workers": 2}, ("workers", True, 2)),
    ],
)
def test_each_kind_builds_its_layout_and_matches_sb3(kind, settings, layout):
    """``vec_env.kind`` picks where the stepper runs (this process or workers: how many envs here, or how many
    workers) and whether opponents decide in batches; with heuristic opponents every layout gives the
    trajectories and episode records of SB3's DummyVecEnv of Monitors."""
    vec = build_vec_env(config_of(kind, **settings), opponents="heuristic")
    try:
        where, batched, count = layout
        if where == "here":
            assert isinstance(vec, LockstepVecEnv) and vec.stepper.batch_opponents is batched
            assert vec.n_local == count and (vec.remote is None) == (count == 4)
        else:
            assert isinstance(vec, BatchedSubprocVecEnv) and len(vec.processes) == count
        fns = [functools.partial(make_training_env, "dead_mans_draw_v0", "random", "heuristic", {}, False)] * 4
        assert_same_records(
            play(reference(fns), 60, seed=9, episode_info=True), play(vec, 60, seed=9, episode_info=True)
        )
    finally:
        vec.close()
