"""What a ladder's search entries cost: seconds per decision of each search at the tables the ladder rates it.

For every game (default: all four, at their default player count) and every search entry of its ladder plan
(``training.evaluation.ladder.PLANS``: IS-MCTS and flat Monte Carlo with heuristic and random rollouts at two
budgets, PUCT with the shipped agent's prior), the search plays one seat of ``--games`` games against heuristic
bots and the time of each of its decisions is measured. The plans' iteration counts were chosen so that the
two budgets take about 0.005 s and 0.05 s a decision on one core; this prints what they take here, and the
iterations that would hit those times.

    python benchmarks/search_budget.py [--games 4] [--env potsm_v0 ...]

Single process, one core; run it on a quiet machine (no ladder or training beside it). No assertions.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.policies.base import choose_action, resolve_policy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's training package
from training.evaluation.ladder import PLANS

TARGETS = (0.005, 0.05)  # seconds a decision of the small and the large budget


def seconds_per_decision(env_id: str, spec: str, games: int) -> tuple[float, float]:
    """(seconds per decision of ``spec``, its decisions per game) over ``games`` games against heuristic bots."""
    game = game_class(env_id)()
    n = game.num_players
    searcher, heuristic = resolve_policy(spec, env_id, n), resolve_policy("heuristic", env_id, n)
    rng = np.random.default_rng(0)
    spent, decisions = 0.0, 0
    for g in range(games):
        state, seat = game.new_initial_state(seed=g), g % n
        while not state.is_terminal():
            player = state.current_player()
            if player == seat:
                started = time.perf_counter()
                action = choose_action(searcher, state, player, rng)
                spent += time.perf_counter() - started
                decisions += 1
            else:
                action = choose_action(heuristic, state, player, rng)
            state.apply_action(action)
    return spent / max(decisions, 1), decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per search entry (default 4)")
    parser.add_argument("--env", nargs="+", default=list(ENV_IDS), choices=ENV_IDS)
    args = parser.parse_args()
    print(f"{'game':<18} {'search entry':<42} {'ms/decision':>11} {'decisions/game':>14}  budget for 5 / 50 ms")
    for env_id in args.env:
        for spec in PLANS[env_id].searches:
            seconds, per_game = seconds_per_decision(env_id, spec, args.games)
            count = int(re.search(r"(?:iterations|rollouts)=(\d+)", spec).group(1))
            small, large = (max(1, round(count * target / seconds)) for target in TARGETS)
            print(f"{env_id:<18} {spec:<42} {1000 * seconds:>11.2f} {per_game:>14.1f}  {small} / {large}")


if __name__ == "__main__":
    main()
