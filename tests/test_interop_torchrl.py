"""Every game, unmodified, through TorchRL's ``PettingZooWrapper`` (AEC, ``use_mask=True``; ``pip install torchrl``)."""

from __future__ import annotations

import pytest

import pirate_envs
from pirate_envs.core.registry import game_class, make

torch = pytest.importorskip("torch")
torchrl_pettingzoo = pytest.importorskip("torchrl.envs.libs.pettingzoo", reason="TorchRL is not installed")
PettingZooWrapper = torchrl_pettingzoo.PettingZooWrapper


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_full_game_through_torchrl_wrapper(env_id):
    n = min(game_class(env_id).player_counts)
    env = PettingZooWrapper(env=make(env_id, num_players=n, illegal_action="raise"), use_mask=True, seed=5)
    agents = [f"player_{s}" for s in range(n)]
    assert sorted(env.group_map) == agents  # AEC default: one group per player
    td = env.reset()
    limit = game_class(env_id)(num_players=n).max_decisions + 1
    for _ in range(limit):
        acting = [a for a in agents if td[a, "mask"].any()]
        assert len(acting) == 1  # turn-based: exactly one seat acts
        mask = td[acting[0], "action_mask"]
        assert mask.any()
        td = env.rand_action(td)  # draws within the action spec's mask
        assert mask[0, td[acting[0], "action"].item()]
        td = env.step(td)  # the env raises on an illegal action
        if td["next", "done"].any():
            break
        td = td["next"]
    else:
        pytest.fail(f"{env_id}: no end within {limit} decisions")
    rewards = torch.stack([td["next", a, "reward"].sum() for a in agents])
    truncated = td["next", "truncated"].any() if ("next", "truncated") in td.keys(True) else False
    assert truncated or rewards.abs().sum() > 0
    env.close()


@pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")
@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_torchrl_default_collector_with_default_arguments(env_id):
    """TorchRL's collector with ``policy=None`` steps random actions drawn without our mask: the default
    env ends a game on an illegal one (-1 for the offender) and the collector keeps going."""
    from torchrl.collectors import Collector

    n = min(game_class(env_id).player_counts)
    env = PettingZooWrapper(env=make(env_id, num_players=n), use_mask=True, seed=0)
    collector = Collector(env, policy=None, frames_per_batch=100, total_frames=200)
    frames = sum(batch.numel() for batch in collector)
    collector.shutdown()
    assert frames == 200
