"""Random-play throughput: decisions per second, engine vs AEC env, next to PettingZoo references.

For every registered game and player count it measures
  (a) the rules engine: ``legal_actions`` + the acting seat's ``observation`` + ``apply_action``;
  (b) the wrapped PettingZoo AEC env (``env()``): ``last()`` + ``step`` with a masked random action;
and, in the same run, PettingZoo's ``texas_holdem_v4`` and ``connect_four_v3`` through the same
AEC loop (they need the ``bench`` extra: rlcard, pygame). ``--bots`` adds (c): the game's heuristic
bot, ``act`` on 1,000 recorded decision points of games it played against itself (one move in five
random, for variety) — the cost that dominates training against it.

    python benchmarks/throughput.py [--seconds 0.5] [--rounds 10] [--games potsm_v0 ...] [--bots]

Single process, one core. Every cell is measured in ``--rounds`` rounds of ``--seconds`` each and
shows the best round, then the median in brackets. On a shared VM the speed of a core swings by up
to 2x from second to second (the same fixed work measured 22k-44k decisions/s in consecutive runs),
so the best round is the figure of the code's own speed (as ``timeit`` reports the minimum time) and
the median says how much the neighbours took. The rounds go round-robin over all cells, so each
cell's rounds are spread over the whole run. Prints a table; no assertions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

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


def bot_points(game, bot, count: int = 1000) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) of ``count`` decisions with a choice, from games ``bot`` plays in every seat."""
    rng, pick = np.random.default_rng(0), random.Random(0)
    points, seed = [], 0
    while len(points) < count:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal() and len(points) < count:
            observation, mask = state.observation(state.current_player()), state.legal_action_mask()
            if mask.sum() > 1:
                points.append((observation, mask))
            action = bot.act(observation, mask, rng) if pick.random() < 0.8 else pick.choice(state.legal_actions())
            state.apply_action(action)
    return points


def bot_rate(bot, points: list[tuple[np.ndarray, np.ndarray]], seconds: float) -> float:
    rng = np.random.default_rng(0)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            observation, mask = points[decisions % len(points)]
            bot.act(observation, mask, rng)
            decisions += 1
    return decisions / (time.perf_counter() - start)


def summary(rates: list[float]) -> tuple[float, float]:
    """The best and the median of a cell's rounds."""
    return max(rates), statistics.median(rates)


def cell(rates: tuple[float, float]) -> str:
    best, median = rates
    return f"{best:,.0f} [{median:,.0f}]"


def reference_cells(seconds: float) -> dict[str, Callable[[], float]]:
    try:
        from pettingzoo.classic import connect_four_v3, texas_holdem_v4
    except ImportError as exc:  # the bench extra is not installed
        print(f"(PettingZoo references skipped: {exc}; install with pip install -e '.[bench]')")
        return {}
    return {
        "texas_holdem_v4": lambda: aec_rate(texas_holdem_v4.env, seconds),
        "connect_four_v3": lambda: aec_rate(connect_four_v3.env, seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one measuring round")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per cell (best and median shown)")
    parser.add_argument("--games", nargs="*", default=list(pirate_envs.ENV_IDS), help="env ids to measure")
    parser.add_argument("--bots", action="store_true", help="also measure each game's heuristic bot (decisions/s)")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be >= 1 and --seconds > 0")

    refs = reference_cells(args.seconds)
    cells: dict[tuple[str, str], Callable[[], float]] = {}
    rows = []
    for env_id in args.games:
        game_cls = game_class(env_id)
        for n in game_cls.player_counts:
            game = game_cls(num_players=n)
            row = f"{env_id} ({n}p)"
            rows.append(row)
            cells[row, "engine"] = lambda game=game: engine_rate(game, args.seconds)
            make_env = lambda env_id=env_id, n=n: pirate_envs.make(env_id, num_players=n)  # noqa: E731
            cells[row, "aec"] = lambda make_env=make_env: aec_rate(make_env, args.seconds)
            if args.bots:
                bot = pirate_envs.make_heuristic(env_id, n)
                points = bot_points(game, bot)
                cells[row, "bot"] = lambda bot=bot, points=points: bot_rate(bot, points, args.seconds)
    for name, measure in refs.items():
        cells[name, "aec"] = measure
    # Round-robin: every round measures every cell once, so a cell's rounds are spread over the
    # whole run instead of falling into one slow stretch of the machine.
    rates: dict[tuple[str, str], list[float]] = {key: [] for key in cells}
    for _ in range(args.rounds):
        for key, measure in cells.items():
            rates[key].append(measure())
    result = {key: summary(values) for key, values in rates.items()}

    holdem = result.get(("texas_holdem_v4", "aec"))
    print(f"decisions/s, best of {args.rounds} rounds of {args.seconds:g} s [median]")
    bots = f"{'heuristic bot':>20}" if args.bots else ""
    print(f"{'env':<28}{'engine+obs':>20}{'AEC env':>20}{'AEC / holdem':>14}{bots}")
    for row in rows:
        eng, aec = result[row, "engine"], result[row, "aec"]
        ratio = f"{aec[0] / holdem[0]:.1f}x" if holdem else "-"
        bot = f"{cell(result[row, 'bot']):>20}" if args.bots else ""
        print(f"{row:<28}{cell(eng):>20}{cell(aec):>20}{ratio:>14}{bot}")
    for name in refs:
        print(f"{name + ' (PettingZoo)':<28}{'-':>20}{cell(result[name, 'aec']):>20}{'':>14}")


if __name__ == "__main__":
    main()
