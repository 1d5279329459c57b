"""The compiled twins of the heuristic bots (``pirate_envs/_native_bots.c``) against their Python references.

Dead Man's Draw's bot (``dmd_act``) and its action features (``dmd_features``) are compared with
``HeuristicPolicy.act_python`` and ``action_features_python`` at every decision of games in which seats
follow the bot or play at random, over each player count and variant (DMD-701's scoring rules, DMD-805
Sudden Death, DMD-809 Undertow, Uncharted Waters' busts on equal values, the Mermaid variant's picks), with
peeked cards (DMD-1071) and eliminated seats among them, and on observations edited to reach what random
games seldom do. The fingerprint tests (tests/test_heuristic_fingerprints.py) pin the bot's decisions
through the twin as well.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pirate_envs.core.native import NATIVE
from pirate_envs.core.registry import game_class
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.action_features import CHANNELS, SCALE, action_features, action_features_python
from pirate_envs.games.dead_mans_draw.actions import PHASE_NAMES
from pirate_envs.games.dead_mans_draw.cards import SUDDEN_DEATH, VARIANTS
from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy
from pirate_envs.games.dead_mans_draw.observation import ROW_SCALE, field_slices

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")

MARGINS = (0.0, -4.0, 2.5)
PLAYED_PHASES = set(range(len(PHASE_NAMES) - 1))  # every phase but GAME_OVER has a rule


def dmd_decisions(games: int, first: int = 0):
    """``(game, observation, mask)`` at every decision of ``games`` games: each player count with each
    variant, the Mermaid variant in every other block of seven; seats follow the bot or pick at random."""
    for index in range(first, first + games):
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


def compiled_features(game, observation, mask) -> np.ndarray:
    out = np.zeros((game.num_actions, CHANNELS), dtype=np.float32)
    NATIVE.dmd_features(out, observation, mask, HeuristicPolicy(game).native_spec, SCALE)
    return out


def assert_twins_agree(bots: list[HeuristicPolicy], observation: np.ndarray, mask: np.ndarray, where: str) -> None:
    """Every bot's compiled action equals its Python one (the random pick aside), and the features bit for bit."""
    reader = bots[0]
    for bot in bots:
        compiled = NATIVE.dmd_act(observation, mask, bot.native_spec, bot.margin)
        if compiled is None:  # the phases the bot picks at random in
            bot._read(observation)
            assert bot.phase not in PLAYED_PHASES or mask.sum() == 1, where
            continue
        assert compiled == bot.act_python(observation, mask, np.random.default_rng(0)), where
    reference = action_features_python(observation, mask, reader)
    features = compiled_features(reader.game, observation, mask)
    differ = np.flatnonzero(features.view(np.uint32) != reference.view(np.uint32))
    assert differ.size == 0, f"{where}: feature entries {differ.tolist()} differ"


@needs_native
def test_dmd_compiled_bot_and_features_equal_the_reference():
    seen = {"peeked top": 0, "peeked deeper": 0, "sudden death 150": 0}
    phases, variants, bots = set(), set(), {}
    decisions = 0
    for game, observation, mask in dmd_decisions(126):
        key = (game.num_players, game.options["variant"], game.options["mermaid_variant"])
        if key not in bots:
            bots[key] = [HeuristicPolicy(game, margin=m) for m in MARGINS]
        assert_twins_agree(bots[key], observation, mask, str(key))
        reader = bots[key][0]
        reader._read(observation)
        decisions += 1
        if mask.sum() >= 2:
            phases.add(reader.phase)
        variants.add(reader.variant)
        seen["peeked top"] += reader.known[0] >= 0
        seen["peeked deeper"] += max(reader.known[1:]) >= 0
        seen["sudden death 150"] += reader.variant == SUDDEN_DEATH and reader._score_mine(reader.row) >= 150
    assert variants == set(range(len(VARIANTS)))
    assert all(count > 0 for count in seen.values()), seen
    missing = sorted(PHASE_NAMES[p] for p in PLAYED_PHASES - phases)
    assert not missing, f"phases never decided with a choice: {missing}"
    assert decisions > 7000


@needs_native
def test_dmd_twin_on_edited_observations_equals_the_reference():
    """Cases random games seldom reach, made by editing real observations: a card peeked deeper in the
    pile but not on top (left out of the next draw, DMD-1071); the anchor marker a Rake leaves in the row
    (DMD-811; it protects what lies left of it, DMD-514a) at every slot, ties with a card's position
    included; the scores edited so that seats tie for the lead (the Cannon's doubled weight) or their
    points round half to even; and each opponent eliminated in turn (DMD-809)."""
    checked = 0
    for game, observation, mask in dmd_decisions(42, first=200):
        at = {name: sl.start for name, sl in field_slices(game.num_players).items()}
        reader = HeuristicPolicy(game, margin=-1.0)
        reader._read(observation)
        if mask.sum() < 2:
            continue
        edits = []
        if reader.phase == act.DRAW_OR_STOP and reader.known[0] < 0 and len(reader.pile) >= 3:
            for depth in (1, 2):
                edited = observation.copy()
                edited[at["known_top"] + 62 * depth + reader.pile[depth]] = 1.0
                edits.append(edited)
        for slot in range(len(reader.row) + 1):
            for tie in (0.0, 0.5):
                edited = observation.copy()
                edited[at["marker_position"]] = (slot + 0.5 + tie) / ROW_SCALE
                edits.append(edited)
        for scores in ([0.2] * game.num_players, [0.125, 0.135, 0.145, 0.155][: game.num_players]):
            edited = observation.copy()
            edited[at["scores"] : at["scores"] + game.num_players] = scores
            edits.append(edited)
        for seat in range(1, game.num_players):  # DMD-809: an eliminated seat no longer leads
            edited = observation.copy()
            edited[at["eliminated"] + seat] = 1.0
            edits.append(edited)
        for edited in edits:
            assert_twins_agree([reader], edited, mask, PHASE_NAMES[reader.phase])
            checked += 1
    assert checked > 1000


@needs_native
def test_dmd_bot_and_features_go_through_the_twin_and_agree_with_python(monkeypatch):
    """With the module the bot's decisions and the features come from the twin (the Python reader is not
    consulted); switched off, the Python code gives the same actions and features."""
    import pirate_envs.games.dead_mans_draw.action_features as features_module
    import pirate_envs.games.dead_mans_draw.heuristic as heuristic_module

    decisions = [(g, o, m) for g, o, m in dmd_decisions(6) if m.sum() >= 2][:300]
    calls = []
    monkeypatch.setattr(HeuristicPolicy, "_read", lambda self, obs: calls.append(1))
    rng = np.random.default_rng(0)
    compiled = [(HeuristicPolicy(g).act(o, m, rng), action_features(o, m, HeuristicPolicy(g))) for g, o, m in decisions]
    assert not calls
    monkeypatch.undo()
    monkeypatch.setattr(heuristic_module, "NATIVE", None)
    monkeypatch.setattr(features_module, "NATIVE", None)
    for (game, observation, mask), (action, features) in zip(decisions, compiled, strict=True):
        assert HeuristicPolicy(game).act(observation, mask, rng) == action
        np.testing.assert_array_equal(action_features(observation, mask, HeuristicPolicy(game)), features)
    assert len({action for action, _ in compiled}) > 10


@needs_native
def test_dmd_twin_refuses_what_it_does_not_expect_and_the_python_code_decides():
    game, observation, mask = next((g, o, m) for g, o, m in dmd_decisions(2) if m.sum() >= 2 and m[act.DRAW])
    bot = HeuristicPolicy(game)
    as_float64, mask64 = observation.astype(np.float64), mask.astype(np.int64)
    for obs, msk in ((as_float64, mask), (observation[:-1], mask), (observation, mask64), (observation, mask[:-1])):
        with pytest.raises(TypeError, match=r"float32|one byte"):
            NATIVE.dmd_act(obs, msk, bot.native_spec, 0.0)
    with pytest.raises(ValueError, match="spec"):
        NATIVE.dmd_act(observation, mask, bot.native_spec[:-1], 0.0)
    with pytest.raises(ValueError, match="no legal action"):
        NATIVE.dmd_act(observation, np.zeros_like(mask), bot.native_spec, 0.0)
    wrong_out = np.zeros((game.num_actions, CHANNELS + 1), dtype=np.float32)
    with pytest.raises(TypeError, match="matrix"):
        NATIVE.dmd_features(wrong_out, observation, mask, bot.native_spec, SCALE)
    rng = np.random.default_rng(0)
    assert bot.act(as_float64, mask64, rng) == bot.act(observation, mask, rng)
    np.testing.assert_array_equal(
        action_features(as_float64, mask64, bot), action_features_python(observation, mask, HeuristicPolicy(game))
    )
