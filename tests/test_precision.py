"""``ppo.update_precision`` (training/precision.py): bfloat16 matrix products in the gradient passes only."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from training.config import validate_config
from training.config_types import TrainConfig
from training.precision import BFloat16Trunk, set_update_precision, trunks

PLAIN = {
    "env": {"id": "madame_ching_v0", "options": {"num_players": 3}},
    "run": {"total_timesteps": 64, "seed": 5},
    "vec_env": {"n_envs": 2},
    "ppo": {"n_steps": 32, "batch_size": 32},
    "network": {"pi": [32, 32], "vf": [32], "activation": "relu"},
}
FEATURES = {
    **PLAIN,
    "env": {"id": "dead_mans_draw_v0", "options": {"num_players": 2}},
    "network": {"pi": [32, 32], "vf": [32], "activation": "relu", "action_features": True},
}


def build(data: dict, precision: str):
    from training.train import build_model, build_vec_env

    config = TrainConfig.from_dict(validate_config({**data, "ppo": {**data["ppo"], "update_precision": precision}}))
    vec = build_vec_env(config, opponents="random")
    model = build_model(config, vec, tensorboard_log=None)
    set_update_precision(model.policy, config.ppo.update_precision)
    return model, vec


def batch(vec, model, steps: int = 24):
    """Observations and masks of a few random steps of ``vec``."""
    rng = np.random.default_rng(0)
    obs, masks = [], []
    o = vec.reset()
    for _ in range(steps):
        m = np.stack(vec.env_method("action_masks"))
        obs.append(o)
        masks.append(m)
        o, _, _, _ = vec.step(np.array([rng.choice(np.flatnonzero(row)) for row in m]))
    return torch.as_tensor(np.concatenate(obs)), np.concatenate(masks)


def test_the_key_defaults_to_float32_and_names_what_is_allowed():
    assert validate_config(PLAIN)["ppo"]["update_precision"] == "float32"
    with pytest.raises(Exception, match=r"ppo.update_precision.*'float32', 'bfloat16'"):
        validate_config({**PLAIN, "ppo": {"update_precision": "float16"}})
    with pytest.raises(ValueError, match=r"float16.*float32, bfloat16"):
        set_update_precision(object(), "float16")


@pytest.mark.parametrize("data", [PLAIN, FEATURES], ids=["plain", "action_features"])
def test_bfloat16_changes_the_gradient_passes_and_nothing_else(data):
    plain, vec32 = build(data, "float32")
    mixed, vec16 = build(data, "bfloat16")
    try:
        assert [type(t) for t in trunks(plain.policy)] == [nn.Sequential, nn.Sequential]
        assert [type(t) for t in trunks(mixed.policy)] == [BFloat16Trunk, BFloat16Trunk]
        # the same network: same parameters, all float32
        ours, theirs = plain.policy.state_dict(), mixed.policy.state_dict()
        assert ours.keys() == theirs.keys()
        assert all(torch.equal(ours[k], theirs[k]) and theirs[k].dtype == torch.float32 for k in ours)

        obs, masks = batch(vec32, plain)
        actions = torch.as_tensor([int(np.flatnonzero(m)[0]) for m in masks])
        seen: list[torch.dtype] = []
        first_linear = next(m for m in trunks(mixed.policy)[0] if isinstance(m, nn.Linear))
        hook = first_linear.register_forward_hook(lambda _m, _i, out: seen.append(out.dtype))

        with torch.no_grad():  # rollouts, evaluations: float32, bit for bit
            a = plain.policy.evaluate_actions(obs, actions, action_masks=masks)
            b = mixed.policy.evaluate_actions(obs, actions, action_masks=masks)
        assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True))
        assert seen == [torch.float32]

        a = plain.policy.evaluate_actions(obs, actions, action_masks=masks)
        b = mixed.policy.evaluate_actions(obs, actions, action_masks=masks)  # an update's pass
        assert seen[-1] == torch.bfloat16
        for x, y in zip(a, b, strict=True):
            assert y.dtype == torch.float32
            assert not torch.equal(x, y)
            torch.testing.assert_close(y, x, atol=0.05, rtol=0.05)

        values, log_prob, _ = b
        (values.sum() + log_prob.sum()).backward()
        for module in trunks(mixed.policy):
            for parameter in module.parameters():
                assert parameter.grad is not None and parameter.grad.dtype == torch.float32
                assert parameter.grad.abs().sum() > 0
        hook.remove()
    finally:
        vec32.close()
        vec16.close()


def test_a_run_with_bfloat16_updates_saves_the_plain_float32_network(tmp_path, monkeypatch):
    from sb3_contrib import MaskablePPO

    from training.train import main

    calls = {"grad": 0}
    original = BFloat16Trunk.forward

    def counting(self, x):
        calls["grad"] += torch.is_grad_enabled()
        return original(self, x)

    monkeypatch.setattr(BFloat16Trunk, "forward", counting)
    config = tmp_path / "config.yaml"
    config.write_text(
        "env: {id: madame_ching_v0, options: {num_players: 3}}\n"
        f"run: {{dir: {tmp_path / 'run'}, total_timesteps: 64, seed: 1}}\n"
        "vec_env: {n_envs: 2}\n"
        "ppo: {n_steps: 32, batch_size: 32, n_epochs: 1, update_precision: bfloat16}\n"
        "network: {pi: [16], vf: [16]}\n"
        "imitation: {games: 2, epochs: 1}\n"
        "eval: {games: 2}\n"
        "logging: {progress_bar: false, tensorboard: false}\n"
    )
    assert main([str(config)]) == 0
    assert calls["grad"] > 0  # the warm start's fit and the PPO updates ran through the bfloat16 trunks
    saved = MaskablePPO.load(tmp_path / "run" / "final_model.zip", device="cpu")
    assert [type(t) for t in trunks(saved.policy)] == [nn.Sequential, nn.Sequential]
    assert all(p.dtype == torch.float32 for p in saved.policy.parameters())
