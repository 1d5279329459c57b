"""A demo game: the heuristic bot against random bots, rendered turn by turn.

    python -m pirate_envs.demo [ENV_ID] [--num-players N] [--seed S] [--quiet]

Seat 0 is played by the game's heuristic bot, every other seat by a random bot. Each turn
prints the public view of the table (nothing hidden is shown) and the action taken; the end
prints the final table (all secrets revealed by the rules), the scores and the winner.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import pirate_envs
from pirate_envs.core.policy import RandomPolicy
from pirate_envs.core.registry import env_module


def play_demo(
    env_id: str = "potsm_v0", num_players: int | None = None, seed: int = 0, verbose: bool = True, out=print
) -> list[float]:
    """Play one game; return the final returns per seat."""
    module = env_module(env_id)
    game = module.Game(num_players=num_players)
    bots = [module.HeuristicPolicy(game)] + [RandomPolicy() for _ in range(game.num_players - 1)]
    names = ["heuristic"] + ["random"] * (game.num_players - 1)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    out(
        f"{game.display_name} ({env_id}), {game.num_players} players: "
        + ", ".join(f"player_{s} = {name}" for s, name in enumerate(names))
    )
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].act(state.observation(seat), state.legal_action_mask(), rng)
        if verbose:
            out(state.render(None))
            out(f">>> player_{seat} ({names[seat]}): {game.action_to_string(action)}\n")
        state.apply_action(action)
    out(state.render(None))
    returns = state.returns()
    out("Final scores: " + ", ".join(f"player_{s} ({names[s]}) {sc:g}" for s, sc in enumerate(state.scores())))
    winners = [f"player_{s} ({names[s]})" for s, r in enumerate(returns) if r > 0]
    out("Winner: " + (", ".join(winners) if winners else "none (truncated)"))
    return returns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one demo game: heuristic bot (seat 0) vs random bots.")
    parser.add_argument("env_id", nargs="?", default="potsm_v0", help=f"one of {', '.join(pirate_envs.ENV_IDS)}")
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the final table and result")
    args = parser.parse_args(argv)
    try:
        play_demo(args.env_id, args.num_players, args.seed, verbose=not args.quiet)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
