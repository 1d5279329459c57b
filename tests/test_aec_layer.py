"""The lean AEC layer (issue 23 §2): PettingZoo's order-enforcing checks kept, their per-step cost not.

The public ``env()`` is our :class:`~pirate_envs.adapters.aec.OrderEnforcingWrapper` (a subclass of
PettingZoo's): the same errors before ``reset`` and inside ``agent_iter``, but ``last``/``observe``/
``step`` and the agent iterator never go through PettingZoo's ``__getattr__``. Observations are fresh
arrays; rewards are zero until the end. Behaviour across all games is in ``test_conformance.py``
(``api_test``, ``seed_test``, copies, infos); this file checks the layer itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import pirate_envs
from pirate_envs.adapters.aec import GameOverError, OrderEnforcingWrapper
from pirate_envs.core.registry import game_class


@pytest.fixture(params=pirate_envs.ENV_IDS)
def env_id(request) -> str:
    return request.param


def _play(env, rng: np.random.Generator) -> int:
    """One game of random legal play through ``agent_iter``/``last``/``step``; returns the decisions."""
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    return decisions


def test_env_is_a_pettingzoo_order_enforcing_wrapper(env_id):
    env = pirate_envs.make(env_id)
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env, wrappers.OrderEnforcingWrapper)
    assert str(env) == env_id


@pytest.mark.parametrize("call", ["step", "observe", "last", "agent_iter", "render"])
def test_calls_before_reset_are_clear_errors(env_id, call):
    """PettingZoo's order enforcing: nothing but reset (and spaces) before the first reset."""
    env = pirate_envs.make(env_id, render_mode="ansi")
    args = {"step": (0,), "observe": ("player_0",)}.get(call, ())
    with pytest.raises(AssertionError, match=rf"reset\(\) needs to be called before {call}"):
        getattr(env, call)(*args)
    for name in ("rewards", "agent_selection", "infos", "terminations"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    assert env.observation_space("player_0") is env.unwrapped.observation_space("player_0")


def test_raw_env_observe_before_reset_is_a_clear_error(env_id):
    raw = pirate_envs.make(env_id).unwrapped
    with pytest.raises(AssertionError, match="reset"):
        raw.observe("player_0")


def test_agent_iter_insists_on_a_step_per_turn(env_id):
    env = pirate_envs.make(env_id)
    env.reset(seed=0)
    with pytest.raises(AssertionError, match=r"need to call step\(\) or reset\(\)"):
        for _agent in env.agent_iter():
            env.last()  # no step: the second turn of the loop must fail


TABLES = [(env_id, n) for env_id in pirate_envs.ENV_IDS for n in game_class(env_id).player_counts]


@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
@pytest.mark.parametrize("action", [None, 0])
@pytest.mark.parametrize(("env_id", "num_players"), TABLES, ids=[f"{e}-{n}p" for e, n in TABLES])
def test_step_after_every_agent_left_is_a_clear_error(env_id, num_players, action, wrapped):
    """Once the game is over and every agent stepped its None out, a step (None or an action) raises,
    saying so and that reset() is needed (PettingZoo's wrapper would only log a warning); reset() then works."""
    env = pirate_envs.make(env_id, num_players=num_players)
    target = env if wrapped else env.unwrapped
    env.reset(seed=num_players)
    _play(env, np.random.default_rng(num_players))
    assert env.agents == []
    with pytest.raises(GameOverError, match=rf"^{env_id}: step\(\) called after the game ended .*call reset\(\)"):
        target.step(action)
    assert isinstance(GameOverError(env_id), RuntimeError)
    env.reset(seed=1)
    assert env.agents == env.possible_agents and _play(env, np.random.default_rng(1)) > 0


def test_a_finished_agent_still_steps_none_once(env_id):
    """PettingZoo's dead step is unchanged: while agents are left, each done agent steps None (an action is
    PettingZoo's own error)."""
    env = pirate_envs.make(env_id)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with pytest.raises(ValueError, match="the only valid action is None"):
                env.step(0)
            left = len(env.agents)
            env.step(None)
            assert len(env.agents) == left - 1
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []


def test_hot_path_never_goes_through_getattr(env_id, monkeypatch):
    """A whole game through agent_iter/last/step/observe reads no attribute via PettingZoo's ``__getattr__``
    (each hop cost about as much as the env's own step bookkeeping)."""
    env = pirate_envs.make(env_id)
    env.reset(seed=0)
    hops = []
    original = wrappers.OrderEnforcingWrapper.__getattr__

    def counting(self, name):
        hops.append(name)
        return original(self, name)

    monkeypatch.setattr(wrappers.OrderEnforcingWrapper, "__getattr__", counting)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.observe(_agent)
        # what TorchRL's and Tianshou's wrappers read on every step
        assert env.agent_selection == _agent and _agent in env.agents and _agent in env._cumulative_rewards
        assert (env.rewards, env.terminations, env.truncations, env.infos) == (
            env.unwrapped.rewards,
            env.unwrapped.terminations,
            env.unwrapped.truncations,
            env.unwrapped.infos,
        )
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert hops == []


def test_assigning_a_forwarded_attribute_sets_it_on_the_env(env_id):
    env = pirate_envs.make(env_id)
    env.reset(seed=0)
    env.agent_selection = "player_1"
    assert env.unwrapped.agent_selection == "player_1" == env.agent_selection
    assert "agent_selection" not in vars(env)


def test_observations_are_fresh_arrays_the_caller_may_modify(env_id):
    """``observe``/``last`` never hand out a shared array: writing into one changes nothing else."""
    env = pirate_envs.make(env_id)
    env.reset(seed=1)
    acting = env.agent_selection
    other = next(a for a in env.agents if a != acting)
    first_last, first_acting, first_other = env.last()[0], env.observe(acting), env.observe(other)
    expected = {key: value.copy() for key, value in first_acting.items()}
    for obs in (first_last, first_acting, first_other):
        assert obs["observation"].flags.writeable and obs["action_mask"].flags.writeable
        obs["observation"][:] = -1
        obs["action_mask"][:] = 1
    for obs in (env.last()[0], env.observe(acting)):
        np.testing.assert_array_equal(obs["observation"], expected["observation"])
        np.testing.assert_array_equal(obs["action_mask"], expected["action_mask"])
    assert not env.observe(other)["action_mask"].any()


def test_rewards_stay_zero_until_the_end_then_are_the_returns(env_id):
    env = pirate_envs.make(env_id)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    seen_end = False
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if not seen_end:
                seen_end = True
                returns = env.unwrapped.state.returns()
                assert env.rewards == {a: returns[int(a.split("_")[1])] for a in env.agents}
            assert reward == env.unwrapped.state.returns()[int(agent.split("_")[1])]
            env.step(None)
            continue
        assert set(env.rewards.values()) == {0.0} and set(env._cumulative_rewards.values()) == {0.0}
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen_end


def test_legal_action_mask_is_a_new_array_of_the_legal_actions(env_id):
    """``State.legal_action_mask`` (built from the cached legal list) gives exactly the legal actions, in a
    new writable array every call."""
    game = game_class(env_id)()
    rng = np.random.default_rng(3)
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            mask = state.legal_action_mask()
            assert mask.dtype == np.int8 and mask.shape == (game.num_actions,) and mask.flags.writeable
            assert np.flatnonzero(mask).tolist() == legal
            mask[:] = 1
            assert np.flatnonzero(state.legal_action_mask()).tolist() == legal
            state.apply_action(int(rng.choice(legal)))
        assert not state.legal_action_mask().any()
