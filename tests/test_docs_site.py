"""The documentation site (mkdocs.yml, docs/): it builds strictly, its command-line reference covers every
command and option, and the docs hold current facts, not a work diary.

- The strict build fails on a broken link or anchor, a page left out of the nav, a nav entry without a page, a
  missing included file (CHANGELOG.md, CONTRIBUTING.md) and an API reference that does not resolve. It needs the
  ``docs`` extra; without MkDocs it is skipped, saying so (CI installs the extra, so there it runs).
- docs/reference/cli.md has a section per ``pirate-envs`` subcommand (``pirate_envs.cli.COMMANDS``) naming
  exactly the options its parser takes, and names every module that ``python -m`` runs and every benchmark and
  maintenance script, so a new command, option or script cannot go undocumented.
- README.md, CHANGELOG.md and the docs hold no diary wording ("the next session", "measured the session
  before"): figures are current facts (history goes to the changelog, by release). The arena's game sessions
  are a feature, so the word alone is allowed.
- scripts/griffe_rest.py, the site's reading of the code's reST docstrings, converts what it claims to.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pirate_envs.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
CLI_PAGE = ROOT / "docs" / "reference" / "cli.md"
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
DIARY = re.compile(r"\b(next|later|same|this|previous|earlier|last) sessions?\b|\bsessions? (before|after|ago)\b", re.I)
BUILD_TIMEOUT_S = 300


def read_cli_page() -> str:
    return CLI_PAGE.read_text()


def section(page: str, heading: str) -> str:
    """The text under the level-2 ``heading`` of ``page``, up to the next level-2 heading."""
    start = page.find(f"\n## {heading}\n")
    assert start != -1, f"docs/reference/cli.md has no section '## {heading}'"
    end = page.find("\n## ", start + 1)
    return page[start : end if end != -1 else len(page)]


# --- the strict build --------------------------------------------------------------------------------


def test_site_builds_strictly(tmp_path):
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: pip install -c constraints.txt -e '.[docs]' to build the site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's notice about its successor, not a problem
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
    )
    problems = [line for line in done.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert done.returncode == 0, "mkdocs build --strict failed:\n" + "\n".join(problems or [done.stderr[-4000:]])
    assert (tmp_path / "site" / "reference" / "api" / "index.html").is_file()


# --- the command-line reference ----------------------------------------------------------------------

HELP_TEXTS = """
import contextlib, io, json, sys
from pirate_envs.cli import COMMANDS, main
texts = {}
for name in COMMANDS:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([name, "--help"])
        except SystemExit as exc:
            code = exc.code
    texts[name] = {"code": code, "help": out.getvalue(), "error": err.getvalue()}
print(json.dumps(texts))
"""


@pytest.fixture(scope="module")
def help_texts() -> dict[str, dict]:
    """``pirate-envs NAME --help`` of every subcommand, from one process."""
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", HELP_TEXTS],
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_subcommand_has_its_section_and_row(name):
    page = read_cli_page()
    command = COMMANDS[name]
    module = command.module.removesuffix(".__main__")  # a package's __main__ runs as the package
    # an installed wheel's pirate_envs.training is a checkout's training package
    checkout_module = module.removeprefix("pirate_envs.") if module.startswith("pirate_envs.training.") else module
    assert f"\n## `pirate-envs {name}`\n" in page, f"docs/reference/cli.md has no section '## `pirate-envs {name}`'"
    assert f"| [`pirate-envs {name}`](#pirate-envs-{name}) | `python -m {checkout_module}` |" in page, (
        f"docs/reference/cli.md: the summary table has no row for pirate-envs {name} (python -m {checkout_module})"
    )
    assert f"`python -m {checkout_module}`" in section(page, f"`pirate-envs {name}`")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_subcommand_documents_exactly_its_options(name, help_texts):
    found = help_texts[name]
    if found["code"] != 0 and "missing here" in found["error"]:
        pytest.skip(f"pirate-envs {name} cannot run in this install: {found['error'].strip()}")
    assert found["code"] == 0, f"pirate-envs {name} --help failed: {found['error'][-2000:]}"
    options = set(OPTION.findall(found["help"])) - {"--help"}
    text = section(read_cli_page(), f"`pirate-envs {name}`")
    in_tables = {o for line in text.splitlines() if line.startswith("|") for o in OPTION.findall(line)}
    assert options - in_tables == set(), f"docs/reference/cli.md, pirate-envs {name}: options without a table row"
    assert set(OPTION.findall(text)) - options == set(), (
        f"docs/reference/cli.md, pirate-envs {name}: the section names options the command does not take"
    )


def runnable_modules() -> list[str]:
    """Every module of the package and of ``training`` that ``python -m`` runs."""
    modules = []
    for path in sorted([*(ROOT / "pirate_envs").rglob("*.py"), *(ROOT / "training").rglob("*.py")]):
        if path.name == "__main__.py" or 'if __name__ == "__main__":' in path.read_text():
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules.append(".".join(parts[:-1] if path.name == "__main__.py" else parts))
    return modules


def test_every_runnable_module_and_script_is_named():
    page = read_cli_page()
    modules = runnable_modules()
    assert "training.train" in modules and "pirate_envs.arena" in modules
    missing = [m for m in modules if not re.search(rf"`python -m {re.escape(m)}[` ]", page)]
    assert not missing, f"docs/reference/cli.md does not name these python -m modules: {missing}"
    scripts = [
        p.relative_to(ROOT).as_posix() for p in sorted([*ROOT.glob("benchmarks/*.py"), *ROOT.glob("scripts/*.py")])
    ]
    missing = [s for s in scripts if f"`{s}`" not in page]
    assert not missing, f"docs/reference/cli.md does not name these scripts: {missing}"


# --- current facts, not a diary ----------------------------------------------------------------------


def test_docs_hold_no_diary_wording():
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}"
        for path in files
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if DIARY.search(line)
    ]
    assert not found, (
        "the docs are a user's guide: say what is true now and the command that measures it; what earlier runs "
        "did goes to CHANGELOG.md by release, without diary wording:\n" + "\n".join(found)
    )


# --- the docstrings' reST, as the site reads it --------------------------------------------------------


@pytest.fixture(scope="module")
def griffe_rest():
    pytest.importorskip("griffe", reason="the docs extra (griffe comes with mkdocstrings[python])")
    spec = importlib.util.spec_from_file_location("griffe_rest", ROOT / "scripts" / "griffe_rest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_roles_become_code_spans(griffe_rest):
    text = "A :class:`~.base.Policy`, :func:`pirate_envs.make`, :meth:`.State.clone` and :mod:`the spec <.spec>`."
    assert griffe_rest.rest_to_markdown(text) == "A `Policy`, `pirate_envs.make`, `State.clone` and `the spec`."


def test_literal_blocks_become_fenced(griffe_rest):
    text = "Use it so::\n\n    env = make('potsm_v0')\n      # indented\n\nThen more."
    assert griffe_rest.rest_to_markdown(text).splitlines() == [
        "Use it so:",
        "",
        "```",
        "env = make('potsm_v0')",
        "  # indented",
        "```",
        "",
        "Then more.",
    ]


def test_simple_tables_become_markdown_tables(griffe_rest):
    headless = "Cards:\n\n===  ====\n0-8  Full Speed\n     Ahead!\n9    Fog | mist\n===  ====\n\nAfter."
    assert griffe_rest.rest_to_markdown(headless).splitlines() == [
        "Cards:",
        "",
        "|  |  |",
        "| --- | --- |",
        "| 0-8 | Full Speed Ahead! |",
        "| 9 | Fog \\| mist |",
        "",
        "After.",
    ]
    with_header = "==  ==\nid  name\n==  ==\n1   one\n==  ==\n"
    assert griffe_rest.rest_to_markdown(with_header).splitlines() == ["| id | name |", "| --- | --- |", "| 1 | one |"]
