"""Dead Man's Draw's per-decision hot paths are pinned: every heuristic decision (DMD-1010: read from the
observation alone), every per-action feature and every observation float (DMD-1060..1087) of seeded
games, as one fingerprint each.

A speed-up of the bot, the features or the encoder must not change a single bit; a deliberate change of
their output updates the fingerprint here and says so. The games cover every variant card (DMD-804), the
mermaid variant (DMD-810) and 2-4 players; a quarter of the moves are random so that the rarer decisions
(Map, Hook, Sword, Cannon, Plunderer, Locker) are reached with unusual rows and collections.
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.game import DmdGame
from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy

CASES = [
    (2, {}),
    (3, {"variant": "grand_slam", "mermaid_variant": True}),
    (2, {"variant": "sudden_death"}),
    (4, {"variant": "thieves_island", "mermaid_variant": True}),
    (3, {"variant": "uncharted_waters", "mermaid_variant": True}),
    (2, {"variant": "piri_reis"}),
    (4, {"variant": "undertow", "mermaid_variant": True}),
]


def fingerprints(games_per_case: int = 8) -> tuple[dict[str, str], set[int]]:
    """The sha256 prefixes of the decisions, the features and the observations, and the phases reached."""
    digests = {name: hashlib.sha256() for name in ("decisions", "features", "observations")}
    phases: set[int] = set()
    for n, options in CASES:
        game = DmdGame(num_players=n, **options)
        bot = HeuristicPolicy(game)
        for seed in range(games_per_case):
            state = game.new_initial_state(seed)
            pick = random.Random(seed)
            rng = np.random.default_rng(seed)
            while not state.is_terminal():
                seat = state.current_player()
                phases.add(state.phase)
                for viewer in range(n):
                    digests["observations"].update(state.observation(viewer).tobytes())
                observation, mask = state.observation(seat), state.legal_action_mask()
                digests["features"].update(game.action_features(observation, mask).tobytes())
                action = bot.act(observation, mask, rng)
                digests["decisions"].update(f"{action},".encode())
                state.apply_action(pick.choice(state.legal_actions()) if pick.random() < 0.25 else action)
    return {name: digest.hexdigest()[:16] for name, digest in digests.items()}, phases


def test_decisions_features_and_observations_are_pinned():
    pinned, phases = fingerprints()
    reached = {act.ABILITY_CHOICE, act.LOCKER_TARGET, act.DRAW_OR_STOP, act.CANNON_TARGET, act.SWORD_TARGET}
    reached |= {act.HOOK_SUIT, act.MAP_PICK, act.MERMAID_PICK, act.PLUNDER_PICK, act.LOCKER_ACCEPT}
    assert phases >= reached
    assert pinned == {
        "decisions": "4c9f09d6fc7fdeda",
        "features": "709a7246f845ed9e",
        "observations": "f6c325c23858c1c4",
    }
