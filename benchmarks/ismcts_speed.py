"""IS-MCTS search speed: iterations per second per game, with random and heuristic rollouts.

For every registered game at its default player count it searches from positions of random games
(every fifth decision with a real choice) and reports iterations/s; one iteration is a
determinisation (``resample_hidden``), a walk down the tree, one rollout to the end and the
back-up. Also prints the iterations a 1-second move gets.

    python benchmarks/ismcts_speed.py [--iterations 200] [--positions 6] [--games potsm_v0 ...]

Single process, one core; no assertions (see the issue notes for figures).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import pirate_envs
from pirate_envs.core.registry import game_class
from pirate_envs.policies.ismcts import ISMCTSPolicy


def positions(game, count: int, seed: int = 0) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state(seed + len(found))
        step = 0
        while not state.is_terminal() and len(found) < count:
            if step % 5 == 4 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        seed += 1000
    return found


def rate(game, rollout: str, iterations: int, count: int) -> float:
    bot = ISMCTSPolicy(game, iterations=iterations, rollout=rollout)
    done, start = 0, time.perf_counter()
    for k, state in enumerate(positions(game, count)):
        bot.act_state(state, state.current_player(), state.legal_action_mask(), np.random.default_rng(k))
        done += bot.last_iterations
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200, help="iterations per searched position")
    parser.add_argument("--positions", type=int, default=6, help="positions searched per game")
    parser.add_argument("--games", nargs="+", default=list(pirate_envs.ENV_IDS), choices=pirate_envs.ENV_IDS)
    args = parser.parse_args()
    print(f"{'game':<22}{'players':>8}{'random rollout it/s':>22}{'heuristic rollout it/s':>25}")
    for env_id in args.games:
        game = game_class(env_id)()
        fast = rate(game, "random", args.iterations, args.positions)
        slow = rate(game, "heuristic", max(1, args.iterations // 10), args.positions)
        print(f"{env_id:<22}{game.num_players:>8}{fast:>22.0f}{slow:>25.0f}")


if __name__ == "__main__":
    main()
