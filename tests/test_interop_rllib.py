"""Ray RLlib: the masked PPO module on every game, and a tiny self-play training run end to end
(``pip install -c constraints.txt -e '.[rllib]'``)."""

from __future__ import annotations

import csv
import warnings

import numpy as np
import pytest

import pirate_envs
from pirate_envs.adapters.checks import IllegalActionWarning
from pirate_envs.core.registry import game_class, make

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (the rllib extra)")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns  # noqa: E402

from pirate_envs.interop.rllib import FEATURES_KEY, MaskedPPOTorchRLModule, RLlibCheckpointPolicy  # noqa: E402


def random_positions(env_id: str, n: int, count: int, seed: int = 0):
    """(observations, masks) of the seat to act at ``count`` positions of random games."""
    env = make(env_id, num_players=n)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    while len(observations) < count:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        observations.append(obs["observation"])
        masks.append(obs["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return np.stack(observations), np.stack(masks)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_masked_module_samples_only_legal_actions(env_id):
    n = min(game_class(env_id).player_counts)
    aec = make(env_id, num_players=n)
    module = MaskedPPOTorchRLModule(
        observation_space=aec.observation_space("player_0"),
        action_space=aec.action_space("player_0"),
        model_config={"fcnet_hiddens": [32], FEATURES_KEY: "signed_log"},
    )
    observations, masks = random_positions(env_id, n, 40)
    batch = {Columns.OBS: {"observation": torch.as_tensor(observations), "action_mask": torch.as_tensor(masks)}}
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward({Columns.OBS: dict(batch[Columns.OBS])})[Columns.ACTION_DIST_INPUTS]
        assert logits.shape == masks.shape
        illegal = torch.as_tensor(masks) == 0
        assert torch.all(logits[illegal] == torch.finfo(logits.dtype).min)
        draws = torch.distributions.Categorical(logits=logits).sample((200,))  # exploration: sampled, not arg-max
        assert torch.all(torch.as_tensor(masks).gather(1, draws.T) == 1)
    values = module.compute_values({Columns.OBS: dict(batch[Columns.OBS])})
    assert values.shape == (len(observations),)
    assert set(batch[Columns.OBS]) == {"observation", "action_mask"}  # the caller's batch is not changed


def test_rllib_self_play_training_end_to_end(tmp_path):
    """A tiny local run: masks hold (the env raises on any illegal action), metrics and a checkpoint are
    written, and training.evaluation.evaluate plays the checkpoint."""
    from pirate_envs.policies.base import resolve_policy
    from training.evaluation.evaluate import evaluate_checkpoint
    from training.rllib_train import train, validate_rllib_config

    env_id = "dead_mans_draw_v0" if "dead_mans_draw_v0" in pirate_envs.ENV_IDS else pirate_envs.ENV_IDS[0]
    config = validate_rllib_config(
        {
            "env": {"id": env_id, "options": {"num_players": 2}},
            "run": {"iterations": 2, "dir": str(tmp_path / "run")},
            "ray": {"num_cpus": 2},
            "env_runners": {"num_env_runners": 0},
            "policies": {"mode": "per_seat"},
            "ppo": {"train_batch_size": 200, "minibatch_size": 100, "num_epochs": 1},
            "model": {"hiddens": [32]},
            "checkpoint": {"every": 1, "keep": 1},
        }
    )
    result = train(config, tmp_path / "run", progress=False)
    rows = list(csv.DictReader((tmp_path / "run" / "metrics.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [1, 2]
    assert all(int(r["env_steps"]) >= 200 for r in rows)
    assert sum(int(r["episodes"]) for r in rows) >= 1
    final = tmp_path / "run" / "final"
    for module_id in ("player_0", "player_1"):  # per_seat: one module per seat
        assert (final / "learner_group" / "learner" / "rl_module" / module_id).is_dir()
    assert (tmp_path / "run" / "checkpoints" / "iter_00001").is_dir()
    assert result["final"] == str(final)

    policy = resolve_policy(str(final), env_id, 2)
    assert isinstance(policy, RLlibCheckpointPolicy) and policy.module_dir.name == "player_0"
    report = evaluate_checkpoint(str(final), env_id, 2, opponents=("random",), games=4, seed=0)
    assert report["vs"]["random"]["games"] == 4


def _pre_check(env_id: str, seed: int, **kwargs):
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from pirate_envs.interop.rllib import make_rllib_env

    env = make_rllib_env(env_id, **kwargs)
    env.get_action_space("player_0").seed(seed)  # one space object serves every seat
    check_multiagent_environments(env)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_rllib_env_pre_check_passes_with_default_arguments(env_id):
    """RLlib's multi-agent env pre-check steps an action sampled without the mask: the default env takes an
    illegal one as PettingZoo's classic envs do (the game ends, -1 for the offender) and passes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        for seed in range(4):
            _pre_check(env_id, seed)
    refused = 0
    for seed in range(30):  # the debugging mode refuses an illegal unmasked draw
        try:
            _pre_check(env_id, seed, illegal_action="raise")
        except ValueError as err:
            assert "step()" in str(err)
            refused += 1
    assert refused > 0


def test_rllib_example_action_masking_module_reads_our_env():
    """RLlib's own example module reads ``{"observations", "action_mask"}``: ``observation_key="observations"``
    gives it that layout, and its masked logits allow only our legal actions."""
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from pirate_envs.interop.rllib import make_rllib_env

    env = make_rllib_env("potsm_v0", {"num_players": 2}, observation_key="observations")
    space = env.observation_space["player_0"]
    assert set(space.spaces) == {"observations", "action_mask"} and space["action_mask"].dtype == np.float32
    module = ActionMaskingTorchRLModule(
        observation_space=space, action_space=env.action_space["player_0"], model_config={"fcnet_hiddens": [16]}
    )
    observations, masks = [], []
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while len(observations) < 20:
        ((agent, agent_obs),) = obs.items()
        assert space.contains(agent_obs)
        observations.append(agent_obs["observations"])
        masks.append(agent_obs["action_mask"])
        obs, _, terminated, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(agent_obs["action_mask"])))})
        if terminated["__all__"]:
            obs, _ = env.reset()
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(np.stack(observations)),
            "action_mask": torch.as_tensor(np.stack(masks)),
        }
    }
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    allowed = torch.as_tensor(np.stack(masks)) > 0
    assert torch.all(logits[~allowed] < -1e30) and torch.all(logits[allowed] > -1e30)
    with pytest.raises(KeyError, match="unknown agent 'player_7'"):
        env.env.observation_space("player_7")
