"""A network opponent's batched choice (``NetworkPolicy.act_batch``/``choose_batch``) makes exactly the
choices of :meth:`NetworkPolicy.choose` row by row, from the same draws of the generator (lockstep
training relies on it: a batch of self-play snapshots must play as each env's opponent would alone)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import pirate_envs
from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

ROOT = Path(__file__).resolve().parents[1]


def row_by_row(policy, logits, masks, seed):
    rng = np.random.default_rng(seed)
    return [policy.choose(row, mask, rng) for row, mask in zip(logits, masks, strict=True)]


@pytest.mark.parametrize("deterministic", [False, True])
def test_batched_choices_equal_row_by_row_choices_on_arbitrary_logits(deterministic):
    policy = CheckpointPolicy(ROOT / "checkpoints/dead_mans_draw_v0/model.zip", deterministic=deterministic)
    gen = np.random.default_rng(0)
    for trial in range(200):
        rows, actions = int(gen.integers(1, 40)), int(gen.integers(1, 30))
        masks = gen.random((rows, actions)) < gen.uniform(0.05, 0.9)
        masks[np.arange(rows), gen.integers(0, actions, rows)] = True  # every row has a legal action
        # wide, tied and extreme logits: ties and near-zero weights are where an off-by-one would show
        logits = np.round(gen.normal(0, gen.choice([0.1, 3.0, 40.0]), (rows, actions)), int(gen.integers(0, 3)))
        logits = logits.astype(np.float32)
        expected = row_by_row(policy, logits, masks, seed=trial)
        got = policy.choose_batch(logits, masks, np.random.default_rng(trial))
        assert got == expected
        assert all(masks[i, a] for i, a in enumerate(got))


def test_act_batch_plays_real_positions_as_act_does():
    policy = CheckpointPolicy(ROOT / "checkpoints/dead_mans_draw_v0/model.zip", deterministic=False)
    env = pirate_envs.make_gym("dead_mans_draw_v0", seat=0, opponents="random", action_features=False)
    observations, masks = [], []
    env.reset(seed=3)
    for _ in range(60):
        state = env.unwrapped.state
        if state.is_terminal():
            env.reset()
            continue
        observations.append(state.observation(state.current_player()))
        masks.append(state.legal_action_mask())
        env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    observations, masks = np.stack(observations), np.stack(masks)
    rng = np.random.default_rng(11)
    expected = [policy.act(o, m, rng) for o, m in zip(observations, masks, strict=True)]
    assert policy.act_batch(observations, masks, np.random.default_rng(11)) == expected


def test_a_row_without_a_legal_action_is_refused():
    policy = CheckpointPolicy(ROOT / "checkpoints/dead_mans_draw_v0/model.zip", deterministic=False)
    masks = np.array([[True, False], [False, False]])
    with pytest.raises(ValueError, match="allows no action"):
        policy.choose_batch(np.zeros((2, 2), dtype=np.float32), masks, np.random.default_rng(0))


class EdgeDraws:
    """A stand-in generator whose draws are given: the ends of [0, 1] (a real one reaches 0.0, and its
    largest draws round ``u * total`` up to ``total``)."""

    def __init__(self, draws) -> None:
        self.draws = list(draws)

    def random(self, size=None):
        if size is None:
            return self.draws.pop(0)
        out, self.draws = np.array(self.draws[:size]), self.draws[size:]
        return out


def test_batched_choices_at_the_ends_of_the_draws():
    policy = CheckpointPolicy(ROOT / "checkpoints/dead_mans_draw_v0/model.zip", deterministic=False)
    # a legal action whose weight underflows to 0 before the one that carries it all; illegal actions between
    logits = np.array([[-1000.0, 5.0, 0.0, 2.0], [3.0, -1000.0, 7.0, 1.0], [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    masks = np.array([[True, False, True, False], [True, True, False, False], [False, True, False, True]])
    for draws in ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.5]):
        expected = [
            policy.choose(row, mask, EdgeDraws(draws[i : i + 1]))
            for i, (row, mask) in enumerate(zip(logits, masks, strict=True))
        ]
        assert policy.choose_batch(logits, masks, EdgeDraws(draws)) == expected, draws
