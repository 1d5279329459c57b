"""``network.features_in_policy``: the action-feature network computes the per-action features from the
plain observation and the action mask instead of reading them appended to the observation
(pirate_envs/networks/action_feature_policy.py). It must be the same network with the same numbers: the same
initial weights, the same values, log-probabilities and gradients, the same model after PPO updates, the
same clone after the imitation warm start, and checkpoints every tool loads."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pirate_envs.core.registry import game_class
from pirate_envs.networks.checkpoint_policy import NetworkPolicy
from training.config import ConfigError, validate_config
from training.config_types import TrainConfig

POTSM = {
    "env": {"id": "potsm_v0", "options": {"num_players": 3}},
    "run": {"total_timesteps": 128, "seed": 3},
    "vec_env": {"n_envs": 2},
    "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 2},
    "network": {"pi": [32, 32], "vf": [32], "activation": "relu", "action_features": True},
    "opponents": {"stages": [{"until": None, "mix": {"heuristic": 1.0}}]},
}


def build(in_policy: bool, data: dict = POTSM):
    from training.train import build_model, build_vec_env

    network = {**data["network"], "features_in_policy": in_policy}
    config = TrainConfig.from_dict(validate_config({**data, "network": network}))
    vec = build_vec_env(config, opponents="heuristic")
    return build_model(config, vec, tensorboard_log=None), vec


def same_weights(a, b) -> bool:
    ours, theirs = a.policy.state_dict(), b.policy.state_dict()
    return ours.keys() == theirs.keys() and all(torch.equal(ours[k], theirs[k]) for k in ours)


def test_the_envs_send_plain_observations_and_the_network_reads_the_same_rows():
    appended, vec_a = build(False)
    in_policy, vec_b = build(True)
    try:
        game = game_class("potsm_v0")(num_players=3)
        assert appended.observation_space.shape == (game.augmented_observation_size,)
        assert in_policy.observation_space.shape == (game.observation_size,)  # 637-ish floats, not 10,000+
        assert in_policy.policy.input_shape == appended.observation_space.shape
        assert same_weights(appended, in_policy)
        obs_b, obs_a = vec_b.reset(), vec_a.reset()
        masks = np.stack(vec_b.env_method("action_masks"))
        np.testing.assert_array_equal(obs_a[:, : game.observation_size], obs_b)
        rows = in_policy.policy._give_features(torch.as_tensor(obs_b), masks.astype(np.float32))
        np.testing.assert_array_equal(rows.numpy(), obs_b)  # the network reads the plain rows ...
        given = in_policy.policy.mlp_extractor.given
        legal = np.nonzero(masks)
        np.testing.assert_array_equal(given.rows.numpy(), legal[0])  # ... and the legal actions' features ...
        np.testing.assert_array_equal(given.cols.numpy(), legal[1])
        appended_features = obs_a[:, game.observation_size :].reshape(len(obs_a), game.num_actions, -1)
        np.testing.assert_array_equal(given.phi.numpy(), appended_features[legal])  # ... bit for bit
    finally:
        vec_a.close()
        vec_b.close()


def test_ppo_updates_give_the_same_model_bit_for_bit():
    """Two PPO updates (2 epochs of minibatches each, the features computed once per rollout from the
    buffer's rows and float masks) from the same seed: the same weights at the end as the appended-features run."""
    models = []
    for in_policy in (False, True):
        model, vec = build(in_policy)
        try:
            model.learn(total_timesteps=128)
        finally:
            vec.close()
        models.append(model)
    appended, in_policy = models
    assert appended.num_timesteps == in_policy.num_timesteps == 128
    assert same_weights(appended, in_policy)
    fresh, vec = build(True)
    vec.close()
    assert not same_weights(fresh, in_policy)  # the updates did change the weights


def test_training_asks_the_engine_for_each_rows_features_once_per_rollout(monkeypatch):
    """The rollout buffer computes every stored row's legal features once, when the PPO update draws its first
    minibatch; each minibatch's observations carry their rows' share (the engine's numbers for that
    minibatch), so the update never asks the engine (the model stays the appended-features run's: the
    bit-for-bit test above)."""
    from pirate_envs.networks.action_feature_policy import LEGAL_FEATURES, LegalFeatureRolloutBuffer

    model, vec = build(True)
    buffer = model.rollout_buffer
    assert isinstance(buffer, LegalFeatureRolloutBuffer)
    asked: list[tuple[str, int]] = []
    for who, game in (("policy", model.policy.game), ("buffer", buffer.game)):

        def counting(observations, masks, who=who, original=game.legal_action_features):
            asked.append((who, len(observations)))
            return original(observations, masks)

        monkeypatch.setattr(game, "legal_action_features", counting)
    engine = game_class("potsm_v0")(num_players=3)
    minibatches = []
    evaluate_actions = model.policy.evaluate_actions

    def evaluate(obs, actions, action_masks=None):
        expected = engine.legal_action_features(obs.numpy(), action_masks.numpy().astype(bool))
        np.testing.assert_array_equal(getattr(obs, LEGAL_FEATURES).numpy(), expected)
        minibatches.append(len(obs))
        return evaluate_actions(obs, actions, action_masks=action_masks)

    monkeypatch.setattr(model.policy, "evaluate_actions", evaluate)
    try:
        model.learn(total_timesteps=64)  # one rollout (32 steps of 2 envs), then 2 epochs of 2 minibatches
    finally:
        vec.close()
    assert minibatches == [32] * 4
    assert [entry for entry in asked if entry[0] == "buffer"] == [("buffer", 64)]
    assert [entry for entry in asked if entry[0] == "policy"] == [("policy", 2)] * 32  # the rollout's steps only
    buffer.reset()  # the next rollout computes its own
    assert buffer._legal is None


def test_checkpoints_play_the_same_through_network_policy(tmp_path):
    appended, vec_a = build(False)
    in_policy, vec_b = build(True)
    vec_a.close()
    vec_b.close()
    from sb3_contrib import MaskablePPO

    game = game_class("potsm_v0")(num_players=3)
    policies = []
    for name, model in (("appended", appended), ("in_policy", in_policy)):
        model.save(tmp_path / name)
        policies.append(NetworkPolicy(MaskablePPO.load(tmp_path / f"{name}.zip", device="cpu").policy))
    assert policies[1].network.features_from_mask and not policies[0].network.features_from_mask
    state, rng = game.new_initial_state(7), np.random.default_rng(0)
    decisions = 0
    while decisions < 60:
        if state.is_terminal():
            state = game.new_initial_state(8 + decisions)
        observation, mask = state.observation(state.current_player()), state.legal_action_mask()
        picks = [p.act(observation, mask, np.random.default_rng(decisions)) for p in policies]
        assert picks[0] == picks[1]
        batch = [p.act_batch(observation[None], mask[None], np.random.default_rng(decisions)) for p in policies]
        assert batch[0] == batch[1] == [picks[0]]
        state.apply_action(int(rng.choice(np.flatnonzero(mask))))
        decisions += 1
    assert decisions == 60


def test_predict_without_masks_names_what_is_missing():
    model, vec = build(True)
    try:
        obs = vec.reset()
        with pytest.raises(ValueError, match=r"features_from_mask=True.*action_masks"):
            model.predict(obs)
        masks = np.stack(vec.env_method("action_masks"))
        actions, _ = model.predict(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(actions))
    finally:
        vec.close()


def test_the_key_needs_action_features():
    with pytest.raises(ConfigError, match=r"network.features_in_policy.*needs network.action_features: true"):
        validate_config({**POTSM, "network": {"features_in_policy": True}})
    assert validate_config(POTSM)["network"]["features_in_policy"] is False


def test_the_imitation_warm_start_fits_the_same_clone():
    """The clone of a few teacher games: the same weights whether the features were stored with each
    decision (float16) or computed from the stored mask, as long as float16 holds them exactly."""
    from training.train import warm_start

    data = {**POTSM, "imitation": {"games": 3, "workers": 1, "epochs": 1, "batch_size": 64}}
    clones = []
    for in_policy in (False, True):
        model, vec = build(in_policy, data)
        vec.close()
        network = {**data["network"], "features_in_policy": in_policy}
        warm_start(TrainConfig.from_dict(validate_config({**data, "network": network})), model)
        clones.append(model)
    exact = same_weights(*clones)
    ours, theirs = clones[0].policy.state_dict(), clones[1].policy.state_dict()
    worst = max(float((ours[k] - theirs[k]).abs().max()) for k in ours)
    assert exact or worst < 1e-4, worst


def test_init_from_a_model_made_in_the_other_mode(tmp_path):
    """``run.init_from`` copies an appended-features model's weights into a features-in-policy run."""
    from training.train import load_initial_weights

    appended, vec = build(False)
    vec.close()
    with torch.no_grad():
        for parameter in appended.policy.parameters():
            parameter.add_(0.5)
    appended.save(tmp_path / "appended")
    in_policy, vec = build(True)
    vec.close()
    assert not same_weights(appended, in_policy)
    load_initial_weights(in_policy, str(tmp_path / "appended.zip"))
    assert same_weights(appended, in_policy)


@pytest.mark.parametrize("embed", [0, 8])
def test_the_head_reads_the_legal_rows_alone_and_gives_the_full_heads_logits(embed):
    """With the batch's masks the head scores the legal actions from their rows alone (a third of potsm's
    103 rows): the same logits at every legal action as the head over all the rows (the path a
    ``NetworkPolicy`` takes without masks), and the same gradients."""
    data = {**POTSM, "network": {**POTSM["network"], "action_embed": embed}}
    model, vec = build(True, data)
    try:
        obs = vec.reset()
        masks = np.stack(vec.env_method("action_masks")).astype(bool)
        for _ in range(6):  # a few decisions on: more legal actions than the first one's
            obs, *_ = vec.step(np.array([int(np.flatnonzero(m)[-1]) for m in masks]))
            masks = np.stack(vec.env_method("action_masks")).astype(bool)
    finally:
        vec.close()
    policy = model.policy
    game = policy.game
    augmented = torch.as_tensor(np.stack([policy.augment(o, m) for o, m in zip(obs, masks, strict=True)]))
    plain = torch.as_tensor(obs)
    with torch.no_grad():
        for parameter in policy.action_net.parameters():  # the initial head is all but zero: give it weight
            parameter.normal_(0.0, 0.3)
    results = []
    for rows, action_masks in ((augmented, None), (plain, masks), (augmented, masks)):
        policy.zero_grad()
        latent = policy.mlp_extractor.forward_actor(policy._give_features(rows, action_masks))
        given = policy.mlp_extractor.action_features
        assert (type(given).__name__ == "LegalFeatures") == (action_masks is not None)
        logits = policy.action_net(latent)
        (logits * torch.as_tensor(masks)).square().sum().backward()
        grads = torch.cat([p.grad.ravel() for p in policy.parameters() if p.grad is not None])
        results.append((logits.detach()[torch.as_tensor(masks)], grads))
    full, *legal_only = results
    assert int(masks.sum()) > 3 * len(masks) and masks.shape[1] == game.num_actions
    for logits, grads in legal_only:
        torch.testing.assert_close(logits, full[0], rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(grads, full[1], rtol=1e-4, atol=1e-5)
    assert float(full[0].std()) > 0.1  # the logits differ between actions: the comparison means something
