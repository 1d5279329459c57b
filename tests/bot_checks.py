"""Shared checks of the per-game heuristic bots: playing seeded games, and deciding from the observation alone.

A heuristic bot sees only its seat's observation and action mask (design: Policies); these helpers are
what the per-game heuristic tests (``test_mc_heuristic.py``, ``test_tortuga_heuristic.py``) run on it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pirate_envs.core.game import Game, State
from pirate_envs.policies.base import Policy


def play(game: Game, policies: Sequence[Policy], seed: int) -> State:
    """One game from ``new_initial_state(seed)`` with ``policies[seat]`` deciding for each seat (rng seeded
    with ``seed``); every chosen action must be in the mask."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        seat = state.current_player()
        mask = state.legal_action_mask()
        action = policies[seat].act(state.observation(seat), mask, rng)
        assert mask[action], f"seat {seat} chose the illegal action {action}"
        state.apply_action(action)
    return state


def assert_decides_from_observation(game: Game, bot: Policy, seed: int, decisions: int) -> None:
    """Same observation and mask, same action, whatever the hidden state behind them: for the first
    ``decisions`` decisions of a game ``bot`` plays against itself, its choice (same rng) on the state and on
    the state redrawn by ``resample_hidden`` for the seat to act must agree."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(0)
    for _ in range(decisions):
        if state.is_terminal():
            break
        seat = state.current_player()
        twin = state.resample_hidden(seat, 11)
        a = bot.act(state.observation(seat), state.legal_action_mask(), np.random.default_rng(1))
        b = bot.act(twin.observation(seat), twin.legal_action_mask(), np.random.default_rng(1))
        assert a == b, f"seat {seat} chose {a} on the state and {b} on its resample"
        state.apply_action(bot.act(state.observation(seat), state.legal_action_mask(), rng))
