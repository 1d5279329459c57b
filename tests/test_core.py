"""Unit tests of the game-agnostic core: RNG, option validation, registry, reward helpers."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

import pirate_envs
from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.game import copy_plain
from pirate_envs.core.options import Option, resolve_options
from pirate_envs.core.policy import RandomPolicy, resolve_policy
from pirate_envs.core.rewards import score_margin_returns, win_loss_returns
from pirate_envs.core.rng import Rng, as_rng


def test_rng_is_seeded_and_round_trips():
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    assert Rng(1).next_u64() != Rng(2).next_u64()
    restored = Rng.from_json(json.loads(json.dumps(a.to_json())))
    assert [restored.randrange(1000) for _ in range(20)] == [a.randrange(1000) for _ in range(20)]
    clone = a.clone()
    assert clone.next_u64() == a.next_u64()


def test_rng_is_uniform_enough():
    rng = Rng(7)
    counts = Counter(rng.randrange(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(c - 10_000) < 400 for c in counts.values()), counts  # ~4.4 sigma
    firsts = Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        assert sorted(items) == [0, 1, 2, 3]
        firsts[items[0]] += 1
    assert all(abs(c - 6_000) < 330 for c in firsts.values()), firsts


@pytest.mark.parametrize("length", [0, 1, 2, 9, 28, 29, 58, 60, 300, 4096, 4097])
def test_rng_shuffle_is_fisher_yates_on_next_u64_at_every_length(length):
    """Long lists take a vectorised path; every length must give the plain loop's order and leave
    the generator where ``n - 1`` draws leave it (seeded games depend on both)."""
    for seed in (0, 1, 2**64 - 1, 123456789):
        fast, slow = Rng(seed), Rng(seed)
        items = list(range(length))
        fast.shuffle(items)
        expected = list(range(length))
        for i in range(length - 1, 0, -1):
            j = (slow.next_u64() * (i + 1)) >> 64
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected
        assert fast.state == slow.state


def test_rng_ignores_global_state():
    random.seed(1)
    np.random.seed(1)
    x = Rng(3).randrange(10**9)
    random.seed(2)
    np.random.seed(2)
    assert Rng(3).randrange(10**9) == x


def test_as_rng_accepts_common_sources():
    assert isinstance(as_rng(5), Rng)
    assert isinstance(as_rng(None), Rng)
    assert isinstance(as_rng(np.random.default_rng(0)), Rng)
    assert isinstance(as_rng(random.Random(0)), Rng)
    assert as_rng(np.random.default_rng(3)).state == as_rng(np.random.default_rng(3)).state
    with pytest.raises(TypeError, match="numpy Generator"):
        as_rng("seed")


SPECS = (
    Option("flag", False, bool),
    Option("mode", "win", str, choices=("win", "score")),
    Option("count", 10, int, minimum=1, maximum=20),
    Option("scale", 1.0, float, minimum=0.5),
)


def test_resolve_options_defaults_and_values():
    assert resolve_options(SPECS, {}, "g") == {"flag": False, "mode": "win", "count": 10, "scale": 1.0}
    got = resolve_options(SPECS, {"flag": True, "count": 3, "scale": 2}, "g")
    assert got["flag"] is True and got["count"] == 3 and got["scale"] == 2.0


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"nope": 1}, r"unknown option\(s\) 'nope'; valid options: flag"),
        ({"flag": 1}, "'flag' must be a bool"),
        ({"count": True}, "'count' must be an int"),
        ({"count": 2.5}, "'count' must be an int"),
        ({"count": 0}, r"below the minimum; allowed: an integer in \[1, 20\]"),
        ({"count": 21}, "above the maximum"),
        ({"mode": "draw"}, "allowed: one of 'win', 'score'"),
        ({"scale": "big"}, "'scale' must be a number"),
    ],
)
def test_resolve_options_errors_name_what_is_allowed(given, expected):
    with pytest.raises(InvalidOptionError, match=expected):
        resolve_options(SPECS, given, "g")


def test_reward_helpers():
    assert win_loss_returns(1, 3) == [-1.0, 1.0, -1.0]
    assert score_margin_returns([10, 4, 7], 10) == [0.3, -0.6, -0.3]


def test_registry():
    assert "potsm_v0" in pirate_envs.ENV_IDS
    from pirate_envs import potsm_v0

    assert {"env", "raw_env", "Game"} <= set(dir(potsm_v0))
    with pytest.raises(InvalidOptionError, match="registered env ids: potsm_v0"):
        pirate_envs.make("chess_v0")


def test_resolve_policy():
    assert isinstance(resolve_policy("random", "potsm_v0"), RandomPolicy)
    with pytest.raises(ValueError, match="heuristic"):
        resolve_policy("greedy", "potsm_v0")
    policy = resolve_policy(lambda obs, mask, rng: int(np.flatnonzero(mask)[0]), "potsm_v0")
    assert policy.act(np.zeros(3), np.array([0, 1, 1], dtype=np.int8), np.random.default_rng()) == 1
    with pytest.raises(ValueError, match="allows no action"):
        RandomPolicy().act(np.zeros(3), np.zeros(3, dtype=np.int8), np.random.default_rng())


def test_copy_plain_shares_nothing_and_keeps_values():
    shared = [1, 2]
    value = {"a": [shared, shared, [3, [4.5, None, True, "x"]]], "b": (1, 2), "c": -(2**70)}
    copy = copy_plain(value)
    assert copy == value
    assert copy["a"] is not value["a"] and copy["a"][2][1] is not value["a"][2][1]
    assert copy["a"][0] is not shared
    copy["a"][0].append(9)
    assert shared == [1, 2]


def test_copy_plain_keeps_numpy_scalars():
    value = [[np.int64(3)], {"k": [np.float32(0.5)]}]
    copy = copy_plain(value)
    assert copy == value and copy[0] is not value[0] and copy[1]["k"] is not value[1]["k"]
    assert type(copy[0][0]) is np.int64 and type(copy[1]["k"][0]) is np.float32
