"""Strength yardsticks per game: random, heuristic, search bots and a checkpoint, with the parity rate.

For each game at its default player count (or ``--num-players``), every policy of the table plays
one seat-rotated tournament (``training.evaluation.tournament``) against n−1 copies of ``random`` and one
against n−1 copies of ``heuristic``, all with the same ``--games`` and ``--seed`` (so every cell is
played on the same deals and seatings):

- **parity rate** P: the win rate of one heuristic seat among heuristic copies. Every seat is the
  same bot, so under seat rotation one seat's expected win rate is the mean number of winners per
  game divided by n; that is what is reported (a game with exactly one winner gives exactly 1/n,
  ties raise it, games without a winner lower it), with a normal 95% interval over games. The
  same estimate fills the ``random`` vs ``random`` cell;
- **heuristic vs random**: the heuristic bot's win rate from one seat against n−1 random bots — the
  figure a checkpoint's win rate against random is held to;
- the checkpoint's (``--checkpoint`` or ``--shipped``) and each ``--bots`` search bot's win rates
  against random and heuristic opponents (Wilson 95% intervals).

    python benchmarks/strength.py --games 1000 --workers 2 --shipped --record   # all four games
    python benchmarks/strength.py --env dead_mans_draw_v0 --games 200 --bots ismcts:iterations=50

``--record`` writes ``parity_win_rate``, ``heuristic_vs_random_win_rate`` (each with ``_ci95`` and
``_games``) and ``yardsticks_seed`` into ``checkpoints/<env_id>/eval.json``, leaving every other
field as it is; the game's player count and options must be those of that file. ``--out FILE.json``
also writes the full results. Prints one Markdown table per game and a summary table.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's training package (the wheel has it as pirate_envs.training)

from pirate_envs.core.registry import ENV_IDS  # noqa: E402
from training.apps.ship import YARDSTICK_FIELDS  # noqa: E402
from training.evaluation.stats import Z_95  # noqa: E402
from training.evaluation.tournament import prepare_tournament, run_prepared  # noqa: E402
from training.inputs import EXIT_USAGE, InputError, make_game, parse_options  # noqa: E402

OPPONENTS = ("random", "heuristic")
CHECKPOINT = "checkpoint"
RECORDED = YARDSTICK_FIELDS


def shipped_checkpoint(env_id: str) -> Path:
    """``checkpoints/<env_id>/model.zip`` of this repository (relative to the working directory when under it)."""
    path = ROOT / "checkpoints" / env_id / "model.zip"
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def symmetric_rate(records: Sequence[dict], num_players: int) -> dict[str, Any]:
    """Win rate of one seat among identical policies: mean winners per game / n, normal 95% interval."""
    shares = [len(record["winners"]) / num_players for record in records]
    games = len(shares)
    wins = sum(len(record["winners"]) for record in records)
    mean = wins / (games * num_players)
    spread = Z_95 * math.sqrt(sum((s - mean) ** 2 for s in shares) / max(games - 1, 1) / games)
    return {
        "games": games,
        "wins": wins,  # winning seat-games, over games x n seat-games
        "win_rate": mean,
        "win_rate_ci95": [max(0.0, mean - spread), min(1.0, mean + spread)],
        "estimate": "all seats",
    }


def _focal_rate(result: dict, label: str) -> dict[str, Any]:
    mine = result["standings"][label]
    return {
        "games": mine["seat_games"],
        "wins": mine["wins"],
        "win_rate": mine["win_rate"],
        "win_rate_ci95": mine["win_rate_ci95"],
        "estimate": "focal seat",
    }


def measure_strength(
    env_id: str,
    num_players: int | None = None,
    games: int = 1000,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    checkpoint: str | Path | None = None,
    bots: Sequence[str] = (),
    progress: bool = False,
) -> dict[str, Any]:
    """Every policy of the table against n−1 random and n−1 heuristic opponents; see the module docstring.

    Returns ``{"env_id", "num_players", "options", "games", "seed", "fair_win_rate", "parity_win_rate",
    "parity_win_rate_ci95", "heuristic_vs_random_win_rate", "heuristic_vs_random_win_rate_ci95",
    "table": {policy: {opponent: {"games", "wins", "win_rate", "win_rate_ci95", "estimate"}}}, "run"}``;
    everything but ``run`` depends only on the inputs. Bad inputs raise ``InputError`` before any game.
    """
    focal: dict[str, Any] = {"random": "random", "heuristic": "heuristic"}
    for bot in bots:
        focal[str(bot)] = str(bot)
    if checkpoint is not None:
        if not Path(checkpoint).exists():
            raise InputError(f"checkpoint not found: {checkpoint}")
        focal[CHECKPOINT] = str(checkpoint)
    cells, tournaments = [], []
    for label, spec in focal.items():  # prepare_tournament checks every spec before a game is played
        for opponent in OPPONENTS:
            same = spec == opponent
            policies = {label: spec, (f"{opponent}#2" if same else opponent): opponent}
            tournaments.append(
                prepare_tournament(
                    env_id, num_players, policies, games, seed, workers, options, keep_games=same, progress=progress
                )
            )
            cells.append((label, opponent, same))
    results = run_prepared(tournaments)
    table: dict[str, dict[str, Any]] = {label: {} for label in focal}
    for (label, opponent, same), result in zip(cells, results, strict=True):
        n = result["num_players"]
        table[label][opponent] = symmetric_rate(result["game_records"], n) if same else _focal_rate(result, label)
    first = results[0]
    parity, versus_random = table["heuristic"]["heuristic"], table["heuristic"]["random"]
    return {
        **{key: first[key] for key in ("env_id", "num_players", "options", "games", "seed", "fair_win_rate")},
        "checkpoint": None if checkpoint is None else str(checkpoint),
        "parity_win_rate": parity["win_rate"],
        "parity_win_rate_ci95": parity["win_rate_ci95"],
        "heuristic_vs_random_win_rate": versus_random["win_rate"],
        "heuristic_vs_random_win_rate_ci95": versus_random["win_rate_ci95"],
        "table": table,
        "run": first["run"],
    }


# --- recording and reports ----------------------------------------------------------------------


def check_record_target(path: Path, env_id: str, num_players: int | None, options: Mapping[str, Any]) -> None:
    """``path`` (an eval.json) must exist and describe the same game, player count and options."""
    try:
        recorded = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"--record: cannot read {path} ({exc}); it is written by training.apps.ship") from None
    game = make_game(env_id, num_players, options)
    wanted = {"env_id": env_id, "num_players": game.num_players, "options": dict(game.options)}
    for key, value in wanted.items():
        if recorded.get(key) != value:
            raise InputError(
                f"--record: {path} has {key} {recorded.get(key)!r} but these games use {value!r}; "
                "allowed: the player count and options the checkpoint was evaluated with"
            )


def record_yardsticks(result: Mapping[str, Any], path: str | Path) -> dict[str, Any]:
    """Add (or replace) the yardstick fields of ``path`` (an eval.json) after ``fair_win_rate``; return it."""
    path = Path(path)
    data = json.loads(path.read_text())
    table = result["table"]["heuristic"]
    fields = {
        "parity_win_rate": result["parity_win_rate"],
        "parity_win_rate_ci95": result["parity_win_rate_ci95"],
        "parity_games": table["heuristic"]["games"],
        "heuristic_vs_random_win_rate": result["heuristic_vs_random_win_rate"],
        "heuristic_vs_random_win_rate_ci95": result["heuristic_vs_random_win_rate_ci95"],
        "heuristic_vs_random_games": table["random"]["games"],
        "yardsticks_seed": result["seed"],
    }
    kept = {key: value for key, value in data.items() if key not in fields}
    updated: dict[str, Any] = {}
    for key, value in kept.items():
        updated[key] = value
        if key == "fair_win_rate":
            updated.update(fields)
    updated.update({key: value for key, value in fields.items() if key not in updated})
    path.write_text(json.dumps(updated, indent=2) + "\n")
    return updated


def _cell(cell: Mapping[str, Any] | None) -> str:
    if cell is None:
        return "—"
    low, high = cell["win_rate_ci95"]
    return f"{cell['win_rate']:.3f} [{low:.3f}, {high:.3f}]"


def strength_markdown(result: Mapping[str, Any]) -> str:
    """One game's table: a row per policy, its win rate against n−1 random and n−1 heuristic bots."""
    n, parity = result["num_players"], result["parity_win_rate"]
    lines = [
        f"## {result['env_id']}, {n} players",
        "",
        f"{result['games']} seat-rotated games per cell, seed {result['seed']}; win rate of the row's policy in one "
        f"seat against {n - 1} copies of the column's (95% CI). Parity P = {parity:.3f}.",
        "",
        f"| policy | vs {n - 1} random | vs {n - 1} heuristic | vs heuristic / P |",
        "|---|---|---|---|",
    ]
    for label, row in result["table"].items():
        shown = f"`{result['checkpoint']}`" if label == CHECKPOINT else f"`{label}`"
        ratio = row["heuristic"]["win_rate"] / parity if parity else float("nan")
        lines.append(f"| {shown} | {_cell(row.get('random'))} | {_cell(row.get('heuristic'))} | {ratio:.2f} |")
    lines += ["", "Same-policy cells (random vs random, heuristic vs heuristic = P) average over all seats."]
    return "\n".join(lines) + "\n"


def summary_markdown(results: Sequence[Mapping[str, Any]]) -> str:
    """One row per game: the yardsticks and, when measured, the checkpoint against them."""
    lines = [
        "| game | players | random vs heuristic | heuristic vs random | parity P | checkpoint vs random "
        "| checkpoint vs heuristic | checkpoint / P |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        table, parity = result["table"], result["parity_win_rate"]
        mine = table.get(CHECKPOINT)
        ratio = f"{mine['heuristic']['win_rate'] / parity:.2f}" if mine and parity else "—"
        lines.append(
            f"| {result['env_id']} | {result['num_players']} | {_cell(table['random']['heuristic'])} "
            f"| {_cell(table['heuristic']['random'])} | {_cell(table['heuristic']['heuristic'])} "
            f"| {_cell(mine and mine['random'])} | {_cell(mine and mine['heuristic'])} | {ratio} |"
        )
    return "\n".join(lines) + "\n"


# --- command line --------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/strength.py",
        description="Win rates of random, heuristic, search bots and a checkpoint against random and heuristic "
        "opponents, with the parity rate (one heuristic seat among heuristic copies), per game.",
    )
    parser.add_argument("--env", nargs="+", default=list(ENV_IDS), metavar="ENV_ID", help="games (default: all)")
    parser.add_argument("--num-players", type=int, default=None, help="player count (one --env only)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="rule option (one --env)")
    parser.add_argument("--games", type=int, default=1000, help="games per cell (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--checkpoint", metavar="PATH", help="a checkpoint row (one --env only)")
    which.add_argument("--shipped", action="store_true", help="a row for checkpoints/<env_id>/model.zip")
    parser.add_argument("--bots", nargs="+", default=[], metavar="SPEC", help="search bot rows, e.g. flatmc")
    parser.add_argument(
        "--record", action="store_true", help="write the parity and heuristic-vs-random figures into the eval.json"
    )
    parser.add_argument("--out", metavar="FILE.json", help="also write every result to this JSON file")
    parser.add_argument("--progress", action="store_true", help="progress bars on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        for env_id in args.env:
            make_game(env_id, None)  # unknown ids fail before any game
        if len(args.env) > 1 and (args.num_players is not None or args.option or args.checkpoint):
            raise InputError("--num-players, --option and --checkpoint need exactly one --env")
        jobs = []
        for env_id in args.env:
            options = parse_options(env_id, args.option)
            checkpoint = shipped_checkpoint(env_id) if args.shipped else args.checkpoint
            if args.record:
                check_record_target(shipped_checkpoint(env_id).parent / "eval.json", env_id, args.num_players, options)
            jobs.append((env_id, options, checkpoint))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    results = []
    for env_id, options, checkpoint in jobs:
        try:
            result = measure_strength(
                env_id, args.num_players, args.games, args.seed, args.workers, options, checkpoint, args.bots,
                args.progress,
            )  # fmt: skip
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        results.append(result)
        print(strength_markdown(result))
        print(f"({result['run']['wall_seconds']:.1f} s with {result['run']['workers']} worker(s))\n", flush=True)
        if args.record:
            path = shipped_checkpoint(env_id).parent / "eval.json"
            record_yardsticks(result, path)
            print(f"recorded parity and heuristic-vs-random rates in {path}\n")
    print(summary_markdown(results), end="")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
