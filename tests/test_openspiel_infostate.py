"""The perfect-recall information state (``pirate_envs.core.infostate``) and the adapters' ``infostate=True``
option (issue 29): layout, what each seat's history holds, the no-leak rule for hidden actions, and the
PettingZoo and Gymnasium envs that offer it. Runs without OpenSpiel."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import pirate_envs
from pirate_envs.adapters.gym_env import make_gym
from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.infostate import InfostateTracker, default_history
from pirate_envs.core.registry import ENV_IDS, game_class


def _played(env_id: str, seed: int, steps: int, **options):
    """(tracker, state) after ``steps`` random decisions, recorded."""
    game = game_class(env_id)(**options)
    state = game.new_initial_state(seed)
    tracker = InfostateTracker(game, strings=True)
    tracker.reset(state)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        record = tracker.before(state, action)
        state = state.clone()  # the tracker keeps each state it saw (strings=True)
        state.apply_action(action)
        tracker.after(record, state)
    return tracker, state


@pytest.mark.parametrize(
    ("env_id", "rule"),
    [
        ("dead_mans_draw_v0", "DMD-304"),  # the ability card kept is secret until the reveal
        ("madame_ching_v0", "MCH-904"),  # the navigation card picked in Select is face down
        ("tortuga_v0", "TOR-507"),  # vote cards are chosen face down
    ],
)
def test_hidden_actions_do_not_reach_other_seats(env_id: str, rule: str) -> None:
    """Two actions another seat cannot tell apart (the game's view gives it the same text) leave that seat's
    information state identical: its history records only that the actor acted."""
    game = game_class(env_id)()
    view = game.view_builder()
    compared = 0
    for seed in range(3):
        tracker, state = _played(env_id, seed, 0)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and tracker.records.__len__() < 120:
            actor, legal = state.current_player(), state.legal_actions()
            for p in range(game.num_players):
                texts: dict[str, list[int]] = {}
                for a in legal:
                    texts.setdefault(view.describe_action(state, actor, a, p), []).append(a)
                same = next((acts for acts in texts.values() if len(acts) > 1), None)
                if p == actor or same is None:
                    continue
                seen = []
                for a in same[:2]:
                    child_tracker, child = tracker.clone(), state.clone()
                    record = child_tracker.before(child, a)
                    child.apply_action(a)
                    child_tracker.after(record, child)
                    assert record[2][p] is False, rule
                    seen.append(child_tracker.tensor(child, p)[game.observation_size :])
                np.testing.assert_array_equal(seen[0], seen[1])
                compared += 1
            action = int(legal[rng.integers(len(legal))])
            record = tracker.before(state, action)
            state = state.clone()
            state.apply_action(action)
            tracker.after(record, state)
    assert compared > 0, f"{env_id}: no hidden action met ({rule})"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tensor_layout_and_visible_actions(env_id: str) -> None:
    """[observation | one record per decision]: the actor one-hot, then the action one-hot when the seat may
    read it (always its own, and every action all seats read alike) or the hidden bit."""
    tracker, state = _played(env_id, 1, 30)
    game = state.game
    n, size = game.num_players, tracker.record_size
    assert tracker.history == default_history(game) == min(game.max_decisions, 128)
    assert tracker.size == game.observation_size + tracker.history * size
    for p in range(n):
        tensor = tracker.tensor(state, p)
        np.testing.assert_array_equal(tensor[: game.observation_size], state.observation(p))
        block = tensor[game.observation_size :].reshape(tracker.history, size)
        for k, (actor, action, visible, _) in enumerate(tracker.records):
            expected = np.zeros(size, dtype=np.float32)
            expected[actor] = 1.0
            expected[n + action if visible[p] else n + game.num_actions] = 1.0
            np.testing.assert_array_equal(block[k], expected)
            assert visible[actor]
        assert not block[len(tracker.records) :].any()


def test_a_short_window_keeps_the_latest_decisions() -> None:
    tracker, state = _played("potsm_v0", 2, 40)
    short = InfostateTracker(state.game, history=5)
    short.records = tracker.records
    block = short.tensor(state, 0)[state.game.observation_size :].reshape(5, short.record_size)
    full = tracker.tensor(state, 0)[state.game.observation_size :].reshape(tracker.history, tracker.record_size)
    np.testing.assert_array_equal(block, full[len(tracker.records) - 5 : len(tracker.records)])
    with pytest.raises(ValueError, match="history must be an int >= 0"):
        InfostateTracker(state.game, history=-1)


def test_strings_are_perfect_recall_and_need_the_option() -> None:
    tracker, state = _played("tortuga_v0", 3, 25)
    text = tracker.string(0)
    assert text.startswith("seat 0\nstart ") and text.count("\n") == 1 + len(tracker.records)
    longer = tracker.clone()
    record = longer.before(state, state.legal_actions()[0])
    after = state.clone()
    after.apply_action(state.legal_actions()[0])
    longer.after(record, after)
    assert longer.string(0).startswith(text + "\n")
    with pytest.raises(ValueError, match="strings=True"):
        InfostateTracker(state.game).string(0)


# --- the adapters' option ----------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_aec_env_offers_the_information_state(env_id: str) -> None:
    env = pirate_envs.make(env_id, infostate=True, illegal_action="raise")
    api_test(env, num_cycles=15)
    env.reset(seed=4)
    raw = env.unwrapped
    space = env.observation_space(env.agents[0])["observation"]
    assert space.shape == (raw._infostate.size,)
    plain = pirate_envs.make(env_id, illegal_action="raise")
    plain.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        ref, *_ = plain.last()
        seat = raw.state.current_player()
        assert space.contains(obs["observation"])
        np.testing.assert_array_equal(obs["observation"][: raw.game.observation_size], ref["observation"])
        np.testing.assert_array_equal(obs["observation"], raw._infostate.tensor(raw.state, seat))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        plain.step(action)
    clone = copy.deepcopy(env)
    np.testing.assert_array_equal(clone.observe("player_0")["observation"], env.observe("player_0")["observation"])
    again = pickle.loads(pickle.dumps(env))
    np.testing.assert_array_equal(again.observe("player_1")["observation"], env.observe("player_1")["observation"])


@pytest.mark.filterwarnings("ignore::pirate_envs.adapters.checks.IllegalActionWarning")  # check_env's unmasked steps
def test_gym_env_offers_the_information_state() -> None:
    env = make_gym("dead_mans_draw_v0", infostate=True)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.shape == (env.unwrapped._infostate.size,)
    np.testing.assert_array_equal(obs[: env.unwrapped.game.observation_size], env.unwrapped.state.observation(0))
    records = len(env.unwrapped._infostate.records)
    obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert len(env.unwrapped._infostate.records) > records  # the learner's action and the opponent's replies
    assert env.observation_space.contains(obs)


def test_infostate_option_errors() -> None:
    with pytest.raises(InvalidOptionError, match="infostate must be True or False"):
        pirate_envs.make("potsm_v0", infostate="yes")
    with pytest.raises(InvalidOptionError, match="infostate must be True or False"):
        make_gym("potsm_v0", infostate=1)
    with pytest.raises(InvalidOptionError, match="cannot be combined"):
        make_gym("potsm_v0", infostate=True, action_features=True)
