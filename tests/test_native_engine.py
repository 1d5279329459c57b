"""The generic native backend (pirate_envs/core/native: binding.c, search.c, vector.c, backend.py) on a compiled
engine: the engine contract through ``Game(backend="native")``, the envs on it, the compiled search against the
Python search, the vector env against its Python twin, and hostile input through every entry point.

Per-game twin play lives in tests/test_native_engine_<game>.py; this file uses Dead Man's Draw, the first game
with a compiled engine.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.native import NATIVE
from pirate_envs.core.native.backend import NativeState, has_native, native_game, to_native
from pirate_envs.core.rng import Rng
from pirate_envs.games.dead_mans_draw.game import DmdGame

pytestmark = pytest.mark.skipif(not has_native("dead_mans_draw_v0"), reason="the compiled module is not built")

ENV = "dead_mans_draw_v0"


def mid_game(game, seed: int, steps: int):
    state, pick = game.new_initial_state(seed), Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[pick.randrange(len(legal))])
    return state


# --- the engine contract ----------------------------------------------------------------------------------


def test_backend_is_checked_and_not_a_rule_option():
    with pytest.raises(InvalidOptionError, match="backend must be one of"):
        DmdGame(2, backend="fast")
    game = DmdGame(2, backend="native")
    assert game.backend == "native" and "backend" not in game.options
    assert isinstance(game.new_initial_state(0), NativeState)
    assert DmdGame(2).new_initial_state(0).to_dict() == game.new_initial_state(0).to_dict()


def test_pure_python_switch_falls_back_with_a_warning():
    code = (
        "import warnings; warnings.simplefilter('error');\n"
        "from pirate_envs.games.dead_mans_draw.game import DmdGame\n"
        "try:\n    DmdGame(2, backend='native')\nexcept Warning as w:\n    print(type(w).__name__, w)\n"
    )
    env = dict(os.environ, PIRATE_ENVS_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith("NativeUnavailableWarning") and "PIRATE_ENVS_PURE_PYTHON" in out


def test_an_illegal_action_raises_the_python_message_and_changes_nothing():
    native, python = DmdGame(3, backend="native").new_initial_state(5), DmdGame(3).new_initial_state(5)
    before = native.to_dict()
    illegal = next(a for a in range(native.game.num_actions) if a not in native.legal_actions())
    with pytest.raises(IllegalActionError) as got:
        native.apply_action(illegal)
    with pytest.raises(IllegalActionError) as want:
        python.apply_action(illegal)
    assert str(got.value) == str(want.value)
    for bad in (True, 1.0, "3", None, 10**30, -1):
        with pytest.raises(IllegalActionError):
            native.apply_action(bad)
    assert native.to_dict() == before


def test_a_finished_game_takes_no_action():
    state = DmdGame(2, backend="native").new_initial_state(1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == [] and not state.legal_action_mask().any() and state.current_player() == -1
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply_action(0)


def test_seats_are_checked():
    state = DmdGame(2, backend="native").new_initial_state(1)
    with pytest.raises(ValueError):
        state.observation(2)
    with pytest.raises(TypeError):
        state.observation(True)
    with pytest.raises(ValueError):
        state.resample_hidden(-1, 0)
    assert state.observation(np.int64(1)).shape == (state.game.observation_size,)


def test_clone_pickle_and_conversions_keep_the_position():
    game = DmdGame(4, backend="native", variant="sudden_death")
    state = mid_game(game, 3, 20)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[-1])
    assert copy.to_dict() != state.to_dict()  # the clone is independent
    again = pickle.loads(pickle.dumps(state))
    assert isinstance(again, NativeState) and again.to_dict() == state.to_dict()
    python = state.to_python()
    assert type(python).__name__ == "DmdState" and python.to_dict() == state.to_dict()
    assert to_native(python).to_dict() == state.to_dict()
    assert state.render(0) == python.render(0)
    assert state.row == python.row  # game fields are read from the Python copy
    assert pickle.loads(pickle.dumps(game)).new_initial_state(9).to_dict() == game.new_initial_state(9).to_dict()


def test_resample_hidden_draws_like_the_python_engine():
    python = mid_game(DmdGame(3), 11, 15)
    native = to_native(python)
    source_a, source_b = Rng(77), Rng(77)
    a, b = python.resample_hidden(1, source_a), native.resample_hidden(1, source_b)
    assert a.to_dict() == b.to_dict() and source_a.state == source_b.state


# --- the envs on the native backend -----------------------------------------------------------------------


def test_the_pettingzoo_and_gymnasium_envs_run_on_it():
    from pettingzoo.test import api_test

    from pirate_envs import dead_mans_draw_v0, make_gym

    api_test(dead_mans_draw_v0.env(backend="native"), num_cycles=200)
    python, native = make_gym(ENV, opponents="heuristic"), make_gym(ENV, opponents="heuristic", backend="native")
    obs_p, _ = python.reset(seed=4)
    obs_n, _ = native.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert np.array_equal(obs_p, obs_n)
        assert np.array_equal(python.action_masks(), native.action_masks())
        action = int(rng.choice(np.flatnonzero(python.action_masks())))
        obs_p, rew_p, term_p, trunc_p, _ = python.step(action)
        obs_n, rew_n, term_n, trunc_n, _ = native.step(action)
        assert (rew_p, term_p, trunc_p) == (rew_n, term_n, trunc_n)
        if term_p or trunc_p:
            obs_p, _ = python.reset()
            obs_n, _ = native.reset()


# --- search -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_compiled_ismcts_decides_as_the_python_one(seed):
    from pirate_envs.policies.ismcts import ISMCTSPolicy

    state = mid_game(DmdGame(3), seed, 2 + seed)
    seat, mask = state.current_player(), state.legal_action_mask()
    python = ISMCTSPolicy(state.game, iterations=150, engine="python")
    native = ISMCTSPolicy(state.game, iterations=150, engine="auto")
    assert python.act_state(state, seat, mask, np.random.default_rng(seed)) == native.act_state(
        state, seat, mask, np.random.default_rng(seed)
    )
    source = Rng(seed)
    root = python.search(state, seat, source)
    _, done, after, visits = NATIVE.ismcts(to_native(state).engine_state, seat, 150, 0.7, "random", Rng(seed).state)
    assert done == 150 and after == source.state  # the same draws, to the last one
    assert dict(visits) == {a: root.children[a].visits if a in root.children else 0 for a in state.legal_actions()}


def test_the_compiled_flat_monte_carlo_scores_as_the_python_one():
    from pirate_envs.policies.flatmc import FlatMCPolicy

    state = mid_game(DmdGame(2), 8, 6)
    seat, mask = state.current_player(), state.legal_action_mask()
    python = FlatMCPolicy(state.game, rollouts=12, rollout="random", engine="python")
    native = FlatMCPolicy(state.game, rollouts=12, rollout="random")
    a = python.act_state(state, seat, mask, np.random.default_rng(3))
    b = native.act_state(state, seat, mask, np.random.default_rng(3))
    assert a == b and python.last_values == native.last_values


def test_search_input_is_checked():
    state = DmdGame(2, backend="native").new_initial_state(0)
    engine = state.engine_state
    with pytest.raises(ValueError, match="not to act"):
        NATIVE.ismcts(engine, 1 - state.current_player(), 10, 0.7, "random", 0)
    with pytest.raises(ValueError, match="rollout"):
        NATIVE.ismcts(engine, state.current_player(), 10, 0.7, "greedy", 0)
    for iterations, c in ((0, 0.7), (10, -1.0), (10, float("nan"))):
        with pytest.raises(ValueError):
            NATIVE.ismcts(engine, state.current_player(), iterations, c, "random", 0)
    with pytest.raises(ValueError):
        NATIVE.flatmc(engine, state.current_player(), 3, "random", -1)
    with pytest.raises(ValueError, match="engine must be one of"):
        from pirate_envs.policies.ismcts import ISMCTSPolicy

        ISMCTSPolicy(state.game, engine="gpu")


# --- the vector env ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "opponents",
    ["random", ["random", "pirate_envs.policies.base:RandomPolicy"], "pirate_envs.policies.base:RandomPolicy"],
)
@pytest.mark.parametrize("seat", [0, "random"])
def test_the_vector_env_plays_the_games_of_its_python_twin(opponents, seat):
    from pirate_envs.vector import NativeVectorEnv

    native = NativeVectorEnv(ENV, 6, opponents=opponents, seat=seat, seed=3, num_players=3)
    python = NativeVectorEnv(ENV, 6, opponents=opponents, seat=seat, seed=3, num_players=3, backend="python")
    assert (native.backend, python.backend) == ("native", "python")
    obs_n, _ = native.reset()
    obs_p, _ = python.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(150):
        assert np.array_equal(obs_n, obs_p) and np.array_equal(native.action_masks(), python.action_masks())
        masks = native.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs_n, rew_n, term_n, trunc_n, info_n = native.step(actions)
        obs_p, rew_p, term_p, trunc_p, info_p = python.step(actions)
        assert np.array_equal(rew_n, rew_p) and np.array_equal(term_n, term_p) and np.array_equal(trunc_n, trunc_p)
        if info_n:
            ended += int(info_n["_final_obs"].sum())
            assert np.array_equal(info_n["_final_obs"], info_p["_final_obs"])
            for i in np.flatnonzero(info_n["_final_obs"]):
                assert np.array_equal(info_n["final_obs"][i], info_p["final_obs"][i])
        assert native.seats() == python.seats()
    assert ended > 5


def test_the_vector_env_refuses_bad_input_and_loses_nothing():
    from pirate_envs.vector import make

    env = make(ENV, 4, opponents="heuristic", seed=0)
    env.reset()
    masks = env.action_masks()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    bad = actions.copy()
    bad[2] = next(a for a in range(masks.shape[1]) if not masks[2, a])
    with pytest.raises(IllegalActionError, match="env 2"):
        env.step(bad)
    with pytest.raises(IllegalActionError, match="4 integer actions"):
        env.step(actions[:3])
    with pytest.raises(IllegalActionError):
        env.step(actions.astype(np.float32))
    assert np.array_equal(env.action_masks(), masks)  # nothing was applied
    env.step(actions)
    with pytest.raises(InvalidOptionError, match="num_envs"):
        make(ENV, 0)
    with pytest.raises(InvalidOptionError, match="seat"):
        make(ENV, 2, seat=5)
    with pytest.raises(InvalidOptionError, match="searches the game state"):
        make(ENV, 2, opponents="ismcts")
    with pytest.raises(ValueError):
        make(ENV, 2, opponents="no_such_bot")


def test_the_vector_env_appends_action_features_like_the_gym_adapter():
    from pirate_envs import make_gym
    from pirate_envs.vector import make

    venv = make(ENV, 3, opponents="random", seed=2, action_features=True)
    obs, _ = venv.reset()
    game = venv.game
    assert obs.shape == (3, game.augmented_observation_size)
    state = NATIVE.NativeVector  # the rows are the learner's observations with their features
    del state
    single = make_gym(ENV, opponents="random", action_features=True)
    assert venv.single_observation_space == single.observation_space
    for row in range(3):
        plain = obs[row, : game.observation_size]
        want = game.observation_with_action_features(plain, venv.action_masks()[row])
        assert np.array_equal(obs[row], want)


def test_maskable_ppo_trains_on_the_sb3_form():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    from pirate_envs.vector import make

    venv = make(ENV, 8, opponents="heuristic", seed=0).as_sb3()
    assert get_action_masks(venv).shape == (8, venv.action_space.n)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(256)
    assert len(model.ep_info_buffer) > 0 and {"r", "l"} <= set(model.ep_info_buffer[0])


# --- hostile input through the binding ---------------------------------------------------------------------


def test_the_binding_refuses_bad_configurations():
    from pirate_envs.games.dead_mans_draw.native_bridge import options_vector

    game = DmdGame(2)
    args = (game.game_id, 2, tuple(options_vector(game)), game.num_actions, game.observation_size, 100, 8)
    NATIVE.NativeGame(*args)
    for i, bad in [
        (0, "chess"),
        (1, 0),
        (1, 99),
        (2, tuple(range(17))),
        (2, ("a",)),
        (3, 0),
        (3, 10**6),
        (4, -1),
        (5, 0),
        (6, -3),
    ]:
        with pytest.raises((ValueError, TypeError)):
            NATIVE.NativeGame(*args[:i], bad, *args[i + 1 :])


def test_the_binding_refuses_bad_buffers_and_values():
    state = DmdGame(2, backend="native").new_initial_state(0)
    engine, size, n = state.engine_state, state.game.observation_size, state.game.num_actions
    for out in (
        np.zeros(size, np.float64),
        np.zeros(size - 1, np.float32),
        np.zeros((2, size), np.float32)[:, 0],
        bytes(4 * size),
        [0.0] * size,
    ):
        with pytest.raises(ValueError):
            engine.observe(0, out)
    with pytest.raises(ValueError):
        engine.legal_mask(np.zeros(n + 1, np.int8))
    for source in (-1, 2**64, 1.5, None):
        with pytest.raises((ValueError, TypeError)):
            engine.resample_hidden(0, source)
    features = native_game(state.game)
    obs = state.observation(0)
    with pytest.raises(ValueError):
        features.features(obs, np.zeros(n, np.int8), np.zeros(n, np.float32))
    poisoned = obs.copy()
    poisoned[0] = np.nan
    with pytest.raises(ValueError, match="outside"):
        features.features(poisoned, np.ones(n, np.int8), np.zeros((n, 8), np.float32))


def test_load_refuses_every_hostile_dump():
    """Every value of a real dump pushed out of range, and dumps cut or lengthened: a ValueError each time, never a
    crash (the sanitizer build runs this too)."""
    game = DmdGame(3, backend="native")
    engine = native_game(game)
    rng = np.random.default_rng(0)
    refused = 0
    for seed in range(6):
        state = mid_game(game, seed, 4 * seed)
        rng_state, decisions, truncated, values = state.engine_state.dump()
        assert engine.load(rng_state, decisions, truncated, values).dump() == state.engine_state.dump()
        for i in range(len(values)):
            for bad in (-1, -(2**62), 2**62, values[i] + 1 + int(rng.integers(1000)), 2**31):
                changed = list(values)
                changed[i] = bad
                try:
                    loaded = engine.load(rng_state, decisions, truncated, changed)
                except ValueError:
                    refused += 1
                    continue
                loaded.legal_actions()  # what loads must be playable
                for seat in range(3):
                    loaded.observe(seat, np.zeros(game.observation_size, np.float32))
        for cut in (values[:-1], [*values, 0], [], values[: len(values) // 2]):
            with pytest.raises(ValueError):
                engine.load(rng_state, decisions, truncated, cut)
        for bad_decisions in (-1, game.max_decisions + 1):
            with pytest.raises(ValueError):
                engine.load(rng_state, bad_decisions, truncated, values)
        with pytest.raises(ValueError):
            engine.load(rng_state, decisions, truncated, [*values[:-1], "x"])
    assert refused > 100


def test_native_states_warn_nothing_on_ordinary_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state = DmdGame(2, backend="native").new_initial_state(2)
        state.observation(0)
        state.to_dict()


def test_the_compiled_puct_search_decides_as_the_python_one():
    """PUCT at the root with the shipped network's prior (pirate_envs.policies.puct): the same visits from the same
    draws on both engines with random rollouts."""
    from pirate_envs.policies.puct import parse_puct_spec

    game = DmdGame(2)
    python = parse_puct_spec("puct:iterations=80,rollout=random,engine=python", game)
    native = parse_puct_spec("puct:iterations=80,rollout=random", game)
    for seed in range(3):
        state = mid_game(game, seed, 3 + seed)
        seat, mask = state.current_player(), state.legal_action_mask()
        a = python.act_state(state, seat, mask, np.random.default_rng(seed))
        b = native.act_state(state, seat, mask, np.random.default_rng(seed))
        assert a == b and python.last_visits == native.last_visits
    prior = native.prior(state.observation(seat), mask)
    assert prior[mask == 0].sum() == 0 and abs(prior.sum() - 1) < 1e-12
    with pytest.raises(ValueError, match="prior must name a network"):
        parse_puct_spec("puct:prior=heuristic", game)
    with pytest.raises(ValueError, match="iterations"):
        parse_puct_spec("puct:iterations=0", game)
    bad = np.full(game.num_actions, 2.0)
    engine = to_native(state).engine_state
    with pytest.raises(ValueError, match="prior"):
        NATIVE.puct(engine, seat, 5, 1.0, bad, "random", 0)
