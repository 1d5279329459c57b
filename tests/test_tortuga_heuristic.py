"""tortuga_v0 heuristic bot: legal moves from observation + mask only, every phase handled, beats random."""

from __future__ import annotations

from bot_checks import assert_decides_from_observation, play

from pirate_envs.games.tortuga import HeuristicPolicy, TortugaGame
from pirate_envs.policies.base import RandomPolicy


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
    assert_decides_from_observation(game, HeuristicPolicy(game), seed=4, decisions=60)
