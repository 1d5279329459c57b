"""The benchmark scripts run: a tiny budget through ``benchmarks/throughput.py``, every column printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_throughput_script_prints_every_cell():
    argv = ["--games", "potsm_v0", "--rounds", "1", "--seconds", "0.01", "--bots"]
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "throughput.py"), *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "heuristic bot" in out
    rows = [line for line in out.splitlines() if line.startswith("potsm_v0 (")]
    assert [row.split()[1] for row in rows] == ["(2p)", "(3p)", "(4p)"]
    for row in rows:  # engine, AEC env and bot cells read "best [median]"; the ratio has no brackets
        assert row.count("[") == 3, row
