"""Mutation score of the hidden-information code (issue 31).

Applies each mutation of ``tests/mutations/catalogue.toml`` in a scratch copy of the tree (never in the
working tree), runs the default-suite tests that guard that code with ``-x``, and prints which
mutations the suite catches ("killed") and which it misses ("survived").

Two suites: ``before`` is the leak-related part of the suite that existed before issue 31 (the
resample-based view and observation checks, the games' rules tests, the render, observation-reference
and arena tests); ``after`` runs the oracle-based leak tests of issue 31 first, then the same. Every
test run is a default-suite test (no ``slow`` marker), so a mutation killed here fails the default
suite too.

    nice -n 10 .venv/bin/python scripts/mutation_score.py                 # both suites, every mutation
    .venv/bin/python scripts/mutation_score.py --suite after --only M1 M2  # a few
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "tests" / "mutations" / "catalogue.toml"
GAMES = ("potsm_v0", "dead_mans_draw_v0", "tortuga_v0", "madame_ching_v0")
RULES_TESTS = {
    "potsm_v0": ["tests/test_potsm_rules.py"],
    "dead_mans_draw_v0": ["tests/test_dmd_rules.py", "tests/test_dmd_variants.py"],
    "tortuga_v0": ["tests/test_tortuga_rules.py"],
    "madame_ching_v0": ["tests/test_mc_rules.py"],
}
COPY_IGNORE = shutil.ignore_patterns(".venv", ".git", "runs", "__pycache__", "*.egg-info", ".ruff_cache")

# (test file, -k expression or None): the guards of one game's hidden-information code
Group = tuple[str, str | None]


def existing_groups(game: str, rules_tests: bool = True) -> list[Group]:
    if game == "all":
        return [("tests/test_arena.py", "leak or seeing_only or named or replay")]
    groups: list[Group] = [
        ("tests/test_views.py", game),
        ("tests/test_conformance.py", f"{game} and (no_leak or resample or random_play_engine)"),
    ]
    if game in ("tortuga_v0", "madame_ching_v0"):
        groups.append(("tests/test_observation_reference.py", "tor_" if game == "tortuga_v0" else "mch_"))
    if rules_tests:
        groups += [(path, None) for path in RULES_TESTS[game]]
    groups.append(("tests/test_render.py", "spectator or last_action"))
    return groups


def new_groups(game: str) -> list[Group]:
    if game == "all":
        return [("tests/test_leak_oracle.py", "arena")]
    return [("tests/test_leak_oracle.py", game), ("tests/test_resample_redraws.py", game)]


def suite_groups(suite: str, game: str, area: str, rules_tests: bool = True) -> list[Group]:
    groups = new_groups(game) if suite == "after" else []
    if "resample" in area:  # the redraw checks first: they are the ones that see a determinisation
        groups.sort(key=lambda group: "resample" not in group[0])
    return groups + existing_groups(game, rules_tests)


def run_group(scratch: Path, group: Group, timeout: float) -> tuple[str, float]:
    """'failed' (the mutation is caught), 'passed', 'error' or 'timeout'; and the seconds it took."""
    path, expr = group
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", path]
    if expr:
        cmd += ["-k", expr]
    env = {**os.environ, "PYTHONPATH": str(scratch)}
    start = time.monotonic()
    try:
        done = subprocess.run(cmd, cwd=scratch, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start
    took = time.monotonic() - start
    return {0: "passed", 1: "failed", 5: "passed"}.get(done.returncode, "error"), took


def check_scratch_imports(scratch: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(scratch)}
    out = subprocess.run(
        [sys.executable, "-c", "import pirate_envs; print(pirate_envs.__file__)"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not out.startswith(str(scratch)):
        raise SystemExit(f"the scratch copy does not import its own pirate_envs (got {out}); refusing to run")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=("before", "after", "both"), default="both")
    parser.add_argument("--only", nargs="*", default=None, help="mutation ids to run (default: all)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per test group")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON here (after each mutation)")
    parser.add_argument(
        "--without-rules-tests",
        action="store_true",
        help="leave the games' rules tests out of both suites (much faster; a lower bound on the score)",
    )
    args = parser.parse_args(argv)
    mutations = tomllib.loads(CATALOGUE.read_text())["mutation"]
    if args.only:
        unknown = set(args.only) - {m["id"] for m in mutations}
        if unknown:
            parser.error(f"unknown mutation ids {sorted(unknown)}; known: {[m['id'] for m in mutations]}")
        mutations = [m for m in mutations if m["id"] in args.only]
    suites = ("before", "after") if args.suite == "both" else (args.suite,)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still remove the scratch copy
    scratch = Path(tempfile.mkdtemp(prefix="mutation_score_")) / "tree"
    shutil.copytree(ROOT, scratch, ignore=COPY_IGNORE)
    check_scratch_imports(scratch)
    results = []
    started = time.monotonic()
    try:
        for m in mutations:
            target = scratch / m["file"]
            pristine = target.read_text()
            if pristine.count(m["original"]) != 1:
                raise SystemExit(f"{m['id']}: the original text is not exactly once in {m['file']}")
            target.write_text(pristine.replace(m["original"], m["replacement"]))
            row = {"id": m["id"], "game": m["game"], "area": m["area"], "leaks": m["leaks"]}
            try:
                for suite in suites:
                    verdict, caught_by, seconds = "survived", "", 0.0
                    for group in suite_groups(suite, m["game"], m["area"], not args.without_rules_tests):
                        outcome, took = run_group(scratch, group, args.timeout)
                        seconds += took
                        if outcome != "passed":
                            verdict = "killed" if outcome == "failed" else outcome
                            caught_by = group[0] + (f" -k '{group[1]}'" if group[1] else "")
                            break
                    row[suite] = {"verdict": verdict, "by": caught_by, "seconds": round(seconds, 1)}
                    print(f"{m['id']:<28} {suite:<6} {verdict:<8} {seconds:7.1f}s  {caught_by}", flush=True)
            finally:
                target.write_text(pristine)
            results.append(row)
            if args.out:
                args.out.write_text(json.dumps(results, indent=1) + "\n")
    finally:
        shutil.rmtree(scratch.parent, ignore_errors=True)
    total = len(results)
    print()
    for suite in suites:
        killed = sum(r[suite]["verdict"] == "killed" for r in results)
        missed = [r["id"] for r in results if r[suite]["verdict"] != "killed"]
        print(f"{suite}: {killed}/{total} mutations killed" + (f"; not killed: {', '.join(missed)}" if missed else ""))
    print(f"total time {time.monotonic() - started:.0f} s")
    return 0 if all(r[s]["verdict"] == "killed" for r in results for s in suites) else 1


if __name__ == "__main__":
    sys.exit(main())
