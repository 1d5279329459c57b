"""Pictures of the table (``render_mode="rgb_array"``) for every game and player count.

Checked: the image is an ``(H, W, 3)`` uint8 array of one fixed size through a whole game; the
spectator's picture is pixel-identical on a state and on any seat's ``resample_hidden`` (nothing
hidden is drawn) while a seat's own picture shows its secrets; ``render_seat`` is validated;
``gymnasium.wrappers.RecordVideo`` writes a video and PettingZoo's ``render_test`` passes;
``human`` prints text and never needs a display.
"""

from __future__ import annotations

import random
import re

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import render_test

import pirate_envs
from pirate_envs.adapters.gym_env import gym_id
from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.registry import env_module, game_class
from pirate_envs.drawing.picture import DEFAULT_SIZE, draw_table

SHAPE = (DEFAULT_SIZE[1], DEFAULT_SIZE[0], 3)
GAME_COUNTS = [(env_id, n) for env_id in pirate_envs.ENV_IDS for n in game_class(env_id).player_counts]
FRAMES_PER_GAME = 6


def mid_game_state(env_id: str, n: int, seed: int = 5, fraction: float = 0.4):
    """A state part-way through a random game (it has hidden cards and a history)."""
    game = game_class(env_id)(num_players=n)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    actions = []
    probe = state.clone()
    while not probe.is_terminal():
        action = rng.choice(probe.legal_actions())
        actions.append(action)
        probe.apply_action(action)
    for action in actions[: int(len(actions) * fraction)]:
        state.apply_action(action)
    return state


@pytest.mark.parametrize(("env_id", "n"), GAME_COUNTS, ids=[f"{e}-{n}p" for e, n in GAME_COUNTS])
def test_rgb_array_frames_through_a_game(env_id, n):
    """Every frame of a whole AEC game is a uint8 RGB image of the same fixed size."""
    env = env_module(env_id).env(render_mode="rgb_array", num_players=n)
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    env.reset(seed=n)
    rng = np.random.default_rng(n)
    steps = []
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
        steps.append(len(steps))
        if len(steps) % 40 == 1:
            frame = env.render()
            assert frame.shape == SHAPE and frame.dtype == np.uint8
    frame = env.render()
    assert frame.shape == SHAPE and frame.dtype == np.uint8
    assert frame.std() > 10  # something is drawn


@pytest.mark.parametrize(("env_id", "n"), GAME_COUNTS, ids=[f"{e}-{n}p" for e, n in GAME_COUNTS])
def test_spectator_picture_draws_no_hidden_card(env_id, n):
    """The spectator's picture is the same pixel for pixel whatever the hidden cards are (every seat's
    secrets redrawn by ``resample_hidden``); the view marks at least one card face down."""
    state = mid_game_state(env_id, n)
    view = state.table_view(None)
    hidden = [card for zone in view.zones for card in zone.cards if card.hidden]
    assert hidden and all(not c.label and not c.detail for c in hidden)
    picture = draw_table(view)
    for seat in range(n):
        other = state.resample_hidden(seat, np.random.default_rng(seat))
        np.testing.assert_array_equal(picture, draw_table(other.table_view(None)))


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_render_seat_shows_that_seats_cards(env_id):
    """A seat's picture shows more than the spectator's: its own secret cards are face up."""
    state = mid_game_state(env_id, game_class(env_id).player_counts[0])
    spectator, seat0 = state.table_view(None), state.table_view(0)
    face_up = lambda view: sum(not card.hidden for zone in view.zones for card in zone.cards)  # noqa: E731
    assert face_up(seat0) > face_up(spectator)
    assert not np.array_equal(draw_table(spectator), draw_table(seat0))


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_render_seat_is_validated(env_id):
    module = env_module(env_id)
    n = game_class(env_id).default_num_players
    for bad in (n, -1, "0", True, 1.0):
        with pytest.raises(InvalidOptionError, match="render_seat must be None"):
            module.env(render_mode="rgb_array", render_seat=bad)
        with pytest.raises(InvalidOptionError, match="render_seat must be None"):
            pirate_envs.make_gym(env_id, render_mode="rgb_array", render_seat=bad)
    with pytest.raises(InvalidOptionError, match="rgb_array"):
        module.env(render_mode="video")


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_pettingzoo_render_test(env_id):
    render_test(lambda render_mode=None: env_module(env_id).env(render_mode=render_mode))


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_human_mode_prints_text_headless(env_id, capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    env = pirate_envs.make_gym(env_id, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out.strip()


def test_last_action_is_told_without_secrets():
    """The picture's last action names a public play in words, and only hides what is secret:
    a Tortuga vote card is told as "face down" to the spectator, in full to the voter."""
    env = env_module("tortuga_v0").raw_env(render_mode="rgb_array", num_players=3)
    env.reset(seed=2)
    rng = random.Random(0)
    painter = env._painter
    builder = env.game.view_builder()
    seen_vote = False
    while not env.state.is_terminal() and not seen_vote:
        state = env.state
        action = rng.choice(state.legal_actions())
        if state.phase_name() == "VOTE":
            seat = state.current_player()
            assert "face down" in builder.describe_action(state, seat, action, None)
            assert re.search(r"voted (Yes|No|Wild)", builder.describe_action(state, seat, action, seat))
            seen_vote = True
        env.step(action)
        assert painter.last_action.startswith("player_")
    assert seen_vote


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_record_video_writes_a_video(env_id, tmp_path):
    """``gymnasium.wrappers.RecordVideo`` records a whole episode of the Gymnasium env unmodified."""
    pytest.importorskip("moviepy")
    pirate_envs.register_gym_envs()
    env = gymnasium.make(gym_id(env_id), render_mode="rgb_array", disable_env_checker=True)
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: episode == 0)
    env.reset(seed=0)
    done = False
    steps = 0
    while not done and steps < 25:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample(env.unwrapped.action_masks().astype(np.int8)))
        done = terminated or truncated
        steps += 1
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000


def test_card_colours_follow_the_kind_not_the_game():
    """The renderer knows no game: a kind naming a colour is drawn in it (like the arena's SVG), any other
    kind always gets the same palette colour."""
    from pirate_envs.drawing.picture import BLANK_CARD, NAMED_COLOURS, PALETTE, kind_colour

    assert kind_colour("junk Blue") == kind_colour("Blue") == NAMED_COLOURS["blue"]
    assert kind_colour("England") == kind_colour("england") and kind_colour("England") in PALETTE
    assert kind_colour("") == BLANK_CARD


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_only_pictures_put_words_to_each_action(env_id, monkeypatch):
    """Drawing stays out of the step: envs without pictures never ask the painter for an action's words; the
    ``rgb_array`` envs ask once per action played (the learner's and the opponents'), from the state before
    it, and show the last one."""
    from pirate_envs.drawing.render_modes import TablePainter

    asked = []
    original = TablePainter.caption

    def caption(self, state, action):
        asked.append((self.render_mode, state.clone(), int(action)))
        return original(self, state, action)

    monkeypatch.setattr(TablePainter, "caption", caption)
    for mode in (None, "ansi"):
        gym_env = pirate_envs.make_gym(env_id, render_mode=mode, opponents="random")
        gym_env.reset(seed=1)
        gym_env.step(int(np.flatnonzero(gym_env.action_masks())[0]))
        aec = env_module(env_id).env(render_mode=mode)
        aec.reset(seed=1)
        aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[0]))
    assert asked == []

    aec = env_module(env_id).raw_env(render_mode="rgb_array")
    aec.reset(seed=2)
    for _ in range(4):
        action = int(np.flatnonzero(aec.last()[0]["action_mask"])[-1])
        aec.step(action)
        _, before, told = asked[-1]
        assert told == action
        expected = aec.game.view_builder().describe_action(before, before.current_player(), action, None)
        assert aec._painter.last_action == expected and expected
    gym_env = pirate_envs.make_gym(env_id, render_mode="rgb_array", opponents="random")
    gym_env.reset(seed=2)
    asked.clear()
    gym_env.step(int(np.flatnonzero(gym_env.action_masks())[0]))
    assert asked and all(mode == "rgb_array" for mode, _, _ in asked)
    _, before, action = asked[-1]
    assert gym_env._painter.last_action == gym_env.game.view_builder().describe_action(
        before, before.current_player(), action, None
    )
