"""The behaviour-cloning warm start: teacher data from any policy (search bots included), in parallel."""

from __future__ import annotations

import numpy as np
import pytest

from pirate_envs.core.registry import game_class
from pirate_envs.policies.rollout import StateSearchBot
from training.config import ConfigError, validate_config
from training.pretrain import _collect, collect_teacher_data

ENV = "dead_mans_draw_v0"
OPTIONS = {"num_players": 2}


class HighestLegal(StateSearchBot):
    """A search-bot stand-in: picks the highest legal action from the state, never from an observation."""

    def __init__(self) -> None:
        self.states = 0

    def act_state(self, state, seat, action_mask, rng):
        assert state.current_player() == seat
        self.states += 1
        return int(np.flatnonzero(action_mask)[-1])


def test_a_search_teacher_is_asked_with_the_state_and_its_moves_recorded():
    teacher = HighestLegal()
    data = collect_teacher_data(ENV, OPTIONS, teacher=teacher, games=3, teacher_share=1.0, seed=0)
    assert teacher.states == len(data) > 0
    assert (data.actions == [np.flatnonzero(m)[-1] for m in data.masks]).all()
    assert data.observations.shape == (len(data), *game_class(ENV)(**OPTIONS).observation_shape)


def test_others_play_the_non_teacher_seats():
    """With ``teacher_share`` near 0 one seat per game is the teacher; the rest follow ``others``."""
    runs = {
        others: collect_teacher_data(
            ENV, OPTIONS, teacher="heuristic", games=6, teacher_share=1e-9, seed=1, others=others
        )
        for others in ("random", "heuristic")
    }
    # the teacher's positions depend on how its opponent plays
    assert not np.array_equal(runs["random"].observations[:50], runs["heuristic"].observations[:50])


def test_parallel_collection_splits_the_games_over_seeded_workers():
    """Worker w plays its share of the games from ``SeedSequence(seed, spawn_key=(w,))``; the parts are joined."""
    data = collect_teacher_data(ENV, OPTIONS, games=5, seed=7, others="heuristic", workers=2)
    parts = [
        _collect(
            ENV,
            OPTIONS,
            "heuristic",
            "heuristic",
            games,
            0.75,
            np.random.SeedSequence(7, spawn_key=(w,)),
        )
        for w, games in enumerate((3, 2))
    ]
    assert np.array_equal(data.actions, np.concatenate([p.actions for p in parts]))
    assert np.array_equal(data.observations, np.concatenate([p.observations for p in parts]))
    assert np.array_equal(data.returns, np.concatenate([p.returns for p in parts]))


def test_one_worker_keeps_the_single_stream():
    a = collect_teacher_data(ENV, OPTIONS, games=3, seed=2)
    b = _collect(ENV, OPTIONS, "heuristic", "random", 3, 0.75, 2)
    assert np.array_equal(a.actions, b.actions) and np.array_equal(a.observations, b.observations)


def test_bad_worker_count_is_refused():
    with pytest.raises(ValueError, match="workers"):
        collect_teacher_data(ENV, OPTIONS, games=1, workers=0)


# --- config -----------------------------------------------------------------------------------------------
def config(**imitation):
    return {"env": {"id": ENV, "options": OPTIONS}, "run": {"total_timesteps": 10}, "imitation": imitation}


@pytest.mark.parametrize("teacher", ["heuristic", "random", "flatmc", "flatmc:rollouts=4", "ismcts:iterations=50"])
def test_teacher_specs_accepted(teacher):
    assert validate_config(config(teacher=teacher, others="heuristic", workers=2))["imitation"]["teacher"] == teacher


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("teacher", "flatmc:depth=3", "bad flatmc parameter 'depth=3'"),
        ("teacher", "flatmc:rollouts=0", "rollouts must be an int >= 1"),
        ("teacher", "alphazero", "allowed: 'random', 'heuristic', a search bot (ismcts, flatmc, puct)"),
        ("others", "ismcts:rollout=greedy", "rollout must be one of"),
        ("others", "missing.zip", "does not exist"),
        ("workers", 0, ">= 1"),
    ],
)
def test_bad_imitation_settings_name_the_key(key, value, expected):
    with pytest.raises(ConfigError) as info:
        validate_config(config(**{key: value}))
    assert f"imitation.{key}" in str(info.value) and expected in str(info.value)
