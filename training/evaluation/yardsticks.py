"""Strength yardsticks of a game: the parity rate, heuristic against random, and any policy against both bots.

At a game's player count and options, every policy of the table plays one seat-rotated tournament
(:mod:`training.evaluation.tournament`) against n−1 copies of ``random`` and one against n−1 copies of
``heuristic``, all with the same ``games`` and ``seed`` (so every cell is played on the same deals and
seatings):

- **parity rate** P: the win rate of one heuristic seat among heuristic copies. Every seat is the
  same bot, so under seat rotation one seat's expected win rate is the mean number of winners per
  game divided by n; that is what is reported (a game with exactly one winner gives exactly 1/n,
  ties raise it, games without a winner lower it), with a normal 95% interval over games. The
  same estimate fills the ``random`` vs ``random`` cell;
- **heuristic vs random**: the heuristic bot's win rate from one seat against n−1 random bots — the
  figure a checkpoint's win rate against random is held to;
- a checkpoint's and any bot's win rates against random and heuristic opponents (Wilson 95% intervals).

``benchmarks/strength.py`` prints the table; ``training.apps.record_strength`` records P and the
heuristic-vs-random rate in a shipped ``eval.json``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..inputs import checkpoint_location
from .stats import Z_95
from .tournament import prepare_tournament, run_prepared

OPPONENTS = ("random", "heuristic")
CHECKPOINT = "checkpoint"


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
        focal[CHECKPOINT] = checkpoint_location(checkpoint, env_id)
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
