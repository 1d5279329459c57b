"""The compiled encoders (``pirate_envs/games/*/native/encode.c``) against their pure-Python references.

The Python code is the oracle: every observation the compiled encoders of Dead Man's Draw, Madame Ching,
Tortuga and Pirates of the Spanish Main write is compared, entry for entry and bit for bit, with
``ObservationEncoder.encode_python`` on every seat of every state of random games (each player count,
variant and option). Where the module is not built these tests skip, except the one that says it must be
built where a C compiler and Python's headers are present.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from pirate_envs.core.native import NATIVE, PURE_PYTHON_VARIABLE, can_build
from pirate_envs.core.registry import game_class
from pirate_envs.games.dead_mans_draw.cards import VARIANTS

needs_native = pytest.mark.skipif(NATIVE is None, reason="pirate_envs._native is not built here")


def test_the_module_is_built_where_it_can_be():
    if not can_build():
        pytest.skip("no C compiler or no Python headers: the package runs its pure-Python code")
    assert NATIVE is not None, "a C compiler and Python.h are present but pirate_envs._native was not built"


def test_the_pure_python_switch_turns_the_module_off():
    code = "from pirate_envs.core.native import NATIVE; print(NATIVE is None)"
    env = {**os.environ, PURE_PYTHON_VARIABLE: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def random_states(game, seed: int):
    """Every state of one random game (each decision a uniformly random legal action)."""
    state = game.new_initial_state(seed)
    pick = random.Random(seed)
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply_action(pick.choice(state.legal_actions()))


def dmd_states(num_players: int, seed: int, **options):
    return random_states(game_class("dead_mans_draw_v0")(num_players=num_players, **options), seed)


def compare_random_games(game, seeds: range, compiled_encoder, phases: set | None = None) -> int:
    """Every seat of every state of random games, compiled against Python; the number of vectors compared.
    The phases of the states compared are added to ``phases``."""
    checked = 0
    for seed in seeds:
        for state in random_states(game, seed):
            if phases is not None:
                phases.add(state.phase)
            for seat in range(game.num_players):
                assert_same_as_python(state, seat, compiled_encoder)
                checked += 1
    return checked


def dmd_compiled(state, seat: int) -> np.ndarray:
    """The compiled twin itself (no fallback that could hide a failure)."""
    encoder = state.game.encoder
    out = np.zeros(encoder.size, dtype=np.float32)
    NATIVE.dmd_encode(out, state, seat, encoder.native_spec)
    return out


def mch_compiled(state, seat: int) -> np.ndarray:
    """Madame Ching's compiled counts as a vector (``ObservationEncoder.vector``), with no fallback."""
    encoder = state.game.encoder
    buf = bytearray(encoder.size)
    NATIVE.mch_counts(buf, state, seat, encoder.native_specs(state.game)[seat])
    return encoder.vector(buf, state)


def assert_same_as_python(state, seat, compiled_encoder):
    encoder = state.game.encoder
    compiled, reference = compiled_encoder(state, seat), encoder.encode_python(state, seat)
    np.testing.assert_array_equal(encoder.encode(state, seat), compiled)
    assert compiled.dtype == reference.dtype == np.float32
    differ = np.flatnonzero(compiled.view(np.uint32) != reference.view(np.uint32))
    assert differ.size == 0, f"seat {seat}: entries {differ.tolist()} differ: {compiled[differ]} vs {reference[differ]}"


@needs_native
def test_dmd_compiled_observation_equals_the_reference():
    """DMD-1060..1087 as the Python encoder writes them, over 42 random games: each player count with each
    variant (Piri Reis and Grand Slam change the scores, DMD-701; Undertow eliminates seats), with and
    without the Mermaid variant (MERMAID_PICK, RAKE_PICK offers) and without characters or the starting
    discard in some. Every decision phase is among the states compared."""
    from pirate_envs.games.dead_mans_draw.actions import PHASE_NAMES

    seen, checked = set(), 0
    for game_index in range(42):
        num_players = 2 + game_index % 3
        options = {"variant": VARIANTS[game_index % len(VARIANTS)], "mermaid_variant": (game_index // 7) % 2 == 1}
        if game_index % 5 == 4:
            options.update(characters=False, starting_discard=False)
        game = game_class("dead_mans_draw_v0")(num_players=num_players, **options)
        checked += compare_random_games(game, range(game_index, game_index + 1), dmd_compiled, seen)
    missing = sorted(PHASE_NAMES[p] for p in set(range(len(PHASE_NAMES))) - seen)
    assert not missing, f"phases never compared: {missing}"
    assert checked > 5000


@needs_native
def test_dmd_unexpected_values_fall_back_to_the_python_encoder():
    """A state holding numpy integers instead of ints (a hand-edited state) is encoded by the reference."""
    states = [state.clone() for state in dmd_states(2, 3)]
    state = states[len(states) // 2]
    assert state.draw_pile
    state.draw_pile = [np.int64(c) for c in state.draw_pile]
    with pytest.raises(TypeError):
        NATIVE.dmd_encode(np.zeros(state.game.encoder.size, np.float32), state, 0, state.game.encoder.native_spec)
    np.testing.assert_array_equal(state.observation(0), state.game.encoder.encode_python(state, 0))


@needs_native
def test_dmd_compiled_encoder_rejects_a_wrong_buffer():
    state = next(dmd_states(2, 0))
    encoder = state.game.encoder
    with pytest.raises(ValueError, match="wrong size"):
        NATIVE.dmd_encode(np.zeros(encoder.size + 1, np.float32), state, 0, encoder.native_spec)
    with pytest.raises(IndexError):  # a card id past the vector: refused, not written out of bounds
        bad = state.clone()
        bad.discard = [10_000]
        NATIVE.dmd_encode(np.zeros(encoder.size, np.float32), bad, 0, encoder.native_spec)


@needs_native
@pytest.mark.parametrize(("num_players", "options"), [(2, {}), (3, {}), (4, {}), (4, {"team_mode": True})])
def test_mch_compiled_observation_equals_the_reference(num_players, options):
    """MCH-1006 as the Python encoder writes it, on every seat of every state of random games: both boats
    of each seat at 2 players (MCH-802), 2v2 teams and their debts at 4 (MCH-803)."""
    game = game_class("madame_ching_v0")(num_players=num_players, **options)
    assert compare_random_games(game, range(3), mch_compiled) > 1000


@needs_native
def test_mch_a_count_beyond_a_byte_is_refused_and_the_reference_written():
    """The twin keeps counts in bytes like the Python encoder: a larger count (a hand-edited state) is
    refused, and ``encode`` then gives the reference's vector."""
    from pirate_envs.games.madame_ching.observation import encode_reference

    game = game_class("madame_ching_v0")(num_players=3)
    state = game.new_initial_state(0)
    state.tokens[1][0] = 300
    with pytest.raises(ValueError, match=r"0\.\.255"):
        mch_compiled(state, 0)
    np.testing.assert_array_equal(state.observation(0), encode_reference(state, 0))


def tor_compiled(state, seat: int) -> np.ndarray:
    """Tortuga's compiled bytes as a vector (``ObservationEncoder.vector``), with no fallback."""
    encoder = state.game.encoder
    buf = bytearray(encoder.template)
    NATIVE.tor_counts(buf, state, seat, encoder.native_spec(state.game))
    return encoder.vector(buf)


@needs_native
@pytest.mark.parametrize("num_players", [2, 3, 5, 6, 9])
@pytest.mark.parametrize("variant", ["base", "options"])
def test_tor_compiled_observation_equals_the_reference(num_players, variant):
    """TOR-1004 as the Python encoder writes it, on every seat of every state of random games (votes,
    loot, events and the log with its hidden steals, Section 9)."""
    game_cls = game_class("tortuga_v0")
    game = game_cls(num_players=num_players, **game_cls.variants[variant])
    assert compare_random_games(game, range(2), tor_compiled) > 200


def test_tor_negative_public_counts_stay_on_the_fast_path():
    """A secret steal can take a seat's public treasure and map counts below 0 (what the table shows of
    them); both encoders store them biased like the other signed entries, with no detour through the
    entry-by-entry reference."""
    from pirate_envs.games.tortuga.observation import encode_reference

    game = game_class("tortuga_v0")(num_players=4)
    state = game.new_initial_state(1)
    state.pub_treasure[2] = -3
    state.pub_maps[3] = -1
    reference = encode_reference(state, 0)
    np.testing.assert_array_equal(game.encoder._encode(state, 0), reference)  # no ValueError, same vector
    block = game.encoder.o_players + 26 * 2
    assert reference[block + 21] == -3.0
    if NATIVE is not None:
        np.testing.assert_array_equal(tor_compiled(state, 0), reference)


def potsm_compiled(state, seat: int) -> np.ndarray:
    """Pirates of the Spanish Main's compiled observation, with no fallback."""
    encoder = state.game.encoder
    out = np.zeros(encoder.size, dtype=np.float32)
    NATIVE.potsm_encode(out, state, seat, encoder.native_spec)
    return out


@needs_native
@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["base", "upcoming", "hand", "both"])
def test_potsm_compiled_observation_equals_the_reference(num_players, variant):
    """PSM-1060..1082 as the Python encoder writes them, on every seat of every state of random games: the
    upcoming adventures (PSM-802), private hands and their sizes (PSM-803), the phase and a pending accusation
    for the seat to act only (PSM-1075, 1076), and the finished game."""
    game_cls = game_class("potsm_v0")
    game = game_cls(num_players=num_players, **game_cls.variants[variant])
    phases, checked = set(), 0
    for seed in range(6):
        for state in random_states(game, seed):
            phases.add((state.phase, bool(state.pending_accusation)))
            for seat in range(num_players):
                assert_same_as_python(state, seat, potsm_compiled)
                checked += 1
    # the accusation's discard (phase 1, with its pending accusation) exists with hands only (PSM-803)
    assert phases == ({(0, False), (1, True)} if game.move_cards_in_hand else {(0, False)})
    assert checked > 400


@needs_native
def test_potsm_compiled_observation_of_a_truncated_game():
    """A game cut at max_decisions (PSM-1031) shows no seat a phase, like a finished one (PSM-1075)."""
    game = game_class("potsm_v0")(num_players=3, max_decisions=9)
    for seed in range(3):
        states = list(random_states(game, seed))
        assert states[-1].truncated and not states[-1].game_over
        for state in states:
            for seat in range(3):
                assert_same_as_python(state, seat, potsm_compiled)


@needs_native
def test_potsm_fields_the_twin_does_not_expect_fall_back_to_the_python_encoder():
    """A hand-edited state the twin refuses (numpy ints, a line that is not a permutation, a seat or card out of
    range, more than four adventures in the row) is encoded by the Python code; a count above 127, which the
    Python fast path leaves to the reference, the twin writes exactly."""
    from pirate_envs.games.potsm.observation import encode_reference, field_slices

    game = game_class("potsm_v0")(num_players=3, move_cards_in_hand=True)
    states = [state.clone() for seed in range(4) for state in random_states(game, seed)]
    base = next(s for s in states if s.recent_turns and s.pending_accusation)
    edits = [
        (TypeError, lambda s: setattr(s, "line", [np.int64(x) for x in s.line])),
        (ValueError, lambda s: setattr(s, "line", [0] * 9)),
        (ValueError, lambda s: setattr(s, "pirate_owner", [3, *s.pirate_owner[1:]])),
        (ValueError, lambda s: setattr(s, "adventure_row", [0, 1, 2, 3, 4])),
        (ValueError, lambda s: setattr(s, "adventure_row", [24])),
        (ValueError, lambda s: s.recent_turns[0].__setitem__(0, 5)),
        (ValueError, lambda s: setattr(s, "pending_accusation", [1, 9])),
        (TypeError, lambda s: setattr(s, "hands", None)),
    ]
    for error, edit in edits:
        state = base.clone()
        edit(state)
        seat = state.current_seat
        with pytest.raises(error):
            potsm_compiled(state, seat)
        try:  # the Python encoder's answer, whatever it is, is encode's
            expected = game.encoder.encode_python(state, seat)
        except Exception as exc:  # a state so broken that the Python encoder fails too
            with pytest.raises(type(exc)):
                game.encoder.encode(state, seat)
            continue
        np.testing.assert_array_equal(game.encoder.encode(state, seat), expected)
    state = base.clone()
    state.fame[2], state.claimed[1] = 200, 255
    np.testing.assert_array_equal(potsm_compiled(state, 0), encode_reference(state, 0))
    assert potsm_compiled(state, 0)[field_slices(3)["ship_fame"]][2] == 200


@needs_native
def test_potsm_compiled_encoder_rejects_a_wrong_buffer_or_spec():
    state = game_class("potsm_v0")(num_players=4).new_initial_state(0)
    spec = state.game.encoder.native_spec
    for out in (np.zeros(636, np.float32), np.zeros(637, np.float64), np.zeros(637, np.float32)[::1].reshape(7, 91).T):
        with pytest.raises(ValueError):
            NATIVE.potsm_encode(out, state, 0, spec)
    with pytest.raises(ValueError, match="spec of the wrong length"):
        NATIVE.potsm_encode(np.zeros(637, np.float32), state, 0, spec[:-1])
    with pytest.raises(ValueError, match="bad seat"):
        NATIVE.potsm_encode(np.zeros(637, np.float32), state, 4, spec)
