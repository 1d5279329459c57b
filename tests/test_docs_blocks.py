"""Every command and snippet in README.md, the pages of docs/ (sub-folders too) and the files they include runs
as written.

The test finds every fenced ``bash`` and ``python`` block and runs it from the repository root's
contents (a scratch copy: links to the sources, the venv and the configs, a copy of ``checkpoints/``,
so what a block writes — runs, results, replays, a shipped model — lands in a temporary folder).
Blocks run in the order of their file, so a later block may use what an earlier one made.

A block may carry a marker, an HTML comment on the line before its opening fence::

    <!-- docs-test: CLAUSE; CLAUSE; ... -->

with these clauses:

- ``setup``: the install commands CI itself runs (``python3 -m venv``, ``.venv/bin/pip install``);
  not run here, and checked to contain nothing else.
- ``skip: REASON``: never run (a Ray cluster, a server that runs until stopped, the test suite itself).
- ``slow: REASON``: run only with ``-m slow`` (a training run, a framework that takes half a minute to
  import); the default run parses every command of it with its module's own argument parser and
  compiles its Python, a fast variant of each.
- ``stdin: TEXT``: what the block reads on standard input (``q`` for ``training.apps.play``).
- ``tiny TARGET: ARGS``: when this test runs the block, ARGS are added at the end of every command
  line that runs TARGET (``training.train``, a ``benchmarks/*.py`` path): tiny budgets through
  ``--set`` or ``--games``, one command per line; a ``--set KEY=...`` the command gives itself stands.
- ``replace: OLD => NEW``: a text replacement made before the block runs (tiny budgets in Python).
- ``until: TEXT``: the block runs until it prints TEXT, then it is stopped (a server such as the arena);
  it passes once TEXT is printed.

No block is silently left out: every block is run, or carries ``setup``/``skip``/``slow`` with a
reason, and the number of blocks found is asserted (update ``EXPECTED_BLOCKS`` with the docs).
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
SNIPPET = re.compile(r'^-{2}8<-{2}\s+"(?P<path>[^"]+)"\s*$', re.M)  # pymdownx.snippets: a page includes a file


def doc_files() -> list[str]:
    """README.md, docs/*.md, the pages in docs/ sub-folders (reference/, rules/), then the files the pages
    include with ``--8<-- "FILE"`` (CHANGELOG.md, CONTRIBUTING.md: on the site they are pages too)."""
    docs = ROOT / "docs"
    pages = sorted(docs.glob("*.md")) + sorted(p for p in docs.glob("*/**/*.md"))
    included = sorted({m.group("path") for page in pages for m in SNIPPET.finditer(page.read_text())})
    return [
        "README.md",
        *(p.relative_to(ROOT).as_posix() for p in pages),
        *(rel for rel in included if (ROOT / rel).is_file()),  # a missing one fails the site's build
    ]


DOC_FILES = doc_files()
EXPECTED_BLOCKS = 111
RUN_LANGUAGES = ("bash", "python")
SHELL_LANGUAGES = ("sh", "shell", "console", "zsh")  # runnable, but must be labelled bash
TIMEOUT_S = 240
SLOW_TIMEOUT_S = 1800
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<code>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
MARKER = re.compile(r"<!--\s*docs-test:(?P<clauses>.*?)-->", re.S)
SETUP_COMMAND = re.compile(r"python3 -m venv \.venv|\.venv/bin/pip install( -q)? -c constraints\.txt -e '\.\[[\w,]+\]'")
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}  # a server's first line arrives while it runs
MIRROR_SKIP = {".git", "runs", "results", "replays", "checkpoints", "site", ".pytest_cache", "__pycache__"}


@dataclass
class Marker:
    kind: str = "run"  # run | setup | skip | slow
    reason: str = ""
    stdin: str = ""
    tiny: dict[str, str] = field(default_factory=dict)
    until: str = ""
    replace: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Block:
    path: str
    line: int
    lang: str
    code: str
    marker: Marker

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


def parse_marker(text: str, where: str) -> Marker:
    marker = Marker()
    for clause in filter(None, (c.strip() for c in text.split(";"))):
        head, _, value = clause.partition(":")
        head, value = head.strip(), value.strip()
        if head == "setup" and not value:
            marker.kind = "setup"
        elif head in ("skip", "slow"):
            if not value:
                raise ValueError(f"{where}: docs-test '{head}' needs a reason ('{head}: why')")
            marker.kind, marker.reason = head, value
        elif head == "until" and value:
            marker.until = value
        elif head == "stdin":
            marker.stdin = value + "\n"
        elif head.startswith("tiny "):
            marker.tiny[head[5:].strip()] = value
        elif head == "replace" and "=>" in value:
            old, new = (part.strip() for part in value.split("=>", 1))
            marker.replace.append((old, new))
        else:
            raise ValueError(
                f"{where}: unknown docs-test clause {clause!r}; use setup, skip: WHY, slow: WHY, stdin: TEXT, "
                "tiny TARGET: ARGS, replace: OLD => NEW or until: TEXT"
            )
    return marker


def find_blocks() -> list[Block]:
    blocks = []
    for rel in DOC_FILES:
        text = (ROOT / rel).read_text()
        for match in FENCE.finditer(text):
            lang = match.group("lang").lower()
            if lang not in RUN_LANGUAGES + SHELL_LANGUAGES:
                continue
            line = text.count("\n", 0, match.start()) + 1
            before = text[: match.start()].rstrip().rsplit("\n", 1)[-1]
            found = MARKER.fullmatch(before.strip())
            marker = parse_marker(found.group("clauses"), f"{rel}:{line}") if found else Marker()
            blocks.append(Block(rel, line, lang, textwrap.dedent(match.group("code")), marker))
    return blocks


BLOCKS = find_blocks()


def logical_lines(code: str) -> list[str]:
    """The block's lines with backslash continuations joined, blank lines and comment lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", code)
    return [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def strip_comment(line: str) -> str:
    return re.sub(r"\s+#\s.*$", "", line)


def prepared(block: Block) -> str:
    """The block's code as this test runs it: replacements made, tiny budgets appended."""
    code = block.code
    for old, new in block.marker.replace:
        assert old in code, f"{block.id}: replace: {old!r} is not in the block"
        code = code.replace(old, new)
    if block.lang == "python" or not block.marker.tiny:
        return code
    lines = []
    for line in logical_lines(code):
        command = strip_comment(line)
        for target, args in block.marker.tiny.items():
            if re.search(rf"(-m {re.escape(target)}|{re.escape(target)})(\s|$)", command):
                command = f"{command} {own_settings_first(command, args)}"
        lines.append(command)
    return "\n".join(lines) + "\n"


def own_settings_first(command: str, args: str) -> str:
    """``args`` without the ``--set KEY=VALUE`` pairs whose KEY the command sets itself (its own value stands)."""
    words, kept = shlex.split(args), []
    while words:
        word = words.pop(0)
        if word == "--set" and words:
            setting = words.pop(0)
            if f"--set {setting.split('=', 1)[0]}=" not in command:
                kept += [word, setting]
        else:
            kept.append(word)
    return shlex.join(kept)


def python_commands(code: str) -> list[tuple[str, list[str]]]:
    """Every ``.venv/bin/python -m MODULE ARGS`` / ``.venv/bin/python SCRIPT ARGS`` in a bash block."""
    found = []
    for line in logical_lines(code):
        for part in re.split(r"&&|;|\|\|", strip_comment(line)):
            words = shlex.split(part)
            if len(words) >= 2 and words[0] == ".venv/bin/python":
                if words[1] == "-m" and len(words) >= 3:
                    found.append((words[2], words[3:]))
                elif words[1].endswith(".py"):
                    found.append((words[1], words[2:]))
    return found


@pytest.fixture(scope="module")
def mirror(tmp_path_factory) -> Path:
    """The repository root as a block sees it: links to everything, a copy of ``checkpoints/``."""
    where = tmp_path_factory.mktemp("repo")
    for entry in ROOT.iterdir():
        if entry.name not in MIRROR_SKIP:
            (where / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "checkpoints", where / "checkpoints")
    return where


def run_until(command: list[str], cwd: Path, until: str, timeout: int) -> tuple[bool, str]:
    """Run ``command`` until it prints ``until`` (True) or ends or times out (False); then stop it."""
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([process.stdout], [], [], 0.5)
            if ready:
                line = process.stdout.readline()
                if not line and process.poll() is not None:
                    break
                seen.append(line)
                if until in line:
                    return True, "".join(seen)
            elif process.poll() is not None:
                break
        return False, "".join(seen)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def run_block(block: Block, cwd: Path, timeout: int) -> subprocess.CompletedProcess | None:
    code = prepared(block)
    command = [str(PYTHON), "-c", code] if block.lang == "python" else ["bash", "-e", "-o", "pipefail", "-c", code]
    if block.marker.until:
        found, output = run_until(command, cwd, block.marker.until, timeout)
        assert found, f"{block.id} never printed {block.marker.until!r}:\n{code}\n{output[-3000:]}"
        return None
    try:
        done = subprocess.run(
            command, cwd=cwd, env=ENV, input=block.marker.stdin, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{block.id} ran past {timeout} s:\n{code}\n{exc.stdout}\n{exc.stderr}")
    assert done.returncode == 0, (
        f"{block.id} failed (exit {done.returncode}):\n{code}\n--- stdout ---\n{done.stdout[-3000:]}\n"
        f"--- stderr ---\n{done.stderr[-3000:]}"
    )
    return done


def selected(*kinds: str, lang: str | None = None) -> list:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.marker.kind in kinds and (lang is None or b.lang == lang)]


# --- what every block must be ----------------------------------------------------------------------


def test_every_block_is_found_and_accounted_for():
    assert len(BLOCKS) == EXPECTED_BLOCKS, (
        f"found {len(BLOCKS)} bash/python blocks in {len(DOC_FILES)} files, expected {EXPECTED_BLOCKS}: "
        "a block was added or removed; update EXPECTED_BLOCKS (every new block runs unless marked)"
    )
    for block in BLOCKS:
        assert block.lang in RUN_LANGUAGES, f"{block.id}: label shell blocks ```bash (got ```{block.lang})"
        assert block.marker.kind in ("run", "setup", "skip", "slow")
        assert block.marker.kind not in ("skip", "slow") or block.marker.reason


@pytest.mark.parametrize("block", selected("setup"))
def test_setup_blocks_hold_only_set_up_commands(block):
    for line in logical_lines(block.code):
        for command in strip_comment(line).split("&&"):
            assert SETUP_COMMAND.fullmatch(command.strip()), (
                f"{block.id}: {command.strip()!r} is not a set-up command (python3 -m venv .venv / "
                ".venv/bin/pip install -c constraints.txt -e '.[extras]'); move it to a block of its own"
            )


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id) for b in BLOCKS if b.lang == "bash"])
def test_commands_use_the_venv(block):
    """Bare ``python``/``pip`` fail outside an activated venv: the docs use ``.venv/bin/...`` everywhere."""
    if block.marker.kind == "skip":
        return  # a cluster's own interpreter, say
    for line in logical_lines(block.code):
        for command in re.split(r"&&|;|\|\||\|", strip_comment(line)):
            first = command.split()[0] if command.split() else ""
            assert first not in ("python", "pip", "pytest", "tensorboard", "ray"), (
                f"{block.id}: {command.strip()!r} needs the venv: write .venv/bin/{first}"
            )


# --- the fast variant of every command: parsed by its own argument parser --------------------------

# A target is run only up to its parse_args; one whose source never mentions argparse (setup.py, a test file's
# --record) would run for real, so it is left alone.
PARSE_ONLY = """
import argparse, importlib.util, json, os, runpy, sys
def source_of(target):
    if target.endswith(".py"):
        path = target
    else:
        try:
            spec = importlib.util.find_spec(target)
        except ImportError:
            spec = None
        if spec is None:
            return None
        path = spec.origin or ""
        if spec.submodule_search_locations:
            path = os.path.join(spec.submodule_search_locations[0], "__main__.py")
    return open(path, encoding="utf-8").read() if os.path.isfile(path) else None
class Parsed(Exception):
    pass
original = argparse.ArgumentParser.parse_args
def parse_only(self, args=None, namespace=None):
    original(self, args, namespace)
    raise Parsed
argparse.ArgumentParser.parse_args = parse_only
failures = []
for target, argv in json.loads(sys.argv[1]):
    source = source_of(target)
    if source is None:
        failures.append(f"{target}: no such module or file")
        continue
    if "argparse" not in source:
        continue
    sys.argv = [target, *argv]
    try:
        if target.endswith(".py"):
            runpy.run_path(target, run_name="__main__")
        else:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        failures.append(f"{target}: ran without parsing arguments")
    except Parsed:
        pass
    except SystemExit as exc:
        failures.append(f"{target} {' '.join(argv)}: exit {exc.code}")
print(json.dumps(failures))
"""


@pytest.mark.parametrize(
    "block",
    [pytest.param(b, id=b.id) for b in BLOCKS if b.lang == "bash" and b.marker.kind != "setup"],
)
def test_every_command_parses(block, mirror):
    """Each ``.venv/bin/python`` command of a block, as written, is accepted by its module's parser."""
    commands = python_commands(block.code)
    if not commands:
        return
    done = subprocess.run(
        [str(PYTHON), "-c", PARSE_ONLY, json.dumps(commands)],
        cwd=mirror,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    failures = json.loads(done.stdout.strip().splitlines()[-1])
    assert not failures, f"{block.id}: {failures}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("block", selected("slow", lang="python"))
def test_slow_python_blocks_compile(block):
    compile(prepared(block), block.id, "exec")


# --- running the blocks ----------------------------------------------------------------------------


@pytest.mark.parametrize("block", selected("run"))
def test_block_runs(block, mirror):
    run_block(block, mirror, TIMEOUT_S)


@pytest.mark.slow
@pytest.mark.parametrize("block", selected("run", "slow"))
def test_block_runs_with_the_slow_ones(block, mirror):
    """With ``-m slow``: every block that is not set-up or skipped, in order, in one scratch repository."""
    run_block(block, mirror, SLOW_TIMEOUT_S)


def test_the_parser_finds_markers_and_rejects_unknown_clauses():
    marker = parse_marker(" slow: trains; tiny training.train: --set a=1; stdin: q; replace: x => y ", "here")
    assert (marker.kind, marker.reason, marker.stdin) == ("slow", "trains", "q\n")
    assert marker.tiny == {"training.train": "--set a=1"} and marker.replace == [("x", "y")]
    with pytest.raises(ValueError, match="needs a reason"):
        parse_marker("skip", "here")
    with pytest.raises(ValueError, match="unknown docs-test clause"):
        parse_marker("fast", "here")
    block = Block("x.md", 1, "bash", ".venv/bin/python -m training.train x.yaml   # train\n", marker)
    assert prepared(block).strip() == ".venv/bin/python -m training.train y.yaml --set a=1"
    assert own_settings_first("x --set a=0 --set b=1", "--set a=2 --set c=3 --games 2") == "--set c=3 --games 2"
    assert python_commands("A=1 && .venv/bin/python -m m --x 1 \\\n  --y 2 # c\n") == [("m", ["--x", "1", "--y", "2"])]


if __name__ == "__main__":  # list the blocks and how each is treated
    for b in BLOCKS:
        print(f"{b.id:32} {b.lang:7} {b.marker.kind:6} {b.marker.reason}", file=sys.stdout)


# --- the README's two set-up commands ---------------------------------------------------------------


def readme_set_up_commands() -> tuple[str, str, list[Block]]:
    """The main-job one-liner, the test one-liner, and the step-by-step blocks that follow them."""
    readme = [b for b in BLOCKS if b.path == "README.md"]
    main_job, tests, *steps = readme[:4]
    return main_job.code.strip(), tests.code.strip(), steps


def test_readme_main_job_is_the_step_by_step_blocks_joined():
    """The one-line main job must not drift from the blocks this test runs (setup, then the job)."""
    main_job, _, steps = readme_set_up_commands()
    assert [b.marker.kind for b in steps] == ["setup", "slow"]
    joined = " && ".join(logical_lines(steps[0].code) + logical_lines(steps[1].code))
    assert main_job == joined


def test_ci_runs_the_readme_test_command():
    _, tests, _ = readme_set_up_commands()
    assert tests.endswith(".venv/bin/python -m pytest -q")
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests in ci.splitlines(), ".ci/run must run the README's test command verbatim"
    copies = [(b.id, line) for b in BLOCKS for line in logical_lines(b.code) if "install_system_deps.sh" in line]
    stale = [f"{where}: {line}" for where, line in copies if line.strip() != tests]
    assert not stale, f"every copy of CI's test command must be the README's ({tests}):\n" + "\n".join(stale)
