"""The search bots, IS-MCTS (``pirate_envs.policies.ismcts``) and flat Monte Carlo (``pirate_envs.policies.flatmc``).

Both are generic over every registered game. They must never read hidden information (their
choices are the same on every state of the seat's information set), pick legal actions, be
reproducible, honour their budgets, and plug into ``training.evaluation.evaluate``, ``training.apps.play`` and
``make_gym`` like any other policy.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import pirate_envs
from pirate_envs.core.registry import game_class
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.scenario import scenario
from pirate_envs.policies.base import choose_action, resolve_policy
from pirate_envs.policies.flatmc import FlatMCPolicy, parse_flatmc_spec
from pirate_envs.policies.ismcts import ISMCTSPolicy, parse_ismcts_spec
from training.evaluation.tournament import run_tournament

ENV_IDS = list(pirate_envs.ENV_IDS)
# Small budgets: what is tested is the contract, not the strength.
BOTS = {
    "ismcts": lambda game: ISMCTSPolicy(game, iterations=12),
    "flatmc": lambda game: FlatMCPolicy(game, rollouts=2, rollout="random"),
}


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


@pytest.mark.parametrize("kind", BOTS)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_choice_is_the_same_on_every_state_of_the_information_set(env_id, kind):
    """The bot sees the real state only through resample_hidden: redrawing the hidden cards changes nothing."""
    game = game_class(env_id)()
    bot = BOTS[kind](game)
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


@pytest.mark.parametrize("kind", ["ismcts", "flatmc"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_plays_a_full_game_against_random_bots(env_id, kind):
    """Seat 0 searched (random rollouts), the others random: every search result is legal to the end."""
    game = game_class(env_id)()
    bot = ISMCTSPolicy(game, iterations=3) if kind == "ismcts" else FlatMCPolicy(game, rollouts=1, rollout="random")
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
    mask = state.legal_action_mask()
    bot = ISMCTSPolicy(game, iterations=2, rollout="heuristic")
    action = bot.act_state(state, state.current_player(), mask, np.random.default_rng(0))
    assert mask[action] == 1
    assert bot.last_iterations == 2
    flat = FlatMCPolicy(game, rollouts=1)
    action = flat.act_state(state, state.current_player(), mask, np.random.default_rng(0))
    assert mask[action] == 1
    assert sorted(flat.last_values) == np.flatnonzero(mask).tolist()


def test_same_seed_same_choice_and_iteration_budget():
    game = game_class(ENV_IDS[0])()
    state = decision_points(game, 5)[0]
    seat = state.current_player()
    bot = ISMCTSPolicy(game, iterations=30)
    picks = {bot.act_state(state, seat, state.legal_action_mask(), np.random.default_rng(3)) for _ in range(3)}
    assert len(picks) == 1
    assert bot.last_iterations == 30
    flat = FlatMCPolicy(game, rollouts=3, rollout="random")
    first = flat.act_state(state, seat, state.legal_action_mask(), np.random.default_rng(3))
    values = dict(flat.last_values)
    assert flat.act_state(state, seat, state.legal_action_mask(), np.random.default_rng(3)) == first
    assert flat.last_values == values


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


@pytest.mark.parametrize("bot", [ISMCTSPolicy(iterations=5), FlatMCPolicy(rollouts=5, rollout="random")])
def test_act_without_state_explains_what_to_call(bot):
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
        ("flatmc:rollouts=0", "rollouts must be an int >= 1"),
        ("flatmc:rollouts=many", "needs a int"),
        ("flatmc:rollout=greedy", "rollout must be one of"),
        ("flatmc:iterations=3", "key one of"),
        ("flatmc:rollouts", "expected key=value"),
    ],
)
def test_bad_specs_name_the_parameter(spec, message):
    parse = parse_ismcts_spec if spec.startswith("ismcts") else parse_flatmc_spec
    with pytest.raises(ValueError, match=message):
        parse(spec, game_class(ENV_IDS[0])())
    with pytest.raises(ValueError, match=message):  # the same message wherever a spec is accepted
        resolve_policy(spec, ENV_IDS[0])


def test_flatmc_heuristic_rollouts_need_the_game():
    with pytest.raises(ValueError, match="needs the game"):
        FlatMCPolicy(rollouts=3)


def test_spec_strings_resolve_everywhere():
    env_id = ENV_IDS[0]
    bot = resolve_policy("ismcts:iterations=12,rollout=heuristic,exploration=1.5", env_id)
    assert isinstance(bot, ISMCTSPolicy)
    assert (bot.iterations, bot.rollout, bot.exploration) == (12, "heuristic", 1.5)
    flat = resolve_policy("flatmc:rollouts=7", env_id, num_players=3)
    assert isinstance(flat, FlatMCPolicy)
    assert (flat.rollouts, flat.rollout) == (7, "heuristic")


@pytest.mark.parametrize("spec", ["ismcts:iterations=3", "flatmc:rollouts=1,rollout=random"])
def test_in_a_tournament_and_as_a_gym_opponent(spec):
    env_id = ENV_IDS[0]
    result = run_tournament(env_id, 2, [spec, "random"], games=2, seed=0)
    assert result["standings"][spec]["seat_games"] == 2
    env = pirate_envs.make_gym(env_id, seat=0, opponents=spec, num_players=2)
    _, _ = env.reset(seed=0)
    done = False
    while not done:
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated


def test_a_person_can_play_against_it():
    from training.apps.play import play_game

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


# --- flat Monte Carlo -------------------------------------------------------------------------------


def test_flatmc_scores_every_action_on_the_same_futures():
    """Each value is the mean return of the action's playouts, all actions on the same determinisations."""
    from pirate_envs.core.rng import Rng
    from pirate_envs.policies.rollout import play_out

    game = game_class("dead_mans_draw_v0")(num_players=2)
    state = decision_points(game, 2, every=3)[0]
    seat = state.current_player()
    bot = FlatMCPolicy(game, rollouts=6)
    chosen = bot.act_state(state, seat, state.legal_action_mask(), np.random.default_rng(5))
    assert bot.last_values[chosen] == max(bot.last_values.values())
    base = int(np.random.default_rng(5).integers(0, 2**62))
    for action, value in bot.last_values.items():
        total = 0.0
        for i in range(6):
            world = state.resample_hidden(seat, Rng(base + i))
            world.apply_action(action)
            total += play_out(world, Rng(base + i), bot._heuristic)[seat]
        assert value == pytest.approx(total / 6)


def test_flatmc_beats_random_players():
    """A sampled one-step best response over heuristic playouts wins Dead Man's Draw against a random player."""
    result = run_tournament("dead_mans_draw_v0", 2, ["flatmc:rollouts=2", "random"], games=4, seed=0)
    assert result["standings"]["flatmc:rollouts=2"]["wins"] >= 3


@pytest.mark.parametrize(
    ("row", "pile", "best"),
    [
        (["Key 4", "Hook 3"], ["Key 6", "Hook 2"], "STOP"),  # every card left busts the row (DMD-505c)
        (["Key 4"], ["Chest 7", "Cannon 2"], "DRAW"),  # no card left can bust: drawing only adds
    ],
)
def test_flatmc_sees_a_certain_bust_and_a_certain_gain(row, pile, best):
    """The pile's composition is public (DMD-103): the search stops before a sure bust and draws a sure gain."""
    game = game_class("dead_mans_draw_v0")(num_players=2, reward_mode="score")
    state = scenario(game, row=row, draw=pile, collections={1: "Anchor 5"}, exact_draw=True)
    bot = FlatMCPolicy(game, rollouts=4)
    chosen = bot.act_state(state, 0, state.legal_action_mask(), np.random.default_rng(0))
    other = act.DRAW if best == "STOP" else act.STOP
    assert chosen == getattr(act, best)
    assert bot.last_values[chosen] > bot.last_values[other]


def test_flatmc_keeps_the_heuristic_choice_when_no_playout_tells_the_actions_apart():
    """A lost game (DMD-702: the opponent's lead cannot be caught): every action scores -1; the bot's draw stands."""
    game = game_class("dead_mans_draw_v0")(num_players=2)
    lead = "Anchor 5, Key 7, Chest 7, Cannon 7, Sword 7, Hook 7"
    state = scenario(game, row=["Key 4"], draw=["Chest 6", "Cannon 2"], collections={1: lead}, exact_draw=True)
    bot = FlatMCPolicy(game, rollouts=3)
    chosen = bot.act_state(state, 0, state.legal_action_mask(), np.random.default_rng(0))
    assert bot.last_values == {act.STOP: -1.0, act.DRAW: -1.0}
    assert chosen == act.DRAW  # not the lowest index (STOP)
