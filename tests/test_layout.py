"""The code's layout: no import circle among the modules of ``pirate_envs/`` or of ``training/``.

A circle is found among module-level imports only: what runs when a module is first imported (its top
level, class bodies, ``try``/``if`` blocks), not imports inside functions and not the typing-only imports
of an ``if TYPE_CHECKING:`` block. House style breaks a circle the way the games do: a game's observation
encoder and renderer read the state through the names the state exposes and import its class only for
typing, so ``game.py`` alone imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_names(package: Path) -> dict[str, Path]:
    """Every module of ``package`` (a folder under some root) by dotted name; a package by its own name."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(body: list[ast.stmt], module: str, is_package: bool) -> list[str]:
    """The dotted names imported when ``body`` runs at import time (``from a import b`` gives ``a.b``)."""
    names: list[str] = []
    for node in body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per extra dot
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                source = ".".join(package + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names += [f"{source}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                names += _imported_names(node.body, module, is_package)
            names += _imported_names(node.orelse, module, is_package)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                names += _imported_names(block, module, is_package)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            names += _imported_names(node.body, module, is_package)
    return names


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports at module level."""
    modules = module_names(package)

    def resolve(name: str) -> str | None:  # ``a.b.f`` (a function of module a.b) -> ``a.b``
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for module, path in modules.items():
        names = _imported_names(ast.parse(path.read_text(), str(path)).body, module, path.name == "__init__.py")
        graph[module] = {target for target in map(resolve, names) if target and target != module}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        circles.append(sorted(component))
    return circles


def _describe(circle: list[str], graph: dict[str, set[str]]) -> str:
    members = set(circle)
    return "; ".join(f"{m} imports {', '.join(sorted(graph[m] & members))}" for m in circle)


@pytest.mark.parametrize("package", ["pirate_envs", "training"])
def test_no_module_level_import_circle(package):
    graph = import_graph(ROOT / package)
    assert len(graph) > 5, f"found only {len(graph)} modules under {package}/"
    circles = import_circles(graph)
    assert not circles, "module-level import circle(s): " + " | ".join(_describe(c, graph) for c in circles)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_the_checker_finds_a_circle_and_ignores_typing_and_function_imports(tmp_path):
    package = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/game.py": "from pkg.observation import encode\n",
            "pkg/observation.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from pkg.game import State\n"
                "def encode(state):\n    from pkg.game import helper\n"
            ),
            "pkg/a.py": "try:\n    from . import b\nexcept ImportError:\n    b = None\n",
            "pkg/b.py": "class B:\n    from pkg.c import value\n",
            "pkg/c.py": "import pkg.a as a\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.observation"] == set() and graph["pkg.game"] == {"pkg.observation"}
    assert import_circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


# --- where things live ------------------------------------------------------------------------------

LONG_FUNCTION_LINES = 120
LONG_REASON = "# long:"  # a function may run longer with this comment on the line above its def, saying why
PYTHON_TREES = ("pirate_envs", "training", "benchmarks", "scripts")
NATIVE_SUFFIXES = (".c", ".h", ".cc", ".cpp", ".hpp", ".pyx", ".pxd")


def long_functions(root: Path, trees: tuple[str, ...] = PYTHON_TREES) -> list[str]:
    """``path:line name (N lines)`` of every function over :data:`LONG_FUNCTION_LINES` lines without a reason."""
    found = []
    for tree in trees:
        for path in sorted((root / tree).rglob("*.py")):
            lines = path.read_text().splitlines()
            for node in ast.walk(ast.parse("\n".join(lines), filename=str(path))):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                length = node.end_lineno - node.lineno + 1
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                reason = first >= 2 and lines[first - 2].strip().startswith(LONG_REASON)
                if length > LONG_FUNCTION_LINES and not reason:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_over_120_lines_without_a_reason():
    assert long_functions(ROOT) == []


def test_the_length_check_finds_a_long_function_and_reads_its_reason(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(LONG_FUNCTION_LINES))
    _write(tmp_path, {"pkg/a.py": f"def long():\n{body}\n", "pkg/b.py": f"{LONG_REASON} a table\ndef ok():\n{body}\n"})
    assert long_functions(tmp_path, ("pkg",)) == [f"pkg{'/'}a.py:1 long ({LONG_FUNCTION_LINES + 1} lines)"]


def test_compiled_sources_live_with_their_game_or_in_core_native():
    """No compiled source loose at the package root: each game's in ``games/<game>/native/``, the shared
    pieces in ``core/native/``."""
    package = ROOT / "pirate_envs"
    sources = [p.relative_to(package) for p in package.rglob("*") if p.suffix in NATIVE_SUFFIXES]
    assert sources, "the compiled twins' sources are missing"
    misplaced = [
        str(p)
        for p in sources
        if not (
            p.parts[:2] == ("core", "native") or (p.parts[0] == "games" and len(p.parts) > 3 and p.parts[2] == "native")
        )
    ]
    assert misplaced == []
