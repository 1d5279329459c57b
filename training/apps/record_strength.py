"""Record a game's strength yardsticks in its shipped ``eval.json``: ``python -m training.apps.record_strength``.

    python -m training.apps.record_strength --games 1000 --workers 2          # every shipped game
    python -m training.apps.record_strength --env dead_mans_draw_v0 --games 1000

For each game (default: every one with a shipped ``eval.json``) the yardsticks of
:mod:`training.evaluation.yardsticks` — the parity rate P (one heuristic seat among heuristic copies) and
the heuristic bot's win rate against n−1 random bots — are measured at the player count and rule
options the ``eval.json`` records, and written into it as ``parity_win_rate`` and
``heuristic_vs_random_win_rate`` (each with ``_ci95`` and ``_games``) and ``yardsticks_seed``, right
after ``fair_win_rate``; every other field stays as it is. They belong to the game, not to the
checkpoint: ``training.apps.ship`` keeps them when it ships a new model of the same game, player
count and options. ``--checkpoints-dir DIR`` records in ``DIR/<env_id>/eval.json`` instead of the
shipped folder (``ship``'s default). Prints each game's table and where it was recorded. A missing
or unreadable ``eval.json`` or an unknown game prints ``error: ...`` and exits with code 2 before any
game is played. ``benchmarks/strength.py`` measures the same table for any policies without recording.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog

from ..checkpoints import atomic_write_text
from ..evaluation.yardsticks import measure_strength, strength_markdown
from ..inputs import InputError, check_env_id, exits_on_input_error, make_game
from .ship import release_folder, releases_dir


def eval_json_path(env_id: str, checkpoints_dir: str | Path | None = None) -> Path:
    """The ``eval.json`` the yardsticks of ``env_id`` go into."""
    folder = release_folder(env_id) if checkpoints_dir is None else Path(checkpoints_dir) / env_id
    return folder / "eval.json"


def read_evaluation(path: Path) -> dict[str, Any]:
    """The evaluation recorded at ``path``; a missing or unreadable one is an :class:`InputError`."""
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict) or not isinstance(data.get("num_players"), int):
            raise ValueError("no num_players in it")
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read {path} ({exc}); it is written by training.apps.ship") from None
    return data


def check_record_target(path: Path, env_id: str, num_players: int | None, options: Mapping[str, Any]) -> None:
    """``path`` (an eval.json) must exist and describe the same game, player count and options."""
    recorded = read_evaluation(path)
    game = make_game(env_id, num_players, options)
    wanted = {"env_id": env_id, "num_players": game.num_players, "options": dict(game.options)}
    for key, value in wanted.items():
        if recorded.get(key) != value:
            raise InputError(
                f"{path} has {key} {recorded.get(key)!r} but these games use {value!r}; "
                "allowed: the player count and options the checkpoint was evaluated with"
            )


def record_yardsticks(result: Mapping[str, Any], path: str | Path) -> dict[str, Any]:
    """Add (or replace) the yardstick fields of ``path`` (an eval.json) after ``fair_win_rate``; return it."""
    path = Path(path)
    data = read_evaluation(path)
    table = result["table"]["heuristic"]
    fields = {  # the names of YARDSTICK_FIELDS, which ship carries over to a new checkpoint
        "parity_win_rate": result["parity_win_rate"],
        "parity_win_rate_ci95": result["parity_win_rate_ci95"],
        "parity_games": table["heuristic"]["games"],
        "heuristic_vs_random_win_rate": result["heuristic_vs_random_win_rate"],
        "heuristic_vs_random_win_rate_ci95": result["heuristic_vs_random_win_rate_ci95"],
        "heuristic_vs_random_games": table["random"]["games"],
        "yardsticks_seed": result["seed"],
    }
    updated: dict[str, Any] = {}
    for key, value in data.items():
        if key in fields:
            continue
        updated[key] = value
        if key == "fair_win_rate":
            updated.update(fields)
    updated.update({key: value for key, value in fields.items() if key not in updated})
    atomic_write_text(path, json.dumps(updated, indent=2) + "\n")
    return updated


def record_target(env_id: str, checkpoints_dir: str | Path | None = None) -> tuple[Path, int, dict[str, Any]]:
    """``env_id``'s eval.json and the player count and options it records (checked against the game)."""
    check_env_id(env_id)
    path = eval_json_path(env_id, checkpoints_dir)
    recorded = read_evaluation(path)
    num_players, options = recorded["num_players"], recorded.get("options") or {}
    check_record_target(path, env_id, num_players, options)
    return path, num_players, options


def record_strength(
    env_id: str, games: int = 1000, seed: int = 0, workers: int = 1, checkpoints_dir: str | Path | None = None,
    progress: bool = False,
) -> tuple[dict[str, Any], Path]:  # fmt: skip
    """Measure ``env_id``'s yardsticks at its ``eval.json``'s player count and options and record them there;
    returns the measurement and the file."""
    path, num_players, options = record_target(env_id, checkpoints_dir)
    result = measure_strength(env_id, num_players, games, seed, workers, options, progress=progress)
    record_yardsticks(result, path)
    return result, path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name),
        description="Measure each game's parity rate and heuristic-vs-random win rate and record them in its "
        "shipped eval.json.",
    )
    parser.add_argument("--env", nargs="+", default=None, metavar="ENV_ID", help="games (default: every shipped one)")
    parser.add_argument("--games", type=int, default=1000, help="games per cell (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument(
        "--checkpoints-dir", default=None, metavar="DIR", help="record in DIR/<env_id>/eval.json instead"
    )
    parser.add_argument("--progress", action="store_true", help="progress bars on stderr")
    return parser


@exits_on_input_error
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    env_ids = args.env
    if env_ids is None:
        root = releases_dir() if args.checkpoints_dir is None else Path(args.checkpoints_dir)
        env_ids = sorted(p.parent.name for p in root.glob("*/eval.json"))
        if not env_ids:
            raise InputError(f"no <env_id>/eval.json in {root}; ship a model first (training.apps.ship)")
    for env_id in env_ids:  # every target, before any game
        record_target(env_id, args.checkpoints_dir)
    for env_id in env_ids:
        result, path = record_strength(env_id, args.games, args.seed, args.workers, args.checkpoints_dir, args.progress)
        print(strength_markdown(result))
        print(f"recorded parity and heuristic-vs-random rates in {path}\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
