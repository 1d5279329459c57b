"""Reports of tournaments and checkpoint evaluations: Markdown tables and JSON files.

:func:`tournament_markdown` and :func:`checkpoint_markdown` render the result dicts of
``training.evaluation.tournament.run_tournament`` and ``training.evaluation.evaluate.evaluate_checkpoint``;
:func:`write_report` writes a result as ``<stem>.json`` plus ``<stem>.md`` side by side.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(bounds: list[float]) -> str:
    return f"[{_pct(bounds[0])}, {_pct(bounds[1])}]"


def _options(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def _wins(label: str, games: int, row: dict) -> list[str]:
    """The first cells of a row: who, games, wins, win rate, its 95% interval and mean score."""
    cells = [f"`{label}`", str(games), str(row["wins"]), _pct(row["win_rate"]), _ci(row["win_rate_ci95"])]
    return [*cells, f"{row['mean_score']:.2f}"]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def tournament_markdown(result: dict) -> str:
    """A heading line, the settings and one row per policy (best OpenSkill ordinal first)."""
    standings = result["standings"]
    order = sorted(standings, key=lambda label: -standings[label]["rating"]["ordinal"])
    rows = []
    for label in order:
        s = standings[label]
        r = s["rating"]
        rows.append(
            [
                *_wins(label, s["seat_games"], s),
                f"{s['mean_return']:+.3f}",
                f"{r['mu']:.2f}",
                f"{r['sigma']:.2f}",
                f"{r['ordinal']:.2f}",
            ]
        )
    header = ["policy", "seat-games", "wins", "win rate", "95% CI", "mean score", "mean return", "μ", "σ", "ordinal"]
    lines = [
        f"## Tournament: {result['env_id']}, {result['num_players']} players",
        "",
        f"{result['games']} games, seed {result['seed']}, options: {_options(result['options'])}; "
        f"seats rotated{'' if result['balanced'] else ' (not exactly balanced: games is not a full rotation)'}; "
        f"fair win rate {_pct(result['fair_win_rate'])}; truncated games: {result['truncated_games']}.",
        "",
        *_table(header, rows),
        "",
        "Win rate = won seat-games / seat-games (Wilson 95% CI). μ, σ, ordinal (μ − 3σ): OpenSkill "
        "Plackett-Luce, players ranked per game by winner, return, then score.",
    ]
    return "\n".join(lines) + "\n"


def checkpoint_markdown(result: dict) -> str:
    """One row per opponent kind: the checkpoint's win rate against n−1 copies of it."""
    rows = []
    for opponent, vs in result["vs"].items():
        rows.append([*_wins(opponent, vs["games"], vs), f"{vs['opponent_mean_score']:.2f}", str(vs["truncated_games"])])
    header = ["opponents", "games", "wins", "win rate", "95% CI", "mean score", "opp. mean score", "truncated"]
    lines = [
        f"## Checkpoint `{result['checkpoint']}` on {result['env_id']}, {result['num_players']} players",
        "",
        f"Seat rotated against {result['num_players'] - 1} copies of each opponent; {result['games']} games each, "
        f"seed {result['seed']}, options: {_options(result['options'])}; "
        f"fair win rate {_pct(result['fair_win_rate'])}.",
        "",
        *_table(header, rows),
        "",
        "Win rate with Wilson 95% CI.",
    ]
    return "\n".join(lines) + "\n"


def report_paths(out: str | Path, stem: str) -> tuple[Path, Path]:
    """``out`` is a directory (``<out>/<stem>.json``) or a ``.json`` file; the ``.md`` sits beside it."""
    out = Path(out)
    json_path = out if out.suffix == ".json" else out / f"{stem}.json"
    return json_path, json_path.with_suffix(".md")


def check_report_target(out: str | Path, stem: str) -> None:
    """Make sure the report files of ``out`` can be written (before the games that fill them are
    played); creates the folder. Raises ``training.inputs.InputError`` naming the path otherwise."""
    import tempfile

    from ..inputs import InputError

    json_path, md_path = report_paths(out, stem)
    for path in (json_path, md_path):
        if path.is_dir():
            raise InputError(f"--out: {str(path)!r} is a directory; it cannot be written as a report file")
    for folder in (json_path.parent, *json_path.parent.parents):
        if folder.exists() and not folder.is_dir():
            raise InputError(
                f"--out: {str(folder)!r} exists and is not a directory; allowed: a directory or a .json file"
            )
    try:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=json_path.parent):
            pass
    except OSError as err:
        raise InputError(
            f"--out: cannot write the report to {str(json_path.parent)!r} ({err.strerror or err}); "
            "allowed: a writable directory or a .json file in one"
        ) from None


def write_report(result: dict, markdown: str, out: str | Path, stem: str) -> tuple[Path, Path]:
    """Write ``result`` as JSON and ``markdown`` beside it; return both paths."""
    json_path, md_path = report_paths(out, stem)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(result, indent=2) + "\n")
    md_path.write_text(markdown)
    return json_path, md_path
