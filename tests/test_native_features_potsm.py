"""The compiled twin of potsm's per-action features (``potsm_features``, ``pirate_envs/_native_features_potsm.c``)
against its Python reference, ``action_features_python``.

The twin's features must equal the reference's bit for bit at every decision of random games (each player
count, the upcoming-adventures and hand variants), with every adventure type current, Fog (PSM-637), Repair
(PSM-513) on a damaged line, accusations (PSM-515) and the accusation's discard (PSM-1051) among them, and on
observations edited to reach what random games seldom do (fame on many ships, odd damage values, a
ship_position field that is not exactly one-hot). ``action_features`` goes through the twin when the module
is built, and falls back to the Python code where the twin refuses its input or the module is off.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import pirate_envs.games.potsm.action_features as features_module
from pirate_envs.core.native import NATIVE
from pirate_envs.games.potsm.action_features import (
    _RULES_SPEC,
    BASE_CHANNELS,
    _twin_layout,
    action_features,
    action_features_python,
    feature_size,
)
from pirate_envs.games.potsm.actions import ACCUSE_BASE, ACCUSE_DISCARD_BASE, FOG_ACTION, REPAIR_ACTION
from pirate_envs.games.potsm.cards import MUTINY, NUM_ADVENTURE_TYPES, NUM_SHIPS
from pirate_envs.games.potsm.game import PotsmGame
from pirate_envs.games.potsm.observation import field_slices

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")

VARIANTS = (
    {},
    {"upcoming_adventures": True},
    {"move_cards_in_hand": True},
    {"upcoming_adventures": True, "move_cards_in_hand": True},
)


def decisions(games: int, first: int = 0):
    """``(game, state, observation, mask)`` at every decision of ``games`` random games: each player count
    (2, 3, 4) with each variant in turn."""
    for index in range(first, first + games):
        game = PotsmGame(2 + index % 3, **VARIANTS[index // 3 % len(VARIANTS)])
        rng = np.random.default_rng(index)
        state = game.new_initial_state(index)
        while not state.is_terminal():
            yield game, state, state.observation(state.current_player()), state.legal_action_mask()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


def compiled(observation: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((mask.shape[0], feature_size(n)), dtype=np.float32)
    NATIVE.potsm_features(out, observation, mask, _RULES_SPEC, n, _twin_layout(n))
    return out


def assert_bitwise_equal(features: np.ndarray, reference: np.ndarray, where: str) -> None:
    assert features.shape == reference.shape and features.dtype == reference.dtype == np.float32, where
    differ = np.argwhere(features.view(np.uint32) != reference.view(np.uint32))
    assert differ.size == 0, f"{where}: (action, feature) entries {differ[:8].tolist()} differ"


def assert_twin_agrees(observation: np.ndarray, mask: np.ndarray, n: int, where: str) -> None:
    assert_bitwise_equal(compiled(observation, mask, n), action_features_python(observation, mask, n), where)


@needs_native
def test_compiled_features_equal_the_reference_at_every_decision():
    """Every decision of 24 random games, read by the acting seat and, with the same mask, by the next seat
    (whose observation differs: its own pirates, the revealed owners' offsets)."""
    seen: Counter = Counter()
    adventures = set()
    for game, state, observation, mask in decisions(24):
        n = game.num_players
        where = f"n={n} {game.options} adventure row {state.adventure_row} legal {np.flatnonzero(mask).tolist()}"
        assert_twin_agrees(observation, mask, n, where)
        assert_twin_agrees(state.observation((state.current_player() + 1) % n), mask, n, where + " (next seat)")
        if state.adventure_row:
            adventures.add(state.adventure_row[0])
            if state.adventure_row[0] == MUTINY and max(state.fame) > 0:
                seen["mutiny on fame"] += 1
        seen["fog"] += bool(mask[FOG_ACTION])  # PSM-637: channel 7
        seen["repair with damage"] += bool(mask[REPAIR_ACTION] and any(state.damaged))  # PSM-513
        seen["accusations"] += bool(mask[ACCUSE_BASE:].any())  # PSM-515: channels 8..
        seen["accusation discard"] += bool(mask[ACCUSE_DISCARD_BASE:ACCUSE_BASE].any())  # PSM-1051: zero rows
        seen[f"n={n}"] += 1
        seen["decisions"] += 1
    assert adventures == set(range(NUM_ADVENTURE_TYPES))
    assert seen["decisions"] > 900, seen
    for what in ("fog", "repair with damage", "accusations", "accusation discard", "mutiny on fame"):
        assert seen[what] >= 10, (what, seen)
    assert all(seen[f"n={n}"] > 200 for n in (2, 3, 4)), seen


@needs_native
def test_compiled_features_equal_the_reference_on_edited_observations():
    """Real observations with fame spread over the ships (Loot, Ghost Ship, Cursed Ship and Mutiny then take
    some: PSM-620, 624, 625, 627), damage flags and revealed owners drawn at random, values near the 0.5
    thresholds, and fame that is not a whole number (ceil(fame / 2) of the accusation channel, PSM-515)."""
    rng = np.random.default_rng(7)
    checked = 0
    for game, _state, observation, mask in decisions(6, first=100):
        n = game.num_players
        at = field_slices(n)
        for _ in range(3):
            edited = observation.copy()
            edited[at["ship_fame"]] = rng.integers(0, 7, NUM_SHIPS) + rng.choice([0.0, 0.0, 0.5, 0.25], NUM_SHIPS)
            edited[at["ship_damaged"]] = rng.choice([0.0, 1.0, 0.5, 0.51], NUM_SHIPS)
            owners = np.zeros((NUM_SHIPS, n), dtype=np.float32)
            shown = rng.random(NUM_SHIPS) < 0.4
            owners[shown, rng.integers(0, n, NUM_SHIPS)[shown]] = rng.choice([1.0, 0.5], int(shown.sum()))
            edited[at["ship_revealed_owner"]] = owners.ravel()
            assert_twin_agrees(edited, mask, n, f"n={n} edited {edited[at['ship_fame']].tolist()}")
            checked += 1
    assert checked > 500


@needs_native
def test_action_features_go_through_the_twin(monkeypatch):
    """With the module built, ``action_features`` (and the game's ``action_features``) never runs the Python
    code on the games' own observations."""
    data = [(g, o, m) for g, _s, o, m in decisions(3, first=200)]
    references = [action_features_python(o, m, g.num_players) for g, o, m in data]

    def fail(*args):
        raise AssertionError("the Python features ran")

    monkeypatch.setattr(features_module, "action_features_python", fail)
    for (game, observation, mask), reference in zip(data, references, strict=True):
        assert_bitwise_equal(action_features(observation, mask, game.num_players), reference, "action_features")
        assert_bitwise_equal(game.action_features(observation, mask), reference, "game.action_features")


def test_action_features_fall_back_to_python_without_the_module(monkeypatch):
    data = [(g, o, m) for g, _s, o, m in decisions(3, first=300)]
    monkeypatch.setattr(features_module, "NATIVE", None)
    calls = []
    python = features_module.action_features_python

    def counted(*args):
        calls.append(1)
        return python(*args)

    monkeypatch.setattr(features_module, "action_features_python", counted)
    for game, observation, mask in data:
        features = action_features(observation, mask, game.num_players)
        assert_bitwise_equal(features, python(observation, mask, game.num_players), "fallback")
    assert len(calls) == len(data)
    monkeypatch.undo()
    if NATIVE is not None:  # the same features through the twin
        for game, observation, mask in data:
            reference = action_features_python(observation, mask, game.num_players)
            assert_bitwise_equal(action_features(observation, mask, game.num_players), reference, "twin")


@needs_native
def test_twin_refuses_what_it_does_not_expect_and_the_python_code_decides():
    game, _state, observation, mask = next(
        (g, s, o, m) for g, s, o, m in decisions(3, first=400) if g.num_players == 3 and m[FOG_ACTION]
    )
    n = game.num_players
    reference = action_features_python(observation, mask, n)
    as_float64, mask64 = observation.astype(np.float64), mask.astype(np.int64)
    strided = np.repeat(observation, 2)[::2]
    for obs, msk in ((as_float64, mask), (observation[:-1], mask), (observation, mask64), (observation, mask[:-1])):
        with pytest.raises(TypeError, match=r"float32|one byte"):
            compiled(obs, msk, n)
    with pytest.raises((TypeError, ValueError, BufferError)):
        compiled(strided, mask, n)
    out = np.zeros((game.num_actions, feature_size(n)), dtype=np.float32)
    layout = _twin_layout(n)
    for wrong_out in (out[:, :-1], out.astype(np.float64), out[:-1], out.ravel(), np.asfortranarray(out[:, :9])):
        with pytest.raises((TypeError, ValueError)):
            NATIVE.potsm_features(wrong_out, observation, mask, _RULES_SPEC, n, layout)
    with pytest.raises(TypeError, match="observation"):  # the layout of another player count
        NATIVE.potsm_features(out, observation, mask, _RULES_SPEC, n, _twin_layout(4))
    with pytest.raises(ValueError, match="spec"):
        NATIVE.potsm_features(out, observation, mask, _RULES_SPEC[:-1], n, layout)
    with pytest.raises((TypeError, ValueError)):
        NATIVE.potsm_features(out, observation, mask, _RULES_SPEC, n, (*layout[:-1], layout[-1].astype(np.float32)))
    with pytest.raises(ValueError, match="outside"):
        NATIVE.potsm_features(out, observation, mask, _RULES_SPEC, n, (layout[0], layout[0], *layout[2:]))
    assert not out.any()
    for obs, msk in ((as_float64, mask), (observation, mask64), (strided, mask), (observation.tolist(), mask)):
        assert_bitwise_equal(action_features(obs, msk, n), reference, "fallback")
    assert_bitwise_equal(action_features(observation, mask.astype(bool), n), reference, "bool mask")
    assert_bitwise_equal(action_features(observation, mask.astype(np.uint8), n), reference, "uint8 mask")


@needs_native
def test_a_ship_position_field_that_is_not_exactly_one_hot_gives_the_reference():
    """PSM-1061's one-hots edited: still a permutation by argmax (the twin reads it as _decode_line_any does),
    two ships on one place or a NaN (the twin refuses and the Python code decides); either way
    ``action_features`` gives the reference."""
    start = {n: field_slices(n)["ship_position"].start for n in (2, 3, 4)}
    rng = np.random.default_rng(11)
    outcomes = Counter()
    for game, _state, observation, mask in decisions(3, first=500):
        n = game.num_players
        if mask[ACCUSE_DISCARD_BASE:ACCUSE_BASE].any() and not mask[ACCUSE_BASE:].any():
            continue  # all-zero features: the observation is not read
        position = observation[start[n] : start[n] + 81].reshape(NUM_SHIPS, NUM_SHIPS)
        places = position.argmax(axis=1)
        edits = {}
        scaled = position * rng.choice([0.9, 1.0, 2.0], (NUM_SHIPS, 1))  # every row's largest entry kept
        edits["scaled"] = scaled
        noisy = position + rng.choice([0.0, 0.0, 0.25], position.shape) * (position == 0)
        edits["noisy"] = noisy
        tied = position.copy()
        front = int(np.argmin(places))
        tied[front, 1] = 1.0  # a tie behind its place 0: the first largest entry counts
        edits["tied"] = tied
        duplicate = position.copy()
        duplicate[1] = position[0]  # two ships on one place: not a line
        edits["duplicate"] = duplicate
        nan = position.copy()
        nan[2, places[2]] = np.nan
        edits["nan"] = nan
        for name, field in edits.items():
            edited = observation.copy()
            edited[start[n] : start[n] + 81] = field.ravel()
            reference = action_features_python(edited, mask, n)
            assert_bitwise_equal(action_features(edited, mask, n), reference, name)
            try:
                assert_bitwise_equal(compiled(edited, mask, n), reference, name)
                outcomes[name, "twin"] += 1
            except ValueError:
                outcomes[name, "refused"] += 1
    assert outcomes.keys() == {
        ("scaled", "twin"),
        ("noisy", "twin"),
        ("tied", "twin"),
        ("duplicate", "refused"),
        ("nan", "refused"),
    }, outcomes


@needs_native
def test_the_accusation_channels_are_the_accused_seats():
    """PSM-515: an accusation's block is the Pass block plus ``ceil(fame / 2)`` in the accused ship's row, in the
    channel of the accused seat's offset; nothing else differs."""
    checked = 0
    for game, _state, observation, mask in decisions(6, first=600):
        n = game.num_players
        accusations = np.flatnonzero(mask[ACCUSE_BASE:])
        if not accusations.size:
            continue
        features = compiled(observation, mask, n).reshape(game.num_actions, NUM_SHIPS, -1)
        fame = observation[field_slices(n)["ship_fame"]]
        for index in accusations:
            block = features[ACCUSE_BASE + index]
            ship, channel = index % NUM_SHIPS, BASE_CHANNELS + index // NUM_SHIPS
            assert block[ship, channel] == np.ceil(fame[ship] / 2.0)
            rest = block.copy()
            rest[ship, channel] = 0.0
            assert not rest[:, BASE_CHANNELS:].any()
            checked += 1
    assert checked > 100


def batches(games: int, first: int):
    """``(game, observations, masks)``: each game's decisions as one batch (both seats' views of each)."""
    rows: dict[int, tuple] = {}
    for game, state, observation, mask in decisions(games, first=first):
        batch = rows.setdefault(id(state), (game, [], []))
        other = (state.current_player() + 1) % game.num_players
        batch[1].extend([observation, state.observation(other)])
        batch[2].extend([mask, mask])
    for game, observations, masks in rows.values():
        yield game, np.stack(observations), np.stack(masks).astype(bool)


def legal_reference(observations: np.ndarray, masks: np.ndarray, n: int) -> np.ndarray:
    return np.concatenate([action_features_python(o, m, n)[m] for o, m in zip(observations, masks, strict=True)])


@needs_native
def test_the_batch_twin_writes_the_legal_rows_of_the_reference():
    """``potsm_legal_features`` (what the action-feature network reads in training): a whole game's
    observations at once, the legal actions' rows in the order of ``numpy.nonzero``, bit for bit."""
    seen = 0
    for game, observations, masks in batches(12, first=500):
        n = game.num_players
        reference = legal_reference(observations, masks, n)
        out = np.zeros_like(reference)
        NATIVE.potsm_legal_features(out, observations, masks, _RULES_SPEC, n, _twin_layout(n))
        assert_bitwise_equal(out, reference, f"{n} players, {len(observations)} observations")
        assert_bitwise_equal(game.legal_action_features(observations, masks), reference, "game")
        seen += len(reference)
    assert seen > 5000


def test_legal_action_features_fall_back_to_python(monkeypatch):
    """Without the module, or on a batch the twin refuses (an observation it does not read), the game's
    ``legal_action_features`` gives the same rows from the Python code."""
    game, observations, masks = next(batches(1, first=600))
    reference = legal_reference(observations, masks, game.num_players)
    odd = observations.copy()
    row = int(np.flatnonzero(masks[:, :FOG_ACTION].any(axis=1))[-1])  # a decision whose features read the line
    position = odd[row, field_slices(game.num_players)["ship_position"]].reshape(NUM_SHIPS, NUM_SHIPS)
    position[2, position[2].argmax()] = np.nan  # the twin refuses the whole batch (as in the test above)
    odd_reference = legal_reference(odd, masks, game.num_players)
    if NATIVE is not None:
        assert features_module.legal_action_features(odd, masks, game.num_players) is None
        assert_bitwise_equal(game.legal_action_features(odd, masks), odd_reference, "refused batch")
    monkeypatch.setattr(features_module, "NATIVE", None)
    assert features_module.legal_action_features(observations, masks, game.num_players) is None
    assert_bitwise_equal(game.legal_action_features(observations, masks), reference, "no module")


@needs_native
def test_the_batch_twin_names_what_is_wrong():
    game, observations, masks = next(batches(1, first=700))
    n = game.num_players
    layout = _twin_layout(n)
    out = np.zeros((int(masks.sum()), feature_size(n)), dtype=np.float32)
    with pytest.raises(ValueError, match=r"out has \d+ rows for \d+ legal actions"):
        NATIVE.potsm_legal_features(out[1:], observations, masks, _RULES_SPEC, n, layout)
    with pytest.raises(TypeError, match="the masks must be one byte"):
        NATIVE.potsm_legal_features(out, observations, masks[:-1], _RULES_SPEC, n, layout)
    with pytest.raises(TypeError, match="the masks must be one byte"):
        NATIVE.potsm_legal_features(out, observations, masks.astype(np.int64), _RULES_SPEC, n, layout)
    with pytest.raises(TypeError, match="the observations must be a C-contiguous float32 matrix"):
        NATIVE.potsm_legal_features(out, observations.astype(np.float64), masks, _RULES_SPEC, n, layout)
    with pytest.raises(TypeError, match="out must be a C-contiguous float32 matrix"):
        NATIVE.potsm_legal_features(out.astype(np.float64), observations, masks, _RULES_SPEC, n, layout)
    with pytest.raises(TypeError, match=f"out must be a C-contiguous float32 matrix of {feature_size(n)} columns"):
        narrow = np.zeros((len(out), feature_size(n) - 1), np.float32)
        NATIVE.potsm_legal_features(narrow, observations, masks, _RULES_SPEC, n, layout)
    with pytest.raises(ValueError, match="not C-contiguous"):
        NATIVE.potsm_legal_features(out[:, :-1], observations, masks, _RULES_SPEC, n, layout)
    assert not out.any()
