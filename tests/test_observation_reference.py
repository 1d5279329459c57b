"""The fast observation encoders of Madame Ching (MCH-1006) and Tortuga (TOR-1004) give exactly the
vectors of their plain reference encoders, for every seat of random games at every player count and
rule variant; and the Madame Ching encoder falls back to the reference for a count outside a byte."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pirate_envs.games.madame_ching.game import MadameChingGame
from pirate_envs.games.madame_ching.observation import encode_reference as mc_reference
from pirate_envs.games.tortuga.game import TortugaGame
from pirate_envs.games.tortuga.observation import encode_reference as tortuga_reference


def cases(game_cls) -> list[tuple[int, dict]]:
    return [(n, dict(options)) for n in game_cls.player_counts for options in game_cls.variants.values()]


def assert_every_seat_matches(game, reference, seeds: range) -> int:
    """Random play; at every decision every seat's observation equals the reference. Returns the count.

    The encoder's fast path (``_encode``) is called directly: its fallback to the reference for
    out-of-byte values must not hide a fast path that fails on ordinary states."""
    rng = random.Random(seeds.start)
    checked = 0
    for seed in seeds:
        state = game.new_initial_state(seed)
        while True:
            for seat in range(game.num_players):
                fast, plain = game.encoder._encode(state, seat), reference(state, seat)
                np.testing.assert_array_equal(state.observation(seat), fast)
                assert fast.dtype == plain.dtype == np.float32
                np.testing.assert_array_equal(fast, plain, err_msg=f"seed {seed}, seat {seat}, {state.phase_name()}")
                checked += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return checked


@pytest.mark.parametrize(("n", "options"), cases(MadameChingGame))
def test_mch_1006_fast_encoder_matches_the_reference(n, options):
    game = MadameChingGame(num_players=n, **options)
    # the same encoder object serves all games of a Game: its caches must not leak between them
    assert assert_every_seat_matches(game, mc_reference, range(2)) > 300


@pytest.mark.parametrize(("n", "options"), cases(TortugaGame))
def test_tor_1004_fast_encoder_matches_the_reference(n, options):
    game = TortugaGame(num_players=n, **options)
    assert assert_every_seat_matches(game, tortuga_reference, range(1)) > 50


def test_mch_1006_encoder_interleaves_games_through_its_caches():
    """Two games stepped alternately (as a batched trainer does) through one encoder's caches."""
    game = MadameChingGame(num_players=3)
    states = [game.new_initial_state(1), game.new_initial_state(2)]
    rng = random.Random(0)
    while not all(state.is_terminal() for state in states):
        for state in states:
            if not state.is_terminal():
                seat = state.current_player()
                np.testing.assert_array_equal(state.observation(seat), mc_reference(state, seat))
                state.apply_action(rng.choice(state.legal_actions()))


def test_mch_1006_a_count_beyond_a_byte_falls_back_to_the_reference():
    """The fast encoder keeps counts in a byte buffer; a hand-edited state with a larger count (or a
    round limit above 255) still gets the exact vector of the reference."""
    game = MadameChingGame(num_players=4, round_limit=1000)
    state = game.new_initial_state(7)
    state.tokens[1][0] = 300  # more gold than the game has (MCH-306): only a hand-edited state
    state.round = 400
    for seat in range(4):
        np.testing.assert_array_equal(state.observation(seat), mc_reference(state, seat))
    assert state.observation(0)[game.encoder.start["progress"]] == np.float32(400 / 1000)
