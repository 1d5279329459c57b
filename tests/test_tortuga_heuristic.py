"""tortuga_v0 heuristic bot: legal moves from observation + mask only, every phase handled, beats random."""

from __future__ import annotations

import numpy as np

from pirate_envs.games.tortuga import HeuristicPolicy, TortugaGame
from pirate_envs.policies.base import RandomPolicy


def play(game, policies, seed):
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        seat = state.current_player()
        action = policies[seat].act(state.observation(seat), state.legal_action_mask(), rng)
        state.apply_action(action)  # raises on an illegal action
    return state


def test_heuristic_plays_legal_games_at_every_count_and_option():
    for n in range(2, 10):
        for options in ({}, TortugaGame.variants["options"]):
            game = TortugaGame(num_players=n, **options)
            state = play(game, [HeuristicPolicy(game)] * n, seed=n)
            assert state.is_terminal() and not state.is_truncated()


def test_heuristic_beats_random():
    """One heuristic seat (rotated) against three random seats at 4 players wins far more than its share."""
    game = TortugaGame(num_players=4)
    heuristic, rand = HeuristicPolicy(game), RandomPolicy()
    wins = random_wins = 0
    games = 60
    for g in range(games):
        seat = g % 4
        policies = [heuristic if s == seat else rand for s in range(4)]
        state = play(game, policies, seed=1000 + g)
        wins += seat in state.winners()
        random_wins += sum(1 for s in state.winners() if s != seat)
    assert wins / games > 0.5
    assert wins / games > 1.5 * random_wins / (3 * games)


def test_heuristic_reads_only_the_observation():
    """Same observation and mask -> same action, whatever the hidden state behind them."""
    game = TortugaGame(num_players=6)
    bot = HeuristicPolicy(game)
    state = game.new_initial_state(4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        seat = state.current_player()
        det = state.resample_hidden(seat, 11)
        a = bot.act(state.observation(seat), state.legal_action_mask(), np.random.default_rng(1))
        b = bot.act(det.observation(seat), det.legal_action_mask(), np.random.default_rng(1))
        assert a == b
        state.apply_action(bot.act(state.observation(seat), state.legal_action_mask(), rng))
        if state.is_terminal():
            break
