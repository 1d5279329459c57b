"""Every heuristic bot's decisions are pinned: a speed-up must leave each one unchanged.

The bots are the project's strength yardstick and the teachers of the shipped agents, and they were
rewritten for speed (issue 27). Each case plays seeded games in which the game's heuristic bot decides
every turn (a random move replaces its choice one time in five, to reach unusual positions) and hashes
every decision. The expected hashes were recorded on the bots as they were before any speed work
(commit 6895c41); a different hash means a bot now decides differently somewhere.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from pirate_envs.core.registry import game_class, make_heuristic

# (env id, rule options, games, sha256 prefix of the decisions)
CASES = [
    ("potsm_v0", {"num_players": 4}, 12, "5f4e947c77951924"),
    ("potsm_v0", {"num_players": 2}, 8, "0006b2714428709a"),
    ("dead_mans_draw_v0", {"num_players": 2}, 30, "25308d5d4db69124"),
    ("dead_mans_draw_v0", {"num_players": 4}, 15, "d03eda70bfb58641"),
    ("tortuga_v0", {"num_players": 6}, 12, "0512095bb8b7a2e2"),
    ("tortuga_v0", {"num_players": 3}, 12, "8e22555b9f87d721"),
    ("madame_ching_v0", {"num_players": 4}, 12, "f3b6a2eed2c56b39"),
    ("madame_ching_v0", {"num_players": 2}, 12, "d3d7c822b0c0eea1"),
]


def decision_hash(env_id: str, options: dict, games: int) -> str:
    game = game_class(env_id)(**options)
    bot = make_heuristic(env_id, options["num_players"])
    digest = hashlib.sha256()
    for g in range(games):
        state = game.new_initial_state(seed=1000 + g)
        rng = np.random.default_rng(g)
        while not state.is_terminal():
            seat = state.current_player()
            mask = state.legal_action_mask()
            action = int(bot.act(state.observation(seat), mask, rng))
            digest.update(action.to_bytes(2, "little"))
            if rng.random() < 0.2:
                legal = np.flatnonzero(mask)
                action = int(legal[rng.integers(legal.size)])
            state.apply_action(action)
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(
    ("env_id", "options", "games", "expected"), CASES, ids=[f"{c[0]}-{c[1]['num_players']}p" for c in CASES]
)
def test_heuristic_decisions_are_unchanged(env_id, options, games, expected):
    assert decision_hash(env_id, options, games) == expected, (
        f"the {env_id} heuristic bot decides differently from its recorded decisions: a speed-up must not "
        "change a decision (the bots are the strength yardstick and the shipped agents' teachers)"
    )
