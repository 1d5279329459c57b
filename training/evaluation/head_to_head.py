"""The shipped agent head to head against every other entry of its game's ladder, one SPRT per pair.

    python -m training.evaluation.head_to_head --env dead_mans_draw_v0            # every entry, the table
    python -m training.evaluation.head_to_head --env potsm_v0 --entries random heuristic --max-games 400

For each entry ``X`` of ``checkpoints/<env_id>/ladder.json`` (random, heuristic, the search bots), the shipped
agent plays one seat against ``n − 1`` copies of ``X`` (seats rotated, deals seeded: the games of
``training.evaluation.evaluate --sprt --policies shipped X``) until Wald's SPRT decides between H0 "the
agent is no stronger than X" (0 points) and H1 "50 points stronger", or ``max_games`` are played. Every
pair reports the agent's score (a win 1, a shared win its share) over the games, its 95% Wilson interval,
the fair share ``1/n`` and the decision. The results are written to ``checkpoints/<env_id>/head_to_head.json``
(``--out`` elsewhere) and printed as the markdown table docs/evaluation.md shows.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog
from pirate_envs.core.registry import ENV_IDS

from ..checkpoints import atomic_write_text
from ..inputs import InputError, exits_on_input_error
from .ladder import file_sha256, load_ladder, resolve_entry_spec, shipped_model
from .sprt import run_sprt
from .stats import wilson_interval

SHIPPED = "shipped"


def head_to_head_path(env_id: str) -> Path:
    return shipped_model(env_id).with_name("head_to_head.json")


def play_pair(env_id: str, spec: str, max_games: int, seed: int) -> dict[str, Any]:
    """The shipped agent against copies of ``spec``: the SPRT's result with its score's interval and timing."""
    started = time.perf_counter()
    result = run_sprt(env_id, None, str(shipped_model(env_id)), spec, max_games=max_games, seed=seed)
    scored = result["scored_games"]
    low, high = wilson_interval(result["score"], scored)
    return {
        "decision": result["decision"],
        "games": result["games"],
        "scored_games": scored,
        "score": result["score"],
        "win_rate": result["score"] / scored if scored else None,
        "ci95": [round(low, 4), round(high, 4)],
        "llr": round(result["llr"], 3),
        "max_games": max_games,
        "seed": seed,
        "wall_seconds": round(time.perf_counter() - started, 1),
    }


def head_to_head(
    env_id: str, entries: Sequence[str] | None = None, max_games: int = 1000, seed: int = 0, say=print,
    path: Path | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Every pair of the shipped agent with a ladder entry (or only ``entries``); module docstring. With ``path``
    the table is merged into that file after every pair (a long run can be stopped without losing the pairs
    it played)."""
    if env_id not in ENV_IDS:
        raise InputError(f"unknown env id {env_id!r}; known: {', '.join(ENV_IDS)}")
    ladder = load_ladder(env_id)
    available = [label for label in ladder["entries"] if label != SHIPPED]
    chosen = list(entries) if entries else available
    unknown = [label for label in chosen if label not in available]
    if unknown:
        raise InputError(f"--entries: {unknown} are not entries of the {env_id} ladder; it has: {', '.join(available)}")
    table: dict[str, Any] = {
        "env_id": env_id,
        "num_players": ladder["num_players"],
        "fair": 1.0 / ladder["num_players"],
        "test": "SPRT of H0 (0 points) against H1 (+50 points), alpha = beta = 0.05",
        "shipped_sha256": file_sha256(shipped_model(env_id)),
        "pairs": {},
    }
    for label in chosen:
        spec = resolve_entry_spec(ladder["entries"][label]["spec"])
        pair = {"kind": ladder["entries"][label]["kind"], "rating": ladder["entries"][label]["rating"]}
        pair.update(play_pair(env_id, spec, max_games, seed))
        table["pairs"][label] = pair
        say(f"{env_id}: shipped vs {label}: {pair_text(pair)}")
        if path is not None:
            old = json.loads(path.read_text()) if path.is_file() else None
            atomic_write_text(path, json.dumps(merge(old, table), indent=1) + "\n")
    return table


def pair_text(pair: dict[str, Any]) -> str:
    rate = "-" if pair["win_rate"] is None else f"{pair['win_rate']:.3f}"
    verdict = {"H1": "stronger (H1)", "H0": "not stronger (H0)", None: "no decision"}[pair["decision"]]
    return f"{rate} [{pair['ci95'][0]:.3f}, {pair['ci95'][1]:.3f}] over {pair['games']} games, {verdict}"


def merge(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """``new`` with the pairs of ``old`` it did not replay (the same shipped agent only)."""
    if not old or old.get("shipped_sha256") != new["shipped_sha256"]:
        return new
    return {**new, "pairs": {**old["pairs"], **new["pairs"]}}


def markdown(table: dict[str, Any]) -> str:
    n = table["num_players"]
    lines = [
        f"| shipped agent ({n} players, fair {table['fair']:.3f}) vs | kind | its rating | agent's win rate [95% CI] "
        "| games (cap) | SPRT |",
        "|---|---|---|---|---|---|",
    ]
    for label, pair in sorted(table["pairs"].items(), key=lambda item: -item[1]["rating"]):
        rate = "-" if pair["win_rate"] is None else f"{pair['win_rate']:.3f}"
        verdict = {"H1": "stronger", "H0": "not stronger", None: "no decision"}[pair["decision"]]
        lines.append(
            f"| `{label}` | {pair['kind']} | {pair['rating']:.0f} | {rate} [{pair['ci95'][0]:.3f}, "
            f"{pair['ci95'][1]:.3f}] | {pair['games']} ({pair['max_games']}) | {verdict} |"
        )
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=command_prog(__spec__.name), description=__doc__.split("\n")[0])
    parser.add_argument("--env", required=True, help=f"one of: {', '.join(ENV_IDS)}")
    parser.add_argument("--entries", nargs="+", default=None, metavar="ENTRY", help="only these ladder entries")
    parser.add_argument("--max-games", type=int, default=1000, help="games per pair without a decision (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="write here instead of checkpoints/<env_id>/head_to_head.json")
    return parser


@exits_on_input_error
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.max_games < 1:
        raise InputError(f"--max-games must be at least 1, got {args.max_games}")
    path = Path(args.out) if args.out else head_to_head_path(args.env)
    head_to_head(args.env, args.entries, args.max_games, args.seed, path=path)
    print(markdown(json.loads(path.read_text())), end="")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
