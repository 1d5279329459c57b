"""The compiled twins of the heuristic bots (``pirate_envs/_native_bots.c``) against their Python references.

Dead Man's Draw's draw-or-stop decision (``dmd_should_draw``) and the STOP and DRAW rows of its action
features (``dmd_draw_features``) are compared with ``HeuristicPolicy.should_draw`` and
``action_features_python`` at every draw decision of games in which seats follow the bot or play at
random, over each player count and variant (DMD-701's scoring rules, DMD-805 Sudden Death, DMD-809
Undertow, Uncharted Waters' busts on equal values), with peeked cards (DMD-1071) among them. The
fingerprint tests (tests/test_heuristic_fingerprints.py) pin the bot's decisions through the twin as well.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pirate_envs.core.native import NATIVE
from pirate_envs.core.registry import game_class
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.action_features import CHANNELS, SCALE, action_features, action_features_python
from pirate_envs.games.dead_mans_draw.cards import SUDDEN_DEATH, VARIANTS
from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")

MARGINS = (0.0, -4.0, 2.5)


def dmd_decisions(games: int):
    """``(game, observation, mask)`` at every decision of ``games`` games: each player count with each
    variant, the Mermaid variant in every other block of seven; seats follow the bot or pick at random."""
    for index in range(games):
        game = game_class("dead_mans_draw_v0")(
            num_players=2 + index % 3,
            variant=VARIANTS[index % len(VARIANTS)],
            mermaid_variant=(index // 7) % 2 == 1,
        )
        bot, pick, rng = HeuristicPolicy(game), random.Random(index), np.random.default_rng(index)
        state = game.new_initial_state(index)
        while not state.is_terminal():
            observation, mask = state.observation(state.current_player()), state.legal_action_mask()
            yield game, observation, mask
            follow = pick.random() < 0.6
            state.apply_action(bot.act(observation, mask, rng) if follow else pick.choice(state.legal_actions()))


def compiled_features(game, observation) -> np.ndarray | None:
    out = np.zeros((game.num_actions, CHANNELS), dtype=np.float32)
    return (
        out if NATIVE.dmd_draw_features(out, observation, HeuristicPolicy(game).native_spec, CHANNELS, SCALE) else None
    )


@needs_native
def test_dmd_compiled_draw_decision_and_features_equal_the_reference():
    seen = {"decisions": 0, "peeked top": 0, "peeked deeper": 0, "sudden death 150": 0}
    variants = set()
    bots = {}
    for game, observation, mask in dmd_decisions(84):
        key = (game.num_players, game.options["variant"], game.options["mermaid_variant"])
        if key not in bots:
            bots[key] = [HeuristicPolicy(game, margin=m) for m in MARGINS]
        reader = bots[key][0]
        reader._read(observation)
        draw_phase = reader.phase == act.DRAW_OR_STOP
        features = compiled_features(game, observation)
        assert (features is not None) == draw_phase
        if not draw_phase:
            for bot in bots[key]:
                assert NATIVE.dmd_should_draw(observation, bot.native_spec, bot.margin) is None
            continue
        reference = action_features_python(observation, mask, reader)
        differ = np.flatnonzero(features.view(np.uint32) != reference.view(np.uint32))
        assert differ.size == 0, f"{key}: feature entries {differ.tolist()} differ"
        if mask.sum() < 2:
            continue
        for bot in bots[key]:
            bot._read(observation)
            assert NATIVE.dmd_should_draw(observation, bot.native_spec, bot.margin) == bot.should_draw(), key
        seen["decisions"] += 1
        variants.add(reader.variant)
        seen["peeked top"] += reader.known[0] >= 0
        seen["peeked deeper"] += max(reader.known[1:]) >= 0
        seen["sudden death 150"] += reader.variant == SUDDEN_DEATH and reader._score_mine(reader.row) >= 150
    assert variants == set(range(len(VARIANTS)))
    assert all(count > 0 for count in seen.values()), seen
    assert seen["decisions"] > 2500


@needs_native
def test_dmd_bot_and_features_go_through_the_twin_and_agree_with_python(monkeypatch):
    """With the module the bot's draw decisions and the draw rows come from the twin (the Python reader is
    not consulted); switched off, the Python code gives the same actions and features."""
    import pirate_envs.games.dead_mans_draw.action_features as features_module
    import pirate_envs.games.dead_mans_draw.heuristic as heuristic_module

    draws = [(g, o, m) for g, o, m in dmd_decisions(12) if m.sum() >= 2 and m[act.DRAW] and m[act.STOP]][:200]
    assert len(draws) == 200
    calls = []
    monkeypatch.setattr(HeuristicPolicy, "should_draw", lambda self: calls.append(1) or True)
    rng = np.random.default_rng(0)
    compiled = [(HeuristicPolicy(g).act(o, m, rng), action_features(o, m, HeuristicPolicy(g))) for g, o, m in draws]
    assert not calls
    monkeypatch.undo()
    monkeypatch.setattr(heuristic_module, "NATIVE", None)
    monkeypatch.setattr(features_module, "NATIVE", None)
    for (game, observation, mask), (action, features) in zip(draws, compiled, strict=True):
        assert HeuristicPolicy(game).act(observation, mask, rng) == action
        np.testing.assert_array_equal(action_features(observation, mask, HeuristicPolicy(game)), features)
    assert {action for action, _ in compiled} == {act.DRAW, act.STOP}


@needs_native
def test_dmd_twin_refuses_what_it_does_not_expect_and_the_python_code_decides():
    game, observation, mask = next((g, o, m) for g, o, m in dmd_decisions(2) if m.sum() >= 2 and m[act.DRAW])
    bot = HeuristicPolicy(game)
    as_float64 = observation.astype(np.float64)
    with pytest.raises(TypeError, match="float32"):
        NATIVE.dmd_should_draw(as_float64, bot.native_spec, 0.0)
    with pytest.raises(TypeError, match="float32"):
        NATIVE.dmd_should_draw(observation[:-1], bot.native_spec, 0.0)
    with pytest.raises(ValueError, match="spec"):
        NATIVE.dmd_should_draw(observation, bot.native_spec[:-1], 0.0)
    wrong_out = np.zeros((game.num_actions, CHANNELS + 1), dtype=np.float32)
    with pytest.raises(TypeError, match="matrix"):
        NATIVE.dmd_draw_features(wrong_out, observation, bot.native_spec, CHANNELS, SCALE)
    rng = np.random.default_rng(0)
    assert bot.act(as_float64, mask, rng) == bot.act(observation, mask, rng)
    np.testing.assert_array_equal(
        action_features(as_float64, mask, bot), action_features_python(observation, mask, HeuristicPolicy(game))
    )


@needs_native
def test_dmd_twin_on_edited_observations_equals_the_reference():
    """Cases random games seldom reach, made by editing real draw-decision observations: a card peeked
    deeper in the pile but not on top (excluded from the next draw, DMD-1071) and the anchor marker left
    by a Rake in the row (DMD-811; it protects what lies left of it, DMD-514a), at every slot of the row,
    a tie with a card's position included."""
    from pirate_envs.games.dead_mans_draw.observation import ROW_SCALE, field_slices

    checked = 0
    for game, observation, mask in dmd_decisions(28):
        at = {name: sl.start for name, sl in field_slices(game.num_players).items()}
        reader = HeuristicPolicy(game, margin=-1.0)
        reader._read(observation)
        if reader.phase != act.DRAW_OR_STOP or mask.sum() < 2 or reader.known[0] >= 0 or len(reader.pile) < 3:
            continue
        edits = []
        for depth in (1, 2):
            edited = observation.copy()
            edited[at["known_top"] + 62 * depth + reader.pile[depth]] = 1.0
            edits.append(edited)
        for slot in range(len(reader.row) + 1):
            for tie in (0.0, 0.5):
                edited = observation.copy()
                edited[at["marker_position"]] = (slot + 0.5 + tie) / ROW_SCALE
                edits.append(edited)
        for edited in edits:
            reader._read(edited)
            assert NATIVE.dmd_should_draw(edited, reader.native_spec, reader.margin) == reader.should_draw()
            features = compiled_features(game, edited)
            np.testing.assert_array_equal(
                features.view(np.uint32), action_features_python(edited, mask, reader).view(np.uint32)
            )
            checked += 1
    assert checked > 500
