"""Strength yardsticks per game: random, heuristic, search bots and a checkpoint, with the parity rate.

For each game at its default player count (or ``--num-players``), every policy of the table plays
one seat-rotated tournament against n−1 copies of ``random`` and one against n−1 copies of
``heuristic``, all with the same ``--games`` and ``--seed`` (so every cell is played on the same deals
and seatings). The rows are ``random``, ``heuristic``, each ``--bots`` spec and the checkpoint
(``--checkpoint`` or ``--shipped``); :mod:`training.evaluation.yardsticks` measures them and says what
each cell means (the parity rate P, heuristic vs random, one focal seat's win rate)::

    python benchmarks/strength.py --games 1000 --workers 2 --shipped   # all four games
    python benchmarks/strength.py --env dead_mans_draw_v0 --games 200 --bots ismcts:iterations=50

``--out FILE.json`` also writes the full results. Prints one Markdown table per game and a summary
table. Recording P and the heuristic-vs-random rate in a shipped ``eval.json`` is a release step,
``python -m training.apps.record_strength`` (``pirate-envs record-strength``); ``--record`` here says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's training package (the wheel has it as pirate_envs.training)

from pirate_envs.core.registry import ENV_IDS  # noqa: E402
from training.evaluation.yardsticks import measure_strength, strength_markdown, summary_markdown  # noqa: E402
from training.inputs import EXIT_USAGE, InputError, make_game, parse_options  # noqa: E402


def shipped_checkpoint(env_id: str) -> Path:
    """``checkpoints/<env_id>/model.zip`` of this repository (relative to the working directory when under it)."""
    path = ROOT / "checkpoints" / env_id / "model.zip"
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


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
    parser.add_argument("--record", action="store_true", help="moved: python -m training.apps.record_strength")
    parser.add_argument("--out", metavar="FILE.json", help="also write every result to this JSON file")
    parser.add_argument("--progress", action="store_true", help="progress bars on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.record:
            raise InputError(
                "--record moved: recording the yardsticks in eval.json is a release step, "
                f"python -m training.apps.record_strength --env {' '.join(args.env)} --games {args.games} "
                "(pirate-envs record-strength); this script only measures"
            )
        for env_id in args.env:
            make_game(env_id, None)  # unknown ids fail before any game
        if len(args.env) > 1 and (args.num_players is not None or args.option or args.checkpoint):
            raise InputError("--num-players, --option and --checkpoint need exactly one --env")
        jobs = []
        for env_id in args.env:
            options = parse_options(env_id, args.option)
            checkpoint = shipped_checkpoint(env_id) if args.shipped else args.checkpoint
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
    print(summary_markdown(results), end="")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
