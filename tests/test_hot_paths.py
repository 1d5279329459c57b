"""``benchmarks/hot_paths.py`` runs: a tiny budget, a row per chosen game, "-" where a game has no features."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "hot_paths.py"


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=300)


def test_prints_one_row_per_game_with_every_path():
    games = ("dead_mans_draw_v0", "tortuga_v0", "potsm_v0")
    done = run("--games", *games, "--points", "20", "--rounds", "2", "--seconds", "0.01")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[2:]}
    assert list(rows) == list(games)
    dmd, tortuga, potsm = (rows[game] for game in games)
    # best [median] x 4 paths: heuristic, features, observation, the Python twin of a compiled observation
    assert len(dmd) == 8 and all(cell.startswith("[") for cell in dmd[1::2])
    assert tortuga[2] == "-" and len(tortuga) == 7  # Tortuga has no per-action features
    assert len(potsm) == 8 and all(cell.startswith("[") for cell in potsm[1::2])  # every path, its encoder too


def test_unknown_env_id_is_refused_with_the_known_ones():
    done = run("--games", "dead_mans_drawv0")
    assert done.returncode == 2
    assert "unknown env ids ['dead_mans_drawv0']" in done.stderr and "potsm_v0" in done.stderr
