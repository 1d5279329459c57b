"""The compiled core's speed per game, on one core: engines, the vector env, IS-MCTS.

For every game at its default player count:

- ``python_decisions_per_s``: random play on the Python engine (a Python loop: legal actions, a random pick,
  apply), whole games from seeds 0, 1, ...;
- ``native_decisions_per_s``: the same random play on the compiled engine, the loop in C
  (``NativeGame.random_playouts``); ``native_python_loop_decisions_per_s``: the compiled engine driven by the same
  Python loop as the Python engine (what a Python caller of ``NativeState`` gets);
- ``vector_steps_per_s``: ``pirate_envs.vector.make(env_id, 256, opponents="heuristic")`` learner steps per second,
  random legal learner actions drawn with numpy (their cost included);
- ``ismcts_iterations_per_s``: the compiled IS-MCTS (random rollouts) from positions of random games.

``--openspiel`` adds references: OpenSpiel's C++ games (``leduc_poker``, ``hearts``) through ``pyspiel``, played by
the same Python loop as ``native_python_loop_decisions_per_s`` (chance outcomes drawn in Python, not counted).

    python benchmarks/native_speed.py [--games dead_mans_draw_v0 ...] [--seconds 2] [--json PATH]

Games without a compiled engine in this build report ``null`` for the native figures. No assertions: the
figures go to the issue notes and docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import pirate_envs
import pirate_envs.vector
from pirate_envs.core.native import NATIVE
from pirate_envs.core.native.backend import has_native, native_game
from pirate_envs.core.registry import game_class
from pirate_envs.core.rng import Rng


def python_loop(game, seconds: float) -> float:
    """Decisions per second of random play driven from Python on ``game``'s states."""
    decisions, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, pick = game.new_initial_state(seed), Rng(seed + 1)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
            decisions += 1
        seed += 1
    return decisions / (time.perf_counter() - start)


def openspiel_loop(name: str, seconds: float) -> float:
    """Decisions per second of random play on an OpenSpiel C++ game through pyspiel (a Python loop)."""
    import pyspiel

    game, pick = pyspiel.load_game(name), Rng(0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                draw, total, chosen = pick.random(), 0.0, outcomes[-1][0]
                for outcome, probability in outcomes:
                    total += probability
                    if draw < total:
                        chosen = outcome
                        break
                state.apply_action(chosen)
                continue
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def native_loop(game, seconds: float) -> float:
    engine = native_game(game)
    games, decisions, start = 16, 0, time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        decisions += engine.random_playouts(games, seed)
        seed += games
        games *= 2
    return decisions / (time.perf_counter() - start)


def vector_speed(env_id: str, seconds: float, num_envs: int = 256) -> float:
    env = pirate_envs.vector.make(env_id, num_envs, opponents="heuristic", seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = env.action_masks()
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        env.step(actions)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def ismcts_speed(game, seconds: float, positions: int = 6) -> float:
    states, seed = [], 0
    while len(states) < positions:
        state, pick = game.new_initial_state(seed), Rng(seed)
        for _ in range(5 * (seed % 4) + 3):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[pick.randrange(len(legal))])
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            states.append(state)
        seed += 1
    iterations, start, k = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        state = states[k % positions]
        _, done, _, _ = NATIVE.ismcts(state.engine_state, state.current_player(), 2000, 0.7, "random", k)
        iterations += done
        k += 1
    return iterations / (time.perf_counter() - start)


def measure(env_id: str, seconds: float) -> dict[str, float | None]:
    cls = game_class(env_id)
    python_game = cls()
    row: dict[str, float | None] = {"python_decisions_per_s": python_loop(python_game, seconds)}
    if not has_native(cls.game_id):
        row.update(native_decisions_per_s=None, native_python_loop_decisions_per_s=None)
        row.update(vector_steps_per_s=None, ismcts_iterations_per_s=None)
        return row
    native = cls(backend="native")
    row["native_decisions_per_s"] = native_loop(native, seconds)
    row["native_python_loop_decisions_per_s"] = python_loop(native, seconds)
    row["vector_steps_per_s"] = vector_speed(env_id, seconds)
    row["ismcts_iterations_per_s"] = ismcts_speed(native, seconds)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(pirate_envs.ENV_IDS), help="env ids to measure")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per figure")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    parser.add_argument("--openspiel", action="store_true", help="add OpenSpiel C++ games (pyspiel) as references")
    args = parser.parse_args()
    results = {}
    print(
        f"{'env id':22} {'python dec/s':>13} {'native dec/s':>13} {'native via py':>14} {'vector st/s':>12} "
        f"{'ismcts it/s':>12}"
    )
    for env_id in args.games:
        row = results[env_id] = measure(env_id, args.seconds)
        cells = [
            row[k]
            for k in (
                "python_decisions_per_s",
                "native_decisions_per_s",
                "native_python_loop_decisions_per_s",
                "vector_steps_per_s",
                "ismcts_iterations_per_s",
            )
        ]
        print(f"{env_id:22} " + " ".join(f"{'-' if v is None else f'{v:,.0f}':>13}" for v in cells), flush=True)
    if args.openspiel:
        for name in ("leduc_poker", "hearts"):
            rate = openspiel_loop(name, args.seconds)
            results[f"openspiel:{name}"] = {"python_loop_decisions_per_s": rate}
            print(f"{'openspiel ' + name:22} {'':>13} {'':>13} {rate:>13,.0f}", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
