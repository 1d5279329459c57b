"""Every game, unmodified, through Tianshou's ``PettingZooEnv`` and its collector (``pip install tianshou``)."""

from __future__ import annotations

import numpy as np
import pytest

import pirate_envs
from pirate_envs.core.registry import game_class, make

tianshou_env = pytest.importorskip("tianshou.env", reason="Tianshou is not installed (the interop extra)")
PettingZooEnv = tianshou_env.PettingZooEnv


def smallest(env_id: str) -> int:
    return min(game_class(env_id).player_counts)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_full_game_through_tianshou_wrapper(env_id):
    n = smallest(env_id)
    env = PettingZooEnv(make(env_id, num_players=n, illegal_action="raise"))
    assert env.agents == [f"player_{s}" for s in range(n)]
    obs, _ = env.reset(seed=7)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        mask = np.asarray(obs["mask"], dtype=bool)
        assert mask.any() and obs["obs"].shape == env.observation_space["observation"].shape
        # the env itself raises on an illegal action, so finishing proves every action was legal
        obs, rewards, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if terminated or truncated:
            break
        assert steps < game_class(env_id)(num_players=n).max_decisions + 1
    assert len(rewards) == n
    if terminated:
        assert any(r != 0 for r in rewards)  # the end pays every seat its return


@pytest.fixture
def no_numba_warmup(monkeypatch):
    """Every Tianshou ``Policy()`` first compiles its numba return kernels (GAE, n-step): 5-40 s on our
    2 shared cores, once per process. Collecting with a random policy never runs them."""
    from tianshou.algorithm import algorithm_base

    monkeypatch.setattr(algorithm_base.Policy, "_compile", staticmethod(lambda: None))


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_tianshou_collector_collects_episodes(env_id, no_numba_warmup):
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv

    n = smallest(env_id)

    def factory():
        return PettingZooEnv(make(env_id, num_players=n, illegal_action="raise"))

    env = factory()
    # Tianshou's masked random policy in every seat (its Policy objects: collecting needs no Algorithm)
    random_policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy
    policy = MultiAgentPolicy({agent: random_policy(env.action_space) for agent in env.agents})
    # One env and a plain ReplayBuffer: a VectorReplayBuffer compiles numba kernels on first use (20-40 s here).
    collector = Collector(policy, DummyVectorEnv([factory]), ReplayBuffer(5_000))
    collector.reset(gym_reset_kwargs={"seed": 1})  # our env seeds its following resets from this one
    stats = collector.collect(n_episode=2)
    assert stats.n_collected_episodes >= 2
    assert stats.n_collected_steps > 0


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_tianshou_trainer_runs_on_default_env(env_id, no_numba_warmup):
    """Tianshou's off-policy trainer, shaped as its own tic-tac-toe example (a DQN learner in seat 0, masked
    random agents elsewhere), for 200 steps. The replay buffer stores infos as arrays: an info key
    missing on some steps, or a string value, makes it stop with ``MalformedBufferError: Encountered NaNs``."""
    import torch
    from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, ReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    torch.manual_seed(0)
    n = smallest(env_id)

    def factory():
        return PettingZooEnv(make(env_id, num_players=n))

    env = factory()
    net = Net(
        state_shape=env.observation_space["observation"].shape, action_shape=env.action_space.n, hidden_sizes=[16]
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.9,
        target_update_freq=20,
    )
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in range(n - 1)]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env)
    # plain ReplayBuffers and no test collector: a VectorReplayBuffer compiles numba kernels (15-40 s)
    collector = Collector(algorithm, DummyVectorEnv([factory]), ReplayBuffer(2_000), exploration_noise=True)
    collector.reset(gym_reset_kwargs={"seed": 0})
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=200,
            collection_step_num_env_steps=50,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,
            multi_agent_return_reduction=lambda returns: returns[:, 0],
            show_progress=False,
            verbose=False,
        )
    )
    assert result.update_step > 0 and len(collector.buffer) >= 200  # trained on what was collected
    assert not collector.buffer.hasnull()
