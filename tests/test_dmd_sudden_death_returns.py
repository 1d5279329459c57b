"""Dead Man's Draw: score-mode returns after a Sudden Death win (DMD-1141, DMD-1020 e, DMD-703, DMD-805).

The sole winner's return is positive and every other player's negative, also when a rival's final score
(with Golden Mermaid's +5, DMD-701) passes the winner's: the margins are of the live scores the win was
decided on.
"""

from __future__ import annotations

import pytest

from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.game import DmdGame
from pirate_envs.games.dead_mans_draw.scenario import scenario

# Found by a random soak (1 game in 55,533): player_0 wins by Sudden Death, final scores 53 / 54 / 49.
SOAK_SEED = 1025703
SOAK_ACTIONS = [
    81, 90, 76, 0, 0, 1, 108, 1, 100, 0, 68, 109, 0, 0, 104, 102, 24, 0, 48, 1, 99, 0, 114, 1, 56, 0, 97, 111, 0,
    1, 0, 3, 97, 0, 67, 1, 100, 0, 103, 0, 48, 0, 9, 0, 0, 0, 0, 3, 107, 0, 0, 0, 105, 1, 1, 0, 0, 0, 0, 0, 0, 0, 8,
    63, 0, 0,
]  # fmt: skip


def soak_game(reward_mode: str = "score"):
    state = DmdGame(num_players=3, variant="sudden_death", reward_mode=reward_mode).new_initial_state(seed=SOAK_SEED)
    for action in SOAK_ACTIONS:
        state.apply_action(action)
    return state


def test_dmd_1141_soak_game_sole_winner_gets_a_positive_return():
    state = soak_game()
    assert state.is_terminal() and state.winners() == [0]
    assert state.scores() == [53.0, 54.0, 49.0]  # shown final scores keep the +5 (DMD-701)
    assert [state.live_score(t) for t in range(3)] == [53, 49, 49]
    # margins of the live scores over score_scale 50: (53 - 49) / 50, (49 - 53) / 50 twice
    assert state.returns() == pytest.approx([0.08, -0.08, -0.08])


def test_dmd_1141_win_mode_unchanged():
    assert soak_game("win").returns() == [1.0, -1.0, -1.0]


GOLDEN_RIVAL = {
    0: "Anchor 7, Cannon 7, Hook 7, Kraken 7, Map 7, Mermaid 9",  # live 44
    1: "Mermaid 8, Chest 7, Key 7, Oracle 7, Cannon 6, Hook 6, Map 6, Anchor 2",  # live 49, final 54
}


def test_dmd_1141_constructed_sudden_death_win_against_a_golden_mermaid():
    """Player 0 stops with Sword 6 in the row: 50, a Sudden Death win; player 1 has Golden Mermaid."""
    game = DmdGame(num_players=2, variant="sudden_death", reward_mode="score")
    state = scenario(game, row="Sword 6", collections=GOLDEN_RIVAL, abilities={1: "golden_mermaid"})
    assert (state.live_score(0), state.live_score(1), state.final_score(1)) == (44, 49, 54)
    state.apply_action(act.STOP)
    assert state.is_terminal() and state.winners() == [0]  # DMD-805: 50 reached at the banking
    assert state.scores() == [50.0, 54.0]
    assert state.returns() == pytest.approx([0.02, -0.02])  # (50 - 49) / 50; final scores would give -0.08


def test_dmd_1020_normal_end_under_sudden_death_keeps_final_scores():
    """Nobody reaches 50 (player 0 banks 48) and the draw pile is empty: a normal end, final scores."""
    game = DmdGame(num_players=2, variant="sudden_death", reward_mode="score")
    state = scenario(
        game, row="Sword 4", draw=[], exact_draw=True, collections=GOLDEN_RIVAL, abilities={1: "golden_mermaid"}
    )
    state.apply_action(act.STOP)
    assert state.is_terminal() and state.winners() == [1] and state.scores() == [48.0, 54.0]
    assert state.returns() == pytest.approx([-0.12, 0.12])  # (48 - 54) / 50 with the +5 (DMD-701)
