"""Release a trained model as a shipped checkpoint: ``python -m training.apps.ship RUN_DIR [--model best_model.zip]``.

Writes ``checkpoints/<env_id>/`` (or ``--out``):

- ``model.zip`` — the run's model with the optimiser's running moments dropped (they only matter
  for further training and triple the size) and without the training machine's TensorBoard path;
  it loads with ``MaskablePPO.load`` and ``pirate_envs.CheckpointPolicy`` like any checkpoint;
- ``config.yaml`` — the run's resolved config;
- ``eval.json`` / ``eval.md`` — ``training.evaluation.evaluate.evaluate_checkpoint`` against ``--vs`` opponents
  (default random and heuristic) over ``--games`` seat-rotated games at the run's player count.

A folder that already holds a shipped ``model.zip`` is not overwritten: the command stops (exit
status 2) naming it, unless ``--force`` is given; then the replaced checkpoint's evaluation and the
new one are printed side by side. A missing, truncated or unloadable model zip or a broken
``config.yaml`` is reported as ``error: ...`` naming the file (exit status 2).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog
from pirate_envs.networks.checkpoint_policy import load_maskable_ppo
from pirate_envs.shipped import in_checkout

from ..checkpoints import atomic_write_bytes, atomic_write_text, model_zip_problem
from ..config import ConfigError, read_yaml, validate_config
from ..config_types import TrainConfig
from ..inputs import InputError

# The default --out is ROOT/checkpoints/<env_id>: the checkout's own folder, or, installed from a wheel,
# ./checkpoints/<env_id> (the installed package data is never overwritten).
ROOT = Path(__file__).resolve().parents[2] if in_checkout() else Path()


def releases_dir() -> Path:
    """The folder that shipping writes into by default: ``ROOT/checkpoints``, one ``<env_id>/`` per game."""
    return ROOT / "checkpoints"


def release_folder(env_id: str) -> Path:
    return releases_dir() / env_id


class ShipError(ValueError):
    """Shipping cannot go ahead: a missing or unreadable run file, or a checkpoint already shipped there."""


ROLLOUT_STATE = ("_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer", "ep_success_buffer")


def export_model(source: Path, target: Path) -> int:
    """Save the model at ``source`` to ``target`` without optimiser state and without the rollout in
    progress (``ROLLOUT_STATE``); returns the size in bytes."""
    problem = model_zip_problem(source)
    if problem is not None:
        raise ShipError(f"model file {str(source)!r} {problem}")
    try:
        model = load_maskable_ppo(source, device="cpu")
    except Exception as err:  # pickle, torch, key errors: not a usable MaskablePPO model
        raise ShipError(f"cannot load {str(source)!r} as a MaskablePPO model: {type(err).__name__}: {err}") from None
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    model.tensorboard_log = None  # a path on the training machine
    buffer = io.BytesIO()
    # the rollout in progress (last observations of every env, episode statistics) is not the model
    model.save(buffer, exclude=list(ROLLOUT_STATE))
    atomic_write_bytes(target, buffer.getvalue())
    return len(buffer.getvalue())


def read_run_config(run_dir: Path) -> TrainConfig:
    """The run's ``config.yaml`` (as ``training.train`` wrote it) as a :class:`TrainConfig`, keys an older
    run's file lacks at their schema defaults; a missing or broken one is a :class:`ShipError` naming the
    file and, for a bad value, the key and what is allowed."""
    path = Path(run_dir) / "config.yaml"
    try:
        data = read_yaml(path)
        # check_files=False: a run.init_from or opponent checkpoint of the training machine need not be here
        return TrainConfig.from_dict(validate_config(data, source=str(path), check_files=False))
    except (ConfigError, OSError) as err:
        raise ShipError(f"cannot read the run's config {str(path)!r}: {err}") from None


def _shipped_evaluation(target: Path) -> dict[str, Any] | None:
    """The evaluation of the checkpoint shipped in ``target`` (its eval.json), or None if it has none readable."""
    try:
        return json.loads((target / "eval.json").read_text())
    except (OSError, ValueError):
        return None


def _summary(evaluation: dict[str, Any] | None) -> str:
    if not evaluation:
        return "no readable eval.json"
    rows = evaluation.get("vs", {})
    return ", ".join(f"vs {name} {row['win_rate']:.3f} over {row['games']} games" for name, row in rows.items())


def comparison_table(old: dict[str, Any] | None, new: dict[str, Any]) -> str:
    """The old and new evaluations side by side (Markdown), one row per opponent of either."""

    def cell(evaluation: dict[str, Any] | None, name: str) -> str:
        row = (evaluation or {}).get("vs", {}).get(name)
        if row is None:
            return "—"
        low, high = row["win_rate_ci95"]
        return f"{row['win_rate']:.3f} [{low:.3f}, {high:.3f}] ({row['games']} games)"

    names = list(new["vs"]) + [name for name in (old or {}).get("vs", {}) if name not in new["vs"]]
    lines = ["| opponents | replaced checkpoint | new checkpoint |", "|---|---|---|"]
    lines += [f"| `{name}` | {cell(old, name)} | {cell(new, name)} |" for name in names]
    return "\n".join(lines) + "\n"


# The game's own yardsticks (python -m training.apps.record_strength): they belong to the game, not to the
# checkpoint, so a new checkpoint of the same game, player count and options keeps them.
YARDSTICK_FIELDS = (
    "parity_win_rate",
    "parity_win_rate_ci95",
    "parity_games",
    "heuristic_vs_random_win_rate",
    "heuristic_vs_random_win_rate_ci95",
    "heuristic_vs_random_games",
    "yardsticks_seed",
)


def _yardsticks_of(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    same_game = ("env_id", "num_players", "options")
    if not old or any(old.get(key) != new.get(key) for key in same_game):
        return {}
    kept = {key: old[key] for key in YARDSTICK_FIELDS if key in old}
    # exploitability figures of the game's bots (training/evaluation/exploit.py) stay; the old model's own goes
    bots = {name: entry for name, entry in (old.get("exploit") or {}).items() if name != "shipped"}
    if bots:
        kept["exploit"] = bots
    return kept


def ship(
    run_dir: Path,
    model_name: str,
    out: Path | None,
    opponents: list[str],
    games: int,
    workers: int,
    force: bool = False,
) -> dict[str, Any]:
    """Export, copy the config and evaluate; see the module docstring. A checkpoint already shipped in
    the target folder is only replaced with ``force`` (and then both evaluations are printed)."""
    from ..evaluation.evaluate import evaluate_checkpoint
    from ..evaluation.report import checkpoint_markdown, write_report

    run_dir = Path(run_dir)
    source = run_dir / model_name
    problem = model_zip_problem(source)
    if problem is not None:
        raise ShipError(f"model file {str(source)!r} {problem}")
    config = read_run_config(run_dir)
    env_id = config.env.id
    options = dict(config.env.options)
    num_players = options.pop("num_players", None)
    options.pop("reward_mode", None)  # a training choice; the evaluation plays the game's default rules
    target = Path(out) if out is not None else release_folder(env_id)
    replacing = (target / "model.zip").exists()
    old = _shipped_evaluation(target) if replacing else None
    if replacing and not force:
        raise ShipError(
            f"{str(target / 'model.zip')!r} is a shipped checkpoint already ({_summary(old)}); shipping would "
            "replace it. Pass --force to replace it (the old and new evaluations are then printed side by side) "
            "or --out DIR to ship elsewhere"
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
        size = export_model(source, target / "model.zip")
        atomic_write_text(target / "config.yaml", (run_dir / "config.yaml").read_text())
    except OSError as err:
        raise ShipError(f"cannot write the checkpoint to {str(target)!r}: {err}") from None
    shipped = target / "model.zip"
    if shipped.is_absolute() and shipped.is_relative_to(Path.cwd()):
        shipped = shipped.relative_to(Path.cwd())  # eval.json names the file as the repository does
    result = evaluate_checkpoint(
        shipped, env_id, num_players, opponents=opponents, games=games, workers=workers, options=options
    )
    result.update(_yardsticks_of(old, result))
    write_report(result, checkpoint_markdown(result), target, "eval")
    print(f"{target / 'model.zip'}: {size / 1e6:.2f} MB")
    for name, row in result["vs"].items():
        low, high = row["win_rate_ci95"]
        print(f"vs {name}: win rate {row['win_rate']:.3f} [{low:.3f}, {high:.3f}] over {row['games']} games")
    if replacing:
        print(f"\nreplaced the checkpoint in {target} (--force); its evaluation and the new one:\n")
        print(comparison_table(old, result), end="")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=command_prog(__spec__.name), description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, help="a training run directory")
    parser.add_argument("--model", default="best_model.zip", help="model file in the run (default best_model.zip)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default checkpoints/<env_id>)")
    parser.add_argument("--vs", nargs="+", default=["random", "heuristic"], help="evaluation opponents")
    parser.add_argument("--games", type=int, default=1000, help="games per opponent (default 1000)")
    parser.add_argument("--workers", type=int, default=1, help="evaluation processes")
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace a checkpoint already shipped in the output folder (prints the old and new evaluations)",
    )
    args = parser.parse_args(argv)
    if not (args.run_dir / args.model).is_file() or not (args.run_dir / "config.yaml").is_file():
        print(f"error: {args.run_dir} has no {args.model} and config.yaml", file=sys.stderr)
        return 2
    try:
        ship(args.run_dir, args.model, args.out, args.vs, args.games, args.workers, force=args.force)
    except (ShipError, InputError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
