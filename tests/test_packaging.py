"""Packaging (docs/engine.md, "Packaging"): what the wheel holds and how the project is identified.

- one version (``pirate_envs/_version.py``) named by the package, CITATION.cff and the changelog;
- the MIT licence as a PEP 639 expression with its file, no licence classifier;
- the explicit package list of pyproject.toml is every package on disk: pirate_envs's own, and the
  checkout's ``training/`` as ``pirate_envs.training``; no other top-level name is installed;
- the training modules import each other relatively (so they work as ``training.x`` in a checkout and as
  ``pirate_envs.training.x`` installed) and ``pirate_envs`` never imports the top-level ``training``;
- every file of ``checkpoints/`` and ``configs/`` matches the package-data patterns (they are the single
  source of the shipped agents and configs);
- .ci/run fails when the tests fail or collect nothing, and runs the packaging check only after them.

The wheel itself is built, installed into a fresh venv and smoke-tested by scripts/package_smoke.sh (CI).
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

import pirate_envs

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
DATA_FOLDERS = {"pirate_envs.checkpoints": "checkpoints", "pirate_envs.configs": "configs"}


def test_one_version_everywhere():
    from pirate_envs._version import __version__

    assert pirate_envs.__version__ == __version__
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert SETUPTOOLS["dynamic"]["version"] == {"attr": "pirate_envs._version.__version__"}
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.search(rf"^version: \"?{re.escape(__version__)}\"?$", citation, re.M), "CITATION.cff version"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and "## [0.1.0]" in changelog
    if not re.search(r"(dev|a|b|rc)\d*$", __version__):  # a release has its own section
        assert f"## [{__version__}]" in changelog, f"CHANGELOG.md has no section for {__version__}"


def test_licence_is_declared_once_with_its_file():
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert not [c for c in project["classifiers"] if c.startswith("License ::")], "PEP 639: no licence classifier"
    assert re.search(r"^license: MIT$", (ROOT / "CITATION.cff").read_text(), re.M)


def test_console_script():
    assert PYPROJECT["project"]["scripts"] == {"pirate-envs": "pirate_envs.cli:main"}


def _packages_on_disk() -> set[str]:
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "pirate_envs").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    found |= {
        "pirate_envs." + ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "training").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    return found | set(DATA_FOLDERS)


def test_package_list_is_every_package_on_disk():
    listed = set(SETUPTOOLS["packages"])
    assert listed == _packages_on_disk(), (
        "pyproject.toml's [tool.setuptools] packages must list every package (a new subpackage goes there): "
        f"missing {sorted(_packages_on_disk() - listed)}, extra {sorted(listed - _packages_on_disk())}"
    )
    assert {name.split(".")[0] for name in listed} == {"pirate_envs"}, "the wheel installs one top-level name"
    assert SETUPTOOLS["package-dir"] == {"pirate_envs.training": "training", **DATA_FOLDERS}


def _imports(path: Path) -> list[tuple[int, str, int]]:
    """(line, module, level) of every import in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, node.module or "", node.level))
    return found


def _training_imported_by_name(folder: str) -> list[str]:
    """``path:line: module`` of every absolute import of the top-level ``training`` package under ``folder``."""
    return [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, module, level in _imports(path)
        if level == 0 and (module == "training" or module.startswith("training."))
    ]


def test_training_modules_import_each_other_relatively():
    bad = _training_imported_by_name("training")
    assert not bad, (
        "training/ modules must import each other relatively ('from .config import ...'), or the installed "
        f"pirate_envs.training breaks: {bad}"
    )


def test_pirate_envs_never_imports_the_top_level_training_package():
    bad = _training_imported_by_name("pirate_envs")
    assert not bad, (
        f"pirate_envs must not import the checkout's 'training' (installed, it is pirate_envs.training): {bad}"
    )


@pytest.mark.parametrize("package", sorted(DATA_FOLDERS))
def test_every_shipped_file_is_package_data(package):
    folder = ROOT / DATA_FOLDERS[package]
    patterns = SETUPTOOLS["package-data"][package]
    files = [
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    ]
    assert files
    left_out = [f for f in files if not any(fnmatch.fnmatchcase(f, pattern) for pattern in patterns)]
    assert not left_out, f"files of {folder.name}/ the wheel would leave out (extend package-data): {left_out}"


# --- .ci/run ----------------------------------------------------------------------------------------------


def _fake_ci(tmp_path: Path) -> Path:
    """A copy of .ci/run in a tree whose install steps are stubs: ``.venv/bin/python -m pytest`` exits
    $PYTEST_RC, scripts/package_smoke.sh prints SMOKE and exits $SMOKE_RC, scripts/sanitizer_check.sh prints
    SANITIZE and exits $SANITIZE_RC."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "install_system_deps.sh").write_text("exit 0\n")
    (tmp_path / "scripts" / "package_smoke.sh").write_text('echo SMOKE\nexit "$SMOKE_RC"\n')
    (tmp_path / "scripts" / "sanitizer_check.sh").write_text('echo SANITIZE\nexit "$SANITIZE_RC"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_python3 = bin_dir / "python3"  # "python3 -m venv .venv" makes the stub venv
    fake_python3.write_text(
        "#!/usr/bin/env bash\nmkdir -p .venv/bin\n"
        "printf '#!/usr/bin/env bash\\nexit 0\\n' > .venv/bin/pip\n"
        "printf '#!/usr/bin/env bash\\nexit \"$PYTEST_RC\"\\n' > .venv/bin/python\n"
        "chmod +x .venv/bin/pip .venv/bin/python\n"
    )
    fake_python3.chmod(fake_python3.stat().st_mode | stat.S_IEXEC)
    return bin_dir


@pytest.mark.parametrize(
    ("pytest_rc", "smoke_rc", "sanitize_rc", "want_rc", "smoke_runs", "sanitize_runs"),
    [
        (0, 0, 0, 0, True, True),
        (0, 3, 0, 3, True, False),  # a failed packaging check is not hidden by the sanitizer check after it
        (0, 0, 4, 4, True, True),
        (1, 0, 0, 1, False, False),
        (5, 0, 0, 1, False, False),
        (2, 0, 0, 2, False, False),
    ],
)
def test_ci_run_exit_codes(tmp_path, pytest_rc, smoke_rc, sanitize_rc, want_rc, smoke_runs, sanitize_runs):
    bin_dir = _fake_ci(tmp_path)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PYTEST_RC": str(pytest_rc),
        "SMOKE_RC": str(smoke_rc),
        "SANITIZE_RC": str(sanitize_rc),
    }
    done = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == want_rc, done.stderr
    assert ("SMOKE" in done.stdout) == smoke_runs
    assert ("SANITIZE" in done.stdout) == sanitize_runs
