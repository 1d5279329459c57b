"""The Gymnasium adapter (``pirate_envs.make_gym``), its opponents, the self-play pool and checkpoint policies.

Every test runs for every registered game (``pirate_envs.ENV_IDS``).
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import pirate_envs
from pirate_envs import SelfPlayPool, gym_id, make_gym
from pirate_envs.adapters.checks import IllegalActionWarning
from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.registry import game_class
from pirate_envs.networks.checkpoint_policy import CheckpointError, CheckpointNotFoundError, CheckpointPolicy
from pirate_envs.policies.base import RandomPolicy, resolve_policy

ENV_IDS = list(pirate_envs.ENV_IDS)


def default_players(env_id: str) -> int:
    return game_class(env_id).default_num_players


def seat_options(env_id: str) -> list:
    return [*range(default_players(env_id)), "random"]


SEAT_CASES = [(env_id, seat) for env_id in ENV_IDS for seat in seat_options(env_id)]


def play_episode(env, seed=None, options=None, rng=None):
    """Play one episode with random legal learner actions; returns (steps, last reward, terminated, truncated, info)."""
    rng = rng or np.random.default_rng(0)
    env.reset(seed=seed, options=options)
    steps = 0
    while True:
        action = rng.choice(np.flatnonzero(env.action_masks()))
        _, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            return steps, reward, terminated, truncated, info


@pytest.fixture(scope="module")
def untrained_checkpoints(tmp_path_factory):
    """An untrained MaskablePPO zip per game (default player count, signed-log input as the configs
    use), and one with a plain flat input for another player count."""
    from sb3_contrib import MaskablePPO

    from pirate_envs.networks.checkpoint_policy import signed_log_features_class

    folder = tmp_path_factory.mktemp("checkpoints")
    paths = {}
    features = {"net_arch": [32], "features_extractor_class": signed_log_features_class()}
    for env_id in ENV_IDS:
        env = make_gym(env_id)
        model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, policy_kwargs=features, seed=0)
        paths[env_id] = folder / f"{env_id}.zip"
        model.save(paths[env_id])
        other = [n for n in game_class(env_id).player_counts if n != env.num_players]
        if other:
            small = MaskablePPO("MlpPolicy", make_gym(env_id, num_players=other[0]), policy_kwargs={"net_arch": [8]})
            paths[(env_id, "other")] = folder / f"{env_id}-{other[0]}p.zip"
            small.save(paths[(env_id, "other")])
    return paths


# --- API conformance --------------------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "seat"), SEAT_CASES)
def test_sb3_check_env(env_id, seat):
    sb3_check_env(make_gym(env_id, seat=seat, opponents="random"))


# gymnasium's step-determinism check draws its action *before* a seeded reset, so the action can be
# illegal in the new game whatever the sampler does; the default illegal_action="terminate" turns that
# into a lost episode (with a warning) instead of an error.
@pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")
@pytest.mark.parametrize(("env_id", "seat"), SEAT_CASES)
def test_gymnasium_check_env(env_id, seat):
    gymnasium_check_env(make_gym(env_id, seat=seat), skip_render_check=True)


@pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_registered_with_gymnasium(env_id):
    name = gym_id(env_id)
    assert name.startswith("pirate_envs/") and name.endswith("-v0")
    env = gymnasium.make(name, seat="random", opponents="random")
    gymnasium_check_env(env.unwrapped)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.unwrapped.env_id == env_id
    assert env.get_wrapper_attr("action_masks")().any()


def test_gym_ids():
    assert gym_id("potsm_v0") == "pirate_envs/Potsm-v0"
    assert gym_id("dead_mans_draw_v0") == "pirate_envs/DeadMansDraw-v0"
    with pytest.raises(InvalidOptionError, match="_v<number>"):
        gym_id("potsm")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_spaces_and_masks(env_id):
    env = make_gym(env_id, seat=0)
    game = env.game
    assert env.observation_space.shape == game.observation_shape
    assert env.action_space.n == game.num_actions
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (game.num_actions,) and mask.any()
    assert np.array_equal(mask, env.state.legal_action_mask().astype(bool))
    assert np.array_equal(obs, env.state.observation(info["seat"]))
    for _ in range(50):  # the action space samples legal actions of the current decision
        assert mask[env.action_space.sample()]
    # the space pickles as a plain Discrete (saved models do not depend on the env)
    assert type(pickle.loads(pickle.dumps(env.action_space))) is gymnasium.spaces.Discrete


# --- rewards, termination, truncation ---------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reward_is_the_learners_own_when_an_opponent_ends_the_game(env_id):
    """PettingZoo SB3 tutorial bug (#1147 there): the final reward must be the learner's even when an
    opponent's move ends the game, whichever way that game went for the learner."""
    moves = []

    def recording_opponent(observation, action_mask, rng):
        moves.append(len(moves))
        return int(rng.choice(np.flatnonzero(action_mask)))

    env = make_gym(env_id, seat=0, opponents=recording_opponent)
    rng = np.random.default_rng(1)
    outcomes = set()
    for seed in range(400):
        env.reset(seed=seed)
        while True:
            before = len(moves)
            _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            if terminated or truncated:
                break
        if terminated and len(moves) > before:  # the game ended on an opponent's move
            returns = env.state.returns()
            assert reward == returns[0]
            assert info["returns"] == returns and info["is_success"] == info["seat_won"][0]
            outcomes.add(reward)
        if len(outcomes) >= 2:
            break
    assert len(outcomes) >= 2, "no seed gave both a won and a lost game ending on an opponent's move"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rewards_only_at_the_end(env_id):
    env = make_gym(env_id, seat="random")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    while True:
        _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
        if terminated or truncated:
            assert reward == env.state.returns()[info["seat"]]
            assert set(info) >= {"scores", "returns", "seat_won", "is_success", "seat"}
            break
        assert reward == 0.0
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_truncated_games_give_zero_reward(env_id):
    env = make_gym(env_id, seat=0, max_decisions=3)
    _, reward, terminated, truncated, info = play_episode(env, seed=0)
    assert truncated and not terminated and reward == 0.0
    assert not any(info["seat_won"]) and info["is_success"] is False and info["truncated"] is True


def test_a_game_without_winner_counts_as_won_by_nobody():
    """TOR-705: a Tortuga game can end with the winning nation all exiled; every return is then -1 and
    ``info["seat_won"]`` must be all False (it once listed every seat, so evaluations counted such games as won)."""
    env = make_gym("tortuga_v0", seat=0, opponents="random", num_players=6)
    rng = np.random.default_rng(0)
    for seed in range(300):
        _, reward, terminated, _, info = play_episode(env, seed=seed, rng=rng)
        if terminated and not env.state.winners():
            assert reward == -1.0 and set(env.state.returns()) == {-1.0}
            assert not any(info["seat_won"]) and info["is_success"] is False
            return
    pytest.fail("no random 6-player Tortuga game in 300 ended without a winner")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_illegal_learner_action(env_id):
    env = make_gym(env_id, seat=0, illegal_action="raise")
    env.reset(seed=2)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.state.to_dict()
    with pytest.raises(IllegalActionError, match=rf"learner \(seat 0\).*action {illegal}.*legal"):
        env.step(illegal)
    assert env.state.to_dict() == before
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(env.action_space.n)

    lenient = make_gym(env_id, seat=0)  # the default: PettingZoo's TerminateIllegalWrapper convention
    lenient.reset(seed=2)
    with pytest.warns(IllegalActionWarning, match=rf"action {illegal} .*legal: \d+.*episode ends with reward -1"):
        _, reward, terminated, truncated, info = lenient.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"], info["is_success"]) == (
        -1.0,
        True,
        False,
        True,
        False,
    )
    assert lenient.state.to_dict() == before and not lenient.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        lenient.step(int(np.flatnonzero(env.action_masks())[0]))


# --- seats and seeding ------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_random_seat_covers_every_seat(env_id):
    env = make_gym(env_id, seat="random")
    env.reset(seed=0)
    seats = {env.reset()[1]["seat"] for _ in range(60)}
    assert seats == set(range(env.num_players))
    assert env.reset(options={"seat": 1})[1]["seat"] == 1
    with pytest.raises(InvalidOptionError, match="seat"):
        env.reset(options={"seat": env.num_players})
    with pytest.raises(InvalidOptionError, match="unknown reset option"):
        env.reset(options={"sea": 1})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_bad_seat_and_options(env_id):
    n = default_players(env_id)
    for seat in (n, -1, "first", 1.0, True):
        with pytest.raises(InvalidOptionError, match="seat"):
            make_gym(env_id, seat=seat)
    with pytest.raises(InvalidOptionError, match="illegal_action"):
        make_gym(env_id, illegal_action="ignore")
    with pytest.raises(InvalidOptionError, match="unknown env id"):
        make_gym("nope_v0")


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_seeded_episodes_repeat(env_id, opponents):
    """reset(seed) fixes the game, the seat, the opponents' draws and so the whole trajectory."""

    def trajectory():
        env = make_gym(env_id, seat="random", opponents=opponents)
        rng = np.random.default_rng(9)
        observations = [env.reset(seed=11)[0]]
        while True:
            obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            observations.append(obs)
            if terminated or truncated:
                return np.stack(observations), reward, info["seat"]

    first, second = trajectory(), trajectory()
    assert np.array_equal(first[0], second[0]) and first[1:] == second[1:]


# --- opponents --------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_opponents_list_policy_and_callable(env_id):
    n = default_players(env_id)
    acted = []

    def labelled(label):
        def act(observation, action_mask, rng):
            acted.append((label, env.state.current_player()))
            return int(np.flatnonzero(action_mask)[0])

        return act

    class FirstLegal:
        def act(self, observation, action_mask, rng):
            acted.append(("object", env.state.current_player()))
            return int(np.flatnonzero(action_mask)[-1])

    entries = [labelled(f"offset{k}") for k in range(1, n)]
    entries[0] = FirstLegal()
    env = make_gym(env_id, seat=1, opponents=entries)
    play_episode(env, seed=4)
    seats = {label: {seat for lab, seat in acted if lab == label} for label, _ in acted}
    assert seats["object"] == {(1 + 1) % n}
    for k in range(2, n):
        assert seats[f"offset{k}"] == {(1 + k) % n}

    with pytest.raises(InvalidOptionError, match=f"one entry per other seat \\({n - 1}"):
        make_gym(env_id, opponents=["random"] * n)
    with pytest.raises(ValueError, match="unknown policy"):
        make_gym(env_id, opponents="grandmaster")
    with pytest.raises(ValueError, match="cannot use"):
        make_gym(env_id, opponents=42)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_set_opponents_applies_from_the_next_reset(env_id):
    calls = []

    def counting(observation, action_mask, rng):
        calls.append(1)
        return int(rng.choice(np.flatnonzero(action_mask)))

    env = make_gym(env_id, seat=0, opponents="random")
    play_episode(env, seed=0)
    env.set_opponents(counting)
    assert not calls
    play_episode(env, seed=1)
    assert calls


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_illegal_opponent_action_names_the_opponent(env_id):
    def cheater(observation, action_mask, rng):
        return int(np.flatnonzero(action_mask == 0)[0])

    env = make_gym(env_id, seat=0, opponents=cheater)
    with pytest.raises(IllegalActionError, match=r"opponent .* at seat"):
        play_episode(env, seed=0)


# --- self-play pool ---------------------------------------------------------------------------------
def test_pool_sampling_mix_and_latest_share(tmp_path):
    paths = [str(tmp_path / f"snap{i}.zip") for i in range(4)]
    pool = SelfPlayPool(mix={"random": 1.0, "heuristic": 1.0, "selfplay": 2.0}, latest_share=0.75)
    rng = np.random.default_rng(0)
    assert {pool.sample_opponent(rng) for _ in range(50)} == {"random", "heuristic"}  # no snapshot yet
    pool._snapshot_policy = lambda path: path  # count draws without loading files
    for path in paths:
        pool.add(path)
    draws = [pool.sample_opponent(rng) for _ in range(4000)]
    share = {name: draws.count(name) / len(draws) for name in set(draws)}
    assert abs(share["random"] - 0.25) < 0.03 and abs(share["heuristic"] - 0.25) < 0.03
    assert abs(share[paths[-1]] - 0.5 * 0.75) < 0.03
    assert all(abs(share[p] - 0.5 * 0.25 / 3) < 0.02 for p in paths[:-1])


@pytest.mark.parametrize(
    "weights", [(1.0,), (0.2, 0.7, 0.1), (0.3, 0.7, 0.0), (1.0, 1.0, 2.0), tuple(np.linspace(0.05, 1.3, 11))]
)
def test_pool_draws_are_numpys_weighted_choice(weights):
    """The pool's draw is ``Generator.choice`` with the mix's probabilities, draw for draw, and leaves the
    generator where ``choice`` does (so a seeded env meets the same opponents as it did with ``choice``)."""
    from pirate_envs.policies.selfplay import weighted_index

    ours, numpys = np.random.default_rng(3), np.random.default_rng(3)
    w = np.array(weights)
    for _ in range(20_000):
        assert weighted_index(weights, ours) == int(numpys.choice(len(weights), p=w / w.sum()))
    assert ours.random() == numpys.random()


def test_pool_limits_persistence_and_errors(tmp_path):
    pool = SelfPlayPool(mix={"selfplay": 1.0}, max_snapshots=2)
    for i in range(3):
        pool.add(tmp_path / f"s{i}.zip")
    assert pool.snapshots == (str(tmp_path / "s1.zip"), str(tmp_path / "s2.zip"))
    assert pool.latest == str(tmp_path / "s2.zip")
    copy = SelfPlayPool.from_dict(pool.to_dict())
    assert copy.to_dict() == pool.to_dict()
    assert pickle.loads(pickle.dumps(pool)).to_dict() == pool.to_dict()
    assert SelfPlayPool().sample_opponent(np.random.default_rng(0)) == "random"  # empty pool
    for bad in ({"mix": {"random": -1}}, {"mix": {"random": 0}}, {"latest_share": 1.5}, {"max_snapshots": 0}):
        with pytest.raises(InvalidOptionError):
            SelfPlayPool(**bad)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pool_as_opponents_with_snapshots(env_id, untrained_checkpoints):
    path = untrained_checkpoints[env_id]
    pool = SelfPlayPool(snapshots=[path, path], mix={"selfplay": 3.0, "random": 1.0})
    env = make_gym(env_id, seat="random", opponents=pool)
    kinds = set()
    for seed in range(8):
        play_episode(env, seed=seed)
        kinds |= {type(policy).__name__ for policy in env._seat_policies.values()}
    assert kinds == {"CheckpointPolicy", "RandomPolicy"}


# --- checkpoint policies ----------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_checkpoint_policy_plays_legal_moves(env_id, untrained_checkpoints):
    path = untrained_checkpoints[env_id]
    for deterministic in (True, False):
        env = make_gym(env_id, seat="random", opponents=CheckpointPolicy(path, deterministic=deterministic))
        for seed in range(3):
            play_episode(env, seed=seed)  # an illegal opponent move would raise
    assert isinstance(resolve_policy(str(path), env_id), CheckpointPolicy)
    assert isinstance(make_gym(env_id, opponents=[str(path)] + ["random"] * (env.num_players - 2)), gymnasium.Env)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_checkpoint_policy_matches_torch_and_is_reproducible(env_id, untrained_checkpoints):
    import torch

    policy = CheckpointPolicy(untrained_checkpoints[env_id], deterministic=False)
    env = make_gym(env_id)
    obs, _ = env.reset(seed=0)
    network = policy.network
    assert policy._layers is not None  # the numpy path is used ...
    with torch.no_grad():  # ... and agrees with the network run by torch
        features = network.pi_features_extractor(torch.as_tensor(obs[None]))
        expected = network.action_net(network.mlp_extractor.forward_actor(features)).numpy()
    assert np.allclose(policy.action_logits(obs), expected, atol=1e-5)
    mask = env.action_masks().astype(np.int8)
    first = [policy.act(obs, mask, np.random.default_rng(3)) for _ in range(5)]
    assert len(set(first)) == 1 and mask[first[0]]
    sampled = {policy.act(obs, mask, np.random.default_rng(seed)) for seed in range(200)}
    assert sampled <= set(np.flatnonzero(mask)) and len(sampled) > 1
    best = CheckpointPolicy(untrained_checkpoints[env_id], deterministic=True)
    assert best.act(obs, mask, None) == int(np.flatnonzero(mask)[np.argmax(expected[0][mask == 1])])


def test_checkpoint_policy_errors(tmp_path, untrained_checkpoints):
    missing = tmp_path / "nowhere" / "model.zip"
    with pytest.raises(CheckpointNotFoundError, match=r"nowhere/model.zip.*does not exist"):
        CheckpointPolicy(missing)
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"not a zip file")
    with pytest.raises(CheckpointError, match=r"broken.zip.*MaskablePPO checkpoint"):
        CheckpointPolicy(broken)
    with pytest.raises(CheckpointNotFoundError, match="does not exist"):
        make_gym(ENV_IDS[0], opponents=str(missing))
    for env_id in ENV_IDS:
        if (env_id, "other") in untrained_checkpoints:
            with pytest.raises(CheckpointError, match="trained on observations of shape"):
                make_gym(env_id, opponents=str(untrained_checkpoints[(env_id, "other")]))


def test_checkpoint_with_signed_log_features_loads_in_a_fresh_process(untrained_checkpoints):
    path = untrained_checkpoints[ENV_IDS[0]]
    code = (
        f"from pirate_envs import CheckpointPolicy; p = CheckpointPolicy({str(path)!r}); "
        "assert type(p.network.features_extractor).__name__ == 'SignedLogFeatures' and p._layers is not None"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_pirate_envs_import_needs_no_torch():
    code = (
        "import sys, pirate_envs; env = pirate_envs.make_gym(pirate_envs.ENV_IDS[0]); env.reset(seed=0); "
        "assert 'torch' not in sys.modules and 'sb3_contrib' not in sys.modules, 'heavy import'; "
        "assert pirate_envs.CheckpointPolicy.__name__ == 'CheckpointPolicy'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_random_opponent_fast_path_matches_random_policy():
    """The env plays RandomPolicy without building observations; the draws must be RandomPolicy's."""
    env_id = ENV_IDS[0]
    recorded = []

    class SpyRandom(RandomPolicy):  # a subclass takes the general path
        def act(self, observation, action_mask, rng):
            action = super().act(observation, action_mask, rng)
            recorded.append(action)
            return action

    def actions(opponents):
        env = make_gym(env_id, seat=0, opponents=opponents)
        play_episode(env, seed=21, rng=np.random.default_rng(2))
        return env.state.to_dict()

    assert actions(RandomPolicy()) == actions(SpyRandom())
    assert recorded


# --- hardened inputs, copies, fixed infos (issue 19) --------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("mode", ["terminate", "raise"])
def test_bad_learner_action_is_an_error_in_every_mode(env_id, mode):
    env = make_gym(env_id, seat=0, illegal_action=mode)
    env.reset(seed=2)
    n = env.action_space.n
    before = env.state.to_dict()
    legal = int(np.flatnonzero(env.action_masks())[0])
    for bad in (None, 2.0, np.float64(legal), "3", True, np.array([legal, legal]), [legal]):
        with pytest.raises(TypeError, match=rf"learner \(seat 0\).*\[0, {n}\)"):
            env.step(bad)
    for bad in (-1, n):
        with pytest.raises(IllegalActionError, match=rf"action {bad} is out of range \[0, {n}\)"):
            env.step(bad)
    assert env.state.to_dict() == before
    env.step(np.array(legal))  # 0-d arrays and numpy integers are actions (SB3 hands those in)
    if not env._episode_over:
        env.step(np.int32(np.flatnonzero(env.action_masks())[0]))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reset_seed_must_be_a_non_negative_int(env_id):
    env = make_gym(env_id)
    for bad in (True, 1.5, "1"):
        with pytest.raises(TypeError, match=rf"seed.*{bad!r}"):
            env.reset(seed=bad)
    with pytest.raises(ValueError, match="non-negative"):
        env.reset(seed=-3)
    first, _ = env.reset(seed=np.int64(4))
    assert np.array_equal(first, env.reset(seed=4)[0])


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("copier", ["deepcopy", "pickle"])
def test_copy_mid_game_continues_like_the_original(env_id, copier):
    """The copy keeps the game, the opponents' generator and the legal-action sampling of the space."""
    env = gymnasium.make(gym_id(env_id), seat="random", opponents="heuristic")
    env.reset(seed=8)
    env.step(env.action_space.sample())
    twin = copy.deepcopy(env) if copier == "deepcopy" else pickle.loads(pickle.dumps(env))
    for _ in range(200):
        action = env.action_space.sample()
        assert twin.action_space.sample() == action and twin.unwrapped.action_masks()[action]
        first, second = env.step(action), twin.step(action)
        assert np.array_equal(first[0], second[0]) and first[1:] == second[1:]
        if first[2] or first[3]:
            break
    assert np.array_equal(env.reset()[0], twin.reset()[0])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_infos_have_fixed_keys_and_shapes(env_id):
    """Same keys, numeric values of fixed shape on every step from reset on (replay buffers store them as arrays)."""

    def signature(info):
        return {key: (np.asarray(value).shape, np.asarray(value).dtype.kind in "biuf") for key, value in info.items()}

    env = make_gym(env_id, seat="random")
    _, info = env.reset(seed=0)
    expected = signature(info)
    assert all(numeric for _, numeric in expected.values())
    rng = np.random.default_rng(0)
    for _ in range(3):
        while True:
            _, _, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            assert signature(info) == expected
            if terminated or truncated:
                break
        assert signature(env.reset()[1]) == expected
    with pytest.warns(IllegalActionWarning):
        info = env.step(int(np.flatnonzero(~env.action_masks())[0]))[4]
    assert signature(info) == expected
