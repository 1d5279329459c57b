"""Hostile inputs to potsm's compiled twins (``pirate_envs._native``: the heuristic bot ``potsm_act``, the
action features ``potsm_features`` / ``potsm_legal_features`` and the encoder ``potsm_encode``).

Whatever reaches a public entry point (``HeuristicPolicy.act``, ``Game.action_features``,
``Game.legal_action_features``, ``State.observation``) must give what the Python reference gives, value or
exception type, never a crash: observations whose ship_position field is no permutation (two ships on one
place), NaN, infinite and huge values, negative counts; states whose fields run user code when read (a
``revealed`` flag whose ``__bool__`` empties ``pirate_owner``). Run under ASan/UBSan these are the audit's
reproductions; a plain build shows a crash as a dead test process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from pirate_envs.core.native import NATIVE
from pirate_envs.games.potsm.action_features import _RULES_SPEC, _twin_layout, action_features_python
from pirate_envs.games.potsm.actions import ACCUSE_BASE, ACCUSE_DISCARD_BASE
from pirate_envs.games.potsm.game import PotsmGame, PotsmState
from pirate_envs.games.potsm.heuristic import HeuristicPolicy
from pirate_envs.games.potsm.observation import field_slices

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")

VARIANTS = ({}, {"upcoming_adventures": True}, {"move_cards_in_hand": True})
HOSTILE_VALUES = (np.nan, np.inf, -np.inf, 1e30, -1e30, 3e38, -3.0, 300.0, 0.5, 1.0)


def decisions(games: int, first: int = 0) -> Iterator[tuple[PotsmGame, PotsmState, np.ndarray, np.ndarray]]:
    """``(game, state, observation, mask)`` at the decisions with a choice of ``games`` random games (each
    player count, each variant)."""
    for index in range(first, first + games):
        game = PotsmGame(2 + index % 3, **VARIANTS[index // 3 % len(VARIANTS)])
        rng = np.random.default_rng(index)
        state = game.new_initial_state(index)
        while not state.is_terminal():
            mask = state.legal_action_mask()
            if mask.sum() >= 2:
                yield game, state, state.observation(state.current_player()), mask
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


def outcome(run: Callable[[], object]) -> tuple[str, object]:
    """What ``run()`` gives: ``("value", result)`` or ``("raises", exception type)``."""
    try:
        return "value", run()
    except Exception as error:  # the reference's exception type is the expected answer
        return "raises", type(error)


def assert_same_outcome(got: tuple[str, object], expected: tuple[str, object], where: str) -> None:
    assert got[0] == expected[0], f"{where}: {got} where the Python reference gives {expected}"
    if got[0] == "raises" or not isinstance(got[1], np.ndarray):
        assert got[1] == expected[1], f"{where}: {got[1]!r} != {expected[1]!r}"
    else:
        a, b = np.asarray(got[1]), np.asarray(expected[1])
        assert a.shape == b.shape and a.dtype == b.dtype, where
        assert np.array_equal(a.view(np.uint32), b.view(np.uint32)), f"{where}: the values differ"


def assert_bot_agrees(bot: HeuristicPolicy, observation: np.ndarray, mask: np.ndarray, where: str) -> None:
    """``act`` (the twin, or the fallback) against ``act_python`` with equal rngs: the action or the exception."""
    got = outcome(lambda: bot.act(observation, mask, np.random.default_rng(7)))
    assert_same_outcome(got, outcome(lambda: bot.act_python(observation, mask, np.random.default_rng(7))), where)


def line_by_argmax_is_a_permutation(observation: np.ndarray, n: int) -> bool:
    start = field_slices(n)["ship_position"].start
    rows = observation[start : start + 81].reshape(9, 9)
    return sorted(rows.argmax(axis=1).tolist()) == list(range(9))


def assert_features_agree(game: PotsmGame, observation: np.ndarray, mask: np.ndarray, where: str) -> None:
    """``action_features`` and the batch ``legal_action_features`` against ``action_features_python``.

    Where the line read by argmax is no permutation, the Python code's answer is not defined (its ``_blocks``
    then reads an uninitialised ``numpy.empty`` entry: garbage or an IndexError, from call to call), so
    there the twin must refuse the observation and the public calls must only come back, value or exception.
    """
    n = game.num_players
    legal = np.flatnonzero(mask)
    reads_the_line = legal.size > 0 and not (legal[0] >= ACCUSE_DISCARD_BASE and legal[-1] < ACCUSE_BASE)
    if reads_the_line and not line_by_argmax_is_a_permutation(observation, n):
        if NATIVE is not None:
            out = np.zeros((mask.shape[0], game.action_feature_size), dtype=np.float32)
            with pytest.raises(ValueError, match="potsm_features"):
                NATIVE.potsm_features(out, observation, mask, _RULES_SPEC, n, _twin_layout(n))
        outcome(lambda: game.action_features(observation, mask))
        outcome(lambda: game.legal_action_features(observation[None, :], mask[None, :].astype(bool)))
        return
    expected = outcome(lambda: action_features_python(observation, mask, n))
    assert_same_outcome(outcome(lambda: game.action_features(observation, mask)), expected, where)
    expected_rows = expected if expected[0] == "raises" else ("value", expected[1][mask.astype(bool)])
    got_rows = outcome(lambda: game.legal_action_features(observation[None, :], mask[None, :].astype(bool)))
    assert_same_outcome(got_rows, expected_rows, f"{where} (batch)")


def first_decision(n: int = 3, **options: bool) -> tuple[PotsmGame, PotsmState, np.ndarray, np.ndarray]:
    """The first decision with a move card among its choices (the line matters) in a game of ``n`` players."""
    for game, state, observation, mask in decisions(40):
        wanted = all(getattr(game, key) == value for key, value in options.items())
        if game.num_players == n and wanted and mask[:9].any():
            return game, state, observation, mask
    raise AssertionError("no decision with a move card in 40 games")


def two_ships_on_one_place(observation: np.ndarray, n: int) -> np.ndarray:
    """Ship 1's one-hot moved to ship 0's place (the line is no permutation: a place is left empty)."""
    hostile = observation.copy()
    start = field_slices(n)["ship_position"].start
    place_of_ship0 = int(np.argmax(hostile[start : start + 9]))
    hostile[start + 9 : start + 18] = 0.0
    hostile[start + 9 + place_of_ship0] = 1.0
    return hostile


# --- finding 1: the ship positions must form a permutation ------------------------------------------------


def test_bot_on_two_ships_in_one_place_gives_the_python_answer():
    game, _, observation, mask = first_decision()
    hostile = two_ships_on_one_place(observation, game.num_players)
    assert_bot_agrees(HeuristicPolicy(game), hostile, mask, "two ships on one place")


@needs_native
def test_bot_twin_refuses_a_line_that_is_no_permutation():
    game, _, observation, mask = first_decision()
    bot = HeuristicPolicy(game)
    NATIVE.potsm_act(observation, mask, bot.native_spec, None)  # the untouched observation is read
    with pytest.raises(ValueError, match="potsm bot twin"):
        NATIVE.potsm_act(two_ships_on_one_place(observation, game.num_players), mask, bot.native_spec, None)


@needs_native
def test_bot_twin_refuses_a_spec_whose_fields_reach_outside_the_observation():
    game, _, observation, mask = first_decision()
    spec = list(HeuristicPolicy(game).native_spec)
    spec[7] = observation.size - 9  # the ship_position field (81 entries) would run past the end
    with pytest.raises(ValueError, match="outside the observation"):
        NATIVE.potsm_act(observation, mask, tuple(spec), None)


def test_features_on_two_ships_in_one_place_give_the_python_answer():
    game, _, observation, mask = first_decision()
    assert_features_agree(game, two_ships_on_one_place(observation, game.num_players), mask, "two ships on one place")


def test_bot_on_an_observation_of_an_edited_state_gives_the_python_answer():
    """``not_owner`` one byte too long: the encoder twin refuses the state, the Python encoder's vector is
    shifted, and the bot reads a line that is no permutation."""
    game, state, _, mask = first_decision()
    edited = state.clone()
    edited.not_owner = bytes(edited.not_owner) + b"\x00"
    seat = edited.current_player()
    got = outcome(lambda: edited.observation(seat))
    assert_same_outcome(got, outcome(lambda: game.encoder.encode_python(edited, seat)), "not_owner one byte long")
    if got[0] == "value":
        assert_bot_agrees(HeuristicPolicy(game), got[1], mask, "the edited state's observation")
        assert_features_agree(game, got[1], mask, "the edited state's observation")


# --- finding 2: the encoder runs no user code once it has read a length -------------------------------------


class ClearsOnTruth(int):
    """An int flag whose ``__bool__`` empties a list of the state (and answers True)."""

    def __new__(cls, value: int, victim: list) -> ClearsOnTruth:
        flag = super().__new__(cls, value)
        flag.victim = victim
        return flag

    def __bool__(self) -> bool:
        self.victim.clear()
        return True


class ClearsOnLength(list):
    """A deck whose ``__len__`` empties a list of the state."""

    def __init__(self, cards: list, victim: list) -> None:
        super().__init__(cards)
        self.victim = victim

    def __len__(self) -> int:
        self.victim.clear()
        return super().__len__()


def hostile_states(state: PotsmState) -> dict[str, Callable[[], PotsmState]]:
    """Builders of fresh edited copies of ``state``, one per way a field can run user code when read."""

    def revealed_clears_owners() -> PotsmState:
        edited = state.clone()
        edited.pirate_owner = [seat % 2 for seat in range(9)]
        edited.revealed = [ClearsOnTruth(1, edited.pirate_owner) for _ in range(9)]
        return edited

    def game_over_clears_pending() -> PotsmState:
        edited = state.clone()
        edited.pending_accusation = [1, 4]
        edited.game_over = ClearsOnTruth(0, edited.pending_accusation)
        return edited

    def deck_clears_the_line() -> PotsmState:
        edited = state.clone()
        edited.adventure_deck = ClearsOnLength(edited.adventure_deck, edited.line)
        return edited

    def turns_clear_the_row() -> PotsmState:
        edited = state.clone()
        edited.recent_turns = [ClearsOnLength(record, edited.adventure_row) for record in edited.recent_turns]
        return edited

    return {
        "revealed clears pirate_owner": revealed_clears_owners,
        "game_over clears pending_accusation": game_over_clears_pending,
        "adventure_deck clears the line": deck_clears_the_line,
        "recent turns clear the adventure row": turns_clear_the_row,
    }


@pytest.mark.parametrize("case", sorted(hostile_states(PotsmGame(2).new_initial_state(0))))
def test_observation_of_a_state_that_runs_user_code_gives_the_python_answer(case: str):
    game, state = next((game, state) for game, state, _, _ in decisions(3) if state.turn_index >= 3)
    build = hostile_states(state)[case]
    seat = state.current_player()
    expected = outcome(lambda: game.encoder.encode_python(build(), seat))
    assert_same_outcome(outcome(lambda: build().observation(seat)), expected, case)


@needs_native
def test_encoder_twin_refuses_a_flag_that_runs_user_code_before_running_it():
    game = PotsmGame(3)
    state = game.new_initial_state(5)
    state.revealed = [ClearsOnTruth(1, state.pirate_owner) for _ in range(9)]
    owners = list(state.pirate_owner)
    out = np.zeros(game.encoder.size, dtype=np.float32)
    with pytest.raises(TypeError, match="revealed flag"):
        NATIVE.potsm_encode(out, state, 0, game.encoder.native_spec)
    assert state.pirate_owner == owners  # the flag's __bool__ never ran


# --- finding 3: NaN, infinities and huge values are never cast to int ---------------------------------------


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 1e30, -1e30, 3e9])
@pytest.mark.parametrize("field", ["adventure_deck_size", "ship_fame", "move_tally", "claimed_fame"])
def test_bot_and_features_on_non_finite_or_huge_values_give_the_python_answer(field: str, value: float):
    game, _, observation, mask = first_decision(upcoming_adventures=False)
    fields = field_slices(game.num_players)
    if field not in fields:
        pytest.skip(f"no field {field} in this layout")
    hostile = observation.copy()
    hostile[fields[field].start] = value
    assert_bot_agrees(HeuristicPolicy(game), hostile, mask, f"{field} = {value}")
    assert_features_agree(game, hostile, mask, f"{field} = {value}")


@needs_native
@pytest.mark.parametrize("value", [np.nan, np.inf, 1e30])
def test_bot_twin_refuses_a_deck_size_it_cannot_read_as_an_int(value: float):
    game, _, observation, mask = first_decision(upcoming_adventures=False)
    hostile = observation.copy()
    hostile[field_slices(game.num_players)["adventure_deck_size"].start] = value
    with pytest.raises(ValueError, match="potsm bot twin"):
        NATIVE.potsm_act(hostile, mask, HeuristicPolicy(game).native_spec, None)


# --- a seeded fuzz over all three ------------------------------------------------------------------------


def mutate(observation: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """One to three random edits: ships' one-hots swapped or duplicated, an entry set to a hostile value."""
    hostile = observation.copy()
    start = field_slices(n)["ship_position"].start
    for _ in range(int(rng.integers(1, 4))):
        kind = int(rng.integers(4))
        if kind == 0:  # two ships' rows swapped: still a permutation
            a, b = rng.choice(9, size=2, replace=False)
            rows = hostile[start : start + 81].reshape(9, 9)
            rows[[a, b]] = rows[[b, a]]
        elif kind == 1:  # one ship put on another's place
            a, b = rng.choice(9, size=2, replace=False)
            rows = hostile[start : start + 81].reshape(9, 9)
            rows[a] = rows[b]
        else:  # any entry the bot, the features or neither read
            hostile[int(rng.integers(hostile.size))] = HOSTILE_VALUES[int(rng.integers(len(HOSTILE_VALUES)))]
    return hostile


def test_seeded_fuzz_of_mutated_observations_gives_the_python_answers():
    rng = np.random.default_rng(20261206)
    bot, bot_game, checked = None, None, 0
    for game, _, observation, mask in decisions(9):
        if rng.random() > 0.35:
            continue
        if game is not bot_game:
            bot, bot_game = HeuristicPolicy(game), game
        for _ in range(4):
            hostile = mutate(observation, game.num_players, rng)
            assert_bot_agrees(bot, hostile, mask, f"mutated observation {checked}")
            assert_features_agree(game, hostile, mask, f"mutated observation {checked}")
            checked += 1
    assert checked >= 300
