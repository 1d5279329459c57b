"""Win rate of the potsm_v0 heuristic bot against random players, with a 95% confidence interval.

For each player count the heuristic takes every seat in turn (game g: seat g mod n) against n-1
``RandomPolicy`` players; a win is the +1 of ``reward_mode="win"`` (PSM-1020, tie-breaks PSM-703).
It also reports the mean time of one ``HeuristicPolicy.act`` call.

    PYTHONPATH=. .venv/bin/python benchmarks/potsm_heuristic_winrate.py --games 1000
    PYTHONPATH=. .venv/bin/python benchmarks/potsm_heuristic_winrate.py --players 4 --upcoming-adventures
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from pirate_envs.core.policy import RandomPolicy
from pirate_envs.games.potsm.game import PotsmGame
from pirate_envs.games.potsm.heuristic import HeuristicPolicy


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a binomial proportion."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1.0 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return centre - half, centre + half


def run(num_players: int, games: int, seed: int, **options: bool) -> dict[str, float]:
    game = PotsmGame(num_players=num_players, **options)
    heuristic = HeuristicPolicy(game)
    rand = RandomPolicy()
    rng = np.random.default_rng(seed)
    wins = 0
    truncated = 0
    calls = 0
    act_seconds = 0.0
    start = time.perf_counter()
    for g in range(games):
        seat = g % num_players
        state = game.new_initial_state(seed * 1_000_003 + g)
        while not state.is_terminal():
            player = state.current_player()
            obs = state.observation(player)
            mask = state.legal_action_mask()
            if player == seat:
                t0 = time.perf_counter()
                action = heuristic.act(obs, mask, rng)
                act_seconds += time.perf_counter() - t0
                calls += 1
            else:
                action = rand.act(obs, mask, rng)
            state.apply_action(action)
        truncated += state.is_truncated()
        wins += state.returns()[seat] > 0
    low, high = wilson_interval(wins, games)
    return {
        "players": num_players,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci_low": low,
        "ci_high": high,
        "chance": 1.0 / num_players,
        "truncated": truncated,
        "us_per_act": 1e6 * act_seconds / max(calls, 1),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per player count (default 1000)")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 3, 2], choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--upcoming-adventures", action="store_true", help="variant PSM-802")
    parser.add_argument("--move-cards-in-hand", action="store_true", help="variant PSM-803")
    args = parser.parse_args()
    options = {"upcoming_adventures": args.upcoming_adventures, "move_cards_in_hand": args.move_cards_in_hand}
    variant = ", ".join(name for name, on in options.items() if on) or "base game"
    print(f"potsm_v0 heuristic vs random ({variant}), heuristic seat rotating, seed {args.seed}")
    for n in args.players:
        r = run(n, args.games, args.seed, **options)
        print(
            f"{n} players: won {r['wins']}/{r['games']} = {r['win_rate']:.3f} "
            f"(95% CI {r['ci_low']:.3f}-{r['ci_high']:.3f}; chance {r['chance']:.3f}); "
            f"act {r['us_per_act']:.0f} us/call; truncated {r['truncated']}; {r['seconds']:.1f} s"
        )


if __name__ == "__main__":
    main()
