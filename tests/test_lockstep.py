"""``training.stepper`` and ``training.lockstep``: the one stepper of the training vec envs, in this process.

With opponents that decide row by row (random, heuristic, or any opponent with ``batch_opponents``
off: the ``dummy`` kind) the stepped envs must give exactly the trajectories and episode records of SB3's
``DummyVecEnv`` of ``Monitor``-wrapped envs with the same seeds; with a network opponent and
``batch_opponents`` its decisions must be asked once per round for every env that waits on it.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.monitor import Monitor
from vec_env_play import assert_same_records, play, reference

import pirate_envs
from training.lockstep import LockstepEnvs, LockstepVecEnv
from training.stepper import EnvStepper
from training.train import make_training_env
from training.vec_env import BatchedSubprocVecEnv

# learner decisions in one game at most, about (default player counts): runs this long see auto-resets
LEARNER_TURNS_PER_GAME = {"potsm_v0": 50, "dead_mans_draw_v0": 50, "tortuga_v0": 50, "madame_ching_v0": 120}


def env_fns(env_id: str, count: int, opponents, **options) -> list:
    return [functools.partial(make_training_env, env_id, "random", opponents, options, False)] * count


@pytest.mark.parametrize("opponents", ["heuristic", "random"])
@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_same_trajectories_as_a_dummy_vec_env_with_row_by_row_opponents(env_id, opponents):
    fns = env_fns(env_id, 3, opponents)
    steps = LEARNER_TURNS_PER_GAME[env_id] + 10
    expected = play(reference(fns), steps, seed=5, episode_info=True)
    got = play(LockstepVecEnv(fns), steps, seed=5, episode_info=True)
    assert_same_records(expected, got)


def test_batched_workers_in_lockstep_match_a_dummy_vec_env():
    fns = env_fns("dead_mans_draw_v0", 5, "heuristic")
    batched = BatchedSubprocVecEnv(fns, workers=2, lockstep=True)
    try:
        expected, got = (
            play(reference(fns), 60, seed=2, episode_info=True),
            play(batched, 60, seed=2, episode_info=True),
        )
    finally:
        batched.close()
    assert_same_records(expected, got)


@pytest.mark.parametrize("env_id", ["dead_mans_draw_v0", "madame_ching_v0"])
def test_offloading_a_share_to_a_worker_keeps_the_trajectories(env_id):
    fns = env_fns(env_id, 5, "heuristic")
    steps = LEARNER_TURNS_PER_GAME[env_id] + 10
    offloaded = LockstepVecEnv(fns, offload=0.6)
    try:
        assert offloaded.n_local == 2 and offloaded.remote is not None
        expected, got = (
            play(reference(fns), steps, seed=3, episode_info=True),
            play(offloaded, steps, seed=3, episode_info=True),
        )
        # per-env calls reach the envs on both sides, in env order
        offloaded.set_attr("tag", "x", indices=[1, 3])
        offloaded.set_attr("tag", "y", indices=[0, 2, 4])
        assert offloaded.get_attr("tag") == ["y", "x", "y", "x", "y"]
        masks = offloaded.env_method("action_masks")
        assert len(masks) == 5 and all(mask.any() for mask in masks)
    finally:
        offloaded.close()
    assert_same_records(expected, got)


def test_offload_must_leave_envs_here():
    with pytest.raises(ValueError, match="offload must be in"):
        LockstepVecEnv(env_fns("dead_mans_draw_v0", 2, "random"), offload=1.0)


class DrawingNetwork:
    """A stand-in network opponent that draws its move from the generator it is given, alone or in a batch."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def act(self, observation, action_mask, rng) -> int:
        return int(rng.choice(np.flatnonzero(action_mask)))

    def act_batch(self, observations, action_masks, rng) -> list[int]:
        self.batches.append(len(observations))
        return [int(rng.choice(np.flatnonzero(mask))) for mask in action_masks]


def test_the_dummy_layout_asks_even_a_network_row_by_row_with_each_envs_generator():
    """``batch_opponents=False`` (``vec_env.kind: dummy``): a network opponent decides as in each env's own
    ``step``, so the trajectories and episode records are SB3's DummyVecEnv-of-Monitors' even though the
    opponent could decide in batches; with batching it is asked in batches, from the stepper's generator."""
    network = DrawingNetwork()
    fns = env_fns("dead_mans_draw_v0", 4, network)
    steps = LEARNER_TURNS_PER_GAME["dead_mans_draw_v0"] + 10
    expected = play(reference(fns), steps, seed=6, episode_info=True)
    assert_same_records(expected, play(LockstepVecEnv(fns, batch_opponents=False), steps, seed=6, episode_info=True))
    assert network.batches == []
    batched = play(LockstepVecEnv(fns, batch_opponents=True), steps, seed=6, episode_info=True)
    assert network.batches and max(network.batches) > 1
    assert len(batched) != len(expected) or any(
        not np.array_equal(a, b) for a, b in zip(expected, batched, strict=True)
    ), "the batched draws come from another generator: the games differ"


def test_episode_records_and_reset_infos_follow_sb3():
    """Per env: ``info["episode"]`` when an episode ends (Monitor's ``r``, ``l`` and ``t``), the new game's
    observation with the old one as ``terminal_observation``, and the reset info kept as DummyVecEnv keeps it."""
    vec = LockstepVecEnv(env_fns("dead_mans_draw_v0", 3, "heuristic"), batch_opponents=False)
    vec.seed(4)
    vec.reset()
    assert [info["seat"] for info in vec.reset_infos] == [env.seat for env in vec.envs]
    rng = np.random.default_rng(4)
    returns, lengths, ended = np.zeros(3), np.zeros(3, dtype=int), 0
    for _ in range(80):
        masks = get_action_masks(vec)
        obs, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["r"] == pytest.approx(returns[i], abs=1e-6) and episode["l"] == lengths[i]
            assert episode["t"] >= 0
            assert not np.array_equal(infos[i]["terminal_observation"], obs[i])
            assert vec.reset_infos[i]["seat"] == vec.envs[i].seat
            assert infos[i]["TimeLimit.truncated"] is False
            returns[i], lengths[i] = 0.0, 0
            ended += 1
        assert all("episode" not in infos[i] for i in np.flatnonzero(~dones))
        np.testing.assert_array_equal(obs, np.stack([env.state.observation(env.seat) for env in vec.envs]))
    assert ended > 3
    assert vec.env_is_wrapped(Monitor) == [True] * 3  # SB3's tools may read info["episode"]


class CountingNetwork:
    """A stand-in network opponent: the first legal action, and a record of every batch it was asked."""

    def __init__(self) -> None:
        self.batches: list[int] = []
        self.single = 0

    def act(self, observation, action_mask, rng) -> int:
        self.single += 1
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations, action_masks, rng) -> list[int]:
        assert len(observations) == len(action_masks)
        self.batches.append(len(observations))
        return [int(np.flatnonzero(mask)[0]) for mask in action_masks]


def test_a_network_opponent_decides_once_per_round_for_all_waiting_envs():
    network = CountingNetwork()
    envs = [pirate_envs.make_gym("madame_ching_v0", seat=0, opponents=network) for _ in range(8)]
    together = EnvStepper(envs, seed=0)
    together.reset([10 + i for i in range(8)], [None] * 8)
    for _ in range(5):
        together.step([int(np.flatnonzero(m)[0]) for m in together.masks()])
    assert network.batches and max(network.batches) == 8, network.batches
    # and the same decisions as asking it row by row: the first legal action either way
    alone = [pirate_envs.make_gym("madame_ching_v0", seat=0, opponents=CountingNetwork()) for _ in range(8)]
    for i, env in enumerate(alone):
        env.reset(seed=10 + i)
    for _ in range(5):
        for env in alone:
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    for env, mine in zip(alone, together.envs, strict=True):
        np.testing.assert_array_equal(env.state.observation(0), mine.state.observation(0))


def test_an_illegal_learner_action_ends_only_that_episode():
    fns = env_fns("dead_mans_draw_v0", 2, "random")
    vec = LockstepVecEnv(fns)
    vec.seed(0)
    vec.reset()
    envs = vec.envs
    for env in envs:
        env.illegal_action = "terminate"
    masks = get_action_masks(vec)
    illegal = int(np.flatnonzero(~masks[0])[0])
    legal = int(np.flatnonzero(masks[1])[0])
    with pytest.warns(pirate_envs.adapters.checks.IllegalActionWarning):
        _, rewards, dones, infos = vec.step(np.array([illegal, legal]))
    assert dones[0] and rewards[0] == -1.0 and infos[0]["illegal_action"] and "episode" in infos[0]
    assert not infos[1].get("illegal_action")


def test_the_stepper_needs_pirate_envs():
    import gymnasium

    assert LockstepEnvs is EnvStepper  # the stepper's former name still works
    with pytest.raises(TypeError, match=r"training vec envs step pirate_envs Gymnasium envs .*got CartPoleEnv"):
        EnvStepper([gymnasium.make("CartPole-v1")])
    with pytest.raises(ValueError, match="at least one env"):
        EnvStepper([])


@pytest.mark.parametrize("offload", [0.0, 0.5])
def test_training_in_lockstep_reaches_self_play(tmp_path, offload):
    """``vec_env.kind: lockstep``: a run trains, snapshots join as opponents (the batched kind's workers in
    lockstep are checked against a DummyVecEnv above)."""
    import yaml

    from training.checkpoints import latest_checkpoint
    from training.train import main

    run_dir = tmp_path / "run"
    config = {
        "env": {"id": "dead_mans_draw_v0", "seat": "random"},
        "run": {"dir": str(run_dir), "total_timesteps": 128, "seed": 1},
        "vec_env": {"n_envs": 4, "kind": "lockstep", "offload": offload},
        "ppo": {"n_steps": 16, "batch_size": 32, "n_epochs": 1},
        "network": {"pi": [16], "vf": [16]},
        "opponents": {
            "stages": [{"until": 64, "mix": {"heuristic": 1}}, {"until": None, "mix": {"selfplay": 1}}],
            "snapshot_every": 32,
        },
        "eval": {"every": 128, "games": 2},
        "checkpoint": {"every": 128, "keep": 1},
        "logging": {"progress_bar": False, "tensorboard": False},
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main([str(path)]) == 0
    _, state = latest_checkpoint(run_dir)
    assert state["timesteps"] == 128 and state["stage"] == 1 and state["pool"]["snapshots"]
