"""The IS-MCTS search bot (``pirate_envs.core.ismcts``): generic over every registered game.

It must never read hidden information (its choices are the same on every state of the seat's
information set), pick legal actions, be reproducible, honour its budgets, and plug into
``training.evaluate``, ``training.play`` and ``make_gym`` like any other policy.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import pirate_envs
from pirate_envs.core.ismcts import ISMCTSPolicy, parse_ismcts_spec
from pirate_envs.core.policy import choose_action, resolve_policy
from pirate_envs.core.registry import game_class
from training.tournament import run_tournament

ENV_IDS = list(pirate_envs.ENV_IDS)


def decision_points(game, seed: int, every: int = 5, limit: int = 4):
    """A few states of a random game at which some seat has more than one legal action."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    found = []
    step = 0
    while not state.is_terminal() and len(found) < limit:
        if step % every == 0 and len(state.legal_actions()) > 1:
            found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    return found


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_choice_is_the_same_on_every_state_of_the_information_set(env_id):
    """The bot sees the real state only through resample_hidden: redrawing the hidden cards changes nothing."""
    game = game_class(env_id)()
    bot = ISMCTSPolicy(game, iterations=12)
    checked = 0
    for seed in (1, 2):
        for state in decision_points(game, seed, limit=3):
            seat = state.current_player()
            mask = state.legal_action_mask()
            chosen = bot.act_state(state, seat, mask, np.random.default_rng(7))
            assert mask[chosen] == 1
            for twin_seed in (11, 12):
                twin = state.resample_hidden(seat, twin_seed)  # other hidden cards, same view for `seat`
                assert bot.act_state(twin, seat, twin.legal_action_mask(), np.random.default_rng(7)) == chosen
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_plays_a_full_game_against_random_bots(env_id):
    """Seat 0 searched (random rollouts), the others random: every search result is legal to the end."""
    game = game_class(env_id)()
    bot = ISMCTSPolicy(game, iterations=3)
    others = resolve_policy("random", env_id)
    state = game.new_initial_state(3)
    rng = np.random.default_rng(0)
    searched = 0
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(choose_action(bot if seat == 0 else others, state, seat, rng))
        searched += seat == 0
    assert searched > 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_heuristic_rollouts(env_id):
    game = game_class(env_id)()
    state = decision_points(game, 4, limit=1)[0]
    bot = ISMCTSPolicy(game, iterations=2, rollout="heuristic")
    action = bot.act_state(state, state.current_player(), state.legal_action_mask(), np.random.default_rng(0))
    assert state.legal_action_mask()[action] == 1
    assert bot.last_iterations == 2


def test_same_seed_same_choice_and_iteration_budget():
    game = game_class(ENV_IDS[0])()
    state = decision_points(game, 5)[0]
    seat = state.current_player()
    bot = ISMCTSPolicy(game, iterations=30)
    picks = {bot.act_state(state, seat, state.legal_action_mask(), np.random.default_rng(3)) for _ in range(3)}
    assert len(picks) == 1
    assert bot.last_iterations == 30


def test_time_budget_stops_the_search():
    game = game_class(ENV_IDS[0])()
    state = decision_points(game, 5)[0]
    bot = ISMCTSPolicy(game, iterations=10**9, time_budget=0.05)
    bot.act_state(state, state.current_player(), state.legal_action_mask(), np.random.default_rng(0))
    assert 1 <= bot.last_iterations < 10**9


def test_search_prefers_the_better_of_two_moves():
    """With many iterations at the root, visit counts concentrate on the actions with the best mean return."""
    game = game_class(ENV_IDS[0])()
    state = decision_points(game, 8)[0]
    seat = state.current_player()
    bot = ISMCTSPolicy(game, iterations=300, exploration=0.5)
    from pirate_envs.core.rng import Rng

    root = bot.search(state, seat, Rng(1))
    stats = {a: (child.visits, child.total / child.visits) for a, child in root.children.items() if child.visits}
    most_visited = max(stats, key=lambda a: stats[a][0])
    least_visited = min(stats, key=lambda a: stats[a][0])
    assert stats[most_visited][1] >= stats[least_visited][1]
    assert sum(v for v, _ in stats.values()) == 300


def test_act_without_state_explains_what_to_call():
    bot = ISMCTSPolicy(iterations=5)
    with pytest.raises(TypeError, match="choose_action"):
        bot.act(np.zeros(3, np.float32), np.ones(3, np.int8), np.random.default_rng(0))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:iterations=0", "iterations must be an int >= 1"),
        ("ismcts:iterations=ten", "needs a int"),
        ("ismcts:rollout=greedy", "rollout must be one of"),
        ("ismcts:depth=3", "key one of"),
        ("ismcts:time_budget=-1", "time_budget must be"),
    ],
)
def test_bad_specs_name_the_parameter(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_ismcts_spec(spec, game_class(ENV_IDS[0])())


def test_spec_strings_resolve_everywhere():
    env_id = ENV_IDS[0]
    bot = resolve_policy("ismcts:iterations=12,rollout=heuristic,exploration=1.5", env_id)
    assert isinstance(bot, ISMCTSPolicy)
    assert (bot.iterations, bot.rollout, bot.exploration) == (12, "heuristic", 1.5)


def test_in_a_tournament_and_as_a_gym_opponent():
    env_id = ENV_IDS[0]
    result = run_tournament(env_id, 2, ["ismcts:iterations=3", "random"], games=2, seed=0)
    assert result["standings"]["ismcts:iterations=3"]["seat_games"] == 2
    env = pirate_envs.make_gym(env_id, seat=0, opponents="ismcts:iterations=3", num_players=2)
    _, _ = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated


def test_a_person_can_play_against_it():
    from training.play import play_game

    lines: list[str] = []
    result = play_game(
        ENV_IDS[0],
        seat=0,
        opponents=["ismcts:iterations=3"],
        num_players=2,
        seed=1,
        input_fn=lambda prompt: "1",
        print_fn=lambda *parts: lines.append(" ".join(map(str, parts))),
    )
    assert result["completed"]
    assert any("ismcts" in line for line in lines)
