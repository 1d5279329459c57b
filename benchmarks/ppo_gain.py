"""Did PPO add strength? A run's warm start against its final model, on the same deals.

A training run with a warm start (``imitation.games > 0`` or ``run.init_from``) saves the model at
PPO step 0 as ``warm_start_model.zip``. This script plays both that model and the final one (or
``--model NAME``) in one rotating seat against n−1 copies of ``--vs`` (heuristic by default), with
the same ``--seed``, so game i of both tournaments has the same deal and seating. It reports each
model's win rate (Wilson 95% interval) and the paired difference per deal, ``final − warm start``,
with a normal 95% interval over the games: PPO added strength when that interval lies above zero,
made the model worse when it lies below.

    python benchmarks/ppo_gain.py runs/potsm_v0-20261202-0300 --games 2000 --workers 2
    python benchmarks/ppo_gain.py RUN_DIR --model best_model.zip --vs random --record checkpoints/potsm_v0/eval.json

``--record FILE`` adds the figures as ``ppo_gain`` to an ``eval.json`` (a shipped checkpoint's),
leaving its other fields as they are.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's training package

from training.apps.ship import ShipError, read_run_config
from training.evaluation.stats import Z_95
from training.evaluation.tournament import prepare_tournament, run_prepared
from training.inputs import EXIT_USAGE, InputError
from training.train import WARM_START_MODEL

FOCAL = ("warm_start", "final")


def paired_difference(first: Sequence[int], second: Sequence[int]) -> dict[str, Any]:
    """Mean of ``second[i] − first[i]`` with a normal 95% interval (games paired by index)."""
    if len(first) != len(second) or not first:
        raise ValueError("paired_difference needs two equally long, non-empty sequences")
    diffs = [b - a for a, b in zip(first, second, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = Z_95 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
    return {
        "games": n,
        "difference": mean,
        "difference_ci95": [mean - spread, mean + spread],
        "first_only": sum(d < 0 for d in diffs),  # deals only the first model won
        "second_only": sum(d > 0 for d in diffs),
    }


def run_config(run_dir: Path) -> dict[str, Any]:
    """The run's game: ``env_id`` and rule ``options`` of its config.yaml (``training.apps.ship.read_run_config``)."""
    if not (run_dir / "config.yaml").is_file():
        raise InputError(f"{run_dir} is not a training run directory (no config.yaml)")
    try:
        config = read_run_config(run_dir)
    except ShipError as err:
        raise InputError(str(err)) from None
    return {"env_id": config.env.id, "options": dict(config.env.options)}


def measure_gain(
    run_dir: str | Path,
    model: str = "final_model.zip",
    vs: str = "heuristic",
    games: int = 2000,
    seed: int = 0,
    workers: int = 1,
) -> dict[str, Any]:
    """Both models against n−1 copies of ``vs`` on the same deals; see the module docstring."""
    run_dir = Path(run_dir)
    game = run_config(run_dir)
    paths = {"warm_start": run_dir / WARM_START_MODEL, "final": run_dir / model}
    for label, path in paths.items():
        if not path.is_file():
            hint = " (the run had no warm start, or predates warm_start_model.zip)" if label == "warm_start" else ""
            raise InputError(f"{path} does not exist{hint}")
    options = dict(game["options"])
    num_players = options.pop("num_players", None)
    env_id = game["env_id"]
    tournaments = []
    for label in FOCAL:
        policies = {label: str(paths[label]), vs: vs}
        tournaments.append(
            prepare_tournament(env_id, num_players, policies, games, seed, workers, options, keep_games=True)
        )
    results = run_prepared(tournaments)
    wins = {}
    rates = {}
    for label, result in zip(FOCAL, results, strict=True):
        focal = result["policies"].index(label)
        wins[label] = [int(record["seats"].index(focal) in record["winners"]) for record in result["game_records"]]
        standing = result["standings"][label]
        rates[label] = {k: standing[k] for k in ("seat_games", "wins", "win_rate", "win_rate_ci95")}
    paired = paired_difference(wins["warm_start"], wins["final"])
    low, high = paired["difference_ci95"]
    verdict = "PPO added strength" if low > 0 else "PPO made it worse" if high < 0 else "no difference shown"
    return {
        "run_dir": str(run_dir),
        "env_id": game["env_id"],
        "num_players": results[0]["num_players"],
        "model": model,
        "vs": vs,
        "games": games,
        "seed": seed,
        "warm_start": rates["warm_start"],
        "final": rates["final"],
        "paired": paired,
        "verdict": verdict,
    }


def report(result: dict[str, Any]) -> str:
    def rate(r: dict[str, Any]) -> str:
        low, high = r["win_rate_ci95"]
        return f"{r['win_rate']:.3f} [{low:.3f}, {high:.3f}]"

    paired = result["paired"]
    low, high = paired["difference_ci95"]
    return (
        f"{result['env_id']} ({result['num_players']} players), {result['games']} games against "
        f"{result['num_players'] - 1} x {result['vs']}, seed {result['seed']}\n"
        f"| model | win rate |\n|---|---|\n"
        f"| warm start (PPO step 0) | {rate(result['warm_start'])} |\n"
        f"| {result['model']} | {rate(result['final'])} |\n"
        f"paired difference (final - warm start): {paired['difference']:+.3f} [{low:+.3f}, {high:+.3f}] "
        f"({paired['second_only']} deals only the final model won, {paired['first_only']} only the warm start)\n"
        f"verdict: {result['verdict']}"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/ppo_gain.py",
        description="A training run's warm start against its final model, paired on the same deals.",
    )
    parser.add_argument("run_dir", help="a training run directory (with warm_start_model.zip)")
    parser.add_argument("--model", default="final_model.zip", help="the model to compare (default final_model.zip)")
    parser.add_argument("--vs", default="heuristic", help="the opponents' policy spec (default heuristic)")
    parser.add_argument("--games", type=int, default=2000, help="games per model (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--record", metavar="EVAL_JSON", help="add the figures as ppo_gain to this eval.json")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.record and not Path(args.record).is_file():
            raise InputError(f"--record: {args.record} does not exist (a shipped checkpoint's eval.json)")
        result = measure_gain(args.run_dir, args.model, args.vs, args.games, args.seed, args.workers)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(report(result))
    if args.record:
        path = Path(args.record)
        data = json.loads(path.read_text())
        data["ppo_gain"] = {k: v for k, v in result.items() if k != "run_dir"}
        path.write_text(json.dumps(data, indent=2) + "\n")
        print(f"recorded ppo_gain in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
