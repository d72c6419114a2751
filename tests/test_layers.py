"""The layering rules of docs/architecture.md, checked by machine: the import contracts of
pyproject.toml (the same ones `lint-imports` checks), no import cycle anywhere in the package, and
no printing or reading of input below the front ends."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import zermelo

PACKAGE = Path(zermelo.__file__).resolve().parent
ROOT = PACKAGE.parents[1]
QUIET = ("core", "games", "search", "solvers", "agents", "play")


def _modules(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


@pytest.mark.parametrize("package", QUIET)
def test_no_printing_or_reading_below_the_front_ends(package: str) -> None:
    for path in _modules(package):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("print", "input"), f"{path.name}:{node.lineno}"


@pytest.mark.parametrize("path", _modules("games"), ids=lambda path: path.name)
def test_the_rules_open_no_files(path: Path) -> None:
    """With the import contract that keeps os, pathlib and io out of games/: rules read no file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "open", f"{path.name}:{node.lineno}"
        if isinstance(node, ast.Attribute):
            assert node.attr not in ("read_text", "read_bytes", "files"), (
                f"{path.name}:{node.lineno}"
            )


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(imports):
        if root in order:
            continue
        work = [(root, iter(imports[root]))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(imports[child])))
                elif child in on_stack:
                    low[module] = min(low[module], order[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == order[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.c")
    graph.add_import(importer="p.c", imported="p.a")
    graph.add_import(importer="p.a", imported="p")
    assert _cycles(graph) == [["p.a", "p.b", "p.c"]]


def test_no_import_cycles() -> None:
    """Not even through an import inside a function or under TYPE_CHECKING: grimp sees both."""
    graph = grimp.build_graph("zermelo")
    assert _cycles(graph) == []


def test_the_import_contracts_are_kept() -> None:
    """What `lint-imports` checks in CI, here so that the quick test run checks it too. In a
    subprocess: import-linter reconfigures logging, which would silence later tests' loggers."""
    script = (
        "import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    kept = re.search(r"Contracts: (\d+) kept, 0 broken", done.stdout)
    assert kept is not None, done.stdout + done.stderr
    assert int(kept.group(1)) >= 4
    assert done.returncode == 0
