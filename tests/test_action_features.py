"""Per-action features: the core contract, potsm's features against the engine, the Gymnasium
option, and the action-feature network (save, load, play from a plain observation)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pirate_envs
from pirate_envs.adapters.gym_env import make_gym
from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.registry import feature_env_ids, game_class
from pirate_envs.games.potsm.action_features import BASE_CHANNELS, num_channels
from pirate_envs.games.potsm.actions import ACCUSE_BASE, FOG_ACTION
from pirate_envs.games.potsm.cards import MUTINY, NUM_SHIPS
from pirate_envs.games.potsm.game import PotsmGame

FEATURE_GAMES = feature_env_ids()


def random_states(game, games: int, seed: int):
    """Every decision state of ``games`` random games (clones)."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state(int(rng.integers(2**31)))
        while not state.is_terminal():
            yield state.clone()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


def test_potsm_is_a_feature_game_and_the_others_say_they_are_not():
    assert "potsm_v0" in FEATURE_GAMES
    for env_id in pirate_envs.ENV_IDS:
        game = game_class(env_id)()
        state = game.new_initial_state(0)
        seat = state.current_player()
        if env_id in FEATURE_GAMES:
            features = game.action_features(state.observation(seat), state.legal_action_mask())
            assert features.shape == (game.num_actions, game.action_feature_size) and features.dtype == np.float32
            continue
        with pytest.raises(InvalidOptionError, match="defines no per-action features"):
            game.action_features(state.observation(seat), state.legal_action_mask())
        with pytest.raises(InvalidOptionError, match=r"action_features=True works with: .*potsm_v0"):
            make_gym(env_id, action_features=True)


def test_wrong_shapes_and_values_are_refused():
    game = PotsmGame(4)
    state = game.new_initial_state(0)
    observation, mask = state.observation(state.current_player()), state.legal_action_mask()
    with pytest.raises(ValueError, match=r"observation of shape \(637,\)"):
        game.action_features(observation[:-1], mask)
    with pytest.raises(ValueError, match=r"mask of shape \(103,\)"):
        game.action_features(observation, mask[:-1])
    with pytest.raises(InvalidOptionError, match="action_features must be True or False"):
        make_gym("potsm_v0", action_features="yes")


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_potsm_features_are_the_engine_s_own_outcome(num_players):
    """PSM-502..506, PSM-513, PSM-630..637, Section 6: for every legal action that keeps or moves the
    line, the features' positions, damage and fame changes are what the engine does when it is played
    (Mutiny aside: who loses fame depends on the hidden owner, PSM-527)."""
    game = PotsmGame(num_players)
    k = num_channels(num_players)
    checked = 0
    for state in random_states(game, 6, seed=num_players):
        if state.phase != 0:  # the accusation's discard (PSM-1051) moves nothing: all-zero rows
            continue
        seat = state.current_player()
        mask = state.legal_action_mask()
        features = game.action_features(state.observation(seat), mask).reshape(game.num_actions, NUM_SHIPS, k)
        assert not features[mask == 0].any()  # illegal actions have zero rows
        card = state.adventure_row[0]
        for action in state.legal_actions():
            if action == FOG_ACTION or action >= ACCUSE_BASE or card == MUTINY:
                continue
            after = state.clone()
            after.apply_action(action)
            block = features[action]
            assert [after.line.index(s) for s in range(NUM_SHIPS)] == [round(x * 8) for x in block[:, 5]]
            assert list(after.damaged) == [int(x) for x in block[:, 1]], game.action_to_string(action)
            assert [a - b for a, b in zip(after.fame, state.fame, strict=True)] == [int(x) for x in block[:, 0]]
            checked += 1
    assert checked > 300


def test_potsm_fog_and_accusation_rows():
    """PSM-637: Fog keeps the adventure ahead (its effect in channel 7, none now); PSM-515: an accusation
    row carries ceil(fame / 2) at the named ship and offset. (Repair is checked against the engine above.)"""
    game = PotsmGame(4)
    seen = set()
    for state in random_states(game, 40, seed=7):
        if state.phase != 0:
            continue
        seat = state.current_player()
        mask = state.legal_action_mask()
        features = game.action_features(state.observation(seat), mask).reshape(game.num_actions, NUM_SHIPS, -1)
        if mask[FOG_ACTION]:
            fog = features[FOG_ACTION]
            assert not fog[:, 0].any() and list(fog[:, 1]) == list(state.damaged)
            seen.add("fog")
        for action in np.flatnonzero(mask[ACCUSE_BASE:]) + ACCUSE_BASE:
            offset, ship = divmod(int(action) - ACCUSE_BASE, NUM_SHIPS)
            steal = features[action][:, BASE_CHANNELS:]
            assert steal[ship, offset] == math.ceil(state.fame[ship] / 2)
            assert np.count_nonzero(steal) == (1 if state.fame[ship] else 0)
            seen.add("accuse")
    assert seen == {"fog", "accuse"}


@pytest.mark.parametrize("env_id", FEATURE_GAMES)
def test_features_show_nothing_the_observation_does_not(env_id):
    """Leak check: the features of a seat are the same in every determinisation of what it cannot see."""
    game = game_class(env_id)()
    rng = np.random.default_rng(3)
    for i, state in enumerate(random_states(game, 3, seed=11)):
        if i % 5:
            continue
        seat = state.current_player()
        mask = state.legal_action_mask()
        expected = game.action_features(state.observation(seat), mask)
        for _ in range(3):
            other = state.resample_hidden(seat, rng)
            assert np.array_equal(other.observation(seat), state.observation(seat))
            assert np.array_equal(game.action_features(other.observation(seat), other.legal_action_mask()), expected)


@pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")  # check_env's unmasked steps
@pytest.mark.parametrize("env_id", FEATURE_GAMES)
def test_gym_option_appends_the_features_and_stays_in_its_space(env_id):
    from gymnasium.utils.env_checker import check_env

    env = make_gym(env_id, seat="random", opponents="heuristic", action_features=True)
    game = env.game
    assert env.observation_space.shape == (game.augmented_observation_size,)
    observation, _ = env.reset(seed=4)
    for _ in range(60):
        assert env.observation_space.contains(observation)
        plain = env.state.observation(env.seat)
        assert np.array_equal(observation[: game.observation_size], plain)
        assert np.array_equal(observation, game.observation_with_action_features(plain, env.action_masks()))
        observation, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            observation, _ = env.reset()
    check_env(make_gym(env_id, action_features=True), skip_render_check=True)


def test_action_feature_network_saves_loads_and_plays_from_plain_observations(tmp_path):
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from pirate_envs.networks.action_feature_policy import ActionFeaturePolicy
    from pirate_envs.networks.checkpoint_policy import CheckpointPolicy
    from training.checkpoints import model_spaces, model_zip_unfit

    options = {"num_players": 3}
    env = make_gym("potsm_v0", opponents="random", action_features=True, **options)
    kwargs = {"net_arch": {"pi": [16], "vf": [16]}, "env_id": "potsm_v0", "game_options": options, "embed_dim": 4}
    model = MaskablePPO(ActionFeaturePolicy, env, n_steps=32, batch_size=32, policy_kwargs=kwargs, device="cpu")
    with torch.no_grad():  # the feature weights matter: logits move with the features of each action
        model.policy.action_net.weights.weight.normal_()
    model.learn(32)
    model.save(tmp_path / "model.zip")

    game = PotsmGame(**options)
    assert model_spaces(tmp_path / "model.zip") == (game.observation_shape, game.num_actions)
    assert model_zip_unfit(tmp_path / "model.zip", game) is None
    assert "cannot play" in model_zip_unfit(tmp_path / "model.zip", PotsmGame(4))
    policy = CheckpointPolicy(tmp_path / "model.zip")
    policy.check_compatible(game.observation_shape, game.num_actions)
    state = game.new_initial_state(5)
    seat = state.current_player()
    observation, mask = state.observation(seat), state.legal_action_mask()
    augmented = game.observation_with_action_features(observation, mask)
    with torch.no_grad():
        reference = model.policy.get_distribution(torch.as_tensor(augmented[None]), action_masks=mask[None])
    expected = reference.distribution.logits.numpy()[0]
    logits = policy.action_logits(policy.network_input(observation, mask))[0]
    legal = mask.astype(bool)
    assert np.allclose(logits[legal] - logits[legal].max(), expected[legal] - expected[legal].max(), atol=1e-4)
    assert policy.act(observation, mask, np.random.default_rng(0)) == int(np.argmax(np.where(legal, logits, -np.inf)))
    features = game.action_features(observation, mask)
    assert not np.allclose(logits[legal], logits[legal][0]) or len(np.flatnonzero(features.any(axis=1))) < 2

    from training.evaluation.matches import play_matches

    result = play_matches(policy, "potsm_v0", "heuristic", games=3, seed=0, options=options)
    assert result.games == 3 and sum(result.games_by_seat) == 3


def test_action_feature_policy_refuses_the_wrong_spaces():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from pirate_envs.networks.action_feature_policy import ActionFeaturePolicy

    plain = make_gym("potsm_v0")
    with pytest.raises(ValueError, match=r"make_gym\(\.\.\., action_features=True\)"):
        MaskablePPO(ActionFeaturePolicy, plain, policy_kwargs={"env_id": "potsm_v0", "game_options": {}})
    with pytest.raises(ValueError, match="tortuga_v0 defines no per-action features"):
        MaskablePPO(ActionFeaturePolicy, plain, policy_kwargs={"env_id": "tortuga_v0", "game_options": {}})


def test_a_training_run_with_action_features_clones_trains_resumes_and_evaluates(tmp_path):
    """network.action_features: the warm start records feature inputs, PPO trains the feature network,
    a resumed run keeps it, and training.evaluation.evaluate plays the result from plain observations."""
    pytest.importorskip("sb3_contrib")
    import json

    import yaml

    from training.evaluation.evaluate import main as evaluate
    from training.train import main as train

    run_dir = tmp_path / "run"
    config = {
        "env": {"id": "potsm_v0", "options": {"num_players": 2}, "seat": "random"},
        "run": {"dir": str(run_dir), "total_timesteps": 64, "seed": 1},
        "vec_env": {"n_envs": 2, "kind": "dummy"},
        "ppo": {"n_steps": 16, "batch_size": 16, "n_epochs": 1},
        "network": {"pi": [16], "vf": [16], "action_features": True, "action_embed": 4},
        "imitation": {"games": 2, "epochs": 1},
        "opponents": {"stages": [{"until": None, "mix": {"heuristic": 1}}]},
        "eval": {"every": 64, "games": 2},
        "checkpoint": {"every": 64},
        "logging": {"progress_bar": False},
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    assert train([str(path)]) == 0
    assert train(["--resume", str(run_dir), "--set", "run.total_timesteps=96"]) == 0
    from sb3_contrib import MaskablePPO

    from pirate_envs.networks.action_feature_policy import ActionFeaturePolicy

    final = MaskablePPO.load(run_dir / "final_model.zip", device="cpu")
    assert isinstance(final.policy, ActionFeaturePolicy) and final.num_timesteps == 96
    out = tmp_path / "eval.json"
    args = ["--env", "potsm_v0", "--num-players", "2", "--checkpoint", str(run_dir / "final_model.zip")]
    assert evaluate([*args, "--vs", "random", "--games", "2", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["vs"]["random"]["games"] == 2

    # benchmarks/ppo_gain.py: the warm start saved at PPO step 0 against the final model, same deals
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import ppo_gain

    record = tmp_path / "eval_copy.json"
    record.write_text(json.dumps({"kept": 1}))
    assert ppo_gain.main([str(run_dir), "--vs", "random", "--games", "4", "--record", str(record)]) == 0
    gain = json.loads(record.read_text())
    assert gain["kept"] == 1 and gain["ppo_gain"]["paired"]["games"] == 4
    assert gain["ppo_gain"]["warm_start"]["seat_games"] == gain["ppo_gain"]["final"]["seat_games"] == 4
    assert ppo_gain.main([str(tmp_path), "--games", "4"]) == 2  # not a run directory


def test_dead_mans_draw_draw_and_stop_rows_count_the_pile_as_the_engine_holds_it():
    """DMD-401, DMD-505c, DMD-514a, DMD-518..520, DMD-701, DMD-1069: STOP's row is the points banking
    adds; DRAW's bust chance is the share of the real draw pile that busts the row (the pile's make-up
    is public), exact when the top card was peeked (DMD-1071)."""
    from pirate_envs.games.dead_mans_draw import actions as dmd
    from pirate_envs.games.dead_mans_draw.action_features import SCALE
    from pirate_envs.games.dead_mans_draw.cards import CARD_SUIT, CHEST, KEY

    game = game_class("dead_mans_draw_v0")(characters=False)
    checked = {"stop": 0, "draw": 0}
    for state in random_states(game, 30, seed=2):
        if state.phase != dmd.DRAW_OR_STOP or not state.row:
            continue
        seat = state.current_player()
        mask = state.legal_action_mask()
        features = game.action_features(state.observation(seat), mask)
        row = [c for c in state.row if c >= 0]
        suits = {CARD_SUIT[c] for c in row}
        if mask[dmd.STOP] and not {KEY, CHEST} <= suits:
            after = state.clone()
            after.apply_action(dmd.STOP)
            gained = after.live_score(seat) - state.live_score(seat)
            assert features[dmd.STOP, 0] == pytest.approx(gained * SCALE, abs=1e-5)
            checked["stop"] += 1
        if mask[dmd.DRAW] and not state.known[seat][1:]:
            pile = state.draw_pile[-1:] if state.known[seat] else state.draw_pile
            busting = sum(CARD_SUIT[c] in suits for c in pile)
            assert features[dmd.DRAW, 2] == pytest.approx(busting / len(pile), abs=1e-6)
            checked["draw"] += 1
    assert checked["stop"] > 50 and checked["draw"] > 50


def test_dead_mans_draw_target_rows_name_the_card_at_stake():
    """DMD-602 (Cannon) and DMD-610 (Sword): each target row carries the opponent's loss, and a Sword's
    row whether the taken card would bust the row."""
    from pirate_envs.games.dead_mans_draw import actions as dmd
    from pirate_envs.games.dead_mans_draw.cards import CARD_SUIT, NUM_SUITS

    game = game_class("dead_mans_draw_v0")()
    seen = set()
    for state in random_states(game, 150, seed=9):
        if state.phase not in (dmd.CANNON_TARGET, dmd.SWORD_TARGET):
            continue
        seat = state.current_player()
        mask = state.legal_action_mask()
        features = game.action_features(state.observation(seat), mask)
        for action in state.legal_actions():
            offset, suit = divmod(action - game.target_base, NUM_SUITS)
            victim = (seat + offset + 1) % game.num_players
            assert features[action, 5] > 0  # every stack's top card is worth something to its owner
            if state.phase == dmd.SWORD_TARGET:
                card = state.collections[victim][suit][-1]
                busts = any(CARD_SUIT[c] == CARD_SUIT[card] for c in state.row if c >= 0)
                assert features[action, 6] == busts
        seen.add(state.phase)
    assert seen == {dmd.CANNON_TARGET, dmd.SWORD_TARGET}


def test_a_config_asking_features_of_a_game_without_them_is_refused():
    from training.config import ConfigError, validate_config

    config = {"env": {"id": "tortuga_v0"}, "run": {"total_timesteps": 10}, "network": {"action_features": True}}
    with pytest.raises(ConfigError, match=r"network.action_features: tortuga_v0 has no per-action features; games wi"):
        validate_config(config)


def test_flat_rollout_buffer_keeps_rows_aligned_and_reuses_its_observation_array():
    """FlatRolloutBuffer skips SB3's axis swap and reallocation; every sample's observation must still
    belong to its own action, value and mask, rollout after rollout."""
    pytest.importorskip("sb3_contrib")
    import torch
    from gymnasium import spaces

    from pirate_envs.networks.action_feature_policy import FlatRolloutBuffer

    n_steps, n_envs = 8, 3
    buffer = FlatRolloutBuffer(n_steps, spaces.Box(-1e6, 1e6, (4,)), spaces.Discrete(50), n_envs=n_envs)
    first = None
    for rollout in range(2):
        buffer.reset()
        if first is None:
            first = buffer.observations
        assert buffer.observations is first  # allocated once
        for step in range(n_steps):
            tag = np.array([100 * rollout + 10 * step + env for env in range(n_envs)], dtype=np.float32)
            obs = np.repeat(tag[:, None], 4, axis=1)
            actions = (tag % 50).astype(np.int64)[:, None]
            masks = np.zeros((n_envs, 50), dtype=bool)
            masks[np.arange(n_envs), actions[:, 0]] = True
            buffer.add(
                obs,
                actions,
                np.zeros(n_envs),
                np.zeros(n_envs),
                torch.as_tensor(tag),
                torch.zeros(n_envs),
                action_masks=masks,
            )
        buffer.compute_returns_and_advantage(torch.zeros(n_envs), np.zeros(n_envs))
        seen = []
        for batch in buffer.get(batch_size=5):
            tags = batch.observations[:, 0].numpy()
            assert np.array_equal(tags % 50, batch.actions.numpy().ravel())
            assert np.array_equal(tags, batch.old_values.numpy())
            assert batch.action_masks.numpy()[np.arange(len(tags)), (tags % 50).astype(int)].all()
            seen.extend(tags.tolist())
        assert sorted(seen) == sorted(100 * rollout + 10 * s + e for s in range(n_steps) for e in range(n_envs))
