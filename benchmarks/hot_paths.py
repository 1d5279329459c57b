"""Per-decision hot paths of every game: heuristic decisions/s, action features/s, observation encodings/s.

Training speed is capped by the Python that runs once per decision: the heuristic bot (teacher and
opponent), the per-action features of the learner's observation (games that define them) and the
observation encoder. This measures each alone, on a fixed set of recorded decision points, so a
speed-up of one path shows as one number:

* the points: ``--points`` decisions with more than one legal action, from seeded games (seeds 0, 1,
  ...) of the default player count in which the heuristic bot plays every seat and one move in five
  is a random legal move (for variety); each point keeps the state, the deciding seat, its
  observation and its mask;
* ``heuristic``: ``bot.act(observation, mask, rng)`` over the points;
* ``features``: ``game.action_features(observation, mask)`` over the points ("-" for games without);
* ``observation``: ``state.observation(seat)`` over the points' states (the compiled encoder where
  pirate_envs._native is built and has one for the game: games/<game>/native/encode.c);
* ``in pure Python``: the game's Python encoder (``encoder.encode_python``) where a compiled twin
  exists ("-" otherwise), so one run shows both.

Where a game's bot or features have compiled twins too (games/<game>/native/bot.c and features.c),
``PIRATE_ENVS_PURE_PYTHON=1 python benchmarks/hot_paths.py`` measures every path in Python for comparison.

    python benchmarks/hot_paths.py [--games dead_mans_draw_v0 potsm_v0 ...] [--num-players 3]
                                   [--points 1000] [--seconds 0.5] [--rounds 5]

Single process, one core, CPU time (``time.process_time``). Every cell is measured in ``--rounds``
rounds of ``--seconds`` each, round-robin over the cells, and shows the best round then the median
in brackets (on a shared machine the best round is the code's own speed, the median how much the
neighbours took). The same seeds give the same points, so runs before and after a change compare
like with like. Prints a table; no assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import pirate_envs
from pirate_envs.core.registry import game_class

clock = time.process_time
CALLS_PER_CHECK = 50  # calls between two reads of the clock


@dataclass
class Point:
    """One recorded decision: the state, the deciding seat, its observation and its legal-action mask."""

    state: object
    seat: int
    observation: np.ndarray
    mask: np.ndarray


def record_points(game, bot, count: int, random_share: float = 0.2) -> list[Point]:
    """``count`` decisions with a choice from seeded games of ``bot`` against itself (a share of moves random)."""
    rng, pick = np.random.default_rng(0), random.Random(0)
    points: list[Point] = []
    seed = 0
    while len(points) < count:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal() and len(points) < count:
            seat = state.current_player()
            observation, mask = state.observation(seat), state.legal_action_mask()
            if mask.sum() > 1:
                points.append(Point(state.clone(), seat, observation, mask))
            if pick.random() < random_share:
                action = pick.choice(state.legal_actions())
            else:
                action = bot.act(observation, mask, rng)
            state.apply_action(action)
    return points


def rate(call: Callable[[Point], object], points: list[Point], seconds: float) -> float:
    """Calls per CPU-second of ``call`` cycling through ``points`` for about ``seconds``."""
    calls = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(CALLS_PER_CHECK):
            call(points[calls % len(points)])
            calls += 1
    return calls / (clock() - start)


def cells_of(env_id: str, num_players: int | None, count: int) -> dict[str, Callable[[float], float]]:
    """The measurements of one game: path name -> (seconds -> calls/s)."""
    game_cls = game_class(env_id)
    n = num_players or game_cls.default_num_players
    if n not in game_cls.player_counts:
        raise SystemExit(f"{env_id} plays with {game_cls.player_counts} players, not {n}")
    game = game_cls(num_players=n)
    bot = pirate_envs.make_heuristic(env_id, n)
    points = record_points(game, bot, count)
    bot_rng = np.random.default_rng(0)
    cells = {
        "heuristic": lambda s: rate(lambda p: bot.act(p.observation, p.mask, bot_rng), points, s),
        "observation": lambda s: rate(lambda p: p.state.observation(p.seat), points, s),
    }
    if game.action_feature_size:
        cells["features"] = lambda s: rate(lambda p: game.action_features(p.observation, p.mask), points, s)
    encode_python = getattr(game.encoder, "encode_python", None)
    if encode_python is not None:  # the game has a compiled twin: its Python encoder too
        cells["python observation"] = lambda s: rate(lambda p: encode_python(p.state, p.seat), points, s)
    return cells


def cell(values: list[float] | None) -> str:
    if not values:
        return "-"
    return f"{max(values):,.0f} [{statistics.median(values):,.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(pirate_envs.ENV_IDS), help="env ids to measure")
    parser.add_argument("--num-players", type=int, default=None, help="player count (default: each game's own)")
    parser.add_argument("--points", type=int, default=1000, help="recorded decisions per game")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one measuring round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per cell (best and median shown)")
    args = parser.parse_args()
    unknown = [g for g in args.games if g not in pirate_envs.ENV_IDS]
    if unknown:
        parser.error(f"unknown env ids {unknown}; known: {', '.join(pirate_envs.ENV_IDS)}")
    if args.rounds < 1 or args.seconds <= 0 or args.points < 1:
        parser.error("--rounds and --points must be >= 1 and --seconds > 0")

    cells = {env_id: cells_of(env_id, args.num_players, args.points) for env_id in args.games}
    rates: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):  # round-robin: each cell's rounds are spread over the whole run
        for env_id, paths in cells.items():
            for path, measure in paths.items():
                rates.setdefault((env_id, path), []).append(measure(args.seconds))

    print(f"calls/s on one core, best of {args.rounds} rounds of {args.seconds:g} s [median], {args.points} points")
    columns = ("heuristic decisions/s", "action features/s", "observations/s", "in pure Python")
    print(f"{'env':<22}" + "".join(f"{name:>24}" for name in columns))
    for env_id in cells:
        paths = ("heuristic", "features", "observation", "python observation")
        row = [cell(rates.get((env_id, path))) for path in paths]
        print(f"{env_id:<22}" + "".join(f"{value:>24}" for value in row))


if __name__ == "__main__":
    main()
