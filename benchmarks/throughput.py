"""Random-play throughput: decisions per second, engine vs AEC env, next to PettingZoo references.

For every registered game and player count it measures
  (a) the rules engine: ``legal_actions`` + the acting seat's ``observation`` + ``apply_action``;
  (b) the wrapped PettingZoo AEC env (``env()``): ``last()`` + ``step`` with a masked random action;
and, in the same run, PettingZoo's ``texas_holdem_v4`` and ``connect_four_v3`` through the same
AEC loop (they need the ``bench`` extra: rlcard, pygame).

    python benchmarks/throughput.py [--seconds 1] [--rounds 5] [--games potsm_v0 ...]

Single process, one core. Every cell is measured in ``--rounds`` rounds of ``--seconds`` each and
shows the best round, then the median in brackets. On a shared VM the speed of a core swings by up
to 2x from second to second (the same fixed work measured 22k-44k decisions/s in consecutive runs),
so the best round is the figure of the code's own speed (as ``timeit`` reports the minimum time) and
the median says how much the neighbours took. Prints a table; no assertions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
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


def best_and_median(measure, rounds: int) -> tuple[float, float]:
    """Run ``measure()`` ``rounds`` times; the best and the median rate."""
    rates = sorted(measure() for _ in range(rounds))
    return rates[-1], statistics.median(rates)


def cell(rates: tuple[float, float]) -> str:
    best, median = rates
    return f"{best:,.0f} [{median:,.0f}]"


def reference_rates(seconds: float, rounds: int) -> dict[str, tuple[float, float]]:
    rates = {}
    try:
        from pettingzoo.classic import connect_four_v3, texas_holdem_v4
    except ImportError as exc:  # the bench extra is not installed
        print(f"(PettingZoo references skipped: {exc}; install with pip install -e '.[bench]')")
        return rates
    rates["texas_holdem_v4"] = best_and_median(lambda: aec_rate(texas_holdem_v4.env, seconds), rounds)
    rates["connect_four_v3"] = best_and_median(lambda: aec_rate(connect_four_v3.env, seconds), rounds)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measuring round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per cell (best and median shown)")
    parser.add_argument("--games", nargs="*", default=list(pirate_envs.ENV_IDS), help="env ids to measure")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be >= 1 and --seconds > 0")

    refs = reference_rates(args.seconds, args.rounds)
    holdem = refs.get("texas_holdem_v4")
    print(f"decisions/s, best of {args.rounds} rounds of {args.seconds:g} s [median]")
    print(f"{'env':<28}{'engine+obs':>20}{'AEC env':>20}{'AEC / holdem':>14}")
    for env_id in args.games:
        game_cls = game_class(env_id)
        for n in game_cls.player_counts:
            game = game_cls(num_players=n)
            eng = best_and_median(lambda game=game: engine_rate(game, args.seconds), args.rounds)
            make_env = lambda env_id=env_id, n=n: pirate_envs.make(env_id, num_players=n)  # noqa: E731
            aec = best_and_median(lambda make_env=make_env: aec_rate(make_env, args.seconds), args.rounds)
            ratio = f"{aec[0] / holdem[0]:.1f}x" if holdem else "-"
            print(f"{env_id + f' ({n}p)':<28}{cell(eng):>20}{cell(aec):>20}{ratio:>14}")
    for name, rates in refs.items():
        print(f"{name + ' (PettingZoo)':<28}{'-':>20}{cell(rates):>20}{'':>14}")


if __name__ == "__main__":
    main()
