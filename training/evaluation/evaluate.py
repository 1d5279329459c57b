"""Tournaments and checkpoint evaluations: ``python -m training.evaluation.evaluate``.

Command line::

    # any policies, seats rotated; writes results/tournament.json and results/tournament.md
    python -m training.evaluation.evaluate --env potsm_v0 --num-players 4 \\
        --policies checkpoints/potsm_v0/model.zip heuristic random \\
        --games 1000 --seed 0 --workers 2 --out results/ [--option reward_mode=score ...]

    # a checkpoint in a rotating seat against n-1 copies of each opponent kind, separately;
    # writes <out>/eval.json and eval.md (or the .json file named by --out)
    python -m training.evaluation.evaluate --env potsm_v0 --num-players 4 \\
        --checkpoint checkpoints/potsm_v0/model.zip --vs random heuristic --games 1000

    # a sequential test: A (one seat) against B until Wald's SPRT decides; --games caps it
    python -m training.evaluation.evaluate --env dead_mans_draw_v0 --policies heuristic random --sprt \\
        [--elo0 0 --elo1 50 --alpha 0.05 --beta 0.05]

``--replays DIR`` (either form) also writes one replay per game, ``DIR/game-NNNNN.json`` (with
``--checkpoint``: ``DIR/vs-<opponent>/game-NNNNN.json``); ``pirate_envs.core.replay`` loads and
re-simulates them exactly.

Both print a Markdown table. Bad input (unknown env id or policy, missing or unreadable
checkpoint, bad option or player count, an ``--out`` that cannot be written) prints
``error: ...`` and exits with code 2 before any game is played: every spec is checked cheaply
before the first checkpoint is loaded.

Python API (for the training pipeline and notebooks)::

    from .evaluate import run_tournament, evaluate_checkpoint

    run_tournament(env_id, num_players, policies, games=1000, seed=0, workers=1,
                   options=None, keep_games=False, progress=False) -> dict
    evaluate_checkpoint(path, env_id, num_players, opponents=("random", "heuristic"),
                        games=1000, seed=0, workers=1, options=None, progress=False) -> dict

``policies`` is a list of specs (:mod:`pirate_envs.policies.spec`: ``"random"``, ``"heuristic"``, a
search bot, a checkpoint path, ``"module:callable"``, a Policy object, a callable) or a
``{label: spec}`` dict. ``run_tournament`` returns
``{"env_id", "num_players", "options", "games", "seed", "policies", "fair_win_rate",
"truncated_games", "balanced", "standings": {label: {"seat_games", "wins", "win_rate",
"win_rate_ci95": [low, high], "mean_score", "mean_return", "seat_counts", "wins_by_seat",
"rating": {"mu", "sigma", "ordinal"}}}, "run": {"workers", "wall_seconds"}}``.
``evaluate_checkpoint`` returns ``{"checkpoint", "env_id", "num_players", "options", "games",
"seed", "fair_win_rate", "vs": {opponent: {"games", "wins", "win_rate", "win_rate_ci95",
"mean_score", "mean_return", "opponent_mean_score", "truncated_games", "wins_by_seat"}},
"run": {...}}``. Everything except ``run`` depends only on the inputs and the seed (never on
``workers``). Write either with ``training.evaluation.report.write_report``. Bad inputs raise
``InputError`` (a ``ValueError``).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog
from pirate_envs.policies.spec import SYNOPSIS

from ..inputs import (
    EXIT_USAGE,
    InputError,
    add_game_arguments,
    check_policy_spec,
    checkpoint_location,
    make_game,
    parse_options,
)
from .report import check_report_target, checkpoint_markdown, tournament_markdown, write_report
from .sprt import DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_ELO0, DEFAULT_ELO1, run_sprt, sprt_line
from .tournament import Tournament, prepare_tournament, run_prepared, run_tournament

__all__ = ["InputError", "evaluate_checkpoint", "main", "run_tournament"]

CHECKPOINT_LABEL = "checkpoint"


def _prepare_checkpoint_runs(
    path: str | Path,
    env_id: str,
    num_players: int | None,
    opponents: Sequence[str],
    games: int,
    seed: int,
    workers: int,
    options: Mapping[str, Any] | None,
    progress: bool,
    replays: str | Path | None = None,
) -> dict[str, Tournament]:
    if not opponents:
        raise InputError("no opponents given; name at least one (random, heuristic, a checkpoint .zip)")
    path = checkpoint_location(path, env_id)
    game = make_game(env_id, num_players, options)
    if CHECKPOINT_LABEL in map(str, opponents):
        raise InputError(f"{CHECKPOINT_LABEL!r} cannot be an opponent label")
    for spec in (path, *opponents):  # all of them, cheaply, before any checkpoint is loaded
        check_policy_spec(spec, game)
    runs = {}
    for opponent in opponents:
        label = str(opponent)
        policies = {CHECKPOINT_LABEL: str(path), label: opponent}
        folder = None if replays is None else Path(replays) / f"vs-{re.sub(r'[^A-Za-z0-9._-]+', '_', label)}"
        runs[label] = prepare_tournament(
            env_id, num_players, policies, games, seed, workers, options, progress=progress, replays=folder
        )
    return runs


def _checkpoint_result(path: str | Path, runs: dict[str, Tournament]) -> dict:
    """Play the prepared runs (sharing one worker pool) and condense them to the checkpoint's view."""
    results = run_prepared(list(runs.values()))
    vs = {}
    for opponent, result in zip(runs, results, strict=True):
        mine, theirs = result["standings"][CHECKPOINT_LABEL], result["standings"][opponent]
        vs[opponent] = {
            "games": result["games"],
            "wins": mine["wins"],
            "win_rate": mine["win_rate"],
            "win_rate_ci95": mine["win_rate_ci95"],
            "mean_score": mine["mean_score"],
            "mean_return": mine["mean_return"],
            "opponent_mean_score": theirs["mean_score"],
            "truncated_games": result["truncated_games"],
            "wins_by_seat": mine["wins_by_seat"],
        }
    first = results[0]
    return {
        "checkpoint": str(path),
        **{key: first[key] for key in ("env_id", "num_players", "options", "games", "seed", "fair_win_rate")},
        "vs": vs,
        "run": first["run"],  # shared by all the runs
    }


def evaluate_checkpoint(
    path: str | Path,
    env_id: str,
    num_players: int | None,
    opponents: Sequence[str] = ("random", "heuristic"),
    games: int = 1000,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    progress: bool = False,
) -> dict:
    """Win rate (Wilson 95% CI) of the checkpoint at ``path`` against n−1 copies of each opponent.

    One seat-rotated tournament per opponent kind, each with the same ``games`` and ``seed`` (so
    the deals are the same against every opponent). See the module docstring for the result.
    """
    runs = _prepare_checkpoint_runs(path, env_id, num_players, opponents, games, seed, workers, options, progress)
    return _checkpoint_result(path, runs)


# --- command line ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name),
        description="Seat-rotated tournaments between policies, with win rates (Wilson 95% CI), mean scores "
        "and OpenSkill ratings; or a checkpoint against each opponent kind.",
    )
    add_game_arguments(parser)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "--policies",
        nargs="+",
        metavar="SPEC",
        help=f"{SYNOPSIS}, 1 or more",
    )
    mode.add_argument(
        "--checkpoint",
        metavar="PATH",
        help="evaluate this checkpoint (a .zip, or 'shipped': the game's shipped agent) against each --vs kind",
    )
    parser.add_argument("--vs", nargs="+", default=["random", "heuristic"], metavar="SPEC", help="opponent kinds")
    parser.add_argument("--games", type=int, default=1000, help="games per tournament (default 1000)")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--out", default=None, help="output directory, or a .json file (the .md goes beside it)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    parser.add_argument("--replays", metavar="DIR", default=None, help="write one replay JSON per game into DIR")
    sprt = parser.add_argument_group("sequential test (training/evaluation/sprt.py)")
    sprt.add_argument(
        "--sprt",
        action="store_true",
        help="with --policies A B: play A (one seat) against B game by game until the SPRT decides (--games caps it)",
    )
    sprt.add_argument(
        "--elo0", type=float, default=DEFAULT_ELO0, help=f"H0: A is this much stronger (default {DEFAULT_ELO0:g})"
    )
    sprt.add_argument(
        "--elo1", type=float, default=DEFAULT_ELO1, help=f"H1: A is this much stronger (default {DEFAULT_ELO1:g})"
    )
    sprt.add_argument("--alpha", type=float, default=DEFAULT_ALPHA, help=f"false H1 rate (default {DEFAULT_ALPHA:g})")
    sprt.add_argument("--beta", type=float, default=DEFAULT_BETA, help=f"false H0 rate (default {DEFAULT_BETA:g})")
    return parser


def _main_sprt(args: argparse.Namespace) -> int:
    try:
        if not args.policies or len(args.policies) != 2:
            raise InputError("--sprt needs --policies A B (exactly two: A is tested against B)")
        if args.out or args.replays:
            raise InputError("--sprt writes no files; leave out --out and --replays")
        if args.games < 1:
            raise InputError(f"--games must be a positive integer; got {args.games}")
        options = parse_options(args.env, args.option)
        result = run_sprt(
            args.env, args.num_players, args.policies[0], args.policies[1], args.elo0, args.elo1, args.alpha,
            args.beta, args.games, args.seed, options,
        )  # fmt: skip
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(sprt_line(result), end="")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.sprt:
        return _main_sprt(args)
    stem = "eval" if args.checkpoint else "tournament"
    try:
        if args.out:  # before any game: a result that cannot be written is lost
            check_report_target(args.out, stem)
        options = parse_options(args.env, args.option)
        if args.checkpoint:
            runs = _prepare_checkpoint_runs(
                args.checkpoint, args.env, args.num_players, args.vs, args.games, args.seed, args.workers, options,
                args.progress, args.replays,
            )  # fmt: skip
        else:
            tournament = prepare_tournament(
                args.env, args.num_players, args.policies, args.games, args.seed, args.workers, options,
                progress=args.progress, replays=args.replays,
            )  # fmt: skip
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.checkpoint:
        result = _checkpoint_result(args.checkpoint, runs)
        markdown = checkpoint_markdown(result)
    else:
        result = tournament.run()
        markdown = tournament_markdown(result)
    print(markdown, end="")
    print(f"({result['run']['wall_seconds']:.1f} s with {result['run']['workers']} worker(s))")
    if args.out:
        json_path, md_path = write_report(result, markdown, args.out, stem)
        print(f"wrote {json_path} and {md_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
