"""PettingZoo and Gymnasium registries and checkers: every game by id with default arguments, no extra install
needed. The checkers sample actions without the mask: the default ``illegal_action="terminate"`` ends such a game
with -1 for the offender (PettingZoo's classic convention) instead of raising."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import pirate_envs
from pirate_envs.core.registry import game_class
from pirate_envs.interop.registry import is_rllib_checkpoint, pettingzoo_id, register_pettingzoo_envs
from pirate_envs.policies.base import resolve_policy

HAS_PZ_REGISTRY = hasattr(pettingzoo, "aec_registry") and hasattr(pettingzoo, "make")


def test_pettingzoo_ids():
    assert pettingzoo_id("potsm_v0") == "pirate_envs/potsm-v0"
    assert pettingzoo_id("dead_mans_draw_v0") == "pirate_envs/dead_mans_draw-v0"
    with pytest.raises(ValueError, match="_v<number>"):
        pettingzoo_id("potsm")


@pytest.mark.skipif(not HAS_PZ_REGISTRY, reason="this PettingZoo has no env registry (added in 1.27)")
@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_pettingzoo_make_every_game(env_id):
    assert register_pettingzoo_envs()  # idempotent: already done by `import pirate_envs`
    n = min(game_class(env_id).player_counts)
    for name in (pettingzoo_id(env_id), f"pirate_envs/{env_id}"):  # PettingZoo normalises _v0 to -v0
        env = pettingzoo.make("aec", name, num_players=n)
        assert isinstance(env, pettingzoo.AECEnv)
        env.reset(seed=3)
        assert env.possible_agents == [f"player_{s}" for s in range(n)]
        obs, *_ = env.last()
        assert obs["action_mask"].any()
    with pytest.raises(Exception):  # noqa: B017 - the registry's own error type varies by version
        pettingzoo.make("parallel", pettingzoo_id(env_id))  # turn-based: AEC only


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_gymnasium_make_every_game(env_id):
    env = gymnasium.make(pirate_envs.gym_id(env_id), seat=0, opponents="random")
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
    assert env.unwrapped.action_masks().any()
    env.close()


def test_rllib_checkpoint_detection(tmp_path):
    assert not is_rllib_checkpoint(tmp_path)
    with pytest.raises(ValueError, match="not an RLlib checkpoint"):
        resolve_policy(str(tmp_path), "potsm_v0", 2)
    (tmp_path / "learner_group").mkdir()
    assert is_rllib_checkpoint(tmp_path)
    assert resolve_policy("random", "potsm_v0", 2).act(np.zeros(3), np.array([0, 1, 0]), np.random.default_rng()) == 1


UNMASKED_CLIENT = pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")


@UNMASKED_CLIENT
@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version:UserWarning")  # gymnasium.make's own
@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_gymnasium_check_env_with_default_arguments(env_id):
    env = gymnasium.make(pirate_envs.gym_id(env_id))
    check_env(env, skip_render_check=True)
    env.close()


@UNMASKED_CLIENT
@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_pettingzoo_parallel_seed_test_through_turn_based_conversion(env_id):
    """``turn_based_aec_to_parallel``: every agent passes a sampled action each step, only the acting seat's is
    used, and PettingZoo's own checker samples them without the mask."""
    parallel_seed_test(lambda: turn_based_aec_to_parallel(pirate_envs.make(env_id)), num_cycles=50)
