"""Random-play throughput: decisions per second, engine vs AEC env, next to PettingZoo references.

For every registered game and player count it measures
  (a) the rules engine: ``legal_actions`` + the acting seat's ``observation`` + ``apply_action``;
  (b) the wrapped PettingZoo AEC env (``env()``): ``last()`` + ``step`` with a masked random action;
and, in the same run, PettingZoo's ``texas_holdem_v4`` and ``connect_four_v3`` through the same
AEC loop (they need the ``bench`` extra: rlcard, pygame).

    python benchmarks/throughput.py [--seconds 3] [--games potsm_v0 ...]

Single process, one core. Prints a table; no assertions (see the issue notes for figures).
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pirate_envs
from pirate_envs.core.registry import game_class


def engine_rate(game, seconds: float) -> float:
    rng = random.Random(0)
    decisions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal():
            state.observation(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def aec_rate(make_env, seconds: float) -> float:
    env = make_env()
    rng = np.random.default_rng(0)
    decisions, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def reference_rates(seconds: float) -> dict[str, float]:
    rates = {}
    try:
        from pettingzoo.classic import connect_four_v3, texas_holdem_v4
    except ImportError as exc:  # the bench extra is not installed
        print(f"(PettingZoo references skipped: {exc}; install with pip install -e '.[bench]')")
        return rates
    rates["texas_holdem_v4"] = aec_rate(texas_holdem_v4.env, seconds)
    rates["connect_four_v3"] = aec_rate(connect_four_v3.env, seconds)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per row and column")
    parser.add_argument("--games", nargs="*", default=list(pirate_envs.ENV_IDS), help="env ids to measure")
    args = parser.parse_args()

    refs = reference_rates(args.seconds)
    holdem = refs.get("texas_holdem_v4")
    print(f"{'env':<28}{'engine+obs dec/s':>18}{'AEC dec/s':>12}{'AEC / holdem':>14}")
    for env_id in args.games:
        game_cls = game_class(env_id)
        for n in game_cls.player_counts:
            game = game_cls(num_players=n)
            eng = engine_rate(game, args.seconds)
            aec = aec_rate(lambda env_id=env_id, n=n: pirate_envs.make(env_id, num_players=n), args.seconds)
            ratio = f"{aec / holdem:.1f}x" if holdem else "-"
            print(f"{env_id + f' ({n}p)':<28}{eng:>18,.0f}{aec:>12,.0f}{ratio:>14}")
    for name, rate in refs.items():
        print(f"{name + ' (PettingZoo)':<28}{'-':>18}{rate:>12,.0f}{'':>14}")


if __name__ == "__main__":
    main()
