"""The compiled twin of potsm's heuristic bot (``potsm_act``, ``pirate_envs/_native_bots_potsm.c``) against
``HeuristicPolicy.action_scores`` and ``act_python``, its Python reference.

The twin writes every legal action's score, so the comparison is of scores bit for bit, not only of the
decisions: a change in any weight, table or sum order shows up even where it changes no decision. Ties
(equal best scores) come back as the tuple of tied actions and are drawn with the bot's own rng, so
``act`` and ``act_python`` consume the same random numbers. The fingerprint tests
(tests/test_heuristic_fingerprints.py) pin the bot's decisions through the twin as well.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import pirate_envs.core.native as native_module
from pirate_envs.core.native import NATIVE
from pirate_envs.core.registry import game_class
from pirate_envs.games.potsm.actions import (
    ACCUSE_BASE,
    ACCUSE_DISCARD_BASE,
    FOG_ACTION,
    KIND_ACCUSE,
    KIND_ACCUSE_DISCARD,
    KIND_MOVE,
    KIND_PASS,
    KIND_PASS_DISCARD,
    KIND_REPAIR,
    PASS_DISCARD_BASE,
    decode_action,
)
from pirate_envs.games.potsm.cards import NUM_ADVENTURE_TYPES
from pirate_envs.games.potsm.heuristic import HeuristicPolicy
from pirate_envs.games.potsm.observation import field_slices

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")


# (player count, upcoming adventures PSM-802, move cards in hand PSM-803) of game ``index``
def potsm_options(index: int) -> dict:
    return {
        "num_players": 2 + index % 3,
        "upcoming_adventures": (index // 3) % 2 == 1,
        "move_cards_in_hand": (index // 6) % 2 == 1,
    }


def potsm_decisions(games: int, first: int = 0, follow_share: float = 0.6):
    """``(bot, observation, mask)`` at every decision with a choice in ``games`` games: every player count
    with and without each variant; seats follow the bot or pick at random."""
    cls = game_class("potsm_v0")
    for index in range(first, first + games):
        game = cls(**potsm_options(index))
        bot, pick, rng = HeuristicPolicy(game), random.Random(index), np.random.default_rng(index)
        state = game.new_initial_state(index)
        while not state.is_terminal():
            observation, mask = state.observation(state.current_player()), state.legal_action_mask()
            if mask.sum() >= 2:
                yield bot, observation, mask
            follow = pick.random() < follow_share
            state.apply_action(bot.act_python(observation, mask, rng) if follow else pick.choice(state.legal_actions()))


def compiled_scores(bot: HeuristicPolicy, observation: np.ndarray, mask: np.ndarray):
    """The twin's answer and the scores it wrote (NaN for illegal actions)."""
    scores = np.full(mask.shape[0], np.nan)
    return NATIVE.potsm_act(observation, mask, bot.native_spec, scores), scores


def assert_twin_agrees(bot: HeuristicPolicy, observation: np.ndarray, mask: np.ndarray, where: str):
    """Scores bit for bit; the answer is the Python bot's unique best action or the tuple of its tied ones."""
    choice, scores = compiled_scores(bot, observation, mask)
    reference = bot.action_scores(observation, mask)
    legal = np.flatnonzero(mask)
    assert sorted(reference) == legal.tolist()
    expected = np.array([reference[a] for a in legal])
    differ = legal[expected.view(np.uint64) != scores[legal].view(np.uint64)]
    assert differ.size == 0, f"{where}: scores differ at {differ.tolist()}: {expected} vs {scores[legal]}"
    threshold = expected.max() - 1e-9
    top = tuple(int(a) for a, s in zip(legal, expected, strict=True) if s >= threshold)
    assert choice == (top[0] if len(top) == 1 else top), f"{where}: twin {choice}, Python's best {top}"
    return choice


@needs_native
def test_potsm_compiled_bot_scores_equal_the_reference():
    """Every decision with a choice of 36 games (2-4 players, each variant): the same scores, the same
    best action or tied set; every adventure (Section 6) is met as the current one and every kind of action
    (PSM-1040..1052) is scored."""
    adventures, kinds, ties, counts = set(), set(), 0, 0
    for bot, observation, mask in potsm_decisions(36):
        choice = assert_twin_agrees(bot, observation, mask, f"{bot.num_players} players")
        current = field_slices(bot.num_players)["current_adventure"]
        adventures.update(np.flatnonzero(observation[current] == 1.0).tolist())
        for a in np.flatnonzero(mask):
            kind = decode_action(int(a), bot.num_players)[0]
            kinds.add("fog" if a == FOG_ACTION else kind)
        ties += isinstance(choice, tuple)
        counts += 1
    assert counts > 1000 and ties > 50
    assert adventures == set(range(NUM_ADVENTURE_TYPES))
    assert kinds == {KIND_MOVE, "fog", KIND_REPAIR, KIND_PASS, KIND_PASS_DISCARD, KIND_ACCUSE_DISCARD, KIND_ACCUSE}


@needs_native
def test_potsm_twin_scores_follow_every_belief_input_bit_for_bit():
    """The ownership belief (PSM-561, PSM-1079, PSM-1081) is where the floats are: move and accusation
    tallies (Sinkhorn fit of exp-weights, clamped at +-4), claimed fame (the leader estimate), not-owner facts
    and fame. Each is pushed over a range of float32 values on real decisions; the scores must stay equal."""
    decisions = [d for i, d in enumerate(potsm_decisions(6, first=2, follow_share=0.9)) if i % 7 == 0][:20]
    assert len(decisions) == 20
    edits = 0
    for bot, observation, mask in decisions:
        n = bot.num_players
        st = {name: sl.start for name, sl in field_slices(n).items()}
        for k in range(1, n):
            for j in (0, 4, 8):
                for field, at in (
                    ("move_tally", st["move_tally"] + (k * 9 + j) * 3),
                    ("move_tally", st["move_tally"] + (k * 9 + j) * 3 + 1),
                    ("move_tally", st["move_tally"] + (k * 9 + j) * 3 + 2),
                    ("accusation_tally", st["accusation_tally"] + k * 9 + j),
                    ("ship_not_owner", st["ship_not_owner"] + n * j + k),
                ):
                    for value in (0.0, 0.4, 0.51, 1.0, 1.7, 2.0, 3.0, 5.0, 7.0):
                        edited = observation.copy()
                        edited[at] = value
                        assert_twin_agrees(bot, edited, mask, f"{field}[{at}] = {value}")
                        edits += 1
            for value in (0.0, 1.0, 2.5, 7.0, 12.0):
                edited = observation.copy()
                edited[st["claimed_fame"] + k] = value
                assert_twin_agrees(bot, edited, mask, f"claimed_fame[{k}] = {value}")
        for j in range(9):
            for value in (0.0, 1.0, 3.0):
                edited = observation.copy()
                edited[st["ship_fame"] + j] = value
                assert_twin_agrees(bot, edited, mask, f"ship_fame[{j}] = {value}")
    assert edits > 2000


@needs_native
def test_potsm_bot_goes_through_the_twin_and_agrees_with_python(monkeypatch):
    """With the module the bot's decisions come from the twin (the Python scorer is not run); switched off,
    the Python code makes the same decisions with the same random draws."""
    import pirate_envs.games.potsm.heuristic as heuristic_module

    decisions = list(potsm_decisions(6, first=10))[:300]
    calls = []
    monkeypatch.setattr(heuristic_module.HeuristicPolicy, "_scores", lambda self, o, legal: calls.append(1))
    rng = np.random.default_rng(0)
    compiled = [bot.act(o, m, rng) for bot, o, m in decisions]
    assert not calls
    monkeypatch.undo()
    monkeypatch.setattr(native_module, "NATIVE", None)
    rng = np.random.default_rng(0)
    python = [bot.act(o, m, rng) for bot, o, m in decisions]
    assert python == compiled and len(set(compiled)) > 20


def test_potsm_games_play_the_same_with_and_without_the_twin(monkeypatch):
    """Four bot seats to the end, twin on then off (or off twice where it is not built): the same moves."""

    def play(index: int) -> list[int]:
        game = game_class("potsm_v0")(**potsm_options(index))
        bot, rng, state, moves = HeuristicPolicy(game), np.random.default_rng(index), game.new_initial_state(index), []
        while not state.is_terminal():
            moves.append(bot.act(state.observation(state.current_player()), state.legal_action_mask(), rng))
            state.apply_action(moves[-1])
        return moves

    with_twin = [play(index) for index in range(12)]
    monkeypatch.setattr(native_module, "NATIVE", None)
    assert [play(index) for index in range(12)] == with_twin


@needs_native
def test_potsm_twin_refuses_what_it_does_not_expect_and_the_python_code_decides():
    bot, observation, mask = next(potsm_decisions(1, first=5))
    spec = bot.native_spec
    as_float64, mask64 = observation.astype(np.float64), mask.astype(np.int64)
    for obs, msk in ((as_float64, mask), (observation[:-1], mask), (observation, mask64), (observation, mask[:-1])):
        with pytest.raises(TypeError, match=r"float32|one byte"):
            NATIVE.potsm_act(obs, msk, spec, None)
    with pytest.raises(TypeError, match="float64 vector"):
        NATIVE.potsm_act(observation, mask, spec, np.zeros(mask.shape[0], dtype=np.float32))
    with pytest.raises(ValueError, match="spec"):
        NATIVE.potsm_act(observation, mask, spec[:-1], None)
    with pytest.raises(ValueError, match="no legal action"):
        NATIVE.potsm_act(observation, np.zeros_like(mask), spec, None)
    line = field_slices(bot.num_players)["ship_position"].start
    doubled = observation.copy()
    doubled[line : line + 81] = 0.0
    doubled[line : line + 81 : 10] = 1.0  # ship j at position j, except ...
    doubled[line + 9] = 1.0  # ... ship 1 shown at position 0 as well: not a line
    with pytest.raises(ValueError, match="does not read"):
        NATIVE.potsm_act(doubled, mask, spec, None)
    rng = np.random.default_rng(0)
    assert bot.act(as_float64, mask64, rng) == bot.act_python(observation, mask, np.random.default_rng(0))
    assert bot.act(doubled, mask, np.random.default_rng(1)) == bot.act_python(doubled, mask, np.random.default_rng(1))


@needs_native
def test_potsm_accusation_discard_and_hand_variant_scores(monkeypatch):
    """PSM-803 / PSM-1051: the accusation's discard throws the card least worth keeping, and in the hand
    variant moves pay the card's keep value; both are scored by the twin as by Python."""
    seen = {"discard": 0, "pass_discard": 0, "accuse": 0}
    for bot, observation, mask in potsm_decisions(24, first=6):
        legal = np.flatnonzero(mask)
        if not bot.hand_variant:
            continue
        if legal[0] >= ACCUSE_DISCARD_BASE and legal[-1] < ACCUSE_BASE:
            seen["discard"] += 1
        seen["pass_discard"] += bool(((legal >= PASS_DISCARD_BASE) & (legal < ACCUSE_DISCARD_BASE)).any())
        seen["accuse"] += bool((legal >= ACCUSE_BASE).any())
        assert_twin_agrees(bot, observation, mask, "hand variant")
    assert min(seen.values()) >= 5, seen


@needs_native
@pytest.mark.parametrize("tolerance", [1e-6, 0.05, 1e9])
def test_potsm_twin_reads_the_tie_tolerance_the_python_bot_uses(monkeypatch, tolerance):
    """The tie threshold (best score - ``TIE_TOLERANCE``) arrives in the spec, not as a C constant: with the
    tolerance changed, the twin's tied actions are the Python bot's, from the same scores. (With the
    real 1e-9 no recorded decision has a score between 1e-9 and 2e-9 below the best, so only a changed
    tolerance shows that the twin reads it.)"""
    import pirate_envs.games.potsm.heuristic as heuristic_module

    monkeypatch.setattr(heuristic_module, "TIE_TOLERANCE", tolerance)
    sizes = set()
    for checked, (bot, observation, mask) in enumerate(potsm_decisions(4, first=900)):  # bots built after the patch
        if checked >= 60:
            break
        choice, scores = compiled_scores(bot, observation, mask)
        best = np.nanmax(scores)
        tied = tuple(int(a) for a in np.flatnonzero(mask) if scores[a] >= best - tolerance)
        if choice is not None:
            assert (choice,) == tied if isinstance(choice, int) else choice == tied
            sizes.add(len(tied))
    if tolerance == 1e9:
        assert min(sizes) >= 2  # every legal action tied
    else:
        assert 1 in sizes
