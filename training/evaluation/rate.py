"""Place any policy on a game's reference ladder: ``python -m training.evaluation.rate``.

    python -m training.evaluation.rate --env dead_mans_draw_v0 --policy runs/x/best_model.zip \
        [--games 600] [--seed 0] [--json]

The policy (a checkpoint ``.zip``, an RLlib checkpoint directory, a bot spec such as ``heuristic``
or ``ismcts:iterations=50``, or ``module:callable`` naming a Policy object, a class made with no
arguments, or a function ``f(observation, action_mask, rng) -> int``) plays one seat of every table,
and every other seat is a reference of the shipped ladder (``checkpoints/<env_id>/ladder.json``,
see ``training.evaluation.ladder``; ``random`` and ``heuristic``) drawn at random: the tables on
which the ladder rated its own entries, played by the same function. The references keep their
ladder ratings; the policy's rating is fitted by the ladder's model and its 95% interval
bootstrapped over the games played here (the ladder's own uncertainty is not added). The same
``--seed`` gives the same figure. ``--references`` draws the other seats from fewer entries (or, on
a version-1 ladder, from more): other tables, whose rating may differ from the ladder's by the
model's misfit.

Output: a line ``rating R [low, high] ...`` and a row per composition of the other seats (games,
the policy's win rate, the model's expectation), or with ``--json`` one JSON line with ``env_id``,
``policy``, ``rating``, ``ci95``, ``games``, ``seed``, ``references`` (their ladder ratings),
``ladder_tables`` (whether these were the ladder's own tables), ``win_rate``, ``tables`` (per
composition: ``field``, ``games``, ``win_rate``, ``model``), ``outcomes`` and, when the policy is
itself a ladder entry, ``ladder_entry``, ``ladder_rating`` and ``ladder_ci95``.
Bad input prints ``error: ...`` and exits with code 2 before any game is played.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..inputs import EXIT_USAGE, InputError, policy_label, policy_parser
from .ladder import (
    entry_checkpoint,
    file_sha256,
    ladder_references,
    load_ladder,
    place,
    play_match,
    shipped_model,
    table_fit,
)

DEFAULT_GAMES = 600
CANDIDATE = "candidate"


def ladder_entry_of(spec: Any, ladder: dict[str, Any]) -> str | None:
    """The ladder entry ``spec`` names (its label, its spec, or the shipped model's path), if any."""
    if not isinstance(spec, (str, Path)):
        return None
    text = str(spec)
    for label, entry in ladder["entries"].items():
        if text in (label, entry["spec"]):
            return label
        checkpoint = entry_checkpoint(entry["spec"])
        if checkpoint is not None and Path(text).exists() and Path(text).resolve() == checkpoint.resolve():
            return label
    return None


def rate_policy(
    env_id: str,
    spec: Any,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    references: Sequence[str] | None = None,
    workers: int = 1,
    ladder: str | Path | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``spec`` at the ladder's tables and return its rating (see the module docstring).

    ``games`` is rounded up to a multiple of the player count.
    """
    data = load_ladder(env_id, ladder)
    n = data["num_players"]
    own = ladder_references(data)
    references = list(references or own)
    unknown = [r for r in references if r not in data["entries"]]
    if unknown:
        raise InputError(f"unknown references {unknown}; the {env_id} ladder has: {', '.join(data['entries'])}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InputError(f"games must be a positive integer; got {games!r}")
    if not isinstance(spec, (str, Path)):
        workers = 1  # an object need not survive the trip to a worker process; a spec text is resolved there
    specs = {ref: data["entries"][ref]["spec"] for ref in references}
    match = play_match(env_id, n, (CANDIDATE, spec), specs, games, seed, workers, progress)
    fixed = {ref: data["entries"][ref]["rating"] for ref in references}
    placed = place(fixed, [match], n, seed=seed, label=CANDIDATE)
    report: dict[str, Any] = {
        "env_id": env_id,
        "num_players": n,
        "policy": policy_label(spec),
        "rating": placed["rating"],
        "ci95": placed["ci95"],
        "games": match["games"],
        "seed": seed,
        "references": {ref: {"rating": fixed[ref]} for ref in references},
        "ladder_tables": bool(data.get("references")) and references == own,
        "win_rate": match["focal_win_rate"],
        "tables": table_fit(match, CANDIDATE, {CANDIDATE: placed["rating"], **fixed}, n),
        "outcomes": match["outcomes"],
    }
    entry = ladder_entry_of(spec, data)
    if entry is not None:
        report.update(
            ladder_entry=entry,
            ladder_rating=data["entries"][entry]["rating"],
            ladder_ci95=data["entries"][entry]["ci95"],
        )
    return report


def stale_shipped_warning(env_id: str, ladder: str | Path | None = None) -> str | None:
    """A warning when ``model.zip`` is not the model the ladder's ``shipped`` entry was fitted for."""
    recorded = load_ladder(env_id, ladder).get("shipped_sha256")
    if recorded is not None and recorded != file_sha256(shipped_model(env_id)):
        return (
            f"warning: checkpoints/{env_id}/model.zip changed since the ladder was built; its 'shipped' rating is "
            f"stale (python -m training.evaluation.ladder --env {env_id} --replay shipped)"
        )
    return None


def rating_text(report: dict[str, Any]) -> str:
    low, high = report["ci95"]
    lines = [
        f"rating {report['rating']:.0f} [{low:.0f}, {high:.0f}] (95% CI) on the {report['env_id']} ladder "
        f"(heuristic = 1500), {report['games']} games, seed {report['seed']}: {report['policy']}"
    ]
    if "ladder_rating" in report:
        ll, lh = report["ladder_ci95"]
        lines.append(f"ladder entry {report['ladder_entry']!r}: {report['ladder_rating']:.0f} [{ll:.0f}, {lh:.0f}]")
    references = ", ".join(f"{ref} {row['rating']:.0f}" for ref, row in report["references"].items())
    where = "the ladder's tables" if report["ladder_tables"] else "not the ladder's tables"
    lines.append(f"one seat against references drawn at random ({references}): {where}")
    lines += ["", "| other seats | games | win rate | model |", "|---|---|---|---|"]
    for row in report["tables"]:
        rate, model = (f"{row[k]:.3f}" if row[k] is not None else "-" for k in ("win_rate", "model"))
        lines.append(f"| {row['field']} | {row['games']} | {rate} | {model} |")
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = policy_parser(
        __spec__.name,
        "Rate a policy on a game's shipped reference ladder (heuristic = 1500; 400 points = 10:1 odds).",
        "the policy to rate",
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games in all (default {DEFAULT_GAMES})")
    parser.add_argument(
        "--references",
        nargs="+",
        default=None,
        metavar="ENTRY",
        help="draw the other seats from these entries (default: the ladder's references, its own tables)",
    )
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--ladder", default=None, metavar="PATH", help="a ladder file (default: the shipped one)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.num_players is not None or args.option:
            data = load_ladder(args.env, args.ladder)
            if args.option or args.num_players != data["num_players"]:
                raise InputError(
                    f"the {args.env} ladder is played at {data['num_players']} players with the default rules; "
                    "--num-players and --option cannot change that"
                )
        report = rate_policy(
            args.env, args.policy, args.games, args.seed, args.references, args.workers, args.ladder, args.progress
        )
        warning = stale_shipped_warning(args.env, args.ladder)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if warning:
        print(warning, file=sys.stderr)
    print(json.dumps(report) if args.json else rating_text(report), end="\n" if args.json else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
