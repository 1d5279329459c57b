"""Release a trained model as a shipped checkpoint: ``python -m training.ship RUN_DIR [--model best_model.zip]``.

Writes ``checkpoints/<env_id>/`` (or ``--out``):

- ``model.zip`` — the run's model with the optimiser's running moments dropped (they only matter
  for further training and triple the size) and without the training machine's TensorBoard path;
  it loads with ``MaskablePPO.load`` and ``pirate_envs.CheckpointPolicy`` like any checkpoint;
- ``config.yaml`` — the run's resolved config;
- ``eval.json`` / ``eval.md`` — ``training.evaluate.evaluate_checkpoint`` against ``--vs`` opponents
  (default random and heuristic) over ``--games`` seat-rotated games at the run's player count.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any

import yaml

from training.checkpoints import atomic_write_bytes, atomic_write_text

ROOT = Path(__file__).resolve().parents[1]


def export_model(source: Path, target: Path) -> int:
    """Save the model at ``source`` to ``target`` without optimiser state; returns the size in bytes."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(source, device="cpu")
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    model.tensorboard_log = None  # a path on the training machine
    buffer = io.BytesIO()
    model.save(buffer)
    atomic_write_bytes(target, buffer.getvalue())
    return len(buffer.getvalue())


def ship(
    run_dir: Path, model_name: str, out: Path | None, opponents: list[str], games: int, workers: int
) -> dict[str, Any]:
    from training.evaluate import evaluate_checkpoint
    from training.report import checkpoint_markdown, write_report

    config = yaml.safe_load((run_dir / "config.yaml").read_text())
    env_id = config["env"]["id"]
    options = dict(config["env"]["options"])
    num_players = options.pop("num_players", None)
    options.pop("reward_mode", None)  # a training choice; the evaluation plays the game's default rules
    target = out or ROOT / "checkpoints" / env_id
    target.mkdir(parents=True, exist_ok=True)
    size = export_model(run_dir / model_name, target / "model.zip")
    atomic_write_text(target / "config.yaml", (run_dir / "config.yaml").read_text())
    shipped = target / "model.zip"
    if shipped.is_absolute() and shipped.is_relative_to(Path.cwd()):
        shipped = shipped.relative_to(Path.cwd())  # eval.json names the file as the repository does
    result = evaluate_checkpoint(
        shipped, env_id, num_players, opponents=opponents, games=games, workers=workers, options=options
    )
    write_report(result, checkpoint_markdown(result), target, "eval")
    print(f"{target / 'model.zip'}: {size / 1e6:.2f} MB")
    for name, row in result["vs"].items():
        low, high = row["win_rate_ci95"]
        print(f"vs {name}: win rate {row['win_rate']:.3f} [{low:.3f}, {high:.3f}] over {row['games']} games")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.ship", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, help="a training run directory")
    parser.add_argument("--model", default="best_model.zip", help="model file in the run (default best_model.zip)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default checkpoints/<env_id>)")
    parser.add_argument("--vs", nargs="+", default=["random", "heuristic"], help="evaluation opponents")
    parser.add_argument("--games", type=int, default=1000, help="games per opponent (default 1000)")
    parser.add_argument("--workers", type=int, default=1, help="evaluation processes")
    args = parser.parse_args(argv)
    if not (args.run_dir / args.model).is_file() or not (args.run_dir / "config.yaml").is_file():
        print(f"error: {args.run_dir} has no {args.model} and config.yaml", file=sys.stderr)
        return 2
    ship(args.run_dir, args.model, args.out, args.vs, args.games, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
