"""Env steps per second of ``training.train`` on a config, as a training run really goes.

Runs the config itself (its vec env, opponents, features and network) with ``imitation.games=0``,
no evaluations, no checkpoints, no TensorBoard and no progress bar, and prints the *marginal* rate:
the steps between the end of the first rollout past ``--warmup`` steps and the end of the run,
divided by the time between them — so start-up (process spawn, model build) cancels, as it does
in the difference of two runs of different lengths.

    python benchmarks/train_speed.py configs/dead_mans_draw_v0.yaml [--steps 40960] [--warmup 8192]
        [--set vec_env.kind=lockstep ...] [--json out.json]

One line per config: ``<config>  <steps/s> env steps/s (<steps> steps in <seconds> s: rollouts <r> s,
updates and callbacks <u> s; compiled encoders on|off)`` (off where ``pirate_envs._native`` is not built
or ``PIRATE_ENVS_PURE_PYTHON=1``): the rollouts (env steps and the forward passes that choose the learner's
actions) and what runs between them (the PPO update, the callbacks) split the measured time.
Never run it while something else loads the cores (a training run, a test suite).

One run says little on a shared machine, whose speed drifts by 20-40% between hours. ``--rounds N``
runs every config N times, alternating them (each run in a fresh process, so no run inherits another's
threads or imports), and ``--versus KEY=VALUE`` (repeatable) adds each config with those settings as
a second contender, run right after the config as it is::

    python benchmarks/train_speed.py configs/tortuga_v0.yaml --rounds 4 --versus ppo.n_epochs=2

Each run prints its line as it ends (``round <r>``), then one summary line per contender: the median,
the range and the runs. ``--json`` then holds every run, each with its ``round``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pirate_envs.core.native import NATIVE  # noqa: E402

QUIET = [
    "imitation.games=0",
    "eval.every=1000000000",
    "eval.games=4",  # the run's first and last evaluations fall outside the measured window: keep them short
    "checkpoint.every=1000000000",
    "logging.tensorboard=false",
    "logging.progress_bar=false",
    "run.init_from=null",
]


def rollout_time(starts: list[float], ends: list[float], s0: float, s1: float) -> float:
    """Seconds spent in the rollouts that end in ``(s0, s1]``, from each rollout's start and end times.

    The window opens at the end of a rollout, so the rollouts it holds are whole; the rest of the window
    is the updates and callbacks between them.
    """
    return sum(end - begin for begin, end in zip(starts, ends, strict=True) if s0 < end <= s1)


def measure(config_path: str, steps: int, warmup: int, overrides: list[str]) -> dict[str, Any]:
    from stable_baselines3.common.callbacks import BaseCallback

    import training.callbacks as callbacks_module
    import training.train as train_module
    from training.config import load_typed_config

    marks: list[tuple[int, float]] = []
    starts: list[float] = []

    class Marks(BaseCallback):
        def _on_rollout_start(self) -> None:
            starts.append(time.perf_counter())

        def _on_rollout_end(self) -> None:
            marks.append((self.model.num_timesteps, time.perf_counter()))

        def _on_step(self) -> bool:
            return True

    with tempfile.TemporaryDirectory() as run_dir:
        sets = [*QUIET, f"run.total_timesteps={steps}", f"run.dir={run_dir}", *overrides]
        config = load_typed_config(config_path, sets)
        original = callbacks_module.RunPipelineCallback

        def pipeline_with_marks(*args: Any, **kwargs: Any) -> Any:
            from stable_baselines3.common.callbacks import CallbackList

            return CallbackList([original(*args, **kwargs), Marks()])

        callbacks_module.RunPipelineCallback = pipeline_with_marks
        try:
            train_module.train(config, Path(run_dir))
        finally:
            callbacks_module.RunPipelineCallback = original
    start = next(((t, s) for t, s in marks if t >= warmup), None)
    if start is None or start == marks[-1]:
        raise SystemExit(f"{config_path}: --steps {steps} leaves no rollout after --warmup {warmup}; raise --steps")
    (t0, s0), (t1, s1) = start, marks[-1]
    rollout_seconds = rollout_time(starts, [end for _, end in marks], s0, s1)
    return {
        "config": config_path,
        "overrides": overrides,
        "steps": t1 - t0,
        "seconds": round(s1 - s0, 2),
        "steps_per_second": round((t1 - t0) / (s1 - s0), 1),
        "rollout_seconds": round(rollout_seconds, 2),
        "update_seconds": round(s1 - s0 - rollout_seconds, 2),
        "compiled_encoders": NATIVE is not None,
    }


def label(config_path: str, overrides: list[str]) -> str:
    """A contender's name in the output: the config, then its settings in brackets."""
    return f"{config_path} [{' '.join(overrides)}]" if overrides else config_path


def describe(row: dict[str, Any]) -> str:
    """The line of one measured run."""
    return (
        f"{label(row['config'], row['overrides'])}  {row['steps_per_second']:,.0f} env steps/s"
        f" ({row['steps']:,} steps in {row['seconds']} s:"
        f" rollouts {row['rollout_seconds']} s, updates and callbacks {row['update_seconds']} s;"
        f" compiled encoders {'on' if row['compiled_encoders'] else 'off'})"
    )


def measure_in_child(config_path: str, steps: int, warmup: int, overrides: list[str]) -> dict[str, Any]:
    """:func:`measure` in a fresh Python process (this script), its training output kept unless it fails."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "row.json"
        command = [sys.executable, str(Path(__file__).resolve()), config_path, "--steps", str(steps)]
        command += ["--warmup", str(warmup), "--json", str(out)]
        command += [arg for setting in overrides for arg in ("--set", setting)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise SystemExit(
                f"{config_path}: the run failed (exit status {result.returncode}):\n{result.stderr[-3000:]}"
            )
        (row,) = json.loads(out.read_text())
    return row


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per contender (config and settings, in order of first appearance): median, range and every run."""
    groups: dict[tuple[str, tuple[str, ...]], list[float]] = {}
    for row in rows:
        groups.setdefault((row["config"], tuple(row["overrides"])), []).append(row["steps_per_second"])
    return [
        {
            "config": config,
            "overrides": list(overrides),
            "runs": rates,
            "median": statistics.median(rates),
            "min": min(rates),
            "max": max(rates),
        }
        for (config, overrides), rates in groups.items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="+", help="YAML configs")
    parser.add_argument("--steps", type=int, default=40960, help="env steps of each run (default 40960)")
    parser.add_argument("--warmup", type=int, default=8192, help="steps left out at the start (default 8192)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--rounds", type=int, default=1, help="runs of each contender, alternated, each in a fresh process (default 1)"
    )
    parser.add_argument(
        "--versus",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="also run each config with these settings, right after it as it is (repeatable)",
    )
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    contenders = [
        (path, overrides)
        for path in args.configs
        for overrides in ([args.overrides, [*args.overrides, *args.versus]] if args.versus else [args.overrides])
    ]
    results = []
    if args.rounds == 1 and not args.versus:
        for path, overrides in contenders:
            row = measure(path, args.steps, args.warmup, overrides)
            results.append(row)
            print(describe(row))
    else:
        for round_number in range(1, args.rounds + 1):
            for path, overrides in contenders:
                row = {**measure_in_child(path, args.steps, args.warmup, overrides), "round": round_number}
                results.append(row)
                print(f"round {round_number}  {describe(row)}", flush=True)
        for group in summarise(results):
            runs = " / ".join(f"{rate:,.0f}" for rate in group["runs"])
            print(
                f"{label(group['config'], group['overrides'])}  median {group['median']:,.0f} env steps/s"
                f" ({group['min']:,.0f}-{group['max']:,.0f} over {len(group['runs'])} runs: {runs})"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
